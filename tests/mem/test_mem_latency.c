/*
 * test_mem_latency.c — the memory microbenchmarks' latency half: on every
 * preset, the unloaded latency of an L1 hit, an L2 hit and a DRAM access,
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unloaded_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
