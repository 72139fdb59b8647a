/*
 * mem_dup.c — duplicate MSHR allocations across SMs (seed 000 §6.1): an L1
 * MSHR allocation for a line is a duplicate if another SM allocated one for
 * the same line within the last mem.dup_window cycles. Called by the L1D
 * (mem_l1d.c) at each allocation; counted in l1_mshr_dup.
 */
#include "mem_internal.h"

#include <string.h>

/* ---- duplicate table ---------------------------------------------------- */

/* Time is cut into epochs of W + 1 cycles. dup_cur holds the latest record
 * of every line allocated in the current epoch, dup_prev those of the
 * previous epoch; at an epoch change the previous table is cleared and the
 * two swap. A record that matters (its last allocation within W cycles) is
 * in one of the two; an older one decides nothing (both of its times are
 * out of the window), so losing it changes no answer. Lookups look in
 * dup_cur first (the newer record), then in dup_prev; an update always
 * writes dup_cur. No per-entry expiry: a clear of one table per epoch. */

static uint32_t dup_home(const dup_table *t, uint64_t key)
{
    /* Fibonacci hashing: keys are line addresses, the top bits of the
     * product mix all of them */
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> t->shift);
}

static int dup_in_use(const dup_table *t, const dup_slot *d) { return d->gen == t->gen; }

/* The slot holding key, or the free slot where it would go. */
static dup_slot *dup_probe(const dup_table *t, uint64_t key)
{
    uint32_t mask = t->cap - 1, h = dup_home(t, key);
    while (t->slot[h].gen == t->gen && t->slot[h].line != key)
        h = (h + 1) & mask;
    return &t->slot[h];
}

static uint32_t dup_filter_bit(uint64_t key)
{
    return (uint32_t)((key * 0xc2b2ae3d27d4eb4full) >> 50);   /* 14 bits */
}

static int dup_filter_has(const dup_table *t, uint64_t key)
{
    uint32_t b = dup_filter_bit(key);
    return (int)(t->filter[b >> 6] >> (b & 63) & 1);
}

int mem_dup_init(dup_table *t, uint32_t cap)
{
    t->slot = calloc(cap, sizeof *t->slot);   /* gen 0: free */
    t->cap = cap;
    t->used = 0;
    t->shift = 64 - lg(cap);
    t->gen = 1;
    return t->slot ? 0 : -1;
}

static void dup_clear(dup_table *t)
{
    if (++t->gen == 0) {     /* wrapped: really clear, once in 2^32 epochs */
        memset(t->slot, 0, (size_t)t->cap * sizeof *t->slot);
        t->gen = 1;
    }
    t->used = 0;
    memset(t->filter, 0, DUP_FILTER_BITS / 8);
}

static void dup_grow(dup_table *t)
{
    dup_table bigger;
    if (mem_dup_init(&bigger, t->cap * 2) != 0) {
        fprintf(stderr, "smcosim mem-model: out of memory\n");
        exit(1);
    }
    for (uint32_t i = 0; i < t->cap; i++)
        if (dup_in_use(t, &t->slot[i])) {
            dup_slot *d = dup_probe(&bigger, t->slot[i].line);
            *d = t->slot[i];
            d->gen = bigger.gen;
        }
    bigger.used = t->used;
    bigger.filter = t->filter;   /* the same keys */
    free(t->slot);
    *t = bigger;
}

/* Record an MSHR allocation of `line` by `sm`; returns 1 when another SM
 * allocated the same line within the window. */
int mem_dup_record(mem_system *m, uint64_t line, uint32_t sm)
{
    uint64_t key = line | 1;
    uint64_t w = m->cfg.dup_window;
    if (m->now >= m->dup_epoch_end) {
        uint64_t len = w + 1;
        if (m->now < m->dup_epoch_end + len) {
            /* the next epoch: the current table becomes the previous one,
             * the old previous one is cleared and reused */
            dup_table t = m->dup_prev;
            m->dup_prev = m->dup_cur;
            m->dup_cur = t;
            dup_clear(&m->dup_cur);
        } else {
            /* a whole epoch without allocations: both are out of date */
            dup_clear(&m->dup_cur);
            dup_clear(&m->dup_prev);
        }
        m->dup_epoch_end = (m->now / len + 1) * len;
    }
    dup_table *cur = &m->dup_cur;
    if ((cur->used + 1) * 2 > cur->cap)
        dup_grow(cur);
    dup_slot *d = dup_probe(cur, key);
    if (!dup_in_use(cur, d)) {
        dup_slot *old = dup_filter_has(&m->dup_prev, key) ? dup_probe(&m->dup_prev, key)
                                                          : NULL;
        uint32_t b = dup_filter_bit(key);
        cur->filter[b >> 6] |= 1ull << (b & 63);
        cur->used++;
        if (old && dup_in_use(&m->dup_prev, old)) {
            *d = *old;               /* continue the previous epoch's record */
            d->gen = cur->gen;
        } else {
            d->line = key;
            d->gen = cur->gen;
            d->t_last = m->now;
            d->sm_last = (uint16_t)sm;
            d->has_other = 0;
            d->t_other = 0;
            return 0;
        }
    }
    int is_dup;
    if (sm != d->sm_last)
        is_dup = m->now - d->t_last <= w;
    else
        is_dup = d->has_other && m->now - d->t_other <= w;
    if (sm != d->sm_last) {
        d->t_other = d->t_last;
        d->has_other = 1;
        d->sm_last = (uint16_t)sm;
    }
    d->t_last = m->now;
    return is_dup;
}
