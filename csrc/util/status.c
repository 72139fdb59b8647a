/*
 * status.c — names and descriptions of smc_status (smcosim.h). In a file of
 * its own so that the emulator (fault messages) and the timing model
 * (statistics) can name a status without depending on the device API.
 */
#include "smcosim.h"

static const struct { const char *name, *text; } status_tab[] = {
    [SMC_OK] = { "SMC_OK", "no error" },
    [SMC_ERR_INVALID_VALUE] = { "SMC_ERR_INVALID_VALUE", "invalid argument" },
    [SMC_ERR_OUT_OF_MEMORY] = { "SMC_ERR_OUT_OF_MEMORY", "out of device memory" },
    [SMC_ERR_INVALID_PTX] = { "SMC_ERR_INVALID_PTX", "PTX failed to load" },
    [SMC_ERR_NOT_FOUND] = { "SMC_ERR_NOT_FOUND", "kernel or symbol not found" },
    [SMC_ERR_INVALID_DEVICE_PTR] = { "SMC_ERR_INVALID_DEVICE_PTR", "pointer is not inside a device allocation" },
    [SMC_ERR_LAUNCH_OUT_OF_RESOURCES] = { "SMC_ERR_LAUNCH_OUT_OF_RESOURCES", "too many threads, registers or shared memory per block" },
    [SMC_ERR_INVALID_CONFIGURATION] = { "SMC_ERR_INVALID_CONFIGURATION", "invalid grid or block dimensions" },
    [SMC_ERR_ILLEGAL_ADDRESS] = { "SMC_ERR_ILLEGAL_ADDRESS", "guest accessed an illegal address" },
    [SMC_ERR_MISALIGNED_ADDRESS] = { "SMC_ERR_MISALIGNED_ADDRESS", "guest made a misaligned access" },
    [SMC_ERR_ILLEGAL_INSTRUCTION] = { "SMC_ERR_ILLEGAL_INSTRUCTION", "guest executed an illegal or unsupported instruction" },
    [SMC_ERR_ASSERT] = { "SMC_ERR_ASSERT", "guest trap or assertion" },
    [SMC_ERR_LAUNCH_TIMEOUT] = { "SMC_ERR_LAUNCH_TIMEOUT", "kernel made no progress (watchdog or deadlock)" },
    [SMC_ERR_LAUNCH_FAILED] = { "SMC_ERR_LAUNCH_FAILED", "kernel launch failed" },
    [SMC_ERR_INTERRUPTED] = { "SMC_ERR_INTERRUPTED", "run interrupted" },
    [SMC_ERR_UNSUPPORTED] = { "SMC_ERR_UNSUPPORTED", "operation not supported by the simulator" },
    [SMC_ERR_COOPERATIVE_TOO_LARGE] = { "SMC_ERR_COOPERATIVE_TOO_LARGE", "cooperative grid does not fit co-resident on the device" },
};

const char *smc_status_name(smc_status s)
{
    return (unsigned)s < sizeof status_tab / sizeof status_tab[0] ? status_tab[s].name : "SMC_ERR_UNKNOWN";
}
const char *smc_status_string(smc_status s)
{
    return (unsigned)s < sizeof status_tab / sizeof status_tab[0] ? status_tab[s].text : "unknown status";
}
