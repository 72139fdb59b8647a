/*
 * sched_cmodel.c -- the C reference model of rtl/sched_core.sv.
 *
 * Cycle-exact with the RTL: for the same inputs it produces the same outputs
 * every cycle (checked by tests/sched/ in lockstep with the Verilated RTL).
 * It is written for speed rather than as a transliteration of the RTL: the
 * per-warp qualification state is kept as 64-bit masks over warps, and only
 * the warps touched in a cycle (issue, push, writeback, launch/finish) have
 * their hazard state recomputed. Nothing is allocated per cycle.
 *
 * The model mirrors the RTL's register/next-state split: outputs of cycle t
 * (and the decisions behind them: grants, fetch requests, reasons) are
 * computed from the state alone by compute_outputs(); step() then applies the
 * rising edge: the decisions of cycle t plus the sampled inputs.
 */
#include "sched_if.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scoreboard is kept as bit maps over register ids rather than as the
 * RTL's slots: a warp never has two pending writes to one register (WAW
 * stalls issue), so "slot holding reg r is valid" is "bit r is set", and
 * full is "as many bits as slots". Same observable behaviour, cheaper test. */
typedef struct cm_warp {
    sched_instr buf[SCHED_MAX_IBUF_DEPTH];  /* ring buffer */
    unsigned    head;
    unsigned    count;
    unsigned    sb_count;                   /* pending writes */
    unsigned    sb_long_count;              /* ... of them long-latency */
    uint64_t    pend[4];                    /* bit r: write to r pending */
    uint64_t    pend_long[4];               /* ... and it is long-latency */
} cm_warp;

static inline int bit_test(const uint64_t *map, unsigned r) { return (int)((map[r >> 6] >> (r & 63)) & 1); }
static inline void bit_set(uint64_t *map, unsigned r) { map[r >> 6] |= 1ull << (r & 63); }
static inline void bit_clear(uint64_t *map, unsigned r) { map[r >> 6] &= ~(1ull << (r & 63)); }

typedef struct cmodel {
    sched_backend base;                     /* first: cast from sched_backend */

    uint64_t all_warps;                     /* bits 0..num_warps-1 */
    uint64_t sched_mask[SCHED_MAX_SCHEDULERS];

    /* registered levels */
    unsigned policy, warp_limit, pool_size;
    uint8_t  unit_avail[SCHED_MAX_SCHEDULERS];
    uint64_t barrier;
    uint64_t alive;

    /* derived per-warp state (function of buffers and scoreboards) */
    uint64_t head_valid;                    /* buffer not empty */
    uint64_t space;                         /* buffer not full */
    uint64_t hazard;                        /* head RAW/WAW on any pending write */
    uint64_t hazard_long;                   /* ... on a long-latency one */
    uint64_t need_full;                     /* head has dst and scoreboard full */
    uint64_t long_pending;
    uint64_t op_mask[SCHED_NUM_OP_CLASSES]; /* head op class, for valid heads */
    uint64_t swl_ok;                        /* static warp limit */

    /* other registers */
    uint64_t in_active;                     /* two-level active pool */
    unsigned last_issue[SCHED_MAX_SCHEDULERS];  /* global warp ids */
    unsigned last_fetch[SCHED_MAX_SCHEDULERS];
    /* the counters are registers; they live in base.out.counters */

    /* decisions of the current cycle (from compute_outputs) */
    int      grant[SCHED_MAX_SCHEDULERS];   /* warp id or -1 */
    int      fetch[SCHED_MAX_SCHEDULERS];
    unsigned reason[SCHED_MAX_SCHEDULERS];

    cm_warp  warp[SCHED_MAX_WARPS];
} cmodel;

static inline unsigned lowest(uint64_t m) { return (unsigned)__builtin_ctzll(m); }

/* Bit count without a libgcc call (the build does not assume POPCNT). */
static inline unsigned popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* Bits strictly above position w. */
static inline uint64_t above(unsigned w) { return w >= 63 ? 0 : ~0ull << (w + 1); }

/* First set bit of m after `last`, wrapping; m must not be zero. */
static inline unsigned rr_pick(uint64_t m, unsigned last)
{
    uint64_t hi = m & above(last);
    return lowest(hi ? hi : m);
}

/* Recompute the derived state of one warp from its buffer and scoreboard. */
static void refresh_warp(cmodel *m, unsigned w)
{
    const cm_warp *wp = &m->warp[w];
    uint64_t bit = 1ull << w;
    uint64_t clr = ~bit;

    m->head_valid &= clr;
    m->space &= clr;
    m->hazard &= clr;
    m->hazard_long &= clr;
    m->need_full &= clr;
    m->long_pending &= clr;
    m->op_mask[0] &= clr;
    m->op_mask[1] &= clr;
    m->op_mask[2] &= clr;
    m->op_mask[3] &= clr;

    if (wp->count < m->base.params.ibuf_depth) m->space |= bit;
    if (wp->sb_long_count) m->long_pending |= bit;
    if (wp->count == 0) return;

    const sched_instr *h = &wp->buf[wp->head];
    m->head_valid |= bit;
    m->op_mask[h->op] |= bit;
    if (h->dst_valid && wp->sb_count == m->base.params.sb_entries) m->need_full |= bit;
    if (wp->sb_count == 0) return;

    int haz = 0, haz_long = 0;
#define CHECK_REG(r) do { if (bit_test(wp->pend, r)) { haz = 1; haz_long |= bit_test(wp->pend_long, r); } } while (0)
    if (h->dst_valid) CHECK_REG(h->dst);
    if (h->src_valid & 1) CHECK_REG(h->src[0]);
    if (h->src_valid & 2) CHECK_REG(h->src[1]);
    if (h->src_valid & 4) CHECK_REG(h->src[2]);
#undef CHECK_REG
    if (haz) m->hazard |= bit;
    if (haz_long) m->hazard_long |= bit;
}

/* The static warp limit: warps with fewer than warp_limit alive warps below. */
static void refresh_swl(cmodel *m)
{
    if (m->warp_limit == 0) { m->swl_ok = ~0ull; return; }
    uint64_t a = m->alive;
    unsigned n = 0;
    while (a && n + 1 < m->warp_limit) { a &= a - 1; n++; }
    /* a's lowest bit is now the warp_limit-th alive warp (if any) */
    if (!a) { m->swl_ok = ~0ull; return; }
    unsigned pos = lowest(a);
    m->swl_ok = pos >= 63 ? ~0ull : (1ull << (pos + 1)) - 1;
}

static void fill_issue(sched_issue *o, const sched_instr *i, unsigned warp)
{
    o->valid = 1;
    o->warp = (uint8_t)warp;
    o->pc = i->pc;
    o->op = i->op;
    o->dst_valid = i->dst_valid;
    o->dst = i->dst;
    o->pred = i->pred;
    o->long_lat = i->long_lat;
    o->hint = i->hint;
    o->pred_miss = i->pred_miss;
}

/* Outputs and decisions of the current cycle, from the state only. */
static void compute_outputs(cmodel *m)
{
    sched_outputs *o = &m->base.out;
    const unsigned ns = m->base.params.num_schedulers;
    uint64_t limit_ok = m->swl_ok & (m->policy == SCHED_POLICY_TWO_LEVEL ? m->in_active : ~0ull);

    for (unsigned s = 0; s < ns; s++) {
        uint64_t alive = m->alive & m->sched_mask[s];
        uint64_t hv = alive & m->head_valid;
        uint64_t no_instr = alive & ~m->head_valid;
        uint64_t bar = hv & m->barrier;
        uint64_t r = hv & ~m->barrier;
        uint64_t wl = r & ~limit_ok;
        r &= limit_ok;
        uint64_t ld = r & m->hazard_long;
        r &= ~m->hazard_long;
        uint64_t sb = r & (m->hazard | m->need_full);
        r &= ~sb;
        const uint64_t u = m->unit_avail[s];
        uint64_t unit_ok = (m->op_mask[0] & -(u & 1)) | (m->op_mask[1] & -((u >> 1) & 1)) |
                           (m->op_mask[2] & -((u >> 2) & 1)) | (m->op_mask[3] & -((u >> 3) & 1));
        uint64_t ub = r & ~unit_ok;
        uint64_t ready = r & unit_ok;

        sched_issue *is = &o->issue[s];
        if (ready) {
            unsigned w;
            if (m->policy == SCHED_POLICY_GTO)
                w = (ready >> m->last_issue[s]) & 1 ? m->last_issue[s] : lowest(ready);
            else
                w = rr_pick(ready, m->last_issue[s]);
            m->grant[s] = (int)w;
            m->reason[s] = SCHED_REASON_ISSUE;
            const cm_warp *wp = &m->warp[w];
            fill_issue(is, &wp->buf[wp->head], w);
        } else {
            m->grant[s] = -1;
            m->reason[s] = ub ? SCHED_REASON_UNIT_BUSY : sb ? SCHED_REASON_SCOREBOARD
                         : ld ? SCHED_REASON_LONG_DEP : wl ? SCHED_REASON_WARP_LIMIT
                         : bar ? SCHED_REASON_BARRIER : SCHED_REASON_NO_INSTR;
            memset(is, 0, sizeof *is);
        }
        (void)no_instr;
        o->stall_reason[s] = (uint8_t)m->reason[s];

        uint64_t want = alive & m->space;
        if (want) {
            unsigned w = rr_pick(want, m->last_fetch[s]);
            m->fetch[s] = (int)w;
            o->fetch_valid[s] = 1;
            o->fetch_warp[s] = (uint8_t)w;
        } else {
            m->fetch[s] = -1;
            o->fetch_valid[s] = 0;
            o->fetch_warp[s] = 0;
        }
    }
    o->long_pending = m->long_pending;
}

static void cm_reset(sched_backend *b)
{
    cmodel *m = (cmodel *)b;
    const sched_params *p = &b->params;
    size_t keep = offsetof(cmodel, all_warps);
    memset((char *)m + keep, 0, sizeof *m - keep);
    memset(&b->out, 0, sizeof b->out);

    m->all_warps = p->num_warps == 64 ? ~0ull : (1ull << p->num_warps) - 1;
    for (unsigned w = 0; w < p->num_warps; w++)
        m->sched_mask[w % p->num_schedulers] |= 1ull << w;
    m->space = m->all_warps;                /* every buffer empty */
    m->swl_ok = ~0ull;
    unsigned last_local = p->num_warps / p->num_schedulers - 1;
    for (unsigned s = 0; s < p->num_schedulers; s++) {
        m->last_issue[s] = last_local * p->num_schedulers + s;
        m->last_fetch[s] = m->last_issue[s];
    }
    compute_outputs(m);
}

static void cm_step(sched_backend *b, const sched_inputs *in)
{
    cmodel *m = (cmodel *)b;
    const sched_params *p = &b->params;
    const unsigned ns = p->num_schedulers;
    uint64_t dirty = in->launch | in->finish;

    /* Two-level pool, from the state of this cycle. */
    {
        uint64_t long_wait = m->head_valid & m->hazard_long;
        uint64_t stay = m->in_active & m->alive & ~long_wait;
        uint64_t cand = ~m->in_active & m->alive & ~long_wait;
        uint64_t next = stay;
        for (unsigned s = 0; s < ns; s++) {
            uint64_t c = cand & m->sched_mask[s];
            if (c && m->pool_size && popcount64(stay & m->sched_mask[s]) < m->pool_size)
                next |= 1ull << lowest(c);
        }
        m->in_active = next;
    }

    /* Writebacks release the matching slot. They only see the slots valid at
     * the start of the cycle, as in the RTL, so they come before allocation. */
    for (unsigned k = 0; k < p->wb_ports; k++) {
        const sched_writeback *wb = &in->wb[k];
        if (!wb->valid) continue;
        cm_warp *wp = &m->warp[wb->warp];
        if (!bit_test(wp->pend, wb->reg)) continue;      /* not pending: ignored */
        bit_clear(wp->pend, wb->reg);
        wp->sb_count--;
        if (bit_test(wp->pend_long, wb->reg)) {
            bit_clear(wp->pend_long, wb->reg);
            wp->sb_long_count--;
        }
        dirty |= 1ull << wb->warp;
    }

    /* Issue: pop the buffer head, allocate a scoreboard slot; counters. */
    for (unsigned s = 0; s < ns; s++) {
        b->out.counters[s][m->reason[s]]++;
        if (m->fetch[s] >= 0) m->last_fetch[s] = (unsigned)m->fetch[s];
        if (m->grant[s] < 0) continue;
        unsigned w = (unsigned)m->grant[s];
        cm_warp *wp = &m->warp[w];
        const sched_instr *h = &wp->buf[wp->head];
        if (h->dst_valid) {            /* free slot guaranteed: need_full stalls */
            bit_set(wp->pend, h->dst);
            wp->sb_count++;
            if (h->long_lat) {
                bit_set(wp->pend_long, h->dst);
                wp->sb_long_count++;
            }
        }
        if (++wp->head == p->ibuf_depth) wp->head = 0;
        wp->count--;
        m->last_issue[s] = w;
        dirty |= 1ull << w;
    }

    /* Pushes: accepted when the buffer had room at the start of the cycle. */
    for (unsigned s = 0; s < ns; s++) {
        const sched_push *ps = &in->push[s];
        if (!ps->valid) continue;
        unsigned w = ps->warp;
        cm_warp *wp = &m->warp[w];
        if (!((m->space >> w) & 1)) continue;
        unsigned slot = wp->head + wp->count;
        if (slot >= p->ibuf_depth) slot -= p->ibuf_depth;
        wp->buf[slot] = ps->instr;
        if (wp->count++ == 0) dirty |= 1ull << w;            /* new head */
        else if (wp->count == p->ibuf_depth) m->space &= ~(1ull << w);
    }

    /* Launch empties buffer and scoreboard; finish empties the buffer. */
    for (uint64_t d = in->launch | in->finish; d; d &= d - 1) {
        unsigned w = lowest(d);
        cm_warp *wp = &m->warp[w];
        wp->count = 0;
        wp->head = 0;
        if ((in->launch >> w) & 1) {
            memset(wp->pend, 0, sizeof wp->pend);
            memset(wp->pend_long, 0, sizeof wp->pend_long);
            wp->sb_count = wp->sb_long_count = 0;
        }
    }

    /* Registered levels. */
    uint64_t alive = (m->alive & ~in->finish) | in->launch;
    int swl_changed = alive != m->alive || in->warp_limit != m->warp_limit;
    m->alive = alive;
    m->policy = in->policy;
    m->warp_limit = in->warp_limit;
    m->pool_size = in->pool_size;
    m->barrier = in->barrier;
    memcpy(m->unit_avail, in->unit_avail, sizeof m->unit_avail);
    if (swl_changed) refresh_swl(m);

    for (dirty &= m->all_warps; dirty; dirty &= dirty - 1) refresh_warp(m, lowest(dirty));

    compute_outputs(m);
}

static void cm_destroy(sched_backend *b) { free(b); }

static const sched_backend_ops cmodel_ops = { "cmodel", cm_reset, cm_step, cm_destroy };

sched_backend *sched_cmodel_create(const sched_params *p, char *err, size_t errlen)
{
    if (sched_params_check(p, err, errlen) != 0) return NULL;
    cmodel *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->base.ops = &cmodel_ops;
    m->base.params = *p;
    sched_reset(&m->base);
    return &m->base;
}
