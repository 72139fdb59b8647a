/*
 * mem_l1i.c — the L1 instruction cache of each SM (issue 36).
 *
 * What GPGPU-Sim 3.2.1 does (shader.cc shader_core_ctx::fetch, gpu-cache.cc
 * read_only_cache::access, baseline_cache::cycle / fill, mshr_table), as a
 * model of its own here (docs/memory-model.md, "Instruction cache"):
 *
 *  - A fetch looks its line up (linear set index, LRU). A hit is an
 *    instruction for the warp now. A miss is accepted only while the miss
 *    queue is not full; it joins the pending MSHR entry of its line if that
 *    has a merge slot, or takes a free entry and puts its request in the
 *    miss queue; otherwise nothing happens (a reservation failure) and the
 *    warp is fetched again later. Lines are allocated when their fill
 *    arrives (il1 `f`), so a miss never reserves a way.
 *  - Each core cycle, after the LD/ST unit's step, the miss queue's front
 *    moves into the SM's injection queue when that has room; the request is
 *    a read of the whole line and travels like any read (interconnect, L2,
 *    DRAM: kind PK_IREAD only tells the SM where the response goes).
 *  - The response installs the line and makes its entry ready; ready
 *    entries release their warps one per cycle in fill order, and an entry
 *    is free again when its last warp is released (mshr_table::next_access).
 *
 * With l1i.sets = 0 the cache is ideal: every fetch hits and nothing here
 * runs.
 */
#include "mem_internal.h"

int mem_l1i_init(const mem_config *c, sm_state *s)
{
    if (!c->l1i_sets)
        return 0;
    size_t n = (size_t)c->l1i_sets * c->l1i_ways;
    s->itag = malloc(n * sizeof *s->itag);
    s->ilru = calloc(n, sizeof *s->ilru);
    s->imshr = calloc(c->l1i_mshr_entries, sizeof *s->imshr);
    s->iwarps = calloc((size_t)c->l1i_mshr_entries * c->l1i_mshr_max_merge, 1);
    s->imq = calloc(c->l1i_miss_queue, sizeof *s->imq);
    s->irdy = calloc(c->l1i_mshr_entries, sizeof *s->irdy);
    if (!s->itag || !s->ilru || !s->imshr || !s->iwarps || !s->imq || !s->irdy)
        return -1;
    for (size_t w = 0; w < n; w++)
        s->itag[w] = L1_NO_LINE;
    return 0;
}

void mem_l1i_free(sm_state *s)
{
    free(s->itag);
    free(s->ilru);
    free(s->imshr);
    free(s->iwarps);
    free(s->imq);
    free(s->irdy);
}

static uint32_t l1i_set(const mem_config *c, uint64_t line)
{
    return (uint32_t)(line >> lg(c->l1i_line_bytes)) & (c->l1i_sets - 1);
}

bool mem_ifetch_waiting(const mem_system *m, uint32_t sm, uint32_t warp)
{
    return sm < m->cfg.num_sms && warp < 64 && (m->sm[sm].iwait >> warp & 1);
}

int mem_ifetch(mem_system *m, uint32_t sm, uint32_t warp, uint64_t addr)
{
    const mem_config *c = &m->cfg;
    if (!c->l1i_sets)
        return MEM_IFETCH_HIT;
    if (sm >= c->num_sms || warp >= 64 || mem_ifetch_waiting(m, sm, warp))
        return -1;
    sm_state *s = &m->sm[sm];
    uint64_t line = addr & ~(uint64_t)(c->l1i_line_bytes - 1);
    uint32_t set = l1i_set(c, line);
    uint64_t *tag = &s->itag[(size_t)set * c->l1i_ways];
    for (uint32_t w = 0; w < c->l1i_ways; w++)
        if (tag[w] == line) {
            s->ilru[(size_t)set * c->l1i_ways + w] = ++s->ilru_clock;
            m->st.l1i_hit++;
            return MEM_IFETCH_HIT;
        }
    /* a miss is taken only while the miss queue has room, even one that
     * would merge (read_only_cache::access) */
    if (s->imq_n >= c->l1i_miss_queue) {
        m->st.l1i_fail++;
        return MEM_IFETCH_FAIL;
    }
    uint32_t free_e = UINT32_MAX;
    for (uint32_t e = 0; e < c->l1i_mshr_entries; e++) {
        l1i_mshr *ms = &s->imshr[e];
        if (!ms->used) {
            if (free_e == UINT32_MAX)
                free_e = e;
            continue;
        }
        if (ms->block != line)
            continue;
        /* (an entry whose fill has come but whose warps are not all
         * released yet still takes one, if its line was evicted since: it
         * is released in turn, as mshr_table does) */
        if (ms->nwarps >= c->l1i_mshr_max_merge) {
            m->st.l1i_fail++;
            return MEM_IFETCH_FAIL;
        }
        s->iwarps[(size_t)e * c->l1i_mshr_max_merge + ms->nwarps++] = (uint8_t)warp;
        s->iwait |= 1ull << warp;
        m->st.l1i_miss++;
        m->st.l1i_merge++;
        return MEM_IFETCH_MISS;
    }
    if (free_e == UINT32_MAX) {
        m->st.l1i_fail++;
        return MEM_IFETCH_FAIL;
    }
    l1i_mshr *ms = &s->imshr[free_e];
    ms->used = 1;
    ms->block = line;
    ms->nwarps = 1;
    ms->released = 0;
    s->iwarps[(size_t)free_e * c->l1i_mshr_max_merge] = (uint8_t)warp;
    s->iwait |= 1ull << warp;
    uint32_t tail = s->imq_head + s->imq_n;
    s->imq[tail >= c->l1i_miss_queue ? tail - c->l1i_miss_queue : tail] = free_e;
    s->imq_n++;
    m->st.l1i_miss++;
    bs_set(&m->sm_active, sm);          /* its miss queue has work */
    return MEM_IFETCH_MISS;
}

void mem_l1i_fill(mem_system *m, sm_state *s, uint64_t block, uint32_t e)
{
    const mem_config *c = &m->cfg;
    uint32_t set = l1i_set(c, block);
    size_t base = (size_t)set * c->l1i_ways;
    /* allocate on fill: an invalid way, else the least recently used */
    uint32_t victim = 0;
    for (uint32_t w = 0; w < c->l1i_ways; w++) {
        if (s->itag[base + w] == L1_NO_LINE) {
            victim = w;
            break;
        }
        if (s->ilru[base + w] < s->ilru[base + victim])
            victim = w;
    }
    s->itag[base + victim] = block;
    s->ilru[base + victim] = ++s->ilru_clock;
    m->st.l1i_fills++;
    uint32_t tail = s->irdy_head + s->irdy_n;
    s->irdy[tail >= c->l1i_mshr_entries ? tail - c->l1i_mshr_entries : tail] = e;
    s->irdy_n++;
}

void mem_l1i_cycle(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    if (s->imq_n && !ring_full(&s->out)) {
        uint32_t e = s->imq[s->imq_head];
        s->imq_head = s->imq_head + 1 == c->l1i_miss_queue ? 0 : s->imq_head + 1;
        s->imq_n--;
        sm_inject(m, s, si, s->imshr[e].block, c->l1i_line_bytes, PK_IREAD, e);
    }
    if (s->irdy_n) {
        uint32_t e = s->irdy[s->irdy_head];
        l1i_mshr *ms = &s->imshr[e];
        uint32_t w = s->iwarps[(size_t)e * c->l1i_mshr_max_merge + ms->released++];
        s->iwait &= ~(1ull << w);
        if (ms->released == ms->nwarps) {
            ms->used = 0;
            s->irdy_head = s->irdy_head + 1 == c->l1i_mshr_entries ? 0 : s->irdy_head + 1;
            s->irdy_n--;
        }
    }
}
