/*
 * mem_inst.c — instructions in flight and their completions: the pool of
 * instruction records (grown by doubling, reused), each SM's completion
 * queue in collection order, mem_collect and mem_collect_all. Responses
 * reach an instruction through inst_data (mem_internal.h), which completes
 * it here when nothing is outstanding.
 */
#include "mem_internal.h"

#include <string.h>

/* ---- instruction pool, completion queues ----------------------------------- */

/* (inst_alloc, mem_internal.h, takes a record; this grows the pool when none
 * is free.) */
int mem_inst_grow(mem_system *m)
{
    uint32_t n = m->ninst ? m->ninst * 2 : 256;
    inst_rec *bigger = realloc(m->inst, (size_t)n * sizeof *bigger);
    if (!bigger)
        return -1;
    m->inst = bigger;
    for (uint32_t i = n; i-- > m->ninst;) {
        m->inst[i].next_free = m->free_inst;
        m->free_inst = i;
    }
    m->ninst = n;
    return 0;
}

static void inst_free(mem_system *m, uint32_t i)
{
    m->inst[i].next_free = m->free_inst;
    m->free_inst = i;
}

/* The instruction is done: queue its completion for the SM. Completions are
 * handed out by cycle, and in the order they were queued within a cycle; a
 * new one goes after every queued one of its cycle or earlier, so it is put
 * in place from the back (most are due one cycle ahead, later than nothing
 * queued: no move; L1 hits and shared/const accesses, due a latency ahead,
 * pass a few). Growth of the queue can only fail on memory exhaustion,
 * which the model reports by aborting the process cleanly (nothing else
 * sensible can be done mid-cycle). */
void mem_inst_complete(mem_system *m, uint32_t i)
{
    inst_rec *r = &m->inst[i];
    sm_state *s = &m->sm[r->c.sm];
    r->c.cycle = max64(r->ready, m->now + 1);
    if (s->done_head + s->done_n == s->done_cap) {
        if (s->done_n <= s->done_cap / 2 && s->done_n) {
            /* slide the queue to the front (at least cap/2 pushes since the
             * last slide or growth: amortised O(1)) */
            memmove(s->done, s->done + s->done_head, s->done_n * sizeof *s->done);
            s->done_head = 0;
        } else {
            uint32_t n = s->done_cap ? s->done_cap * 2 : 64;
            done_item *bigger = realloc(s->done, (size_t)n * sizeof *bigger);
            if (!bigger) {
                fprintf(stderr, "smcosim mem-model: out of memory\n");
                exit(1);
            }
            s->done = bigger;
            s->done_cap = n;
        }
    }
    uint32_t k = s->done_head + s->done_n++;
    while (k > s->done_head && s->done[k - 1].cycle > r->c.cycle) {
        s->done[k] = s->done[k - 1];
        k--;
    }
    s->done[k].cycle = r->c.cycle;
    s->done[k].inst = i;
    bs_set(&m->sm_has_done, r->c.sm);
    if (r->c.cycle < m->done_min)
        m->done_min = r->c.cycle;
    m->st.completions++;
    if (r->c.op == MEM_LOAD) {
        uint64_t lat = r->c.cycle - r->c.submit_cycle;
        m->st.load_insts_done++;
        m->st.load_latency_sum += lat;
        if (lat > m->st.load_latency_max)
            m->st.load_latency_max = lat;
    }
}

/* ---- collection ------------------------------------------------------------ */

size_t mem_collect(mem_system *m, uint32_t sm, mem_completion *out, size_t cap)
{
    if (sm >= m->cfg.num_sms)
        return 0;
    sm_state *s = &m->sm[sm];
    if (!s->done_n || done_front(s)->cycle > m->now)
        return 0;                /* (sm_has_done is clear when the queue is empty) */
    size_t n = 0;
    while (n < cap && s->done_n && done_front(s)->cycle <= m->now) {
        uint32_t i = done_front(s)->inst;
        s->done_head++;
        s->done_n--;
        if (m->inst[i].counted) {
            s->inflight--;
            ldst_gate(m, s, sm);
        }
        out[n++] = m->inst[i].c;
        inst_free(m, i);
        m->outstanding--;
    }
    if (!s->done_n) {
        s->done_head = 0;
        bs_clear(&m->sm_has_done, sm);
    }
    return n;
}

size_t mem_collect_all(mem_system *m, mem_completion *out, size_t cap)
{
    if (m->done_min > m->now)
        return 0;
    size_t n = 0;
    for (uint32_t w = 0; w < m->sm_has_done.nwords && n < cap; w++) {
        uint64_t bits = m->sm_has_done.w[w];
        while (bits && n < cap) {
            uint32_t si = w * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (done_front(&m->sm[si])->cycle <= m->now)
                n += mem_collect(m, si, out + n, cap - n);
        }
    }
    if (n < cap) {
        /* everything due was taken: the new lower bound is exact */
        uint64_t lo = UINT64_MAX;
        for (uint32_t w = 0; w < m->sm_has_done.nwords; w++)
            for (uint64_t bits = m->sm_has_done.w[w]; bits; bits &= bits - 1) {
                uint64_t t = done_front(&m->sm[w * 64 + (uint32_t)__builtin_ctzll(bits)])->cycle;
                lo = t < lo ? t : lo;
            }
        m->done_min = lo;
    }
    return n;
}
