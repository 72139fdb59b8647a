/*
 * peers.c — CCWS and MASCAR, the timing model's part (peers.h;
 * docs/oaws.md, "Peers"; seed 001 = Wang et al., OAWS, PACT'16, §5 and
 * Table 3).
 */
#include "peers.h"
#include "timing_internal.h"

int tm_peers_launch(timing_gpu *g)
{
    const gpu_config *c = &g->cfg;
    if (c->peer == GPU_PEER_MASCAR && c->mascar_reexec_entries) {
        /* §5: "a re-execution queue to replay L1D accesses that are stalled
         * due to MSHR unavailability or network congestion ... 32 entries"
         * (beside the L1D: mem-model/mem_l1d.c) */
        if (mem_reexec_enable(g->mem, c->mascar_reexec_entries) != 0) {
            tm_set_msg(g, "MASCAR: out of memory for the re-execution queue (%u entries)",
                       c->mascar_reexec_entries);
            return -1;
        }
        return 0;
    }
    if (c->peer != GPU_PEER_CCWS)
        return 0;
    /* Table 3: victim tag array 8-way, 16 entries per warp */
    if (mem_vta_enable(g->mem, c->ccws_vta_entries, c->ccws_vta_ways, c->max_warps_per_sm) != 0) {
        tm_set_msg(g, "CCWS: cannot build the victim tag array (%u entries per warp, %u ways, "
                   "%u warps)", c->ccws_vta_entries, c->ccws_vta_ways, c->max_warps_per_sm);
        return -1;
    }
    return 0;
}

uint64_t tm_peers_ldst_heads(timing_gpu *g, tm_sm *sm, const sched_inputs *in, uint64_t heads)
{
    const sched_outputs *o = sched_get_outputs(sm->sched);
    uint64_t keep = heads;
    if (g->cfg.peer == GPU_PEER_CCWS) {
        for (uint64_t h = heads & o->ccws_hold; h; h &= h - 1) {
            unsigned w = (unsigned)__builtin_ctzll(h);
            const tm_warp *wp = &sm->warp[w];
            if (wp->buf[wp->head].info->long_latency)
                keep &= ~(1ull << w);
        }
    } else if (g->cfg.peer == GPU_PEER_MASCAR && in->mascar_sat) {
        keep = o->mascar_owner >> 6 ? heads & (1ull << (o->mascar_owner & 63)) : 0;
    }
    return keep ? keep : heads;
}

void tm_peers_inputs(timing_gpu *g, tm_sm *sm, sched_inputs *in)
{
    const gpu_config *c = &g->cfg;
    timing_peers_stats *ps = &g->st->peers;
    in->peer = (uint8_t)c->peer;
    /* fully cached loads (seed 001 Fig. 10/11), counted as under OAWS
     * (pipeline.c, oaws_retire): a global/local load that left the LD/ST
     * unit in the last cycle, divergent by the coalescer's verdict, fully
     * cached when none of its accesses missed */
    mem_ldst_retire r;
    if (mem_ldst_retired(g->mem, sm->id, &r) && r.op == MEM_LOAD && r.transactions &&
        (r.space == MEM_GLOBAL || r.space == MEM_LOCAL)) {
        int fully = r.l1_misses == 0;
        if (r.coherent) {
            ps->coh_loads++;
            ps->coh_fully_cached += (uint64_t)fully;
        } else {
            ps->div_loads++;
            ps->div_fully_cached += (uint64_t)fully;
        }
    }
    if (c->peer == GPU_PEER_CCWS) {
        /* a VTA hit raises the warp's score by K_THROTTLE x base (Table 3:
         * 8 x 100; the core saturates the score at 4095) */
        unsigned bump = c->ccws_k_throttle * c->ccws_base;
        in->ccws_base = (uint16_t)c->ccws_base;
        in->ccws_bump = (uint16_t)(bump > 4095 ? 4095 : bump);
        uint32_t w;
        if (mem_vta_hit_pop(g->mem, sm->id, &w)) {
            in->vta_valid = 1;
            in->vta_warp = (uint8_t)w;
            ps->vta_hits++;
        }
    } else if (c->peer == GPU_PEER_MASCAR) {
        /* saturated: "MSHR has only 1 entry or the queue inside memory port
         * has only 1 slot" (seed 001 §5) — at most one free */
        int sat = mem_free_mshrs(g->mem, sm->id) <= 1 || mem_out_free_slots(g->mem, sm->id) <= 1;
        in->mascar_sat = (uint8_t)sat;
        ps->sat_cycles += (uint64_t)sat;
    }
}
