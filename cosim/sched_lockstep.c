/*
 * sched_lockstep.c -- run the C model and the RTL side by side.
 *
 * Both get the same inputs; after reset and after every step all outputs are
 * compared. At the first difference the back end fails (sticky): sched_step
 * returns -1 and sched_error() names the cycle, the signal and both values.
 * The outputs it presents are the C model's.
 */
#include "sched_if.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct lockstep {
    sched_backend  base;
    sched_backend *cm;
    sched_backend *rtl;
    sched_mutator  mutate;
    void          *mutate_ctx;
} lockstep;

static void compare(lockstep *l)
{
    sched_outputs c = l->cm->out;
    if (l->mutate) l->mutate(&c, l->base.cycle, l->mutate_ctx);
    l->base.out = c;
    char sig[64];
    uint64_t va, vb;
    if (!sched_outputs_compare(&l->base.params, &c, &l->rtl->out, sig, sizeof sig, &va, &vb)) {
        l->base.failed = 1;
        snprintf(l->base.error, sizeof l->base.error,
                 "lockstep mismatch at cycle %" PRIu64 ": %s: cmodel=0x%" PRIx64 " rtl=0x%" PRIx64,
                 l->base.cycle, sig, va, vb);
    }
}

static void ls_reset(sched_backend *b)
{
    lockstep *l = (lockstep *)b;
    sched_reset(l->cm);
    sched_reset(l->rtl);
    compare(l);
}

static void ls_step(sched_backend *b, const sched_inputs *in)
{
    lockstep *l = (lockstep *)b;
    l->cm->ops->step(l->cm, in);
    l->cm->cycle++;
    l->rtl->ops->step(l->rtl, in);
    l->rtl->cycle++;
    if (l->rtl->failed && !b->failed) {    /* an RTL assertion: reported first */
        b->failed = 1;
        snprintf(b->error, sizeof b->error, "%s", l->rtl->error);
        return;
    }
    b->cycle++;               /* compare() reports the cycle whose outputs differ */
    compare(l);
    b->cycle--;               /* sched_step() counts it */
}

static void ls_destroy(sched_backend *b)
{
    lockstep *l = (lockstep *)b;
    sched_destroy(l->cm);
    sched_destroy(l->rtl);
    free(l);
}

static const sched_backend_ops lockstep_ops = { "lockstep", ls_reset, ls_step, ls_destroy, NULL };

sched_backend *sched_lockstep_create(const sched_params *p, const sched_trace_opts *trace,
                                     char *err, size_t errlen)
{
    lockstep *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->cm = sched_cmodel_create(p, err, errlen);
    if (l->cm) l->rtl = sched_rtl_create(p, trace, err, errlen);
    if (!l->cm || !l->rtl) {
        sched_destroy(l->cm);
        free(l);
        return NULL;
    }
    l->base.ops = &lockstep_ops;
    l->base.params = *p;
    sched_reset(&l->base);
    return &l->base;
}

void sched_lockstep_set_mutator(sched_backend *b, sched_mutator fn, void *ctx)
{
    if (b->ops != &lockstep_ops) return;
    lockstep *l = (lockstep *)b;
    l->mutate = fn;
    l->mutate_ctx = ctx;
}
