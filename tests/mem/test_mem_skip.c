/*
 * test_mem_skip.c — mem_next_event / mem_skip_to against the reference of
 * calling mem_cycle every cycle.
 *
 * Each SM gets a seeded schedule of bursts of warp instructions (loads,
 * stores, atomics, shared and constant accesses over small and large
 * footprints) separated by idle gaps of up to a few thousand cycles. The
 * same schedule is run twice: (A) one mem_cycle per cycle, (B) skipping with
 * mem_skip_to whenever nothing is to be submitted and mem_next_event lies
 * ahead. Both collect completions after every cycle (B: after every cycle or
 * skip) and must agree exactly: every completion with the cycle at which it
 * was collected, the final clock, the statistics and the occupancy samples.
 * B must also skip a good part of the cycles, or the test proves nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "splitmix64.h"

static uint64_t rng_s;   /* the request stream's generator state */
static uint64_t rnd(void) { return splitmix64_next(&rng_s); }

/* Request `idx` of SM `sm`: a function of (seed, sm, idx) only, so both runs
 * submit the same instructions whenever they submit them. */
static void make_request(const mem_config *c, uint64_t seed, uint32_t sm,
                         uint32_t idx, mem_request *r)
{
    rng_s = seed ^ ((uint64_t)sm << 40) ^ ((uint64_t)idx << 8);
    rnd();
    memset(r, 0, sizeof *r);
    r->sm = sm;
    r->warp = (uint32_t)(rnd() % 48);
    r->tag = ((uint64_t)sm << 32) | idx;
    uint32_t k = (uint32_t)(rnd() % 100);
    r->op = k < 70 ? MEM_LOAD : k < 88 ? MEM_STORE : MEM_ATOMIC;
    k = (uint32_t)(rnd() % 100);
    r->space = k < 84 ? MEM_GLOBAL : k < 92 ? MEM_SHARED : MEM_CONST;
    if (r->space == MEM_CONST)
        r->op = MEM_LOAD;
    r->num_dst = r->op == MEM_STORE ? 0 : 1;
    uint32_t f = (uint32_t)(rnd() % 3);
    uint64_t foot = f == 0 ? (64ull << 20) : f == 1 ? (256ull << 10) : (8ull << 10);
    uint64_t base = rnd() % foot & ~3ull;
    uint32_t pattern = (uint32_t)(rnd() % 3);
    r->active_mask = c->warp_size == 64 ? ~0ull : (1ull << c->warp_size) - 1;
    for (uint32_t l = 0; l < c->warp_size; l++) {
        uint64_t a = pattern == 0 ? base + 4ull * l
                   : pattern == 1 ? base + 128ull * l : rnd() % foot;
        r->addr[l] = a & ~3ull;
        r->size[l] = 4;
    }
}

#define PER_SM 120

/* MASCAR's re-execution queue per SM in the runs (0: off) */
static uint32_t reexec_entries;

typedef struct run_log {
    uint64_t (*entries)[5];    /* sm, warp, tag, cycle, collected at */
    size_t n, cap;
    uint64_t final_now, skipped;
    mem_stats st;
    double *series;
    size_t nseries;
} run_log;

static void log_add(run_log *lg, const mem_completion *c, uint64_t now)
{
    if (lg->n == lg->cap) {
        lg->cap = lg->cap ? lg->cap * 2 : 1024;
        lg->entries = realloc(lg->entries, lg->cap * sizeof *lg->entries);
        assert_non_null(lg->entries);
    }
    uint64_t *e = lg->entries[lg->n++];
    e[0] = c->sm;
    e[1] = c->warp;
    e[2] = c->tag;
    e[3] = c->cycle;
    e[4] = now;
}

/* Run the schedule; skip idle stretches when `skip` is set. */
static void run(const mem_config *c, uint64_t seed, uint64_t (*when)[PER_SM], int skip,
                run_log *lg)
{
    char err[256];
    mem_system *m = mem_create(c, err, sizeof err);
    if (!m)
        fail_msg("mem_create: %s", err);
    assert_int_equal(mem_reexec_enable(m, reexec_entries), 0);
    assert_int_equal(mem_next_event(m), UINT64_MAX);   /* nothing in flight */
    uint32_t ns = c->num_sms, next[MEM_MAX_SMS] = { 0 };
    uint32_t left = ns * PER_SM;
    mem_request r;
    mem_completion buf[16];
    memset(lg, 0, sizeof *lg);
    for (;;) {
        uint64_t now = mem_now(m), upcoming = UINT64_MAX;
        for (uint32_t s = 0; s < ns; s++) {
            if (next[s] == PER_SM)
                continue;
            if (when[s][next[s]] <= now && mem_ldst_ready(m, s)) {
                make_request(c, seed, s, next[s], &r);
                if (mem_submit(m, &r, NULL, err, sizeof err) != 0)
                    fail_msg("submit: %s", err);
                next[s]++;
                left--;
            }
            if (next[s] < PER_SM && when[s][next[s]] < upcoming)
                upcoming = when[s][next[s]];
        }
        uint64_t t = skip ? mem_next_event(m) : now;
        assert_true(t >= now);
        if (upcoming < t)
            t = upcoming > now ? upcoming : now;
        if (t > now) {
            /* not beyond the next event, nor before now */
            uint64_t ne = mem_next_event(m);
            if (ne < UINT64_MAX)
                assert_int_equal(mem_skip_to(m, ne + 1), -1);
            assert_int_equal(mem_skip_to(m, now - (now > 0)), now > 0 ? -1 : 0);
            assert_int_not_equal(t, UINT64_MAX);
            assert_int_equal(mem_skip_to(m, t), 0);
            lg->skipped += t - now;
        } else {
            mem_cycle(m);
        }
        size_t n;
        do {
            n = mem_collect_all(m, buf, 16);
            for (size_t i = 0; i < n; i++)
                log_add(lg, &buf[i], mem_now(m));
        } while (n == 16);
        if (!left && mem_outstanding(m) == 0 && mem_idle(m))
            break;
        assert_true(mem_now(m) < 50000000);           /* no deadlock */
    }
    assert_int_equal(mem_next_event(m), UINT64_MAX);
    lg->final_now = mem_now(m);
    lg->st = *mem_get_stats(m);
    const double *series = mem_occupancy_series(m, &lg->nseries);
    lg->series = malloc((lg->nseries + 1) * sizeof *lg->series);
    assert_non_null(lg->series);
    if (lg->nseries)
        memcpy(lg->series, series, lg->nseries * sizeof *series);
    mem_destroy(m);
}

static void compare_runs(const mem_config *c, uint64_t seed)
{
    /* Bursts common to all SMs (each SM takes part in a burst with
     * probability 1/4, with 1-8 instructions 0-3 cycles apart) separated by
     * gaps of 1000-6000 cycles, so that the whole hierarchy drains between
     * bursts now and then. */
    uint64_t (*when)[PER_SM] = calloc(c->num_sms, sizeof *when);
    uint32_t *count = calloc(c->num_sms, sizeof *count);
    assert_non_null(when);
    assert_non_null(count);
    rng_s = seed;
    uint32_t full = 0;
    for (uint64_t start = rnd() % 1000; full < c->num_sms; start += 1000 + rnd() % 5001) {
        for (uint32_t s = 0; s < c->num_sms; s++) {
            if (count[s] == PER_SM || rnd() % 4)
                continue;
            uint64_t t = start + rnd() % 8;
            for (uint32_t b = 1 + (uint32_t)(rnd() % 8); b > 0 && count[s] < PER_SM; b--) {
                t += rnd() % 4;
                when[s][count[s]++] = t;
            }
            full += count[s] == PER_SM;
        }
    }
    free(count);
    run_log a, b;
    run(c, seed, when, 0, &a);
    run(c, seed, when, 1, &b);
    assert_int_equal(a.skipped, 0);
    assert_int_equal(a.n, (size_t)c->num_sms * PER_SM);
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.entries, b.entries, a.n * sizeof *a.entries);
    assert_int_equal(a.final_now, b.final_now);
    /* both copies come from calloc'ed systems: padding is zero in both */
    assert_memory_equal(&a.st, &b.st, sizeof a.st);
    if (reexec_entries)          /* the queue was exercised */
        assert_true(a.st.reexec_accesses > 0 && a.st.mascar_replay > 0);
    if (c->sample_interval)
        assert_true(a.nseries > 10);
    else
        assert_int_equal(a.nseries, 0);
    assert_int_equal(a.nseries, b.nseries);
    assert_memory_equal(a.series, b.series, a.nseries * sizeof *a.series);
    print_message("%llu of %llu cycles skipped\n", (unsigned long long)b.skipped,
                  (unsigned long long)b.final_now);
    /* skipping is exercised (stalls that retry every cycle, e.g. a full L2
     * MSHR table, are not skipped: a congested configuration skips less) */
    assert_true(b.skipped * 8 > b.final_now);
    free(a.entries);
    free(b.entries);
    free(a.series);
    free(b.series);
    free(when);
}

static mem_config preset(const char *name)
{
    mem_config c;
    char err[256];
    assert_int_equal(mem_config_preset(&c, name, err, sizeof err), 0);
    c.sample_interval = 500;
    return c;
}

static void test_skip_kepler(void **state)
{
    (void)state;
    mem_config c = preset("kepler-k20x");
    compare_runs(&c, 0x5eed0001);
}

static void test_skip_fermi_sectors_on_miss(void **state)
{
    (void)state;
    mem_config c = preset("fermi-gtx480");
    c.l1d_sector_bytes = 32;
    c.l1d_alloc = MEM_ALLOC_ON_MISS;
    c.l1d_mshr_entries = 4;
    c.icnt_queue_entries = 2;
    compare_runs(&c, 0x5eed0002);
}

/* MASCAR's re-execution queue: its sleeping head and the mascar_replay
 * cycles added on waking are skipped over like the unit's replays */
static void test_skip_fermi_reexec(void **state)
{
    (void)state;
    mem_config c = preset("fermi-gtx480");
    c.l1d_mshr_entries = 4;
    c.icnt_queue_entries = 2;
    reexec_entries = 8;
    compare_runs(&c, 0x5eed0004);
    reexec_entries = 0;
}

/* Clock domains at awkward ratios (interconnect faster, L2 and DRAM slower
 * than the core, none dividing another), SMs in clusters of 3 and both
 * delay lines: idle instants of every domain are skipped exactly */
static void test_skip_clock_domains(void **state)
{
    (void)state;
    mem_config c = preset("fermi-gtx480");
    c.clock_core_mhz = 732;
    c.clock_icnt_mhz = 2500;
    c.clock_l2_mhz = 500;
    c.clock_dram_mhz = 1000;
    c.icnt_sms_per_cluster = 3;
    c.l2_rop_latency = 37;
    c.dram_queue_latency = 53;
    c.l1d_mshr_entries = 4;
    c.icnt_queue_entries = 2;
    compare_runs(&c, 0x5eed0005);
}

static void test_skip_si_no_samples(void **state)
{
    (void)state;
    mem_config c = preset("si-7970");
    c.sample_interval = 0;
    compare_runs(&c, 0x5eed0003);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skip_kepler),
        cmocka_unit_test(test_skip_fermi_sectors_on_miss),
        cmocka_unit_test(test_skip_si_no_samples),
        cmocka_unit_test(test_skip_fermi_reexec),
        cmocka_unit_test(test_skip_clock_domains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
