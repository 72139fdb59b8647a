/*
 * mem.c — the memory hierarchy as a whole: creation, the order of one cycle
 * and which components it visits, and skipping idle cycles. The components
 * are in their own files (mem_internal.h lists them): mem_l1d.c (LD/ST unit,
 * L1D, MSHRs), mem_icnt.c, mem_l2.c, mem_dram.c, mem_dup.c, mem_inst.c.
 *
 * Structure of one cycle (mem_cycle), in this order:
 *   1. DRAM: finished writes leave (finished reads wait for the L2 in their
 *      FIFO); the FR-FCFS scheduler starts at most one request per channel.
 *   2. L2: a slice handles at most one DRAM fill and one request per cycle.
 *   3. Interconnect: packets move L2 -> SM, then SM -> L2, each port moving
 *      icnt.bytes_per_cycle; a packet moves only when the receiving queue has
 *      room (backpressure).
 *   4. SMs: an SM takes at most one response (L1 fill / atomic reply) and its
 *      LD/ST unit processes at most one transaction.
 * Only components with work are visited: a partition at its next possible
 * event (part_wake, found through a timing wheel: mem_parts_cycle in
 * mem_l2.c), a slice's output when its
 * front response may leave (a second wheel), an SM while its LD/ST unit
 * works or when a response reaches the front of its ejection queue (a third
 * wheel), and the interconnect only SMs with queued packets. With nothing in
 * flight a cycle only counts itself, and mem_skip_to jumps over idle cycles.
 * Lookups avoid scans: MSHR tables behind a counting filter, L2 ways by
 * one-byte fingerprints, DRAM completions in FIFOs already in order. What
 * an earlier event decided is not looked up again: a DRAM channel is
 * visited for scheduling only when a bank with a queued request is ready,
 * L1/L2 fills skip the lookup when the miss proved the line absent, and a
 * replayed load skips the hit and merge checks. The
 * results are bit-identical to visiting everything every cycle (make
 * mem-digest; docs/memory-model.md, "Speed").
 *
 * Requests and packets live in pools and fixed rings allocated at creation
 * (the instruction pool and completion queues grow by doubling); nothing is
 * allocated per request in the steady state.
 */
#include "mem_internal.h"
#include "fail.h"

#include <string.h>

/* ---- clock domains ---------------------------------------------------- */

static uint64_t lcm64(uint64_t a, uint64_t b)
{
    uint64_t x = a, y = b;
    while (y) {
        uint64_t r = x % y;
        x = y;
        y = r;
    }
    return a / x * b;
}

/* Each domain's period in the time base, and the instants of one repeating
 * group of core cycles with the domains stepping at each (one clock: every
 * period 1, one instant per core cycle where everything steps). */
static int clocks_init(mem_system *m)
{
    const mem_config *c = &m->cfg;
    uint32_t base = mem_clock_base_mhz(c);       /* mem_config_check: not 0 */
    uint64_t group = 1;
    for (unsigned d = MEM_CLK_CORE; d <= MEM_CLK_DRAM; d++) {
        m->per[d] = c->clock_core_mhz ? base / mem_clock_mhz(c, d) : 1;
        group = lcm64(group, m->per[d]);
    }
    m->multi_clock = group != 1;
    m->tick_now = TICK_CORE | TICK_ICNT | TICK_L2 | TICK_DRAM;
    m->tick_cycles = (uint32_t)(group / m->per[MEM_CLK_CORE]);
    /* The instants are the multiples of the periods below `group`: merged
     * in order (next[d], each domain's next edge), not found by testing
     * every instant of the group (45,750 of them at 732 and 1000 MHz, on
     * every launch). */
    static const uint8_t bit[4] = { TICK_CORE, TICK_ICNT, TICK_L2, TICK_DRAM };
    uint64_t n = 0;
    for (unsigned d = MEM_CLK_CORE; d <= MEM_CLK_DRAM; d++)
        n += group / m->per[d];              /* no fewer than the instants */
    m->tick_start = malloc((m->tick_cycles + 1) * sizeof *m->tick_start);
    m->tick_off = malloc(n * sizeof *m->tick_off);
    m->tick_mask = malloc(n);
    if (!m->tick_start || !m->tick_off || !m->tick_mask)
        return -1;
    uint64_t next[4] = { 0, 0, 0, 0 };
    uint32_t k = 0;
    for (;;) {
        uint64_t t = next[MEM_CLK_CORE];
        for (unsigned d = MEM_CLK_CORE + 1; d <= MEM_CLK_DRAM; d++)
            if (next[d] < t) t = next[d];
        if (t >= group)
            break;
        uint8_t mask = 0;
        for (unsigned d = MEM_CLK_CORE; d <= MEM_CLK_DRAM; d++)
            if (next[d] == t) {
                mask |= bit[d];
                next[d] += m->per[d];
            }
        if (mask & TICK_CORE)
            m->tick_start[t / m->per[MEM_CLK_CORE]] = k;
        m->tick_off[k] = (uint32_t)(t % m->per[MEM_CLK_CORE]);
        m->tick_mask[k++] = mask;
    }
    m->tick_start[m->tick_cycles] = k;
    return 0;
}

/* Interconnect edges among the instants [a, b). */
static uint64_t icnt_edges(const mem_system *m, uint64_t a, uint64_t b)
{
    uint32_t p = m->per[MEM_CLK_ICNT];
    return ceil_div64(b, p) - ceil_div64(a, p);
}

/* ---- creation ---------------------------------------------------------- */

const mem_config *mem_get_config(const mem_system *m) { return &m->cfg; }
uint64_t mem_now(const mem_system *m) { return m->now; }
const mem_stats *mem_get_stats(const mem_system *m) { return &m->st; }
uint64_t mem_outstanding(const mem_system *m) { return m->outstanding; }

void mem_destroy(mem_system *m)
{
    if (!m)
        return;
    if (m->sm) {
        for (uint32_t i = 0; i < m->cfg.num_sms; i++) {
            sm_state *s = &m->sm[i];
            free(s->lines);
            free(s->ltag);
            free(s->mshr);
            mi_free(&s->mshr_ix);
            free(s->targets);
            free(s->out.buf);
            free(s->in.buf);
            free(s->done);
            free(s->vta);
            free(s->vta_lru);
            free(s->rq);
            mem_l1i_free(s);
        }
    }
    if (m->part) {
        for (uint32_t i = 0; i < m->cfg.l2_partitions; i++) {
            part_state *p = &m->part[i];
            free(p->rop.buf);
            free(p->in.buf);
            free(p->out.buf);
            free(p->l2d.buf);
            free(p->dly.buf);
            free(p->tag);
            free(p->fp);
            free(p->lru);
            free(p->mshr);
            mi_free(&p->mshr_ix);
            free(p->targets);
            free(p->queue);
            free(p->rd_done);
            free(p->rd_mshr);
            free(p->wr_done);
            free(p->banks);
        }
    }
    free(m->sm);
    free(m->part);
    free(m->tick_start);
    free(m->tick_off);
    free(m->tick_mask);
    free(m->cl_out_free);
    free(m->cl_in_free);
    free(m->cl_in_count);
    free(m->sm_active.w);
    free(m->wheel);
    free(m->sm_out_busy.w);
    free(m->sm_ldst_busy.w);
    free(m->sm_has_done.w);
    free(m->inst);
    free(m->dup_cur.slot);
    free(m->dup_prev.slot);
    free(m->dup_cur.filter);
    free(m->dup_prev.filter);
    free(m->ser);
    free(m->series);
    free(m);
}

mem_system *mem_create(const mem_config *cfg, char *err, size_t errlen)
{
    if (mem_config_check(cfg, err, errlen) != 0)
        return NULL;
    mem_system *m = calloc(1, sizeof *m);
    if (!m) {
        smc_fail(err, errlen, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    m->free_inst = UINT32_MAX;
    if (clocks_init(m) != 0) {
        free(m);
        smc_fail(err, errlen, "out of memory");
        return NULL;
    }
    fd_init(&m->div_parts, cfg->l2_partitions);
    m->interleave_lg = lg(cfg->l2_interleave_bytes ? cfg->l2_interleave_bytes : cfg->l2_line_bytes);
    fd_init(&m->div_banks, cfg->dram_banks);
    m->l2_lru_stride = 2 * cfg->l2_ways + 3;
    m->l2_fp_words = (cfg->l2_ways + 7) / 8;
    uint32_t atom = cfg->dram_atom_bytes ? cfg->dram_atom_bytes : cfg->l2_line_bytes;
    m->dram_ncols = cfg->l2_line_bytes / atom;
    m->dram_atom_cycles = ceil_div(atom, cfg->dram_bytes_per_cycle);
    m->banks_per_group = cfg->dram_banks / cfg->dram_bank_groups;
    m->ser = malloc((cfg->l1d_sector_bytes + 1) * sizeof *m->ser);
    for (uint32_t b = 0; m->ser && b <= cfg->l1d_sector_bytes; b++)
        m->ser[b] = ceil_div(cfg->icnt_header_bytes + b, cfg->icnt_bytes_per_cycle);
    m->done_min = UINT64_MAX;
    m->series_countdown = cfg->sample_interval;
    m->sectors_per_line = cfg->l1d_line_bytes / cfg->l1d_sector_bytes;
    /* The slice input queue also holds the requests inside the L2 pipeline
     * (one enters per cycle, each stays l2.latency cycles); the output queue
     * can take all responses of one fill at once. */
    m->l2_in_cap = cfg->l2_rop_latency ? cfg->l2_queue_entries
                                       : cfg->l2_queue_entries + cfg->l2_latency;
    m->l2_out_cap = cfg->l2_queue_entries + cfg->l2_mshr_max_merge;
    m->sm = calloc(cfg->num_sms, sizeof *m->sm);
    m->part = calloc(cfg->l2_partitions, sizeof *m->part);
    /* longest ejection-queue delay: icnt.latency + serialisation - 1 of a
     * packet carrying a whole line */
    uint32_t max_delay = cfg->icnt_latency +
                         ceil_div(cfg->icnt_header_bytes + cfg->l1d_line_bytes,
                                  cfg->icnt_bytes_per_cycle);
    if (m->multi_clock)          /* in core cycles, rounded up at arrival */
        max_delay = (uint32_t)ceil_div64((uint64_t)max_delay * m->per[MEM_CLK_ICNT],
                                         m->per[MEM_CLK_CORE]) + 1;
    uint32_t wheel_slots = 1;
    while (wheel_slots <= max_delay)
        wheel_slots *= 2;
    m->wheel_mask = wheel_slots - 1;
    m->cluster_sms = cfg->icnt_sms_per_cluster;
    uint32_t nclusters = (cfg->num_sms + m->cluster_sms - 1) / m->cluster_sms;
    m->cl_out_free = calloc(nclusters, sizeof *m->cl_out_free);
    m->cl_in_free = calloc(nclusters, sizeof *m->cl_in_free);
    m->cl_in_count = calloc(nclusters, sizeof *m->cl_in_count);
    int bad = !m->sm || !m->part || !m->ser || bs_init(&m->sm_active, cfg->num_sms) ||
              !m->cl_out_free || !m->cl_in_free || !m->cl_in_count ||
              !(m->wheel = calloc((size_t)wheel_slots * ((cfg->num_sms + 63) / 64),
                                  sizeof *m->wheel)) ||
              bs_init(&m->sm_out_busy, cfg->num_sms) ||
              bs_init(&m->sm_ldst_busy, cfg->num_sms) ||
              bs_init(&m->sm_has_done, cfg->num_sms) || mem_dup_init(&m->dup_cur, 1024) ||
              mem_dup_init(&m->dup_prev, 1024) ||
              !(m->dup_cur.filter = calloc(DUP_FILTER_BITS / 64, sizeof (uint64_t))) ||
              !(m->dup_prev.filter = calloc(DUP_FILTER_BITS / 64, sizeof (uint64_t)));
    for (uint32_t i = 0; !bad && i < cfg->num_sms; i++) {
        sm_state *s = &m->sm[i];
        s->lines = calloc((size_t)cfg->l1d_sets * cfg->l1d_ways, sizeof *s->lines);
        s->ltag = malloc((size_t)cfg->l1d_sets * cfg->l1d_ways * sizeof *s->ltag);
        for (uint32_t w = 0; s->ltag && w < cfg->l1d_sets * cfg->l1d_ways; w++)
            s->ltag[w] = L1_NO_LINE;
        s->mshr = calloc(cfg->l1d_mshr_entries, sizeof *s->mshr);
        s->targets = calloc((size_t)cfg->l1d_mshr_entries * cfg->l1d_mshr_max_merge,
                            sizeof *s->targets);
        bad = !s->lines || !s->ltag || !s->mshr || !s->targets ||
              mi_init(&s->mshr_ix, cfg->l1d_mshr_entries) ||
              ring_init(&s->out, cfg->icnt_queue_entries) ||
              ring_init(&s->in, cfg->icnt_queue_entries) || mem_l1i_init(cfg, s);
    }
    for (uint32_t i = 0; !bad && i < cfg->l2_partitions; i++) {
        part_state *p = &m->part[i];
        p->tag = calloc((size_t)cfg->l2_sets * cfg->l2_ways, sizeof *p->tag);
        p->fp = calloc((size_t)cfg->l2_sets * m->l2_fp_words, sizeof *p->fp);
        p->lru = calloc((size_t)cfg->l2_sets * m->l2_lru_stride, 1);
        for (uint32_t st = 0; p->lru && st < cfg->l2_sets; st++) {
            uint8_t *l = &p->lru[(size_t)st * m->l2_lru_stride];
            l[2 * cfg->l2_ways] = l[2 * cfg->l2_ways + 1] = L2_NONE;
        }
        p->mshr = calloc(cfg->l2_mshr_entries, sizeof *p->mshr);
        /* not cleared: an entry's targets are written before they are read
         * (ntargets counts them); with no MSHR limit (the Multi2Sim
         * presets: 4096 x 64, 10.5 MB a partition) clearing them on every
         * launch was, with the clock table above, a third of a small
         * kepler-k20x run */
        p->targets = malloc((size_t)cfg->l2_mshr_entries * cfg->l2_mshr_max_merge *
                            sizeof *p->targets);
        p->queue = calloc(cfg->dram_queue_entries, sizeof *p->queue);
        /* room for every request that can be alive at once (queue, banks,
         * reads waiting for their L2 fill): the channel never blocks on it */
        p->fcap = cfg->dram_queue_entries + cfg->dram_banks + cfg->l2_mshr_entries;
        p->rd_done = calloc(p->fcap, sizeof *p->rd_done);
        p->rd_mshr = calloc(p->fcap, sizeof *p->rd_mshr);
        p->wr_done = calloc(p->fcap, sizeof *p->wr_done);
        p->banks = calloc(cfg->dram_banks, sizeof *p->banks);
        /* the delay lines take at most one packet per interconnect (ROP)
         * or DRAM (queue) edge over their latency; their room is checked,
         * with this much it never binds */
        uint32_t rop_cap = cfg->l2_rop_latency
            ? (uint32_t)ceil_div64((uint64_t)cfg->l2_rop_latency * m->per[MEM_CLK_CORE],
                                   m->per[MEM_CLK_ICNT]) + 4 : 1;
        if (cfg->dram_queue_latency) {
            p->l2d.cap = cfg->l2_queue_entries;
            p->dly.cap = (uint32_t)ceil_div64((uint64_t)cfg->dram_queue_latency *
                                              m->per[MEM_CLK_CORE], m->per[MEM_CLK_DRAM]) +
                         cfg->l2_queue_entries + 4;
            p->l2d.buf = calloc(p->l2d.cap, sizeof *p->l2d.buf);
            p->dly.buf = calloc(p->dly.cap, sizeof *p->dly.buf);
            bad = !p->l2d.buf || !p->dly.buf;
        }
        bad = bad || ring_init(&p->rop, rop_cap) ||
              !p->tag || !p->fp || !p->lru || !p->mshr || !p->targets || !p->queue || !p->rd_done ||
              !p->rd_mshr || !p->wr_done ||
              mi_init(&p->mshr_ix, cfg->l2_mshr_entries) ||
              !p->banks || ring_init(&p->in, m->l2_in_cap) ||
              ring_init(&p->out, m->l2_out_cap);
        p->out_try = UINT64_MAX;
        p->wake = UINT64_MAX;    /* nothing to do yet */
        for (uint32_t b = 0; !bad && b < cfg->dram_banks; b++)
            p->banks[b].open_row = DRAM_ROW_CLOSED;
    }
    if (bad) {
        mem_destroy(m);
        /* name the keys that size the two big arrays: per L1D way its state
         * and tag, per L2 way its tag, fingerprint byte and two LRU bytes */
        double l1 = (double)cfg->num_sms * cfg->l1d_sets * cfg->l1d_ways *
                    (sizeof(l1_line) + sizeof(uint64_t));
        double l2 = (double)cfg->l2_partitions * cfg->l2_sets * cfg->l2_ways *
                    (sizeof(uint64_t) + 3);
        smc_fail(err, errlen, "out of memory creating the memory model (L1D lines %.1f GiB: "
             "mem.num_sms x l1d.sets x l1d.ways; L2 lines %.1f GiB: l2.partitions x "
             "l2.sets x l2.ways)", l1 / (1 << 30), l2 / (1 << 30));
        return NULL;
    }
    return m;
}

/* ---- across launches ---------------------------------------------------------- */

int mem_inherit_caches(mem_system *m, mem_system *prev)
{
    const mem_config *c = &m->cfg;
    for (uint32_t i = 0; i < 10000000 && !(mem_idle(prev) && !prev->mshr_used_all); i++)
        mem_cycle(prev);
    if (!mem_idle(prev) || prev->mshr_used_all)
        return 0;
    for (uint32_t i = 0; i < c->num_sms; i++) {
        sm_state *s = &m->sm[i];
        const sm_state *q = &prev->sm[i];
        size_t n = (size_t)c->l1d_sets * c->l1d_ways;
        memcpy(s->lines, q->lines, n * sizeof *s->lines);
        memcpy(s->ltag, q->ltag, n * sizeof *s->ltag);
        s->lru_clock = q->lru_clock;
        if (c->l1i_sets) {
            size_t ni = (size_t)c->l1i_sets * c->l1i_ways;
            memcpy(s->itag, q->itag, ni * sizeof *s->itag);
            memcpy(s->ilru, q->ilru, ni * sizeof *s->ilru);
            s->ilru_clock = q->ilru_clock;
        }
    }
    for (uint32_t i = 0; i < c->l2_partitions; i++) {
        part_state *p = &m->part[i];
        const part_state *q = &prev->part[i];
        memcpy(p->tag, q->tag, (size_t)c->l2_sets * c->l2_ways * sizeof *p->tag);
        memcpy(p->fp, q->fp, (size_t)c->l2_sets * m->l2_fp_words * sizeof *p->fp);
        memcpy(p->lru, q->lru, (size_t)c->l2_sets * m->l2_lru_stride);
    }
    return 1;
}

/* ---- the public cycle ------------------------------------------------------- */

/* The MSHR occupancy sample of the interval that ends with this cycle (its
 * countdown reached 0); restarts the countdown. */
static void series_sample(mem_system *m)
{
    const mem_config *c = &m->cfg;
    m->series_countdown = c->sample_interval;
    if (m->nseries == m->series_cap) {
        size_t n = m->series_cap ? m->series_cap * 2 : 256;
        double *bigger = realloc(m->series, n * sizeof *bigger);
        if (!bigger) {
            fprintf(stderr, "smcosim mem-model: out of memory\n");
            exit(1);
        }
        m->series = bigger;
        m->series_cap = n;
    }
    m->series[m->nseries++] = (double)(m->st.l1_mshr_occ_sum - m->series_last_sum) /
                              ((double)c->sample_interval * c->num_sms);
    m->series_last_sum = m->st.l1_mshr_occ_sum;
}

void mem_cycle(mem_system *m)
{
    uint64_t start = m->now * m->per[MEM_CLK_CORE];
    uint64_t end = start + m->per[MEM_CLK_CORE];
    /* Nothing in flight (no packet, DRAM request or held MSHR anywhere) and
     * no SM active: only time passes (what is left in the partition wheels
     * is stale and would be dropped) */
    int idle = !m->live;
    for (uint32_t w = 0; idle && w < m->sm_active.nwords; w++)
        idle = !m->sm_active.w[w];
    if (idle) {
        uint64_t e = m->multi_clock ? icnt_edges(m, start, end) : 1;
        m->rr_down = (uint32_t)((m->rr_down + e) % m->cfg.l2_partitions);
        m->rr_up = (uint32_t)((m->rr_up + e) % m->cfg.num_sms);
        if (m->series_countdown && --m->series_countdown == 0)
            series_sample(m);        /* (no MSHR is held: the sum is unchanged) */
        m->st.cycles++;
        m->now++;
        m->t = end;
        return;
    }
    if (!m->multi_clock) {
        mem_parts_cycle(m);
        mem_icnt_cycle(m);
        mem_sms_cycle(m);
    } else {
        /* this core cycle's instants, each domain on its own edges; at an
         * instant where several step: DRAM, L2, interconnect, SMs */
        uint32_t j = (uint32_t)(m->now % m->tick_cycles);
        for (uint32_t k = m->tick_start[j]; k < m->tick_start[j + 1]; k++) {
            m->t = start + m->tick_off[k];
            m->tick_now = m->tick_mask[k];
            if (m->tick_now & (TICK_L2 | TICK_DRAM))
                mem_parts_cycle(m);
            if (m->tick_now & TICK_ICNT)
                mem_icnt_cycle(m);
            if (m->tick_now & TICK_CORE)
                mem_sms_cycle(m);
        }
    }
    m->st.l1_mshr_occ_sum += m->mshr_used_all;
    if (m->series_countdown && --m->series_countdown == 0)
        series_sample(m);
    m->st.cycles++;
    m->now++;
    m->t = end;
}

/* ---- skipping idle cycles ---------------------------------------------------- */

/* The effect of n calls of mem_cycle in which nothing but time passes: the
 * round-robin pointers, the occupancy sum and its samples, the clock. */
static void count_idle_cycles(mem_system *m, uint64_t n)
{
    const mem_config *c = &m->cfg;
    uint64_t e = m->multi_clock ? icnt_edges(m, m->now * m->per[MEM_CLK_CORE],
                                             (m->now + n) * m->per[MEM_CLK_CORE]) : n;
    m->rr_down = (uint32_t)((m->rr_down + e) % c->l2_partitions);
    m->rr_up = (uint32_t)((m->rr_up + e) % c->num_sms);
    uint64_t left = n;
    while (m->series_countdown && left >= m->series_countdown) {
        m->st.l1_mshr_occ_sum += m->series_countdown * m->mshr_used_all;
        left -= m->series_countdown;
        series_sample(m);
    }
    m->st.l1_mshr_occ_sum += left * m->mshr_used_all;
    if (m->series_countdown)
        m->series_countdown -= (uint32_t)left;
    m->st.cycles += n;
    m->now += n;
    m->t = m->now * m->per[MEM_CLK_CORE];
}

uint64_t mem_next_event(const mem_system *m)
{
    const mem_config *c = &m->cfg;
    for (uint32_t w = 0; w < m->sm_active.nwords; w++)
        if (m->sm_active.w[w])
            return m->now;               /* an SM works or takes a response */
    /* instants (partitions, ports) count in the core cycle that holds them;
     * SM-side stamps are core cycles */
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < c->l2_partitions; i++)
        t = m->part[i].wake < t ? m->part[i].wake : t;          /* slices, DRAM */
    for (uint32_t i = 0; i < c->l2_partitions; i++)
        t = m->part[i].out_try < t ? m->part[i].out_try : t;   /* a response leaves */
    for (uint32_t i = 0; i < c->num_sms; i++) {
        const sm_state *s = &m->sm[i];
        if (s->out.count) {              /* a request leaves the SM */
            uint64_t r = max64(m->cl_out_free[cluster_of(m, i)],
                               s->out.buf[s->out.head].ready);
            t = r < t ? r : t;
        }
    }
    if (t != UINT64_MAX)
        t = core_of(m, t);
    for (uint32_t w = 0; w < m->sm_has_done.nwords; w++)
        for (uint64_t bits = m->sm_has_done.w[w]; bits; bits &= bits - 1) {
            /* a completion becomes collectable (exact: mem_collect leaves
             * done_min behind) */
            uint64_t d = done_front(&m->sm[w * 64 + (uint32_t)__builtin_ctzll(bits)])->cycle;
            t = d < t ? d : t;
        }
    for (uint32_t i = 0; i < c->num_sms; i++) {
        const sm_state *s = &m->sm[i];
        if (s->in.count) {               /* a response reaches the front */
            uint64_t r = s->in.buf[s->in.head].ready;
            t = r < t ? r : t;
        }
    }
    return t < m->now ? m->now : t;
}

int mem_skip_to(mem_system *m, uint64_t t)
{
    if (t < m->now || t > mem_next_event(m))
        return -1;
    /* What the calls of mem_cycle would do: no partition is due, no packet
     * can move, no SM is active and the timing wheels' slots for these
     * cycles hold nothing due (every entry is for a cycle >= t, or left by
     * a value since changed, which a visit would drop) */
    count_idle_cycles(m, t - m->now);
    return 0;
}

const double *mem_occupancy_series(const mem_system *m, size_t *n)
{
    *n = m->nseries;
    return m->series;
}

bool mem_idle(const mem_system *m)
{
    return m->outstanding == 0 && m->live == 0;
}
