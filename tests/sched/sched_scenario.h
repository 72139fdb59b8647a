/*
 * sched_scenario.h -- the small harness of the hand-made scheduler-core
 * scenarios (test_sched_oaws.c, test_sched_peers.c): one core of the Fermi
 * set 48/2/6/3/4/2/8/8 (a Verilated set; warp w belongs to scheduler w % 2),
 * the C model, or with SCHED_TEST_RTL the Verilated RTL; input levels that
 * persist between edges, one-cycle events cleared after each.
 *
 * "After edge n" = the outputs once n sched_step() calls have been made.
 * Include after <cmocka.h>.
 */
#ifndef SMCOSIM_TEST_SCHED_SCENARIO_H
#define SMCOSIM_TEST_SCHED_SCENARIO_H

#include <string.h>

#include "sched_if.h"

typedef struct env {
    sched_backend *b;
    sched_inputs   in;       /* levels persist between steps; events are cleared */
    uint64_t       edges;    /* steps since reset */
} env;

/* A fresh core with warps `warps` launched at the first edge, GTO, every
 * unit available; the caller sets its scenario's levels next. */
static inline void env_open(env *e, uint64_t warps)
{
    sched_params p = { 48, 2, 6, 3, 4, 2, 8, 8, 0 };
    char err[512] = "";
#ifdef SCHED_TEST_RTL
    e->b = sched_rtl_create(&p, NULL, err, sizeof err);
#else
    e->b = sched_cmodel_create(&p, err, sizeof err);
#endif
    if (!e->b) fail_msg("create: %s", err);
    memset(&e->in, 0, sizeof e->in);
    e->edges = 0;
    e->in.policy = SCHED_POLICY_GTO;
    e->in.launch = warps;
    for (unsigned s = 0; s < 2; s++) e->in.unit_avail[s] = 0xF;
}

static inline const sched_outputs *out(env *e) { return sched_get_outputs(e->b); }

/* One rising edge, then clear the one-cycle events. */
static inline const sched_outputs *step(env *e)
{
    int rc = sched_step(e->b, &e->in);
    if (rc != 0) fail_msg("sched_step: %s", sched_error(e->b));
    e->edges++;
    e->in.launch = e->in.finish = 0;
    e->in.ldst_retire_miss = 0;
    e->in.ocw_event = e->in.ocw_half = 0;
    e->in.vta_valid = 0;
    e->in.vta_warp = 0;
    memset(e->in.push, 0, sizeof e->in.push);
    memset(e->in.wb, 0, sizeof e->in.wb);
    return out(e);
}

/* Steps until `edges` edges have been made. */
static inline const sched_outputs *step_to(env *e, uint64_t edges)
{
    while (e->edges < edges) step(e);
    return out(e);
}

/* The push slot of warp w at the next edge, filled with its warp, pc
 * 0x100 x w and op class (no registers); the caller adds fields. */
static inline sched_push *push_op(env *e, unsigned w, unsigned op)
{
    sched_push *p = &e->in.push[w % 2];
    assert_int_equal(p->valid, 0);
    p->valid = 1;
    p->warp = (uint8_t)w;
    p->instr.pc = 0x100 * w;
    p->instr.op = (uint8_t)op;
    return p;
}

#endif
