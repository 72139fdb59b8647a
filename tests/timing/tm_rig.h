/*
 * tm_rig.h — what the timing-model tests share: a tiny PTX builder (the
 * kernels are generated in the test, so every instruction is known) and a
 * device "rig" in timing mode (open with a preset and keys, load the
 * generated PTX, launch and return the launch's statistics).
 * Include after cmocka.h.
 */
#ifndef SMC_TESTS_TM_RIG_H
#define SMC_TESTS_TM_RIG_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smcosim.h"
#include "timing.h"

/* ---- a tiny PTX builder ------------------------------------------------- */

typedef struct { char *s; size_t n, cap; } sbuf;

static inline void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if ((size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + (size_t)k + 256;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
}

static inline void header(sbuf *b, const char *name, const char *params)
{
    b->n = 0;
    if (b->s)
        b->s[0] = 0;
    put(b, ".version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry %s(%s)\n{\n", name, params);
    put(b, ".reg .pred %%p<4>;\n.reg .f32 %%f<80>;\n.reg .b32 %%r<80>;\n.reg .b64 %%rd<80>;\n");
}

/* ---- device helpers -------------------------------------------------------- */

typedef struct rig {
    smc_device *dev;
    smc_module *mod;
    smc_kernel *k;
    sbuf ptx;
} rig;

static const char *backend = "c";   /* scheduler back end of rig_open */

static inline void rig_open(rig *r, const char *config, const char *set, const char *json)
{
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.mode = SMC_MODE_TIMING;
    o.sched = backend;
    o.config = config;
    o.set = set;
    o.json = json;
    o.print_stats = -1;
    assert_int_equal(smc_device_create(&o, &r->dev), SMC_OK);
}

static inline void rig_load(rig *r, const char *kernel)
{
    smc_status st = smc_module_load_ptx(r->dev, kernel, r->ptx.s, r->ptx.n, &r->mod);
    if (st != SMC_OK)
        fail_msg("PTX: %s", smc_last_message(r->dev));
    assert_int_equal(smc_module_get_kernel(r->mod, kernel, &r->k), SMC_OK);
}

static inline void rig_close(rig *r)
{
    smc_device_destroy(r->dev);
    free(r->ptx.s);
    memset(r, 0, sizeof *r);
}

static inline const timing_stats *launch(rig *r, smc_dim3 grid, smc_dim3 block, const void *params,
                                  size_t nparams)
{
    smc_status st = smc_launch(r->dev, r->k, grid, block, 0, 0, params, nparams, NULL);
    if (st != SMC_OK)
        fail_msg("launch: %s: %s", smc_status_name(st), smc_last_message(r->dev));
    const timing_stats *s = smc_device_timing(r->dev, smc_launch_count(r->dev) - 1);
    assert_non_null(s);
    return s;
}

#endif
