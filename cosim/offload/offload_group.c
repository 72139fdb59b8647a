/*
 * offload_group.c -- the `offload` scheduler back end: every SM's core on a
 * device behind an offload transport (offload_transport.h), all SMs in one
 * exchange per cycle (docs/offload.md, "Back end and modes").
 *
 * Closed loop, k = 1: the core's outputs of cycle t+1 decide the inputs of
 * the edge that ends it (the contract's 0-1-cycle loops: fetch -> push,
 * fixed-latency writebacks, unit availability, the LD/ST offer;
 * docs/sched-interface.md), so no exchange can carry more than one cycle.
 * The host checks every input as sched_step() does before it is sent; the
 * device only evaluates.
 *
 * A member's lone reset or step (sched_reset / sched_step on its view)
 * is an exchange of its own in which only that lane moves.
 */
#include "offload_transport.h"
#include "sched_group_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct off_group;

typedef struct off_view {
    sched_backend     b;
    struct off_group *g;
    unsigned          lane;
    int               owner;      /* a one-member group opened as a back end */
} off_view;

typedef struct off_group {
    sched_group              base;
    const offload_transport *t;
    offload_dev             *dev;
    unsigned                 iw, ow;
    uint8_t                 *ctl;      /* n */
    uint64_t                *in;       /* n x iw */
    uint64_t                *out;      /* n x ow */
    off_view                *view;     /* n */
    uint64_t                 exchanges;
} off_group;

/* One exchange of one cycle with the control bytes in og->ctl; the lanes
 * that moved get their outputs. 0, or -1 with the transport's message in
 * the view of lane `blame`. */
static int exchange(off_group *og, unsigned blame)
{
    char err[512] = "";
    og->exchanges++;
    if (og->t->run(og->dev, 1, og->ctl, og->in, og->out, err, sizeof err) != 0) {
        sched_backend *b = &og->view[blame].b;
        b->failed = 1;
        snprintf(b->error, sizeof b->error, "offload transport %s failed: %.200s", og->t->name, err);
        return -1;
    }
    for (unsigned l = 0; l < og->base.n; l++)
        if (og->ctl[l])
            offload_unpack_outputs(&og->base.params, og->out + (size_t)l * og->ow,
                                   &og->view[l].b.out);
    return 0;
}

/* ---- a member's view ---------------------------------------------------- */

static void view_reset(sched_backend *b)
{
    off_view *v = (off_view *)b;
    off_group *og = v->g;
    memset(og->ctl, 0, og->base.n);
    og->ctl[v->lane] = OFFLOAD_CTL_RESET;
    exchange(og, v->lane);
}

static void view_step(sched_backend *b, const sched_inputs *in)   /* inputs checked */
{
    off_view *v = (off_view *)b;
    off_group *og = v->g;
    memset(og->ctl, 0, og->base.n);
    og->ctl[v->lane] = OFFLOAD_CTL_STEP;
    offload_pack_inputs(&b->params, in, og->in + (size_t)v->lane * og->iw);
    exchange(og, v->lane);
}

static void view_destroy(sched_backend *b)
{
    off_view *v = (off_view *)b;
    if (v->owner)
        sched_group_close(&v->g->base);
}

static const sched_backend_ops view_ops = { "offload", view_reset, view_step, view_destroy, NULL };

/* ---- the group ---------------------------------------------------------- */

static void og_reset(sched_group *g)
{
    off_group *og = (off_group *)g;
    memset(og->ctl, OFFLOAD_CTL_RESET, g->n);
    for (unsigned l = 0; l < g->n; l++) {
        sched_backend *b = &og->view[l].b;
        b->cycle = 0;
        b->failed = 0;
        b->error[0] = '\0';
    }
    exchange(og, 0);
}

static int og_step(sched_group *g, const sched_inputs *in, const uint8_t *active,
                   unsigned *failed)
{
    off_group *og = (off_group *)g;
    int bad = -1;
    for (unsigned l = 0; l < g->n; l++) {
        og->ctl[l] = 0;
        if ((active && !active[l]) || bad >= 0)
            continue;
        sched_backend *b = &og->view[l].b;
        if (sched_step_check(b, &in[l]) != 0) {
            bad = (int)l;   /* the lanes before it still step, as in a loop */
            continue;
        }
        og->ctl[l] = OFFLOAD_CTL_STEP;
        offload_pack_inputs(&g->params, &in[l], og->in + (size_t)l * og->iw);
    }
    unsigned first = 0;
    while (first < g->n && !og->ctl[first])
        first++;
    if (first < g->n) {
        if (exchange(og, first) != 0) {
            g->failed_cycle = g->cycle;
            *failed = first;
            return -1;
        }
        for (unsigned l = 0; l < g->n; l++)
            og->view[l].b.cycle += og->ctl[l] != 0;
    }
    if (bad >= 0) {
        g->failed_cycle = g->cycle;
        *failed = (unsigned)bad;
        return -1;
    }
    return 0;
}

static void og_member_close(sched_group *g, unsigned i) { (void)g; (void)i; }

static int og_member_open(sched_group *g, unsigned i, const sched_trace_opts *trace, char *err,
                          size_t errlen)
{
    if (trace && trace->path) {
        snprintf(err, errlen, "--sched offload writes no waveform (--fst needs c, rtl or "
                 "lockstep)");
        return -1;
    }
    sched_reset(g->member[i]);
    return 0;
}

static int og_set_mutator(sched_group *g, unsigned i, sched_mutator fn, void *ctx, char *err,
                          size_t errlen)
{
    (void)g; (void)i; (void)fn; (void)ctx;
    snprintf(err, errlen, "scheduler back end offload has no checker to inject into");
    return -1;
}

static void og_close(sched_group *g)
{
    off_group *og = (off_group *)g;
    if (og->dev)
        og->t->close(og->dev);
    free(og->ctl);
    free(og->in);
    free(og->out);
    free(og->view);
    free(g->member);
    free(og);
}

static const sched_group_ops og_ops = {
    og_reset, og_step, NULL, og_member_close, og_member_open, og_set_mutator, og_close,
};

sched_group *offload_group_open(const sched_params *p, unsigned n, const char *arg,
                                const sched_group_opts *o, char *err, size_t errlen)
{
    for (unsigned i = 0; o && o->trace && i < n; i++)
        if (o->trace[i] && o->trace[i]->path) {
            snprintf(err, errlen, "--sched offload writes no waveform (--fst needs c, rtl or "
                     "lockstep)");
            return NULL;
        }
    off_group *og = calloc(1, sizeof *og);
    if (!og) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    sched_group *g = &og->base;
    g->ops = &og_ops;
    g->params = *p;
    g->n = n;
    og->iw = offload_words(offload_in_bits(p));
    og->ow = offload_words(offload_out_bits(p));
    og->ctl = calloc(n, 1);
    og->in = calloc((size_t)n * og->iw, 8);
    og->out = calloc((size_t)n * og->ow, 8);
    og->view = calloc(n, sizeof *og->view);
    g->member = calloc(n, sizeof *g->member);
    if (!og->ctl || !og->in || !og->out || !og->view || !g->member) {
        og_close(g);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    for (unsigned l = 0; l < n; l++) {
        off_view *v = &og->view[l];
        v->b.ops = &view_ops;
        v->b.params = *p;
        v->g = og;
        v->lane = l;
        g->member[l] = &v->b;
    }
    char e2[600];
    og->dev = offload_open_spec(arg, p, n, &og->t, e2, sizeof e2);
    if (!og->dev) {
        snprintf(err, errlen, "%s", e2);
        og_close(g);
        return NULL;
    }
    snprintf(g->desc, sizeof g->desc, "offload:%s", arg);
    sched_group_reset(g);
    /* a device that failed at once (the reset exchange) fails the open */
    if (og->view[0].b.failed) {
        snprintf(err, errlen, "%s", og->view[0].b.error);
        og_close(g);
        return NULL;
    }
    return g;
}

sched_backend *offload_backend_open(const sched_params *p, const char *arg,
                                    const sched_trace_opts *trace, char *err, size_t errlen)
{
    if (sched_params_check(p, err, errlen) != 0)
        return NULL;
    const sched_trace_opts *const tr[1] = { trace };
    sched_group_opts o = { .trace = tr };
    sched_group *g = offload_group_open(p, 1, arg, &o, err, errlen);
    if (!g)
        return NULL;
    off_view *v = &((off_group *)g)->view[0];
    v->owner = 1;
    return &v->b;
}
