/*
 * mem_icnt.c — the interconnect: a crossbar between the SMs' injection and
 * ejection queues and the L2 slices' input and output queues, with
 * serialisation by icnt.bytes_per_cycle, icnt.latency, round-robin
 * arbitration rotating every cycle and backpressure (a packet moves only
 * when the receiving queue has room).
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
    uint32_t ser = ser_cycles(m, payload);
    *src_free = *dst_free = m->now + ser;
    return m->now + m->cfg.icnt_latency + ser - 1;
}

void mem_icnt_cycle(mem_system *m)
{
    const mem_config *c = &m->cfg;
    uint32_t np = c->l2_partitions, ns = c->num_sms;
    /* L2 -> SM: responses; round-robin from rr_down over the partitions
     * whose port is free and whose front response is ready (out_try <= now:
     * out_ready, plus the wheel's partitions due now) */
    uint32_t slot = (uint32_t)(m->now & PW_MASK);
    uint64_t keep = 0;
    for (uint64_t bits = m->owheel[slot]; bits; bits &= bits - 1) {
        uint32_t pi = (uint32_t)__builtin_ctzll(bits);
        uint64_t t = m->part[pi].out_try;
        if (t <= m->now)
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
            if (s->in_port_free > m->now || ring_full(&s->in))
                continue;
            uint32_t si = pk->sm, bytes = pk->bytes;
            uint64_t ready = icnt_send(m, bytes, &p->out_port_free, &s->in_port_free);
            pk->ready = ready;       /* moved in place, then popped */
            ring_push(&s->in, pk);
            ring_pop(&p->out);
            p->out_try = p->out.count ? max64(p->out_port_free, ring_front(&p->out)->ready)
                                      : UINT64_MAX;
            m->out_ready &= ~(1ull << pi);  /* out_try > now: the port is busy */
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
            if (s->out_port_free > m->now || pk->ready > m->now)
                continue;
            part_state *p = &m->part[partition_of(m, pk->addr)];
            if (p->in_port_free > m->now || ring_full(&p->in))
                continue;
            /* a read request carries only its header */
            uint32_t payload = pk->kind == PK_READ ? 0 : pk->bytes;
            /* it reaches the slice and spends l2.latency in its pipeline */
            uint64_t ready = icnt_send(m, payload, &s->out_port_free, &p->in_port_free) +
                             c->l2_latency;
            pk->ready = ready;
            ring_push(&p->in, pk);
            if (ready < p->wake) {
                p->wake = ready;            /* > now */
                m->pwheel[ready & PW_MASK] |= 1ull << (p - m->part);
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
