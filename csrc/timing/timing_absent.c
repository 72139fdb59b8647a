/*
 * timing_absent.c — built instead of timing.c when the scheduler core
 * (cosim/, branch sched) is not in the tree: timing mode then fails at device
 * creation with a message saying what is missing; functional mode works.
 */
#include "timing.h"

#include <stdio.h>

timing_gpu *timing_create(const gpu_config *cfg, const timing_trace *trace, char *err, size_t errlen)
{
    (void)cfg;
    (void)trace;
    snprintf(err, errlen, "timing mode needs the scheduler core (cosim/sched_if.h, "
             "branch sched), which is not in this tree");
    return NULL;
}

int timing_destroy(timing_gpu *g, char *err, size_t errlen)
{
    (void)g; (void)err; (void)errlen;
    return 0;
}

const gpu_config *timing_config(const timing_gpu *g) { (void)g; return NULL; }

uint64_t timing_clock(void *gpu, uint32_t smid) { (void)gpu; (void)smid; return 0; }

smc_status timing_run(timing_gpu *g, const emu_kernel *ek, emu_launch *l, const char *kernel_name,
                      const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                      volatile sig_atomic_t *stop, timing_stats *out, char *msg, size_t msglen)
{
    (void)g; (void)ek; (void)l; (void)kernel_name; (void)req; (void)grid; (void)block;
    (void)stop; (void)out;
    snprintf(msg, msglen, "timing model not built");
    return SMC_ERR_UNSUPPORTED;
}

struct sched_backend *timing_sm_backend(timing_gpu *g, uint32_t sm)
{
    (void)g; (void)sm;
    return NULL;
}

int timing_lockstep_mismatch(const timing_gpu *g, uint32_t *sm, uint64_t *cycle)
{
    (void)g; (void)sm; (void)cycle;
    return 0;
}
