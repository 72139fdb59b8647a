/*
 * sched_rtl.c -- the Verilated RTL as a sched_if.h back end.
 */
#include "sched_if.h"
#include "vsched_shim.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct rtl_backend {
    sched_backend base;
    vsched       *v;
} rtl_backend;

/* A failing RTL assertion fails the back end (sticky), like a lockstep
 * mismatch: "RTL assertion failed: FILE:LINE at cycle N". */
static void rtl_check(sched_backend *b, uint64_t cycle)
{
    rtl_backend *r = (rtl_backend *)b;
    const char *f = vsched_failure(r->v);
    if (!f[0] || b->failed) return;
    b->failed = 1;
    snprintf(b->error, sizeof b->error, "%s at cycle %" PRIu64, f, cycle);
}

static void rtl_reset(sched_backend *b)
{
    rtl_backend *r = (rtl_backend *)b;
    vsched_reset(r->v);
    vsched_get_outputs(r->v, &b->out);
    rtl_check(b, 0);
}

static void rtl_step(sched_backend *b, const sched_inputs *in)
{
    rtl_backend *r = (rtl_backend *)b;
    vsched_step(r->v, in);
    vsched_get_outputs(r->v, &b->out);
    rtl_check(b, b->cycle);
}

static void rtl_destroy(sched_backend *b)
{
    rtl_backend *r = (rtl_backend *)b;
    vsched_destroy(r->v);
    free(r);
}

static const sched_backend_ops rtl_ops = { "rtl", rtl_reset, rtl_step, rtl_destroy, NULL };

const char *sched_rtl_model(const sched_backend *b)
{
    return b && b->ops == &rtl_ops ? vsched_model(((const rtl_backend *)b)->v) : NULL;
}

sched_backend *sched_rtl_create(const sched_params *p, const sched_trace_opts *trace,
                                char *err, size_t errlen)
{
    if (sched_params_check(p, err, errlen) != 0) return NULL;
    rtl_backend *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->v = vsched_create(p, trace, err, errlen);
    if (!r->v) {
        free(r);
        return NULL;
    }
    r->base.ops = &rtl_ops;
    r->base.params = *p;
    sched_reset(&r->base);
    return &r->base;
}
