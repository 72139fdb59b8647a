/*
 * sched_group.c -- the scheduler cores of all SMs stepped together
 * (sched_group.h): the common entry points, and the group of the looping
 * kinds ("c", "rtl", "lockstep"), one back end per member from sched_open,
 * optionally checked in replay against an offload transport
 * (offload_check.h). The offload kind's own group is in
 * cosim/offload/offload_group.c.
 */
#include "sched_group_impl.h"
#include "offload_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the looping group ---------------------------------------------------- */

struct loop_group;

/* With a check, a member's view: the back end's outputs, and its resets
 * and lone steps recorded for the checker. */
typedef struct loop_view {
    sched_backend      b;
    struct loop_group *g;
    unsigned           lane;
} loop_view;

typedef struct loop_group {
    sched_group       base;
    char              kind[32];
    sched_backend   **inner;       /* n back ends from sched_open; NULL = closed */
    offload_check    *chk;         /* NULL = no replay check */
    loop_view        *view;        /* with chk: n views */
    sched_backend_ops view_ops;    /* the back end's name, the views' behaviour */
} loop_group;

/* A difference found by the checker fails the member it names. */
static int check_failed(loop_group *lg, const offload_check_fail *f, unsigned *failed)
{
    loop_view *v = &lg->view[f->lane];
    v->b.failed = 1;
    snprintf(v->b.error, sizeof v->b.error, "%s", f->msg);
    lg->base.failed_cycle = f->tag;
    *failed = f->lane;
    return -1;
}

static void view_sync(loop_view *v)
{
    sched_backend *in = v->g->inner[v->lane];
    v->b.out = in->out;
    v->b.cycle = in->cycle;
}

static void view_reset(sched_backend *b)
{
    loop_view *v = (loop_view *)b;
    sched_backend *in = v->g->inner[v->lane];
    if (!in)
        return;
    sched_reset(in);
    view_sync(v);
    offload_check_reset(v->g->chk, v->lane, &b->out);
}

/* A lone step of one member (not through sched_group_step): recorded as a
 * cycle of its own in which only this member steps. */
static int view_step(sched_backend *b, const sched_inputs *in)
{
    loop_view *v = (loop_view *)b;
    loop_group *lg = v->g;
    sched_backend *inner = lg->inner[v->lane];
    if (!inner || sched_step(inner, in) != 0) {
        snprintf(b->error, sizeof b->error, "%s", inner ? sched_error(inner) : "member closed");
        return -1;
    }
    view_sync(v);
    b->cycle--;                   /* sched_step() counts it */
    offload_check_record(lg->chk, v->lane, in, &b->out);
    offload_check_fail f;
    unsigned bad;
    if (offload_check_end_cycle(lg->chk, lg->base.cycle, &f) != 0) {
        check_failed(lg, &f, &bad);
        lg->base.failed = 1;
        lg->base.failed_member = bad;
    }
    return b->failed ? -1 : 0;
}

static void view_destroy(sched_backend *b) { (void)b; /* owned by the group */ }

static void loop_reset(sched_group *g)
{
    for (unsigned i = 0; i < g->n; i++)
        if (g->member[i])
            sched_reset(g->member[i]);
}

static int loop_step(sched_group *g, const sched_inputs *in, const uint8_t *active,
                     unsigned *failed)
{
    loop_group *lg = (loop_group *)g;
    if (!lg->chk) {
        for (unsigned i = 0; i < g->n; i++) {
            if (active && !active[i])
                continue;
            if (!lg->inner[i] || sched_step(lg->inner[i], &in[i]) != 0) {
                g->failed_cycle = g->cycle;
                *failed = i;
                return -1;
            }
        }
        return 0;
    }
    for (unsigned i = 0; i < g->n; i++) {
        if (active && !active[i])
            continue;
        loop_view *v = &lg->view[i];
        if (!lg->inner[i] || sched_step(lg->inner[i], &in[i]) != 0) {
            snprintf(v->b.error, sizeof v->b.error, "%s",
                     lg->inner[i] ? sched_error(lg->inner[i]) : "member closed");
            v->b.failed = 1;
            g->failed_cycle = g->cycle;
            *failed = i;
            return -1;
        }
        view_sync(v);
        offload_check_record(lg->chk, i, &in[i], &v->b.out);
    }
    offload_check_fail f;
    if (offload_check_end_cycle(lg->chk, g->cycle, &f) != 0)
        return check_failed(lg, &f, failed);
    return 0;
}

static int loop_sync(sched_group *g, unsigned *failed)
{
    loop_group *lg = (loop_group *)g;
    offload_check_fail f;
    if (lg->chk && offload_check_sync(lg->chk, &f) != 0)
        return check_failed(lg, &f, failed);
    return 0;
}

static void loop_member_close(sched_group *g, unsigned i)
{
    loop_group *lg = (loop_group *)g;
    sched_destroy(lg->inner[i]);
    lg->inner[i] = NULL;
    if (!lg->chk)
        g->member[i] = NULL;
}

static int loop_member_open(sched_group *g, unsigned i, const sched_trace_opts *trace,
                            char *err, size_t errlen)
{
    loop_group *lg = (loop_group *)g;
    sched_destroy(lg->inner[i]);
    lg->inner[i] = sched_open(lg->kind, &g->params, trace, err, errlen);
    if (!lg->inner[i]) {
        if (!lg->chk)
            g->member[i] = NULL;
        return -1;
    }
    if (!lg->chk) {
        g->member[i] = lg->inner[i];
        return 0;
    }
    sched_reset(&lg->view[i].b);   /* a fresh core is in reset: so is its lane */
    return 0;
}

static int loop_set_mutator(sched_group *g, unsigned i, sched_mutator fn, void *ctx, char *err,
                            size_t errlen)
{
    loop_group *lg = (loop_group *)g;
    if (lg->chk) {
        offload_check_set_mutator(lg->chk, i, fn, ctx);
        return 0;
    }
    if (strcmp(lg->kind, "lockstep") != 0) {
        snprintf(err, errlen, "scheduler back end %s has no checker to inject into", lg->kind);
        return -1;
    }
    return sched_open_set_mutator(lg->inner[i], fn, ctx, err, errlen);
}

static void loop_close(sched_group *g)
{
    loop_group *lg = (loop_group *)g;
    for (unsigned i = 0; i < g->n; i++)
        sched_destroy(lg->inner[i]);
    offload_check_close(lg->chk);
    free(lg->inner);
    free(lg->view);
    free(g->member);
    free(lg);
}

static const sched_group_ops loop_ops = {
    loop_reset, loop_step, loop_sync, loop_member_close, loop_member_open, loop_set_mutator,
    loop_close,
};

static sched_group *loop_open(const char *kind, const sched_params *p, unsigned n,
                              const sched_group_opts *o, char *err, size_t errlen)
{
    loop_group *lg = calloc(1, sizeof *lg);
    sched_group *g = &lg->base;
    if (!lg || !(lg->inner = calloc(n, sizeof *lg->inner)) ||
        !(g->member = calloc(n, sizeof *g->member))) {
        if (lg)
            free(lg->inner);
        free(lg);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    g->ops = &loop_ops;
    g->params = *p;
    g->n = n;
    snprintf(lg->kind, sizeof lg->kind, "%s", kind);
    snprintf(g->desc, sizeof g->desc, "%s", kind);
    for (unsigned i = 0; i < n; i++) {
        const sched_trace_opts *t = o && o->trace ? o->trace[i] : NULL;
        if (!(lg->inner[i] = sched_open(kind, p, t, err, errlen))) {
            loop_close(g);
            return NULL;
        }
        g->member[i] = lg->inner[i];
    }
    if (o && o->check && *o->check) {
        char e2[512];
        lg->chk = offload_check_open(o->check, p, n, o->check_k,
                                     sched_backend_name(lg->inner[0]), e2, sizeof e2);
        if (!lg->chk || !(lg->view = calloc(n, sizeof *lg->view))) {
            snprintf(err, errlen, "--check-rtl offload:%s: %s", o->check,
                     lg->chk ? "out of host memory" : e2);
            loop_close(g);
            return NULL;
        }
        lg->view_ops = (sched_backend_ops){
            .name = sched_backend_name(lg->inner[0]), .reset = view_reset,
            .destroy = view_destroy, .checked_step = view_step,
        };
        for (unsigned i = 0; i < n; i++) {
            loop_view *v = &lg->view[i];
            v->b.ops = &lg->view_ops;
            v->b.params = *p;
            v->g = lg;
            v->lane = i;
            g->member[i] = &v->b;
        }
        snprintf(g->desc, sizeof g->desc, "%s checked by offload:%s", kind, o->check);
    }
    sched_group_reset(g);
    return g;
}

/* ---- the entry points ----------------------------------------------------- */

sched_group *sched_group_open(const char *kind, const sched_params *p, unsigned n,
                              const sched_group_opts *o, char *err, size_t errlen)
{
    if (n == 0) {
        snprintf(err, errlen, "a scheduler group needs at least one member");
        return NULL;
    }
    if (sched_params_check(p, err, errlen) != 0)
        return NULL;
    sched_group_open_fn native;
    const char *arg;
    int r = sched_kind_group(kind, &native, &arg, err, errlen);
    if (r < 0)
        return NULL;
    if (r == 0)
        return loop_open(kind, p, n, o, err, errlen);
    if (o && o->check && *o->check) {
        snprintf(err, errlen, "--sched %s: a replay check needs a looping back end (c, rtl, "
                 "lockstep)", kind);
        return NULL;
    }
    return native(p, n, arg, o, err, errlen);
}

void sched_group_close(sched_group *g)
{
    if (g)
        g->ops->close(g);
}

unsigned sched_group_size(const sched_group *g) { return g->n; }

sched_backend *sched_group_member(const sched_group *g, unsigned i)
{
    return i < g->n ? g->member[i] : NULL;
}

void sched_group_reset(sched_group *g)
{
    g->ops->reset(g);
    g->cycle = 0;
    g->failed = 0;
    g->failed_cycle = 0;
}

int sched_group_step(sched_group *g, const sched_inputs *in, const uint8_t *active,
                     unsigned *failed)
{
    unsigned bad = 0;
    if (!g->failed && g->ops->step(g, in, active, &bad) != 0) {
        g->failed = 1;
        g->failed_member = bad;
    }
    g->cycle++;
    if (g->failed) {
        *failed = g->failed_member;
        return -1;
    }
    return 0;
}

uint64_t sched_group_cycle(const sched_group *g) { return g->cycle; }
uint64_t sched_group_failed_cycle(const sched_group *g) { return g->failed_cycle; }

int sched_group_sync(sched_group *g, unsigned *failed)
{
    unsigned bad = 0;
    if (!g->failed && g->ops->sync && g->ops->sync(g, &bad) != 0) {
        g->failed = 1;
        g->failed_member = bad;
    }
    if (g->failed) {
        *failed = g->failed_member;
        return -1;
    }
    return 0;
}

void sched_group_member_close(sched_group *g, unsigned i)
{
    if (i < g->n)
        g->ops->member_close(g, i);
}

int sched_group_member_open(sched_group *g, unsigned i, const sched_trace_opts *trace,
                            char *err, size_t errlen)
{
    if (i >= g->n) {
        snprintf(err, errlen, "no member %u (the group has %u)", i, g->n);
        return -1;
    }
    return g->ops->member_open(g, i, trace, err, errlen);
}

int sched_group_set_mutator(sched_group *g, unsigned i, sched_mutator fn, void *ctx,
                            char *err, size_t errlen)
{
    if (i >= g->n) {
        snprintf(err, errlen, "no member %u (the group has %u)", i, g->n);
        return -1;
    }
    return g->ops->set_mutator(g, i, fn, ctx, err, errlen);
}

const char *sched_group_describe(const sched_group *g) { return g->desc; }
