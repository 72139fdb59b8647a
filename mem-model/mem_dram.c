/*
 * mem_dram.c — one DRAM channel per partition: the FR-FCFS request queue,
 * per-bank row state and timing (tRCD, tCL, tRP, tRAS, tRC, tRRD, tWR,
 * tCDLR), the shared data bus, and the FIFOs of started requests. The L2
 * slice (mem_l2.c) enqueues reads and write-backs and takes finished reads
 * as fills; mem_parts_cycle (mem_l2.c) visits a channel only when a start
 * or a finish is due (sched_wait, part_wake).
 */
#include "mem_internal.h"

#include <string.h>

/* ---- DRAM channel ------------------------------------------------------ */

/* Into the scheduler's queue (the caller checked for room). */
static void dram_queue_push(mem_system *m, part_state *p, uint64_t lline, int is_write,
                            uint32_t mshr)
{
    const mem_config *c = &m->cfg;
    dram_req *r = &p->queue[p->qn++];
    r->line = lline;
    r->arrival = p->arrivals++;
    uint64_t row_index = lline >> lg(c->dram_row_bytes);
    r->bank = fd_mod(&m->div_banks, row_index);
    r->row = fd_div(&m->div_banks, row_index);
    r->is_write = (uint8_t)is_write;
    r->mshr = mshr;
    r->done = 0;
    /* sched_wait stays a lower bound of the ready cycles of the banks with
     * queued requests (bank ready cycles only grow, at a start, after which
     * mem_dram_cycle recomputes it): no start is possible before it */
    if (p->banks[r->bank].ready < p->sched_wait)
        p->sched_wait = p->banks[r->bank].ready;
}

void mem_dram_enqueue(mem_system *m, part_state *p, uint64_t lline, int is_write,
                      uint32_t mshr)
{
    m->live++;
    if (m->cfg.dram_queue_latency) {
        /* the L2's DRAM queue; mem_dram_cycle moves it along */
        dram_fifo *f = &p->l2d;
        uint32_t k = f->head + f->n++;
        f->buf[k >= f->cap ? k - f->cap : k] = (dram_pending){ lline, 0, mshr, (uint8_t)is_write };
        return;
    }
    dram_queue_push(m, p, lline, is_write, mshr);
}

/* Timing of a request started at t on its bank (see docs/memory-model.md):
 * every timing key counts DRAM cycles (m->per[MEM_CLK_DRAM] instants each),
 * dram.latency core cycles. A line takes dram_ncols column commands on its
 * bank, spaced by tCCD / tCCDL (one bank is in one group), each moving its
 * atom over the data bus tCL (writes: tWL) after the command. */
static void dram_start(mem_system *m, part_state *p, dram_req *r)
{
    const mem_config *c = &m->cfg;
    const uint64_t P = m->per[MEM_CLK_DRAM];
    dram_bank *b = &p->banks[r->bank];
    uint32_t g = r->bank / m->banks_per_group;
    uint64_t col;
    if (b->open_row == r->row) {
        col = m->t;
        m->st.dram_row_hits++;
    } else {
        uint64_t pre = max64(m->t, b->pre_ok);
        if (c->dram_tRTPL && p->grp_rdcol1[g])
            pre = max64(pre, p->grp_rdcol1[g] - 1 + c->dram_tRTPL * P);
        uint64_t act = m->t;
        if (b->open_row != DRAM_ROW_CLOSED)
            act = pre + c->dram_tRP * P;
        if (b->activated)
            act = max64(act, b->act + c->dram_tRC * P);
        if (p->any_act)
            act = max64(act, p->last_act + c->dram_tRRD * P);
        b->open_row = r->row;
        b->act = act;
        b->activated = 1;
        b->pre_ok = act + c->dram_tRAS * P;
        p->last_act = act;
        p->any_act = 1;
        col = act + c->dram_tRCD * P;
    }
    if (!r->is_write)
        col = max64(col, b->wr_end + c->dram_tCDLR * P);
    if (c->dram_tCCD && p->last_col1)
        col = max64(col, p->last_col1 - 1 + c->dram_tCCD * P);
    if (c->dram_tCCDL && p->grp_col1[g])
        col = max64(col, p->grp_col1[g] - 1 + c->dram_tCCDL * P);
    uint64_t step = (c->dram_tCCD > c->dram_tCCDL ? c->dram_tCCD : c->dram_tCCDL) * P;
    uint64_t lat = (r->is_write && c->dram_tWL ? c->dram_tWL : c->dram_tCL) * P;
    uint64_t end = 0;
    for (uint32_t k = 0; k < m->dram_ncols; k++) {
        if (k)
            col += step;
        uint64_t data = max64(col + lat, p->bus_free);
        end = data + (uint64_t)m->dram_atom_cycles * P;
        p->bus_free = end;
    }
    p->last_col1 = p->grp_col1[g] = col + 1;
    b->ready = max64(end - c->dram_tCL * P, col + step);
    uint32_t burst = m->dram_ncols * m->dram_atom_cycles;
    if (r->is_write) {
        b->wr_end = end;
        b->pre_ok = max64(b->pre_ok, end + c->dram_tWR * P);
        r->done = end;
        m->st.dram_writes++;
    } else {
        if (c->dram_tRTP)
            b->pre_ok = max64(b->pre_ok, col + c->dram_tRTP * P);
        p->grp_rdcol1[g] = col + 1;
        r->done = end + (uint64_t)c->dram_latency * m->per[MEM_CLK_CORE];
        m->st.dram_reads++;
    }
    m->st.dram_bytes += c->l2_line_bytes;
    m->st.dram_busy_cycles += burst;
}

/* The FR-FCFS scheduler: at most one start. */
static void dram_schedule(mem_system *m, part_state *p)
{
    if (!p->qn || p->rd_n + p->wr_n >= p->fcap || p->sched_wait > m->t)
        return;
    /* FR-FCFS: the oldest row hit on a ready bank, else the oldest request
     * on a ready bank. The queue is kept in arrival order. */
    int pick = -1;
    for (uint32_t i = 0; i < p->qn; i++) {
        dram_bank *b = &p->banks[p->queue[i].bank];
        if (b->ready > m->t)
            continue;
        if (b->open_row == p->queue[i].row) {
            pick = (int)i;
            break;
        }
        if (pick < 0)
            pick = (int)i;
    }
    if (pick < 0) {
        uint64_t w = UINT64_MAX;
        for (uint32_t i = 0; i < p->qn; i++)
            if (p->banks[p->queue[i].bank].ready < w)
                w = p->banks[p->queue[i].bank].ready;
        p->sched_wait = w;
        return;
    }
    dram_req r = p->queue[pick];
    memmove(&p->queue[pick], &p->queue[pick + 1],
            (p->qn - (uint32_t)pick - 1) * sizeof *p->queue);
    p->qn--;
    dram_start(m, p, &r);
    /* Only the started request's bank changed, so the next start cannot
     * come before the earliest ready cycle of a bank with a queued request:
     * waiting for it here saves the visits (and failed scans) in between.
     * (An enqueue lowers it to its bank's ready cycle if earlier; a full FIFO
     * only delays a start.) */
    uint64_t w = UINT64_MAX;
    for (uint32_t i = 0; i < p->qn; i++) {
        uint64_t ready = p->banks[p->queue[i].bank].ready;
        w = ready < w ? ready : w;
    }
    p->sched_wait = w;
    if (r.is_write) {
        uint32_t k = p->wr_head + p->wr_n++;
        p->wr_done[k >= p->fcap ? k - p->fcap : k] = r.done;
    } else {
        uint32_t k = p->rd_head + p->rd_n++;
        k = k >= p->fcap ? k - p->fcap : k;
        p->rd_done[k] = r.done;
        p->rd_mshr[k] = r.mshr;
    }
}

void mem_dram_cycle(mem_system *m, part_state *p)
{
    const mem_config *c = &m->cfg;
    /* finished writes disappear (a finished read waits in rd_* until the
     * L2 slice takes its fill) */
    while (p->wr_n && p->wr_done[p->wr_head] <= m->t) {
        p->wr_head = p->wr_head + 1 == p->fcap ? 0 : p->wr_head + 1;
        p->wr_n--;
        m->live--;
    }
    dram_schedule(m, p);
    if (!c->dram_queue_latency)
        return;
    /* GPGPU-Sim 3.2.1's dram_cycle after the scheduler: while the
     * scheduler's queue has room, one request from the L2's DRAM queue
     * enters the delay line, and the line's front, when due, enters the
     * queue */
    if (p->l2d.n && p->qn < c->dram_queue_entries && p->dly.n < p->dly.cap) {
        dram_pending e = p->l2d.buf[p->l2d.head];
        p->l2d.head = p->l2d.head + 1 == p->l2d.cap ? 0 : p->l2d.head + 1;
        p->l2d.n--;
        e.ready = m->t + (uint64_t)c->dram_queue_latency * m->per[MEM_CLK_CORE];
        uint32_t k = p->dly.head + p->dly.n++;
        p->dly.buf[k >= p->dly.cap ? k - p->dly.cap : k] = e;
    }
    if (p->dly.n && p->dly.buf[p->dly.head].ready <= m->t &&
        p->qn < c->dram_queue_entries) {
        dram_pending e = p->dly.buf[p->dly.head];
        p->dly.head = p->dly.head + 1 == p->dly.cap ? 0 : p->dly.head + 1;
        p->dly.n--;
        dram_queue_push(m, p, e.line, e.is_write, e.mshr);
    }
}
