/*
 * mem_l1d.c — the memory side of one SM: submission (mem_submit), the LD/ST
 * unit with its replays (memory occlusion, OAWS §2.2) and stall breakdown,
 * the L1 data cache (sets, LRU, sectors, allocate-on-fill or -on-miss,
 * write-evict), its MSHRs with merging, and the shared-memory and constant
 * cache timing. Misses and stores leave through the SM's injection queue
 * (mem_icnt.c); fills come back through mem_sms_cycle.
 *
 * Where a load's fate is decided, for per-load statistics and the OAWS
 * Divergent Load Classifier (docs/memory-model.md, "Source files"): the
 * coalescer's verdict (#acc, #sets, coherent) is known in mem_submit, and
 * each transaction's outcome (L1 hit, MSHR merge, new miss, replay for want
 * of an MSHR or of queue room) in ldst_transaction.
 */
#include "mem_internal.h"
#include "fail.h"

#include <string.h>

/* ---- replays ---------------------------------------------------------------
 * A transaction that cannot be accepted (no MSHR, merge list full, no line to
 * reserve, injection queue full) is replayed every cycle, holding the LD/ST
 * unit. Nothing but an MSHR release or an injection-queue pop can change the
 * outcome, so instead of retrying every cycle the SM sleeps until one of
 * those events and the skipped cycles are added to the stall counters then:
 * the statistics and timing are the same as with a retry every cycle. */

static void sm_block(mem_system *m, sm_state *s, int kind)
{
    s->blocked = 1;
    s->blocked_kind = (uint8_t)kind;
    s->blocked_since = m->now;
}

/* ---- L1D --------------------------------------------------------------- */

static l1_line *l1_set_base(mem_system *m, sm_state *s, uint32_t set)
{
    return &s->lines[(size_t)set * m->cfg.l1d_ways];
}

/* The way holding line (valid or reserved sectors), or NULL. A line is in
 * at most one such way, so the scan needs no early exit: it is written
 * without data-dependent branches (the outcome is hard to predict). Empty
 * ways hold L1_NO_LINE, which matches no line. */
static l1_line *l1_find(mem_system *m, sm_state *s, uint32_t set, uint64_t line)
{
    size_t base = (size_t)set * m->cfg.l1d_ways;
    const uint64_t *t = &s->ltag[base];
    uint32_t found = UINT32_MAX;
    for (uint32_t w = 0; w < m->cfg.l1d_ways; w++)
        found = t[w] == line ? w : found;
    return found == UINT32_MAX ? NULL : &s->lines[base + found];
}

/* LRU victim among lines with no reserved sectors; NULL if all reserved. */
static l1_line *l1_victim(mem_system *m, sm_state *s, uint32_t set)
{
    l1_line *b = l1_set_base(m, s, set), *v = NULL;
    for (uint32_t w = 0; w < m->cfg.l1d_ways; w++) {
        if (b[w].reserved)
            continue;
        if (!b[w].valid)
            return &b[w];
        if (!v || b[w].lru < v->lru)
            v = &b[w];
    }
    return v;
}

static void l1_take_line(mem_system *m, sm_state *s, l1_line *v, uint64_t line, uint32_t warp)
{
    if (v->valid) {
        m->st.l1_evictions++;
        if (m->vta_entries)              /* CCWS: the evicted line's warp lost it */
            mem_vta_insert(m, s, v->wid, s->ltag[v - s->lines]);
    }
    v->wid = warp;
    s->ltag[v - s->lines] = line;
    v->valid = 0;
    v->reserved = 0;
    v->lru = ++s->lru_clock;
}

static uint32_t sector_bit(const mem_system *m, uint64_t block)
{
    return 1u << ((block & (m->cfg.l1d_line_bytes - 1)) >> lg(m->cfg.l1d_sector_bytes));
}


/* A read response for `block` reached SM s: fill and serve the MSHR. */
static void l1_fill(mem_system *m, sm_state *s, uint64_t block, uint32_t entry)
{
    const mem_config *c = &m->cfg;
    /* the request carried its MSHR entry; check it is the right one */
    int e = (int)entry;
    if (entry >= c->l1d_mshr_entries || !s->mshr[e].used || s->mshr[e].block != block) {
        fprintf(stderr, "smcosim mem-model: internal error: response for "
                "block 0x%llx without MSHR\n", (unsigned long long)block);
        abort();
    }
    uint64_t line = block & ~(uint64_t)(c->l1d_line_bytes - 1);
    uint32_t set = mem_l1_set(c, line), bit = sector_bit(m, block);
    /* With whole-line blocks and allocate-on-fill the line missed when the
     * entry was taken and nothing but this fill can bring it in (stores do
     * not allocate): no lookup. Otherwise fills of other sectors may have
     * allocated it, or allocate-on-miss reserved it. */
    l1_line *l = m->sectors_per_line == 1 && c->l1d_alloc == MEM_ALLOC_ON_FILL
                     ? NULL : l1_find(m, s, set, line);
    if (!l) {
        /* allocate-on-fill (or a line invalidated by a store meanwhile) */
        l = l1_victim(m, s, set);
        if (l)      /* the warp of the miss that took the entry */
            l1_take_line(m, s, l, line,
                         m->inst[s->targets[(uint32_t)e * c->l1d_mshr_max_merge]].c.warp);
    }
    if (l) {
        l->reserved &= ~bit;
        l->valid |= bit;
        l->lru = ++s->lru_clock;
        m->st.l1_fills++;
    }
    mshr_entry *ms = &s->mshr[e];
    for (uint32_t t = 0; t < ms->ntargets; t++)
        inst_data(m, s->targets[(uint32_t)e * c->l1d_mshr_max_merge + t], m->now + 1, 1);
    m->st.l1_mshr_targets += ms->ntargets;
    m->st.l1_mshr_released++;
    m->st.l1_mshr_merge_hist[ms->ntargets > 64 ? 64 : ms->ntargets]++;
    ms->used = 0;
    mi_release(&s->mshr_ix, block, entry);
    s->mshr_used--;
    m->mshr_used_all--;
}

static void inject(mem_system *m, sm_state *s, uint32_t si, uint64_t addr,
                   uint32_t bytes, int kind, uint32_t inst)
{
    packet pk = { addr, m->now + 1, si, inst, bytes, (uint8_t)kind };
    ring_push(&s->out, &pk);
    bs_set(&m->sm_out_busy, si);
    m->live++;
}

/* Process the next transaction of the instruction in the LD/ST unit.
 * Returns 1 when it was accepted, 0 when it must be replayed. A load's
 * transaction ends in exactly one of four outcomes, each marked "load
 * outcome" below (the hook for per-load statistics and the OAWS DLC): L1
 * hit, merge into a pending MSHR, new miss (an MSHR allocated), replay. */
static int ldst_transaction(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    mem_tx *tx = &s->tx[s->next];
    uint64_t line = tx->block & ~(uint64_t)(c->l1d_line_bytes - 1);
    uint32_t bit = sector_bit(m, tx->block);
    inst_rec *r = &m->inst[s->inst];
    l1_line *l = NULL;

    if (s->known_miss) {
        /* A replay of a load that missed with no MSHR for its block: only a
         * fill can validate its sector and only this LD/ST unit, which holds
         * the load, can allocate an MSHR (fills come only for MSHRs), so it
         * still misses and merges nowhere. The line's way may have changed
         * (fills of other sectors, evictions): looked up again if needed. */
        if (c->l1d_alloc == MEM_ALLOC_ON_MISS)
            l = l1_find(m, s, tx->set, line);
        goto allocate;
    }
    l = l1_find(m, s, tx->set, line);
    if (s->op != MEM_LOAD) {
        /* stores and atomics: write-evict, no write-allocate; atomics are
         * performed at the L2 */
        if (ring_full(&s->out)) {
            m->st.stall_icnt++;
            s->cur_replay_icnt++;
            sm_block(m, s, 1);
            return 0;
        }
        if (l && l->valid && !l->reserved) {
            l->valid = 0;
            s->ltag[l - s->lines] = L1_NO_LINE;
            m->st.l1_write_evicts++;
            m->st.l1_hit[s->op]++;
        } else {
            m->st.l1_miss[s->op]++;
        }
        if (s->op == MEM_STORE) {
            inject(m, s, si, tx->block, tx->bytes, PK_WRITE, 0);
        } else {
            r->pending++;
            inject(m, s, si, tx->block, tx->bytes, PK_ATOMIC, s->inst);
        }
        return 1;
    }
    if (l && (l->valid & bit)) {            /* load outcome: L1 hit */
        l->lru = ++s->lru_clock;
        m->st.l1_hit[MEM_LOAD]++;
        s->cur_hits++;
        r->ready = max64(r->ready, m->now + c->l1d_latency);
        return 1;
    }
    int e = mi_find(&s->mshr_ix, tx->block);
    if (e >= 0) {
        mshr_entry *ms = &s->mshr[e];
        if (ms->ntargets >= c->l1d_mshr_max_merge) {   /* load outcome: replay */
            m->st.stall_mshr++;
            s->cur_replay_mshr++;
            sm_block(m, s, 0);
            return 0;
        }
        /* load outcome: merge */
        if (m->vta_entries)
            mem_vta_probe(m, s, r->c.warp, line);
        s->targets[(uint32_t)e * c->l1d_mshr_max_merge + ms->ntargets++] = s->inst;
        r->pending++;
        /* even if the fill is about to arrive, no load completes faster than
         * the L1 access itself */
        r->ready = max64(r->ready, m->now + c->l1d_latency);
        m->st.l1_miss[MEM_LOAD]++;
        s->cur_misses++;
        m->st.l1_mshr_merge++;
        return 1;
    }
allocate:       /* load outcome: replay (the three returns 0), else new miss */
    if (s->mshr_used == c->l1d_mshr_entries) {
        m->st.stall_mshr++;
        s->cur_replay_mshr++;
        sm_block(m, s, 0);
        s->known_miss = 1;
        return 0;
    }
    if (ring_full(&s->out)) {
        m->st.stall_icnt++;
        s->cur_replay_icnt++;
        sm_block(m, s, 1);
        s->known_miss = 1;
        return 0;
    }
    if (c->l1d_alloc == MEM_ALLOC_ON_MISS) {
        if (!l) {
            l = l1_victim(m, s, tx->set);
            if (!l) {            /* every way has a fill pending */
                m->st.stall_mshr++;
                s->cur_replay_mshr++;
                sm_block(m, s, 0);
                s->known_miss = 1;
                return 0;
            }
            l1_take_line(m, s, l, line, r->c.warp);
        }
        l->reserved |= bit;
    }
    s->known_miss = 0;
    if (m->vta_entries)                  /* CCWS: a new miss probes the warp's VTA */
        mem_vta_probe(m, s, r->c.warp, line);
    uint32_t e2 = mi_take(&s->mshr_ix, tx->block);
    s->mshr[e2].used = 1;
    s->mshr[e2].block = tx->block;
    s->mshr[e2].ntargets = 1;
    s->targets[e2 * c->l1d_mshr_max_merge] = s->inst;
    s->mshr_used++;
    m->mshr_used_all++;
    if (s->mshr_used > m->st.l1_mshr_occ_max)
        m->st.l1_mshr_occ_max = s->mshr_used;
    r->pending++;
    m->st.l1_miss[MEM_LOAD]++;
    s->cur_misses++;
    m->st.l1_mshr_alloc++;
    if (mem_dup_record(m, line, si))
        m->st.l1_mshr_dup++;
    inject(m, s, si, tx->block, c->l1d_sector_bytes, PK_READ, e2);
    return 1;
}

static void ldst_done(mem_system *m, sm_state *s, uint64_t ready)
{
    inst_rec *r = &m->inst[s->inst];
    mem_ldst_retire *x = &s->ret;
    x->tag = r->c.tag;
    x->warp = r->c.warp;
    x->op = (mem_op)s->op;
    x->space = (mem_space)s->space;
    x->transactions = s->ntx;
    x->sets = s->cur_sets;
    x->coherent = s->cur_coherent;
    x->l1_hits = s->cur_hits;
    x->l1_misses = s->cur_misses;
    x->replay_mshr = s->cur_replay_mshr;
    x->replay_icnt = s->cur_replay_icnt;
    x->cycle = m->now;
    s->ret_stamp = m->now + 1;
    s->busy = 0;
    bs_clear(&m->sm_ldst_busy, r->c.sm);
    r->issuing = 0;
    inst_data(m, s->inst, ready, 0);
}

static void sm_cycle(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    /* one response per cycle */
    if (s->in.count && ring_front(&s->in)->ready <= m->now) {
        packet *pk = ring_front(&s->in);
        if (pk->kind == PK_ATOMIC)
            inst_data(m, pk->inst, m->now + 1, 1);
        else
            l1_fill(m, s, pk->addr, pk->inst);
        ring_pop(&s->in);
        m->live--;
        sm_wake(m, s, si);
    }
    if (!s->busy || s->blocked)
        return;
    m->st.ldst_busy_cycles++;
    if (s->space == MEM_SHARED || s->space == MEM_CONST) {
        if (--s->remaining == 0)
            ldst_done(m, s, m->now + (s->space == MEM_SHARED ? c->smem_latency
                                                             : c->const_latency));
        return;
    }
    if (!ldst_transaction(m, s, si))
        return;
    s->next++;
    if (s->next < s->ntx) {
        m->st.stall_coal++;
        return;
    }
    ldst_done(m, s, m->now + 1);
}

/* Step 4 of mem_cycle: the SMs due this cycle (the LD/ST unit works, or the
 * response at the front of the ejection queue is due), in ascending order. */
void mem_sms_cycle(mem_system *m)
{
    uint64_t *due = &m->wheel[(size_t)(m->now & m->wheel_mask) * m->sm_active.nwords];
    for (uint32_t w = 0; w < m->sm_active.nwords; w++) {
        m->sm_active.w[w] |= due[w];
        due[w] = 0;
    }
    for (uint32_t w = 0; w < m->sm_active.nwords; w++) {
        uint64_t bits = m->sm_active.w[w];
        while (bits) {
            uint32_t si = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            sm_state *s = &m->sm[si];
            sm_cycle(m, s, si);
            /* stay for the next cycle if the unit works or the (new) front
             * response is due then; otherwise sleep until that response */
            int due_next = 0;
            if (s->in.count) {
                uint64_t ready = ring_front(&s->in)->ready;
                if (ready <= m->now + 1)
                    due_next = 1;
                else
                    wheel_add(m, si, ready);
            }
            if ((!s->busy || s->blocked) && !due_next)
                bs_clear(&m->sm_active, si);
        }
    }
}

/* ---- submission and completions --------------------------------------------- */

bool mem_ldst_ready(const mem_system *m, uint32_t sm)
{
    return sm < m->cfg.num_sms && !m->sm[sm].busy;
}

uint32_t mem_ldst_ready_list(const mem_system *m, uint32_t *sms)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < m->sm_ldst_busy.nwords; w++) {
        uint64_t free_bits = ~m->sm_ldst_busy.w[w];
        uint32_t left = m->cfg.num_sms - w * 64;
        if (left < 64)
            free_bits &= (1ull << left) - 1;
        while (free_bits) {
            sms[n++] = w * 64 + (uint32_t)__builtin_ctzll(free_bits);
            free_bits &= free_bits - 1;
        }
    }
    return n;
}

uint32_t mem_free_mshrs(const mem_system *m, uint32_t sm)
{
    if (sm >= m->cfg.num_sms)
        return 0;
    return m->cfg.l1d_mshr_entries - m->sm[sm].mshr_used;
}

int mem_coalesce(const mem_system *m, const mem_request *req,
                 mem_coalesce_info *info, char *err, size_t errlen)
{
    mem_tx tx[MEM_MAX_TX];
    uint32_t ntx;
    return mem_coalesce_tx(&m->cfg, req, tx, &ntx, info, err, errlen);
}

int mem_ldst_retired(const mem_system *m, uint32_t sm, mem_ldst_retire *r)
{
    if (sm >= m->cfg.num_sms)
        return 0;
    const sm_state *s = &m->sm[sm];
    if (s->ret_stamp == 0 || s->ret_stamp != m->now)
        return 0;
    *r = s->ret;
    return 1;
}

int mem_submit(mem_system *m, const mem_request *req, mem_coalesce_info *info,
               char *err, size_t errlen)
{
    if (req->sm >= m->cfg.num_sms)
        return smc_fail(err, errlen, "request for SM %u, but mem.num_sms is %u",
                    req->sm, m->cfg.num_sms);
    sm_state *s = &m->sm[req->sm];
    if (s->busy)
        return smc_fail(err, errlen, "SM %u: LD/ST unit busy (check mem_ldst_ready)",
                    req->sm);
    mem_coalesce_info local;
    if (!info)
        info = &local;
    if (mem_coalesce_tx(&m->cfg, req, s->tx, &s->ntx, info, err, errlen) != 0)
        return -1;
    uint32_t i;
    if (inst_alloc(m, &i) != 0)
        return smc_fail(err, errlen, "out of memory");
    inst_rec *r = &m->inst[i];
    memset(&r->c, 0, sizeof r->c);
    r->c.sm = req->sm;
    r->c.warp = req->warp;
    r->c.op = req->op;
    r->c.space = req->space;
    r->c.num_dst = req->num_dst;
    memcpy(r->c.dst, req->dst, sizeof r->c.dst);
    r->c.tag = req->tag;
    r->c.submit_cycle = m->now;
    r->ready = 0;
    r->pending = 0;
    r->issuing = 1;
    m->st.insts[req->op][req->space]++;
    m->outstanding++;
    s->inst = i;
    s->op = (uint8_t)req->op;
    s->space = (uint8_t)req->space;
    s->next = 0;
    s->known_miss = 0;
    s->cur_hits = s->cur_misses = 0;
    s->cur_replay_mshr = s->cur_replay_icnt = 0;
    s->cur_sets = info->sets;
    s->cur_coherent = info->coherent;
    if (req->space == MEM_SHARED || req->space == MEM_CONST) {
        uint32_t cyc = req->space == MEM_SHARED ? info->bank_conflict
                                                : info->transactions;
        if (req->space == MEM_SHARED) {
            m->st.smem_accesses++;
            m->st.smem_bank_cycles += cyc;
        } else {
            m->st.const_accesses++;
            m->st.const_cycles += cyc;
        }
        s->ntx = 0;
        if (cyc == 0) {          /* no active lane */
            r->issuing = 0;
            inst_data(m, i, m->now + 1, 0);
            return 0;
        }
        s->remaining = cyc;
    } else {
        if (s->ntx == 0) {
            r->issuing = 0;
            inst_data(m, i, m->now + 1, 0);
            return 0;
        }
        m->st.transactions += s->ntx;
        if (info->coherent)
            m->st.coherent_insts++;
        else
            m->st.divergent_insts++;
    }
    s->busy = 1;
    bs_set(&m->sm_ldst_busy, req->sm);
    bs_set(&m->sm_active, req->sm);
    return 0;
}
