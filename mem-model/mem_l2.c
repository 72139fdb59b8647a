/*
 * mem_l2.c — the L2 slice of a partition: sets with one-byte fingerprints
 * and an LRU list each, write-back and write-allocate, its own MSHRs with
 * merging, a pipeline of l2.latency cycles (the input queue), and an output
 * queue of responses in order. Misses and dirty victims go to the
 * partition's DRAM channel (mem_dram.c); responses leave through the
 * interconnect (mem_icnt.c). Also the visit of the partitions due in a
 * cycle (mem_parts_cycle: the channel, then the slice, at each partition's
 * next possible event).
 */
#include "mem_internal.h"

/* ---- L2 slice ---------------------------------------------------------- */

static uint32_t l2_set_of(const mem_system *m, uint64_t lline)
{
    return (uint32_t)((lline >> lg(m->cfg.l2_line_bytes)) & (m->cfg.l2_sets - 1));
}

static uint64_t l2_fingerprint(uint64_t lline)
{
    return 0x80 | ((lline * 0x9e3779b97f4a7c15ull) >> 57);
}

/* The tag holding lline, or NULL. Equal fingerprints are found eight ways at
 * a time (bytes of fp ^ wanted that are zero: the wanted byte has bit 7 set,
 * so a zero byte is a valid way whose fingerprint matches, and the masked
 * add below cannot carry from one byte into the next); only those ways'
 * tags are compared (a line is in at most one way). */
static uint64_t *l2_find(mem_system *m, part_state *p, uint64_t lline)
{
    uint32_t ways = m->cfg.l2_ways, set = l2_set_of(m, lline);
    uint64_t *t = &p->tag[(size_t)set * ways];
    const uint64_t *fp = &p->fp[(size_t)set * m->l2_fp_words];
    uint64_t want = lline | L2_VALID;
    uint64_t rep = l2_fingerprint(lline) * 0x0101010101010101ull;
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    for (uint32_t k = 0; k < m->l2_fp_words; k++) {
        uint64_t x = fp[k] ^ rep;
        uint64_t zero = ~(((x & low7) + low7) | x) & ~low7;
        for (; zero; zero &= zero - 1) {
            uint32_t w = k * 8 + (uint32_t)__builtin_ctzll(zero) / 8;
            if ((t[w] & ~(uint64_t)L2_DIRTY) == want)
                return &t[w];
        }
    }
    return NULL;
}

/* The L2 keeps each set's valid lines in a list in last-use order; a use
 * moves a line to the MRU end and the victim is the LRU end. */
static void l2_lru_unlink(uint8_t *l, uint32_t ways, uint32_t w)
{
    uint8_t *next = l, *prev = l + ways, *head = l + 2 * ways, *tail = head + 1;
    uint8_t pv = prev[w], nx = next[w];
    if (pv == L2_NONE)
        *head = nx;
    else
        next[pv] = nx;
    if (nx == L2_NONE)
        *tail = pv;
    else
        prev[nx] = pv;
}

static void l2_lru_push_mru(uint8_t *l, uint32_t ways, uint32_t w)
{
    uint8_t *next = l, *prev = l + ways, *head = l + 2 * ways, *tail = head + 1;
    uint8_t h = *head;
    prev[w] = L2_NONE;
    next[w] = h;
    if (h == L2_NONE)
        *tail = (uint8_t)w;
    else
        prev[h] = (uint8_t)w;
    *head = (uint8_t)w;
}

/* A use of the valid line whose tag is t. */
static void l2_touch(mem_system *m, part_state *p, uint64_t *t)
{
    uint32_t ways = m->cfg.l2_ways;
    uint32_t set = l2_set_of(m, *t & ~(uint64_t)(L2_VALID | L2_DIRTY));
    uint32_t w = (uint32_t)(t - &p->tag[(size_t)set * ways]);
    uint8_t *l = &p->lru[(size_t)set * m->l2_lru_stride];
    if (l[2 * ways] == w)
        return;
    l2_lru_unlink(l, ways, w);
    l2_lru_push_mru(l, ways, w);
}

/* Allocate lline in its set: the first never-used way, else the LRU one. A
 * dirty victim is written back, which needs a DRAM queue slot: returns NULL
 * (try again later) without it. The line joins the MRU end (every caller
 * uses it at once). */
static uint64_t *l2_allocate(mem_system *m, part_state *p, uint64_t lline)
{
    uint32_t ways = m->cfg.l2_ways;
    uint32_t set = l2_set_of(m, lline);
    uint64_t *t = &p->tag[(size_t)set * ways];
    uint8_t *l = &p->lru[(size_t)set * m->l2_lru_stride];
    uint8_t *nvalid = &l[2 * ways + 2];
    uint32_t w = *nvalid < ways ? *nvalid : l[2 * ways + 1];
    if ((t[w] & (L2_VALID | L2_DIRTY)) == (L2_VALID | L2_DIRTY)) {
        if (!dram_queue_room(m, p))
            return NULL;
        mem_dram_enqueue(m, p, t[w] & ~(uint64_t)(L2_VALID | L2_DIRTY), 1, 0);
        m->st.l2_writebacks++;
    }
    if (t[w] & L2_VALID)
        l2_lru_unlink(l, ways, w);
    else
        ++*nvalid;
    t[w] = lline | L2_VALID;
    uint64_t *fw = &p->fp[(size_t)set * m->l2_fp_words + w / 8];
    uint32_t sh = 8 * (w % 8);
    *fw = (*fw & ~(0xffull << sh)) | l2_fingerprint(lline) << sh;
    l2_lru_push_mru(l, ways, w);
    return &t[w];
}

/* The request req (which the caller then drops) becomes the response. */
static void l2_respond(mem_system *m, part_state *p, packet *req, uint64_t ready)
{
    /* responses leave the slice in order */
    req->ready = max64(ready, p->last_resp_ready);
    p->last_resp_ready = req->ready;
    ring_push(&p->out, req);
    if (p->out.count == 1) {
        p->out_try = max64(p->out_port_free, req->ready);
        out_schedule(m, p);
    }
}

static void l2_request(mem_system *m, part_state *p);

static void l2_cycle(mem_system *m, part_state *p)
{
    const mem_config *c = &m->cfg;
    /* 1. one DRAM fill */
    if (p->rd_n && p->rd_done[p->rd_head] <= m->t) {
        uint32_t e = p->rd_mshr[p->rd_head];
        l2_mshr *ms = &p->mshr[e];
        uint64_t lline = ms->line;
        if (p->out.count + ms->ntargets <= m->l2_out_cap) {
            /* the line missed when the entry was taken, and only a write
             * can have brought it in since (fills come only for MSHRs, one
             * per line) */
            uint64_t *l = ms->maybe_cached ? l2_find(m, p, lline) : NULL;
            if (!l)
                l = l2_allocate(m, p, lline);
            if (l) {
                l2_touch(m, p, l);
                for (uint32_t t = 0; t < ms->ntargets; t++) {
                    packet *tp = &p->targets[e * c->l2_mshr_max_merge + t];
                    if (tp->kind == PK_WRITE && !c->store_acks) {   /* l2_write_fetch's */
                        m->live--;
                        continue;
                    }
                    if (tp->kind == PK_ATOMIC)
                        *l |= L2_DIRTY;
                    l2_respond(m, p, tp, m->t);
                }
                ms->used = 0;
                mi_release(&p->mshr_ix, lline, e);
                p->mshr_used--;
                p->rd_head = p->rd_head + 1 == p->fcap ? 0 : p->rd_head + 1;
                p->rd_n--;
                m->live--;   /* the DRAM read */
            }
        }
    }
    /* 2. one request */
    l2_request(m, p);
    /* 3. the ROP delay line's front joins the input queue (GPGPU-Sim
     * 3.2.1's cache_cycle does this last) and is handled l2.latency L2
     * cycles later */
    if (p->rop.count && ring_front(&p->rop)->ready <= m->t &&
        p->in.count < m->cfg.l2_queue_entries) {
        packet *pk = ring_front(&p->rop);
        pk->ready = m->t + (uint64_t)m->cfg.l2_latency * m->per[MEM_CLK_L2];
        ring_push(&p->in, pk);
        ring_pop(&p->rop);
    }
}

/* A new MSHR entry for lline, its DRAM read queued (the caller checked
 * that an entry is free and the DRAM queue has room). */
static uint32_t l2_mshr_take(mem_system *m, part_state *p, uint64_t lline)
{
    uint32_t e = mi_take(&p->mshr_ix, lline);
    p->mshr[e].used = 1;
    p->mshr[e].maybe_cached = 0;
    p->mshr[e].line = lline;
    p->mshr[e].ntargets = 0;
    p->mshr_used++;
    mem_dram_enqueue(m, p, lline, 0, e);
    return e;
}

/* A write that missed, under l2.write_miss = fetch (GPGPU-Sim 3.2.1's
 * wr_miss_wa): the write goes on to DRAM, and the line is read into an MSHR
 * entry (merged into the line's entry if one is pending). The write stays
 * in the entry as a target that takes a merge slot and gets no response;
 * the line arrives clean (DRAM has the write). Leaves the request at the
 * front of the input queue when the DRAM queue, an MSHR entry or a merge
 * slot is missing (3.2.1: RESERVATION_FAIL, tried again next cycle). */
static void l2_write_fetch(mem_system *m, part_state *p, packet *q, uint64_t lline)
{
    const mem_config *c = &m->cfg;
    int found = mi_find(&p->mshr_ix, lline);
    uint32_t e;
    if (found >= 0) {
        e = (uint32_t)found;
        if (p->mshr[e].ntargets >= c->l2_mshr_max_merge || !dram_queue_room(m, p))
            return;
        mem_dram_enqueue(m, p, lline, 1, 0);
        m->st.l2_mshr_merge++;
    } else {
        if (p->mshr_used == c->l2_mshr_entries || !dram_queue_room2(m, p))
            return;
        mem_dram_enqueue(m, p, lline, 1, 0);
        e = l2_mshr_take(m, p, lline);
    }
    m->st.l2_miss[1]++;
    p->targets[e * c->l2_mshr_max_merge + p->mshr[e].ntargets++] = *q;
    ring_pop(&p->in);
}

/* Step 2 of l2_cycle: the input queue's front request, if due. */
static void l2_request(mem_system *m, part_state *p)
{
    const mem_config *c = &m->cfg;
    if (!p->in.count || ring_front(&p->in)->ready > m->t)
        return;
    packet *q = ring_front(&p->in);
    uint64_t lline = local_line(m, q->addr);
    int k = q->kind == PK_ATOMIC ? 2 : q->kind == PK_WRITE ? 1 : 0;
    if (q->kind == PK_WRITE) {
        /* write-back; a miss allocates without a fetch, or (l2.write_miss =
         * fetch) goes on to DRAM while the line is read (l2_write_fetch).
         * With mem.store_acks the write becomes its acknowledgement: only a
         * header goes back (at once here; l2_write_fetch's at the fill). */
        q->bytes = 0;
        uint64_t *l = l2_find(m, p, lline);
        if (!l && c->l2_write_miss == MEM_L2_WM_FETCH) {
            l2_write_fetch(m, p, q, lline);
            return;
        }
        if (c->store_acks && p->out.count >= m->l2_out_cap)
            return;
        if (!l) {
            l = l2_allocate(m, p, lline);
            if (!l)
                return;
            int e = mi_find(&p->mshr_ix, lline);
            if (e >= 0)
                p->mshr[e].maybe_cached = 1;
            m->st.l2_miss[k]++;
        } else {
            m->st.l2_hit[k]++;
        }
        *l |= L2_DIRTY;
        l2_touch(m, p, l);
        if (c->store_acks)
            l2_respond(m, p, q, m->t);
        else
            m->live--;
        ring_pop(&p->in);
        return;
    }
    uint64_t *l = l2_find(m, p, lline);
    if (l) {
        if (p->out.count >= m->l2_out_cap)
            return;
        l2_touch(m, p, l);
        if (q->kind == PK_ATOMIC)
            *l |= L2_DIRTY;
        m->st.l2_hit[k]++;
        l2_respond(m, p, q, m->t);
        ring_pop(&p->in);
        return;
    }
    int found = mi_find(&p->mshr_ix, lline);
    uint32_t e;
    if (found >= 0) {
        e = (uint32_t)found;
        if (p->mshr[e].ntargets >= c->l2_mshr_max_merge)
            return;
        m->st.l2_mshr_merge++;
    } else {
        if (p->mshr_used == c->l2_mshr_entries || !dram_queue_room(m, p))
            return;
        e = l2_mshr_take(m, p, lline);
    }
    m->st.l2_miss[k]++;
    p->targets[e * c->l2_mshr_max_merge + p->mshr[e].ntargets++] = *q;
    ring_pop(&p->in);
}

/* ---- visiting the partitions --------------------------------------------- */

/* The first instant after t at which mem_cycle must look at partition p
 * again: the DRAM channel's next due work (the scheduler's wait, the next
 * write to finish, a request to move along the delay line) on a DRAM edge,
 * the slice's (the next read to fill, the input queue's front, the ROP
 * line's front) on an L2 edge; work already due (a stalled stage) retries
 * at the domain's next edge. Only a packet arriving from the interconnect
 * can make it earlier, and mem_icnt_cycle lowers it then. */
static uint64_t part_wake(const mem_system *m, const part_state *p)
{
    const mem_config *c = &m->cfg;
    uint64_t d = UINT64_MAX, l = UINT64_MAX;
    if (p->qn)
        d = p->sched_wait;
    if (p->wr_n && p->wr_done[p->wr_head] < d)
        d = p->wr_done[p->wr_head];
    if (p->qn < c->dram_queue_entries) {
        if (p->l2d.n)
            d = m->t;
        if (p->dly.n && p->dly.buf[p->dly.head].ready < d)
            d = p->dly.buf[p->dly.head].ready;
    }
    if (p->rd_n)
        l = p->rd_done[p->rd_head];
    if (p->in.count && p->in.buf[p->in.head].ready < l)
        l = p->in.buf[p->in.head].ready;
    if (p->rop.count && p->in.count < c->l2_queue_entries &&
        p->rop.buf[p->rop.head].ready < l)
        l = p->rop.buf[p->rop.head].ready;
    if (d != UINT64_MAX)
        d = grid_up(max64(d, m->t + 1), m->per[MEM_CLK_DRAM]);
    if (l != UINT64_MAX)
        l = grid_up(max64(l, m->t + 1), m->per[MEM_CLK_L2]);
    return d < l ? d : l;
}

/* Steps 1 and 2 of an instant: the partitions due, each its DRAM channel
 * (on a DRAM edge), then its L2 slice (on an L2 edge). */
void mem_parts_cycle(mem_system *m)
{
    const mem_config *c = &m->cfg;
    int dram_edge = m->tick_now & TICK_DRAM, l2_edge = m->tick_now & TICK_L2;
    /* the partitions due at t (wake <= t), in ascending order; a visit
     * changes only its own partition */
    uint32_t slot = (uint32_t)(m->t & PW_MASK);
    uint64_t keep = 0;
    for (uint64_t bits = m->pwheel[slot]; bits; bits &= bits - 1) {
        uint32_t pi = (uint32_t)__builtin_ctzll(bits);
        part_state *p = &m->part[pi];
        if (p->wake > m->t) {
            if (p->wake != UINT64_MAX && (p->wake & PW_MASK) == slot)
                keep |= 1ull << pi;         /* PW_SLOTS or more instants ahead */
            continue;                       /* else: left by an older wake */
        }
        if (dram_edge &&
            ((p->qn && p->sched_wait <= m->t) ||
             (p->wr_n && p->wr_done[p->wr_head] <= m->t) ||
             (p->qn < c->dram_queue_entries &&
              (p->l2d.n || (p->dly.n && p->dly.buf[p->dly.head].ready <= m->t)))))
            mem_dram_cycle(m, p);
        if (l2_edge &&
            ((p->rd_n && p->rd_done[p->rd_head] <= m->t) ||
             (p->in.count && ring_front(&p->in)->ready <= m->t) ||
             (p->rop.count && ring_front(&p->rop)->ready <= m->t)))
            l2_cycle(m, p);
        p->wake = part_wake(m, p);
        if (p->wake != UINT64_MAX) {
            if ((p->wake & PW_MASK) == slot)
                keep |= 1ull << pi;
            else
                m->pwheel[p->wake & PW_MASK] |= 1ull << pi;
        }
    }
    m->pwheel[slot] = keep;
}
