/* testutil.h — shared helpers for the tests/emu cmocka suites. */
#ifndef EMU_TESTUTIL_H
#define EMU_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "smcosim.h"

/* Assert that an smcosim call succeeds; on failure show the device message. */
#define TU_OK(dev, expr) do { smc_status s_ = (expr); \
    if (s_ != SMC_OK) fail_msg("%s -> %s: %s", #expr, smc_status_name(s_), smc_last_message(dev)); } while (0)

/* A device with a small watchdog so that hang tests end quickly. */
smc_device *tu_device(uint64_t watchdog);
/* Load PTX text (fails the test with the loader's message on error). */
smc_module *tu_load(smc_device *dev, const char *ptx);
smc_module *tu_load_file(smc_device *dev, const char *path);
smc_kernel *tu_kernel(smc_module *m, const char *name);
/* Pack parameters: args[i] points to a value of the kernel's i-th parameter size. */
size_t tu_pack(const smc_kernel *k, void *buf, size_t cap, const void *const *args, uint32_t nargs);
/* Launch 1-D with the given parameter values; returns the status. */
smc_status tu_launch(smc_device *dev, smc_kernel *k, uint32_t grid, uint32_t block, uint32_t dyn,
                     const void *const *args, uint32_t nargs);
/* Wrap kernel body text into a module with header and one .entry taking
 * (.u64 out, .u64 in, .u32 n) named k. */
char *tu_wrap(const char *decls, const char *body);

#endif
