/*
 * test_mem_latency.c — the memory microbenchmarks' latency half: on every
 * preset, the unloaded latency of an L1 hit, an L2 hit and a DRAM access,
 * measured through the model's interface (one load of one lane, submitted
 * at a chosen core cycle, its completion collected), equals the
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
 *                     the start: activate, tRCD, tCL, the burst of
 *                     l2.line_bytes / dram.bytes_per_cycle DRAM cycles, then
 *                     dram.latency core cycles; the fill at the next L2
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
#include <string.h>

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
    uint64_t burst = cdiv(c->l2_line_bytes, c->dram_bytes_per_cycle);
    uint64_t end = start + (c->dram_tRCD + c->dram_tCL + burst) * k.dram;
    uint64_t fill = edge(end + c->dram_latency * k.core, k.l2);
    return reply_done(c, &k, fill) - s;
}

/* ---- measuring ------------------------------------------------------------ */

static mem_system *create(const mem_config *c)
{
    char err[256];
    mem_system *m = mem_create(c, err, sizeof err);
    if (!m)
        fail_msg("mem_create: %s", err);
    return m;
}

/* One 4-byte load of one lane by `sm` at address addr, submitted at core
 * cycle s (the system idles until then); returns its latency in core
 * cycles. */
static uint64_t load_latency(mem_system *m, uint32_t sm, uint64_t addr, uint64_t s)
{
    while (mem_now(m) < s)
        mem_cycle(m);
    mem_request r;
    memset(&r, 0, sizeof r);
    r.sm = sm;
    r.op = MEM_LOAD;
    r.space = MEM_GLOBAL;
    r.active_mask = 1;
    r.addr[0] = addr;
    r.size[0] = 4;
    r.num_dst = 1;
    r.dst[0] = 1;
    r.tag = 77;
    char err[256];
    assert_true(mem_ldst_ready(m, sm));
    if (mem_submit(m, &r, NULL, err, sizeof err) != 0)
        fail_msg("mem_submit: %s", err);
    for (int i = 0; i < 100000; i++) {
        mem_cycle(m);
        mem_completion done;
        if (mem_collect(m, sm, &done, 1) == 1) {
            assert_int_equal(done.tag, 77);
            while (!mem_idle(m))
                mem_cycle(m);
            return done.cycle - s;
        }
    }
    fail_msg("the load never completed");
    return 0;
}

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
    const uint64_t line = c.l2_line_bytes;
    for (uint64_t j = 0; j < phases; j++) {
        uint64_t s = 1000 + j;
        /* DRAM: a cold line */
        mem_system *m = create(&c);
        uint64_t got = load_latency(m, 0, 64 * line, s);
        if (got != expect_dram(&c, s))
            fail_msg("%s: DRAM access at cycle %llu took %llu core cycles, the "
                     "configuration says %llu", name, (unsigned long long)s,
                     (unsigned long long)got, (unsigned long long)expect_dram(&c, s));
        /* L2 hit: another SM (another cluster) loads the same line */
        uint64_t s2 = mem_now(m) + 100 + j;
        got = load_latency(m, c.num_sms - 1, 64 * line, s2);
        if (got != expect_l2_hit(&c, s2))
            fail_msg("%s: L2 hit at cycle %llu took %llu core cycles, the "
                     "configuration says %llu", name, (unsigned long long)s2,
                     (unsigned long long)got, (unsigned long long)expect_l2_hit(&c, s2));
        /* L1 hit: the first SM again */
        got = load_latency(m, 0, 64 * line, mem_now(m) + 10);
        if (got != c.l1d_latency)
            fail_msg("%s: L1 hit took %llu core cycles, l1d.latency is %u", name,
                     (unsigned long long)got, c.l1d_latency);
        if (j == 0)
            printf("  %-18s L1 hit %3u, L2 hit %3llu, DRAM %3llu core cycles (at cycle %llu)\n",
                   name, c.l1d_latency, (unsigned long long)expect_l2_hit(&c, s2),
                   (unsigned long long)expect_dram(&c, s), (unsigned long long)s);
        mem_destroy(m);
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
