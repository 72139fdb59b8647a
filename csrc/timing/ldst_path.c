/*
 * ldst_path.c — memory instructions between issue and the LD/ST unit.
 *
 * GPGPU-Sim 3.2.1 (the fermi-gtx480 preset's model, fidelity item 6) does
 * not hand an issued memory instruction to the LD/ST unit at once. It waits
 * in three places, each a small buffer (gpu_config keys ldst.*):
 *
 *   ID_OC_MEM   a pipeline register the SM's schedulers issue into
 *               (ldst.id_oc entries, shared: the core is offered the LD/ST
 *               class only while one is free);
 *   collector   a memory operand-collector unit (ldst.collectors): taken the
 *               cycle after issue at the earliest, one instruction per
 *               cycle; its registers are read the cycle after, and it is
 *               dispatched the cycle after that;
 *   OC_EX_MEM   a pipeline register (ldst.oc_ex) the LD/ST unit takes its
 *               next instruction from, at the end of a cycle in which the
 *               unit is (or becomes) free.
 *
 * So a memory instruction issued at cycle t is submitted to the memory
 * model (the unit takes it) at t + 3 at the earliest, and while the unit is
 * busy (a divergent load's accesses, a full MSHR file) up to id_oc +
 * collectors + oc_ex more instructions issue behind it: the memory
 * instructions in flight that OAWS's Miss_inflight counts (seed 001 §4.1.1)
 * and that an occupied unit used to hide from the scheduler
 * (docs/timing-model.md, "The LD/ST path").
 *
 * The path is first in, first out: the collector units hand their
 * instructions on in the order they were issued (register-bank conflicts,
 * which could reorder them, are not modelled; fidelity item 12).
 *
 * Timing. The memory model's "submit at cycle s" is the unit taking an
 * instruction at the end of GPGPU-Sim's cycle s; its first L1D access is in
 * cycle s + 1, where a hit releases its registers (l1d.latency 1 on
 * fermi-gtx480). tm_ldst_path_step runs when mem_now() is t1 (after the
 * memory model simulated t1 - 1) and makes cycle t1's moves in GPGPU-Sim's
 * order: the operand collector first (a collector unit dispatches into
 * OC_EX_MEM if that was empty at the start of the cycle, then ID_OC_MEM
 * moves into a free collector unit), then the unit takes OC_EX_MEM if it is
 * free; the schedulers issue last, into what ID_OC_MEM has free.
 */
#include "timing_internal.h"

#include <stdlib.h>
#include <string.h>

int tm_ldst_path_init(timing_gpu *g, tm_sm *sm)
{
    sm->lp = NULL;
    sm->lp_cap = 0;
    tm_ldst_path_reset(sm);
    if (!tm_ldst_path_on(g))
        return 0;
    sm->lp_cap = g->cfg.ldst_id_oc + g->cfg.ldst_collectors + g->cfg.ldst_oc_ex;
    sm->lp = calloc(sm->lp_cap, sizeof *sm->lp);
    return sm->lp ? 0 : -1;
}

void tm_ldst_path_reset(tm_sm *sm)
{
    sm->lp_head = sm->lp_n = 0;
    memset(sm->lp_in, 0, sizeof sm->lp_in);
}

void tm_ldst_path_free(tm_sm *sm)
{
    free(sm->lp);
    sm->lp = NULL;
}

static tm_ldst_entry *at(tm_sm *sm, uint32_t i)
{
    return &sm->lp[(sm->lp_head + i) % sm->lp_cap];
}

void tm_ldst_path_push(tm_sm *sm, const mem_request *rq, uint32_t pc, uint64_t t)
{
    tm_ldst_entry *e = at(sm, sm->lp_n++);
    e->rq = *rq;
    e->at = t;
    e->pc = pc;
    e->stage = TM_LP_ID;
    sm->lp_in[TM_LP_ID]++;
}

/* The oldest entry in stage st, or NULL. Stages are in path order along the
 * ring (OC_EX_MEM oldest), so it is the first one past the later stages. */
static tm_ldst_entry *oldest_in(tm_sm *sm, unsigned st)
{
    if (!sm->lp_in[st])
        return NULL;
    uint32_t skip = 0;
    for (unsigned k = st + 1; k <= TM_LP_EX; k++)
        skip += sm->lp_in[k];
    return at(sm, skip);
}

static void move(tm_sm *sm, tm_ldst_entry *e, unsigned to, uint64_t t1)
{
    sm->lp_in[e->stage]--;
    sm->lp_in[to]++;
    e->stage = (uint8_t)to;
    e->at = t1;
}

int tm_ldst_path_step(timing_gpu *g, tm_sm *sm, uint64_t t1)
{
    const gpu_config *c = &g->cfg;
    /* a collector unit whose registers were read dispatches into OC_EX_MEM
     * if it had room at the start of the cycle (one dispatch per cycle) */
    tm_ldst_entry *e = oldest_in(sm, TM_LP_CU);
    if (e && e->at + 2 <= t1 && sm->lp_in[TM_LP_EX] < c->ldst_oc_ex)
        move(sm, e, TM_LP_EX, t1);
    /* ID_OC_MEM into a free collector unit, the cycle after issue at the
     * earliest (one per cycle: the collector's one input port) */
    e = oldest_in(sm, TM_LP_ID);
    if (e && e->at + 1 <= t1 && sm->lp_in[TM_LP_CU] < c->ldst_collectors)
        move(sm, e, TM_LP_CU, t1);
    /* the unit takes OC_EX_MEM's oldest when it is free */
    if (sm->lp_in[TM_LP_EX] && mem_ldst_ready(g->mem, sm->id)) {
        e = at(sm, 0);
        char err[256];
        if (mem_submit(g->mem, &e->rq, NULL, err, sizeof err) != 0) {
            g->fault = SMC_ERR_LAUNCH_FAILED;
            tm_set_msg(g, "timing model: SM %u warp %u pc %u: memory request refused: %s",
                       sm->id, e->rq.warp, e->pc, err);
            return -1;
        }
        sm->lp_in[TM_LP_EX]--;
        sm->lp_head = (sm->lp_head + 1) % sm->lp_cap;
        sm->lp_n--;
    }
    return sm->lp_in[TM_LP_ID] < c->ldst_id_oc ? (int)(c->ldst_id_oc - sm->lp_in[TM_LP_ID]) : 0;
}
