/*
 * mem_icnt.c — the interconnect: a crossbar between the SMs' injection and
 * ejection queues and the L2 slices' input and output queues, with
 * serialisation by icnt.bytes_per_cycle, icnt.latency, round-robin
 * arbitration rotating every cycle and backpressure (a packet moves only
 * when the receiving queue has room). It steps on the interconnect clock's
 * edges (m->t); the SMs of a cluster share one node: its two ports and its
 * ejection capacity. In front of each slice, the ROP delay line when
 * l2.rop_latency is set.
 */
#include "mem_internal.h"

/* ---- interconnect ------------------------------------------------------ */

static uint32_t ser_cycles(const mem_system *m, uint32_t payload)
{
    if (payload <= m->cfg.l1d_sector_bytes)
        return m->ser[payload];
    return ceil_div(m->cfg.icnt_header_bytes + payload, m->cfg.icnt_bytes_per_cycle);
}

/* Move a packet carrying `payload` data bytes over a link whose two ports
 * are free; returns its arrival cycle. */
static uint64_t icnt_send(mem_system *m, uint32_t payload, uint64_t *src_free,
                          uint64_t *dst_free)
{
    uint32_t ser = ser_cycles(m, payload), p = m->per[MEM_CLK_ICNT];
    *src_free = *dst_free = m->t + (uint64_t)ser * p;
    return m->t + (uint64_t)(m->cfg.icnt_latency + ser - 1) * p;
}

void mem_icnt_cycle(mem_system *m)
{
    const mem_config *c = &m->cfg;
    uint32_t np = c->l2_partitions, ns = c->num_sms;
    /* L2 -> SM: responses; round-robin from rr_down over the partitions
     * whose port is free and whose front response is ready (out_try <= now:
     * out_ready, plus the wheel's partitions due now) */
    uint32_t slot = (uint32_t)(m->t & PW_MASK);
    uint64_t keep = 0;
    for (uint64_t bits = m->owheel[slot]; bits; bits &= bits - 1) {
        uint32_t pi = (uint32_t)__builtin_ctzll(bits);
        uint64_t t = m->part[pi].out_try;
        if (t <= m->t)
            m->out_ready |= 1ull << pi;
        else if (t != UINT64_MAX && (t & PW_MASK) == slot)
            keep |= 1ull << pi;             /* PW_SLOTS or more cycles ahead */
    }
    m->owheel[slot] = keep;
    uint64_t can = m->out_ready;
    uint64_t order[2] = { can & (~0ull << m->rr_down),
                          can & ((1ull << m->rr_down) - 1) };
    for (int half = 0; half < 2; half++) {
        for (uint64_t bits = order[half]; bits; bits &= bits - 1) {
            uint32_t pi = (uint32_t)__builtin_ctzll(bits);
            part_state *p = &m->part[pi];
            packet *pk = ring_front(&p->out);
            sm_state *s = &m->sm[pk->sm];
            uint32_t si = pk->sm, cl = cluster_of(m, si), bytes = pk->bytes;
            if (m->cl_in_free[cl] > m->t || m->cl_in_count[cl] == c->icnt_queue_entries)
                continue;
            /* the SM takes it in the first core cycle at or after arrival */
            uint64_t ready = core_ceil(m, icnt_send(m, bytes, &p->out_port_free,
                                                    &m->cl_in_free[cl]));
            pk->ready = ready;       /* moved in place, then popped */
            m->cl_in_count[cl]++;
            ring_push(&s->in, pk);
            ring_pop(&p->out);
            p->out_try = p->out.count ? max64(p->out_port_free, ring_front(&p->out)->ready)
                                      : UINT64_MAX;
            m->out_ready &= ~(1ull << pi);  /* out_try > t: the port is busy */
            out_schedule(m, p);
            if (s->in.count == 1)
                wheel_add(m, si, ready);
            m->st.icnt_down_packets++;
            m->st.icnt_down_bytes += c->icnt_header_bytes + bytes;
        }
    }
    m->rr_down = m->rr_down + 1 == np ? 0 : m->rr_down + 1;
    /* SM -> L2: requests; round-robin from rr_up over SMs with queued
     * packets: the words of sm_out_busy from rr_up's word on, that word
     * split in two (its bits from rr_up, then after the others its bits
     * below rr_up) so that each SM is visited once, in rotated order. A
     * word is read when its turn comes; only bits already visited are
     * cleared meanwhile. */
    uint32_t nw = m->sm_out_busy.nwords, wi = m->rr_up / 64, start_bit = m->rr_up % 64;
    uint32_t visits = nw + (start_bit != 0);   /* no second half without a split */
    for (uint32_t k = 0; k < visits; k++, wi = wi + 1 == nw ? 0 : wi + 1) {
        uint64_t bits = m->sm_out_busy.w[wi];
        if (k == 0)
            bits &= ~0ull << start_bit;
        else if (k == nw)
            bits &= (1ull << start_bit) - 1;
        while (bits) {
            uint32_t si = wi * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            sm_state *s = &m->sm[si];
            packet *pk = ring_front(&s->out);
            uint64_t *out_free = &m->cl_out_free[cluster_of(m, si)];
            if (*out_free > m->t || pk->ready > m->t)
                continue;
            part_state *p = &m->part[partition_of(m, pk->addr)];
            /* with a ROP delay line, the packet enters it only while the
             * slice's input queue has room (GPGPU-Sim 3.2.1 l2cache.cc) */
            if (p->in_port_free > m->t || ring_full(&p->in) ||
                (c->l2_rop_latency && ring_full(&p->rop)))
                continue;
            /* a read request (data or instructions) carries only its header */
            uint32_t payload = pk->kind == PK_READ || pk->kind == PK_IREAD ? 0 : pk->bytes;
            uint64_t ready = icnt_send(m, payload, out_free, &p->in_port_free), due;
            if (c->l2_rop_latency) {
                /* it waits l2.rop_latency core cycles, then joins the
                 * input queue at an L2 edge (mem_l2.c) */
                pk->ready = ready + (uint64_t)c->l2_rop_latency * m->per[MEM_CLK_CORE];
                ring_push(&p->rop, pk);
                due = p->rop.count == 1 ? grid_up(pk->ready, m->per[MEM_CLK_L2]) : UINT64_MAX;
            } else {
                /* it reaches the slice and spends l2.latency in its pipeline */
                pk->ready = ready + (uint64_t)c->l2_latency * m->per[MEM_CLK_L2];
                ring_push(&p->in, pk);
                due = grid_up(pk->ready, m->per[MEM_CLK_L2]);
            }
            if (due < p->wake) {
                p->wake = due;              /* > t */
                m->pwheel[due & PW_MASK] |= 1ull << (p - m->part);
            }
            ring_pop(&s->out);
            if (!s->out.count)
                bs_clear(&m->sm_out_busy, si);
            sm_wake(m, s, si);
            m->st.icnt_up_packets++;
            m->st.icnt_up_bytes += c->icnt_header_bytes + payload;
        }
    }
    m->rr_up = m->rr_up + 1 == ns ? 0 : m->rr_up + 1;
}
