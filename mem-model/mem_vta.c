/*
 * mem_vta.c — CCWS's victim tag array (VTA) beside each SM's L1D
 * (docs/oaws.md, "Peers: CCWS"; the OAWS paper's peer, seed 001 §5 and
 * Table 3: "victim tag array 8-way, 16 entries/warp (768 total entries)";
 * CCWS: Rogers et al., MICRO'12).
 *
 * Every L1D line remembers the warp whose miss allocated it (CCWS's warp-ID
 * field in each cache tag). When a valid line is evicted to make room, its
 * tag enters that warp's VTA (per warp: entries / ways sets of `ways` tags,
 * set = line number mod sets, LRU replacement). When a warp's load misses in
 * the L1D (a new miss or a merge into a pending MSHR, once per transaction),
 * its own VTA is probed; a hit means the warp lost locality it had: the
 * entry is dropped and a hit event queued for the SM. The timing model
 * hands one event per cycle to the scheduler core (vta_valid/vta_warp),
 * where the warp's lost-locality score rises (rtl/sched_ccws.sv).
 * Write-evictions by stores are not capacity losses and enter no VTA.
 * Off (no storage, no effect) unless mem_vta_enable() was called.
 */
#include "mem_internal.h"

#include <stdlib.h>
#include <string.h>

int mem_vta_enable(mem_system *m, uint32_t entries_per_warp, uint32_t ways, uint32_t warps)
{
    if (entries_per_warp == 0 || ways == 0 || entries_per_warp % ways || warps == 0 ||
        warps > MEM_VTA_MAX_WARPS)
        return -1;
    for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
        sm_state *s = &m->sm[i];
        free(s->vta);
        free(s->vta_lru);
        s->vta = calloc((size_t)warps * entries_per_warp, sizeof *s->vta);
        s->vta_lru = calloc((size_t)warps * entries_per_warp, sizeof *s->vta_lru);
        if (!s->vta || !s->vta_lru)
            return -1;
        for (size_t k = 0; k < (size_t)warps * entries_per_warp; k++)
            s->vta[k] = L1_NO_LINE;
        s->vta_nhits = s->vta_head = 0;
    }
    m->vta_entries = entries_per_warp;
    m->vta_ways = ways;
    m->vta_warps = warps;
    return 0;
}

/* The first tag of warp w's set for line. */
static size_t vta_set(const mem_system *m, uint32_t w, uint64_t line)
{
    uint32_t sets = m->vta_entries / m->vta_ways;
    uint64_t n = line / m->cfg.l1d_line_bytes;
    return (size_t)w * m->vta_entries + (size_t)(n % sets) * m->vta_ways;
}

void mem_vta_insert(mem_system *m, sm_state *s, uint32_t warp, uint64_t line)
{
    if (!m->vta_entries || warp >= m->vta_warps)
        return;
    size_t b = vta_set(m, warp, line), v = b;
    for (uint32_t k = 0; k < m->vta_ways; k++) {
        if (s->vta[b + k] == line) { v = b + k; break; }        /* already there */
        if (s->vta_lru[b + k] < s->vta_lru[v]) v = b + k;       /* LRU (empty: 0) */
    }
    s->vta[v] = line;
    s->vta_lru[v] = ++s->vta_clock;
    m->st.vta_inserts++;
}

void mem_vta_probe(mem_system *m, sm_state *s, uint32_t warp, uint64_t line)
{
    if (!m->vta_entries || warp >= m->vta_warps)
        return;
    size_t b = vta_set(m, warp, line);
    for (uint32_t k = 0; k < m->vta_ways; k++)
        if (s->vta[b + k] == line) {
            s->vta[b + k] = L1_NO_LINE;
            s->vta_lru[b + k] = 0;
            m->st.vta_hits++;
            if (s->vta_nhits < MEM_VTA_QUEUE) {
                s->vta_q[(s->vta_head + s->vta_nhits) % MEM_VTA_QUEUE] = (uint8_t)warp;
                s->vta_nhits++;
            } else {
                m->st.vta_hits_dropped++;
            }
            return;
        }
}

int mem_vta_hit_pop(mem_system *m, uint32_t sm, uint32_t *warp)
{
    sm_state *s = &m->sm[sm];
    if (!s->vta_nhits)
        return 0;
    *warp = s->vta_q[s->vta_head];
    s->vta_head = (s->vta_head + 1) % MEM_VTA_QUEUE;
    s->vta_nhits--;
    return 1;
}

uint32_t mem_out_free_slots(const mem_system *m, uint32_t sm)
{
    const ring *r = &m->sm[sm].out;
    return r->cap - r->count;
}
