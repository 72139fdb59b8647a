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

/* What one load access found (load_access). The last three are replays:
 * the access could not be accepted this cycle. */
enum {
    ACC_HIT = 0,         /* L1 hit */
    ACC_MERGE,           /* merged into a pending MSHR */
    ACC_MISS,            /* new miss: an MSHR allocated, the request injected */
    ACC_NO_MERGE,        /* replay: the block's MSHR has no merge slot left */
    ACC_NO_MSHR,         /* replay: no free MSHR, or no way to reserve */
    ACC_NO_ICNT          /* replay: the injection queue is full */
};

/* One L1D access of a global/local load (instruction ii): the four load
 * outcomes of the hook for per-load statistics and the OAWS DLC (L1 hit,
 * merge into a pending MSHR, new miss, replay), each marked "load outcome"
 * below. The per-instruction counts of the unit's retire record are the
 * caller's. known_miss: the access was replayed after finding its sector
 * invalid and no MSHR for its block (ACC_NO_MSHR, ACC_NO_ICNT), and nothing
 * can have changed that since (see ldst_transaction). */
static inline int load_access(mem_system *m, sm_state *s, uint32_t si, const mem_tx *tx,
                              uint32_t ii, int known_miss)
{
    const mem_config *c = &m->cfg;
    uint64_t line = tx->block & ~(uint64_t)(c->l1d_line_bytes - 1);
    uint32_t bit = sector_bit(m, tx->block);
    inst_rec *r = &m->inst[ii];
    l1_line *l = NULL;

    if (known_miss) {
        /* The line's way may have changed (fills of other sectors,
         * evictions): looked up again if needed. */
        if (c->l1d_alloc == MEM_ALLOC_ON_MISS)
            l = l1_find(m, s, tx->set, line);
        goto allocate;
    }
    l = l1_find(m, s, tx->set, line);
    if (l && (l->valid & bit)) {            /* load outcome: L1 hit */
        l->lru = ++s->lru_clock;
        m->st.l1_hit[MEM_LOAD]++;
        r->ready = max64(r->ready, m->now + c->l1d_latency);
        return ACC_HIT;
    }
    int e = mi_find(&s->mshr_ix, tx->block);
    if (e >= 0) {
        mshr_entry *ms = &s->mshr[e];
        if (ms->ntargets >= c->l1d_mshr_max_merge)   /* load outcome: replay */
            return ACC_NO_MERGE;
        /* load outcome: merge */
        if (m->vta_entries)
            mem_vta_probe(m, s, r->c.warp, line);
        s->targets[(uint32_t)e * c->l1d_mshr_max_merge + ms->ntargets++] = ii;
        r->pending++;
        /* even if the fill is about to arrive, no load completes faster than
         * the L1 access itself */
        r->ready = max64(r->ready, m->now + c->l1d_latency);
        m->st.l1_miss[MEM_LOAD]++;
        m->st.l1_mshr_merge++;
        return ACC_MERGE;
    }
allocate:       /* load outcome: replay (the three returns), else new miss */
    if (s->mshr_used == c->l1d_mshr_entries)
        return ACC_NO_MSHR;
    if (ring_full(&s->out))
        return ACC_NO_ICNT;
    if (c->l1d_alloc == MEM_ALLOC_ON_MISS) {
        if (!l) {
            l = l1_victim(m, s, tx->set);
            if (!l)              /* every way has a fill pending */
                return ACC_NO_MSHR;
            l1_take_line(m, s, l, line, r->c.warp);
        }
        l->reserved |= bit;
    }
    if (m->vta_entries)                  /* CCWS: a new miss probes the warp's VTA */
        mem_vta_probe(m, s, r->c.warp, line);
    uint32_t e2 = mi_take(&s->mshr_ix, tx->block);
    s->mshr[e2].used = 1;
    s->mshr[e2].block = tx->block;
    s->mshr[e2].ntargets = 1;
    s->targets[e2 * c->l1d_mshr_max_merge] = ii;
    s->mshr_used++;
    m->mshr_used_all++;
    if (s->mshr_used > m->st.l1_mshr_occ_max)
        m->st.l1_mshr_occ_max = s->mshr_used;
    r->pending++;
    m->st.l1_miss[MEM_LOAD]++;
    m->st.l1_mshr_alloc++;
    if (mem_dup_record(m, line, si))
        m->st.l1_mshr_dup++;
    sm_inject(m, s, si, tx->block, c->l1d_sector_bytes, PK_READ, e2);
    return ACC_MISS;
}

/* ---- MASCAR's re-execution queue --------------------------------------------
 * (docs/oaws.md, "Peers", P10; seed 001 §5: "MASCAR uses a re-execution
 * queue to replay L1D accesses that are stalled due to MSHR unavailability
 * or network congestion ... The re-execution queue has 32 entries"; Sethia
 * et al., HPCA'15.) Off unless mem_reexec_enable was called.
 *
 * An entry is one L1D access (a line or sector of one load). When a
 * global/local load's access cannot be accepted (ACC_NO_MERGE, ACC_NO_MSHR,
 * ACC_NO_ICNT) and the queue has a free entry, the access moves into it and
 * the LD/ST unit goes on with the instruction's next access in the next
 * cycle, and then with the next instruction (whose accesses may hit); with
 * the queue full the unit replays in order as without it. Stores and
 * atomics are never queued (MASCAR re-executes loads; a store's data and an
 * atomic's reply would need more state than an address), and a store or
 * atomic whose block has a queued load waits in the unit until that load is
 * sent (a write must not overtake an earlier read of its data; counted as
 * stall_mshr, since the load waits for an MSHR or queue room). Loads pass
 * queued loads freely: every access looks the MSHRs up, so a queued access
 * merges into whatever entry a later one took for its block.
 *
 * Each cycle the L1D takes one access: the queue's head first, when it can
 * be sent (hit, merge or new miss), else the unit's. A head that cannot be
 * sent sleeps until an MSHR is released or the injection queue drains (the
 * unit's own replay does the same, see sm_block), and every cycle with the
 * queue non-empty and its head not sendable counts as mascar_replay (seed
 * 001 Fig. 9's MASCAR_Replay: "the cycles when the memory access from the
 * re-execution queue cannot be sent out"). A queued access keeps its load
 * pending: the load completes only when all its accesses, queued ones
 * included, have their data. */

int mem_reexec_enable(mem_system *m, uint32_t entries)
{
    for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
        sm_state *s = &m->sm[i];
        free(s->rq);
        s->rq = entries ? calloc(entries, sizeof *s->rq) : NULL;
        if (entries && !s->rq)
            return -1;
        s->rq_head = s->rq_n = 0;
        s->rq_blocked = 0;
    }
    m->reexec_entries = entries;
    return 0;
}

uint32_t mem_reexec_entries(const mem_system *m) { return m->reexec_entries; }

static reexec_entry *rq_at(const mem_system *m, const sm_state *s, uint32_t k)
{
    uint32_t i = s->rq_head + k;
    return &s->rq[i >= m->reexec_entries ? i - m->reexec_entries : i];
}

/* The unit's access at tx[next] of load s->inst failed: into the queue. The
 * caller checked there is room. The load stays pending until it is sent. */
static void rq_push(mem_system *m, sm_state *s)
{
    reexec_entry *e = rq_at(m, s, s->rq_n);
    e->tx = s->tx[s->next];
    e->inst = s->inst;
    m->inst[s->inst].pending++;
    if (s->rq_n++ == 0) {
        /* its head just failed and nothing has changed since: asleep from
         * the next cycle on (this one was the unit's, not a queue replay) */
        s->rq_blocked = 1;
        s->rq_since = m->now;
    }
    m->st.reexec_accesses++;
}

/* Is a load access to `block` in the queue? */
static int rq_holds(const mem_system *m, const sm_state *s, uint64_t block)
{
    for (uint32_t k = 0; k < s->rq_n; k++)
        if (rq_at(m, s, k)->tx.block == block)
            return 1;
    return 0;
}

/* Retry the head (not asleep). 1 when it was sent: this cycle's L1D access. */
static int rq_retry_head(mem_system *m, sm_state *s, uint32_t si)
{
    reexec_entry *e = rq_at(m, s, 0);
    int k = load_access(m, s, si, &e->tx, e->inst, 0);
    if (k >= ACC_NO_MERGE) {
        m->st.mascar_replay++;
        s->rq_blocked = 1;
        s->rq_since = m->now;
        return 0;
    }
    uint32_t ii = e->inst;
    s->rq_head = s->rq_head + 1 == m->reexec_entries ? 0 : s->rq_head + 1;
    s->rq_n--;
    /* the queue's hold on the load ends (a miss or merge holds it instead) */
    inst_data(m, ii, 0, 1);
    return 1;
}

/* Process the next transaction of the instruction in the LD/ST unit.
 * Returns 1 when it was accepted (or moved into the re-execution queue),
 * 0 when it must be replayed. */
static int ldst_transaction(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    mem_tx *tx = &s->tx[s->next];
    inst_rec *r = &m->inst[s->inst];

    if (s->op != MEM_LOAD) {
        /* stores and atomics: write-evict, no write-allocate; atomics are
         * performed at the L2 */
        if (s->rq_n && rq_holds(m, s, tx->block)) {
            /* a queued load of this block goes first: retried every cycle
             * (the queue may drain without an event that wakes the unit) */
            m->st.stall_mshr++;
            s->cur_replay_mshr++;
            return 0;
        }
        if (ring_full(&s->out)) {
            m->st.stall_icnt++;
            s->cur_replay_icnt++;
            sm_block(m, s, 1);
            return 0;
        }
        uint64_t line = tx->block & ~(uint64_t)(c->l1d_line_bytes - 1);
        l1_line *l = l1_find(m, s, tx->set, line);
        if (l && l->valid && !l->reserved) {
            l->valid = 0;
            s->ltag[l - s->lines] = L1_NO_LINE;
            m->st.l1_write_evicts++;
            m->st.l1_hit[s->op]++;
        } else {
            m->st.l1_miss[s->op]++;
        }
        if (s->op == MEM_STORE) {
            if (c->store_acks)          /* mem.store_acks: complete at the last ack */
                r->pending++;
            sm_inject(m, s, si, tx->block, tx->bytes, PK_WRITE, s->inst);
        } else {
            r->pending++;
            sm_inject(m, s, si, tx->block, tx->bytes, PK_ATOMIC, s->inst);
        }
        return 1;
    }
    /* A replay of a load that missed with no MSHR for its block (known_miss)
     * skips the hit and merge checks: only a fill can validate its sector
     * and only this LD/ST unit, which holds the load, can allocate an MSHR
     * (fills come only for MSHRs), so it still misses and merges nowhere.
     * Not so with a re-execution queue, whose head allocates MSHRs too: it
     * is never set then. */
    int k = load_access(m, s, si, tx, s->inst, s->known_miss);
    if (k < ACC_NO_MERGE) {
        s->known_miss = 0;
        if (k == ACC_HIT)
            s->cur_hits++;
        else
            s->cur_misses++;
        return 1;
    }
    if (m->reexec_entries) {
        if (s->rq_n < m->reexec_entries) {   /* MASCAR: queued, the unit goes on */
            rq_push(m, s);
            s->cur_misses++;
            return 1;
        }
    } else if (k != ACC_NO_MERGE) {
        s->known_miss = 1;
    }
    if (k == ACC_NO_ICNT) {
        m->st.stall_icnt++;
        s->cur_replay_icnt++;
        sm_block(m, s, 1);
    } else {
        m->st.stall_mshr++;
        s->cur_replay_mshr++;
        sm_block(m, s, 0);
    }
    return 0;
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
    r->counted = 1;
    s->inflight++;
    ldst_gate(m, s, r->c.sm);
    r->issuing = 0;
    inst_data(m, s->inst, ready, 0);
}

static void sm_cycle(mem_system *m, sm_state *s, uint32_t si)
{
    const mem_config *c = &m->cfg;
    /* one response per cycle */
    if (s->in.count && ring_front(&s->in)->ready <= m->now) {
        packet *pk = ring_front(&s->in);
        if (pk->kind == PK_ATOMIC || pk->kind == PK_WRITE)   /* reply, acknowledgement */
            inst_data(m, pk->inst, m->now + 1, 1);
        else if (pk->kind == PK_IREAD)
            mem_l1i_fill(m, s, pk->addr, pk->inst);
        else
            l1_fill(m, s, pk->addr, pk->inst);
        ring_pop(&s->in);
        m->cl_in_count[cluster_of(m, si)]--;
        m->live--;
        sm_wake(m, s, si);
    }
    /* MASCAR: the re-execution queue's head has the L1D first */
    int head_sent = s->rq_n && !s->rq_blocked && rq_retry_head(m, s, si);
    if (!s->busy || s->blocked)
        return;
    m->st.ldst_busy_cycles++;
    if (s->space == MEM_SHARED || s->space == MEM_CONST) {
        if (--s->remaining == 0)
            ldst_done(m, s, m->now + (s->space == MEM_SHARED ? c->smem_latency
                                                             : c->const_latency));
        return;
    }
    if (head_sent)               /* the unit's access waits for the next cycle */
        return;
    /* l1d.ports transactions per cycle; one that must be replayed ends the
     * cycle's accesses (the rest of the instruction is tried next cycle) */
    for (uint32_t port = 0; port < c->l1d_ports; port++) {
        if (!ldst_transaction(m, s, si))
            return;
        s->next++;
        if (s->next == s->ntx) {
            ldst_done(m, s, m->now + 1);
            return;
        }
    }
    m->st.stall_coal++;
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
            if (l1i_busy(s))
                mem_l1i_cycle(m, s, si);
            /* stay for the next cycle if the unit works, the L1I has work
             * or the (new) front response is due then; otherwise sleep
             * until that response */
            int due_next = 0;
            if (s->in.count) {
                uint64_t ready = ring_front(&s->in)->ready;
                if (ready <= m->now + 1)
                    due_next = 1;
                else
                    wheel_add(m, si, ready);
            }
            if ((!s->busy || s->blocked) && !due_next && (!s->rq_n || s->rq_blocked) &&
                !l1i_busy(s))
                bs_clear(&m->sm_active, si);
        }
    }
}

/* ---- submission and completions --------------------------------------------- */

bool mem_ldst_ready(const mem_system *m, uint32_t sm)
{
    return sm < m->cfg.num_sms && !bs_test(&m->sm_ldst_busy, sm);
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
    if (!mem_ldst_ready(m, req->sm))
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
    r->counted = 0;
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
