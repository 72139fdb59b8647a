/*
 * test_mem_machine.c — the memory microbenchmarks that prove each preset's
 * machine (docs/memory-model.md, "The machine, measured"; `make
 * bench-mem-machine` prints the same table).
 *
 * Latency: on every preset, the unloaded latency of an L1 hit, an L2 hit and a DRAM access,
 * measured through the model's interface (mem_probe_unloaded: one load of
 * one lane, submitted at a chosen core cycle, its completion collected),
 * equals the
 * configuration's own arithmetic, worked here from the keys and the rules
 * of docs/memory-model.md ("The path of a load", "Clock domains"):
 *
 *   core cycle s      the LD/ST unit takes the load (mem_submit, mem_cycle s)
 *   (s + 1) core      the miss may leave the SM: the next interconnect edge
 *                     sends it, arriving (icnt.latency + ser(request) - 1)
 *                     interconnect cycles later
 *   ROP line          l2.rop_latency core cycles, then the input queue at an
 *                     L2 edge, handled l2.latency L2 cycles later (no ROP
 *                     line: l2.latency after arrival, at an L2 edge)
 *   L2 hit            the response leaves at the next interconnect edge,
 *                     arriving (icnt.latency + ser(response) - 1) later; the
 *                     SM takes it in the first core cycle at or after that
 *                     and the data is in registers one core cycle later
 *   L2 miss           (dram.queue_latency: the L2's DRAM queue, the delay
 *                     line from the next DRAM edge, the scheduler queue one
 *                     DRAM edge after the line; else the next DRAM edge)
 *                     the start: activate, tRCD, then the line's column
 *                     commands (l2.line_bytes / dram.atom_bytes of them,
 *                     max(tCCD, tCCDL) apart) whose data follows tCL later
 *                     and holds the bus atom / dram.bytes_per_cycle cycles,
 *                     then dram.latency core cycles; the fill at the next L2
 *                     edge, then as an L2 hit
 *   L1 hit            l1d.latency core cycles
 *
 * Every trial uses a new memory system (closed DRAM rows, empty caches), and
 * the submission cycle runs over a whole period of the clocks' phases, so a
 * rounding to the wrong edge anywhere shows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mem.h"

#include <stdio.h>

typedef struct clocks {
    uint64_t core, icnt, l2, dram;    /* periods in the time base */
} clocks;

static clocks clocks_of(const mem_config *c)
{
    clocks k = { 1, 1, 1, 1 };
    uint32_t base = mem_clock_base_mhz(c);
    if (c->clock_core_mhz) {
        k.core = base / mem_clock_mhz(c, MEM_CLK_CORE);
        k.icnt = base / mem_clock_mhz(c, MEM_CLK_ICNT);
        k.l2 = base / mem_clock_mhz(c, MEM_CLK_L2);
        k.dram = base / mem_clock_mhz(c, MEM_CLK_DRAM);
    }
    return k;
}

static uint64_t edge(uint64_t x, uint64_t p) { return (x + p - 1) / p * p; }
static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* From the instant h at which the slice answers to the completion cycle. */
static uint64_t reply_done(const mem_config *c, const clocks *k, uint64_t h)
{
    uint64_t ser = cdiv(c->icnt_header_bytes + c->l1d_sector_bytes, c->icnt_bytes_per_cycle);
    uint64_t arrive = edge(h, k->icnt) + (c->icnt_latency + ser - 1) * k->icnt;
    return cdiv(arrive, k->core) + 1;
}

/* The instant at which the slice handles a request sent at core cycle s + 1. */
static uint64_t request_at_l2(const mem_config *c, const clocks *k, uint64_t s)
{
    uint64_t ser = cdiv(c->icnt_header_bytes, c->icnt_bytes_per_cycle);
    uint64_t arrive = edge((s + 1) * k->core, k->icnt) + (c->icnt_latency + ser - 1) * k->icnt;
    if (!c->l2_rop_latency)
        return edge(arrive + c->l2_latency * k->l2, k->l2);
    uint64_t joins = edge(arrive + c->l2_rop_latency * k->core, k->l2);
    return joins + c->l2_latency * k->l2;
}

static uint64_t expect_l2_hit(const mem_config *c, uint64_t s)
{
    clocks k = clocks_of(c);
    return reply_done(c, &k, request_at_l2(c, &k, s)) - s;
}

static uint64_t expect_dram(const mem_config *c, uint64_t s)
{
    clocks k = clocks_of(c);
    uint64_t miss = request_at_l2(c, &k, s), start;
    if (c->dram_queue_latency) {
        uint64_t line = edge(miss + 1, k.dram);
        start = edge(line + c->dram_queue_latency * k.core, k.dram) + k.dram;
    } else {
        start = edge(miss + 1, k.dram);
    }
    /* the line's column commands, tCCD / tCCDL apart (one bank, one group),
     * each moving its atom over the bus for atom / bytes_per_cycle cycles */
    uint64_t atom = c->dram_atom_bytes ? c->dram_atom_bytes : c->l2_line_bytes;
    uint64_t ncol = c->l2_line_bytes / atom, xfer = cdiv(atom, c->dram_bytes_per_cycle);
    uint64_t step = c->dram_tCCD > c->dram_tCCDL ? c->dram_tCCD : c->dram_tCCDL;
    uint64_t end = start + (c->dram_tRCD + c->dram_tCL + (ncol - 1) * (step > xfer ? step : xfer) +
                            xfer) * k.dram;
    uint64_t fill = edge(end + c->dram_latency * k.core, k.l2);
    return reply_done(c, &k, fill) - s;
}

/* ---- measuring (mem_probe_unloaded: the loads through the interface) ---- */

static void check_preset(const char *name)
{
    mem_config c;
    char err[256];
    assert_int_equal(mem_config_preset(&c, name, err, sizeof err), 0);
    clocks k = clocks_of(&c);
    /* a whole period of the clocks' phases, in core cycles */
    uint64_t group = k.core, ps[3] = { k.icnt, k.l2, k.dram };
    for (int i = 0; i < 3; i++) {
        uint64_t a = group, b = ps[i];
        while (b) {
            uint64_t t = a % b;
            a = b;
            b = t;
        }
        group = group / a * ps[i];
    }
    uint64_t phases = group / k.core;
    for (uint64_t j = 0; j < phases; j++) {
        mem_probe p;
        if (mem_probe_unloaded(&c, 1000 + j, &p, err, sizeof err) != 0)
            fail_msg("%s: %s", name, err);
        if (p.dram != expect_dram(&c, p.dram_at))
            fail_msg("%s: DRAM access at cycle %llu took %llu core cycles, the "
                     "configuration says %llu", name, (unsigned long long)p.dram_at,
                     (unsigned long long)p.dram, (unsigned long long)expect_dram(&c, p.dram_at));
        if (p.l2 != expect_l2_hit(&c, p.l2_at))
            fail_msg("%s: L2 hit at cycle %llu took %llu core cycles, the "
                     "configuration says %llu", name, (unsigned long long)p.l2_at,
                     (unsigned long long)p.l2, (unsigned long long)expect_l2_hit(&c, p.l2_at));
        if (p.l1 != c.l1d_latency)
            fail_msg("%s: L1 hit took %llu core cycles, l1d.latency is %u", name,
                     (unsigned long long)p.l1, c.l1d_latency);
        if (j == 0)
            printf("  %-18s L1 hit %3llu, L2 hit %3llu, DRAM %3llu core cycles (%llu phases)\n",
                   name, (unsigned long long)p.l1, (unsigned long long)p.l2,
                   (unsigned long long)p.dram, (unsigned long long)phases);
    }
}

static void test_unloaded_latency(void **state)
{
    (void)state;
    for (int i = 0; mem_preset_names[i]; i++)
        check_preset(mem_preset_names[i]);
}

/* ---- bandwidth ------------------------------------------------------------ */

/* Bandwidth, bytes per core cycle, measured by mem_probe_bandwidth (every SM
 * of the probe issuing a 32-lane coalesced load whenever its LD/ST unit is
 * free) against the configuration's arithmetic:
 *   L1, one SM        l1d.ports L1 accesses per core cycle: an instruction
 *                     of T = warp_size x 4 / l1d.sector_bytes transactions
 *                     takes ceil(T / ports) cycles, so T x sector_bytes /
 *                     ceil(T / ports) bytes per cycle
 *   L1, all SMs       x mem.num_sms
 *   L2, one SM        the smaller of the SM's MSHRs over their holding time
 *                     (l1d.mshr_entries x line / (L2-hit latency - 1): an
 *                     entry frees when its fill arrives, a cycle before the
 *                     data is in registers) and its node's ejection port
 *                     (line / (ser(response) interconnect cycles))
 *   DRAM, one SM      the MSHRs over their holding time, between a DRAM
 *                     access to a closed bank (the unloaded latency) and a
 *                     row hit (tRCD less): a single stream is one or the other
 *   L2 / DRAM, all    at most the peak: the partitions' ejection ports, the
 *                     clusters' ports (L2), and the DRAM buses
 *                     (l2.partitions x dram.bytes_per_cycle per DRAM cycle);
 *                     how far below it, and why, is in docs/memory-model.md.
 * (With sectors, an MSHR and a transaction are a sector's.) Within 5 %. */
#define TOL 0.05

static double port_bw(const mem_config *c, const clocks *k)
{
    /* one response of a line per ser interconnect cycles, in core cycles */
    double ser = (double)cdiv(c->icnt_header_bytes + c->l1d_sector_bytes,
                              c->icnt_bytes_per_cycle);
    return c->l1d_sector_bytes / (ser * (double)k->icnt / (double)k->core);
}

static double measure(const mem_config *c, mem_bw_level level, uint32_t nsms)
{
    char err[256];
    double bw;
    /* warm: the L1 and L2 patterns' first pass comes from DRAM */
    if (mem_probe_bandwidth(c, level, nsms, 60000, 20000, &bw, err, sizeof err) != 0)
        fail_msg("bandwidth probe: %s", err);
    return bw;
}

static void within(const char *preset, const char *what, double got, double lo, double hi)
{
    int ok = got >= lo * (1 - TOL) && got <= hi * (1 + TOL);
    char range[64];
    if (hi != lo)
        snprintf(range, sizeof range, "%.2f .. %.2f", lo, hi);
    else
        snprintf(range, sizeof range, "%.2f", lo);
    printf("  %-18s %-14s %8.2f B/cycle, arithmetic %s%s\n", preset, what, got, range,
           ok ? "" : "  <-- outside 5 %");
    if (!ok)
        fail_msg("%s: %s bandwidth %.2f B/cycle, the configuration says %.2f..%.2f", preset,
                 what, got, lo, hi);
}

static void test_bandwidth(void **state)
{
    (void)state;
    char err[256];
    for (int i = 0; mem_preset_names[i]; i++) {
        const char *name = mem_preset_names[i];
        mem_config c;
        assert_int_equal(mem_config_preset(&c, name, err, sizeof err), 0);
        clocks k = clocks_of(&c);
        double dram_per_core = (double)k.core / (double)k.dram;   /* DRAM cycles per core cycle */
        uint32_t clusters = (c.num_sms + c.icnt_sms_per_cluster - 1) / c.icnt_sms_per_cluster;
        double port = port_bw(&c, &k);
        uint32_t tx = c.warp_size * 4 / c.l1d_sector_bytes;
        double l1 = (double)tx * c.l1d_sector_bytes / (double)cdiv(tx, c.l1d_ports);
        within(name, "L1, one SM", measure(&c, MEM_BW_L1, 1), l1, l1);
        within(name, "L1, all SMs", measure(&c, MEM_BW_L1, c.num_sms),
               (double)c.num_sms * l1, (double)c.num_sms * l1);
        mem_probe p;
        if (mem_probe_unloaded(&c, 1000, &p, err, sizeof err) != 0)
            fail_msg("%s: %s", name, err);
        double mshr_bytes = (double)c.l1d_mshr_entries * c.l1d_sector_bytes;
        double one_l2 = measure(&c, MEM_BW_L2, 1), one_dram = measure(&c, MEM_BW_DRAM, 1);
        double l2 = mshr_bytes / (double)(p.l2 - 1);
        l2 = l2 < port ? l2 : port;
        within(name, "L2, one SM", one_l2, l2, l2);
        double row_hit = (double)c.dram_tRCD * k.dram / k.core;
        within(name, "DRAM, one SM", one_dram, mshr_bytes / (double)(p.dram - 1),
               mshr_bytes / ((double)(p.dram - 1) - row_hit));
        /* the peaks */
        double l2_peak = (double)c.l2_partitions * port;
        if (clusters * port < l2_peak)
            l2_peak = clusters * port;
        double dram_peak = (double)c.l2_partitions * c.dram_bytes_per_cycle * dram_per_core;
        if (l2_peak < dram_peak)
            dram_peak = l2_peak;
        double all_l2 = measure(&c, MEM_BW_L2, c.num_sms);
        double all_dram = measure(&c, MEM_BW_DRAM, c.num_sms);
        printf("  %-18s L2, all SMs    %8.2f B/cycle, peak %8.2f (%.0f %%)\n", name, all_l2,
               l2_peak, 100 * all_l2 / l2_peak);
        printf("  %-18s DRAM, all SMs  %8.2f B/cycle, peak %8.2f (%.0f %%)\n", name, all_dram,
               dram_peak, 100 * all_dram / dram_peak);
        if (all_l2 > l2_peak * (1 + 1e-9) || all_dram > dram_peak * (1 + 1e-9))
            fail_msg("%s: a bandwidth above the configuration's peak", name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unloaded_latency),
        cmocka_unit_test(test_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
