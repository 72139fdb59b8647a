/*
 * test_mem_random.c — seeded randomised invariant test of the memory model.
 *
 * Several configurations (presets and variants: tiny MSHRs, allocate-on-miss,
 * sectors, hashed sets, one-entry queues; and 24 drawn at random across the
 * keys' ranges) each run a random mix of warp
 * memory instructions from all SMs: coherent and divergent loads, stores,
 * atomics, shared and constant accesses, over small and large footprints.
 * Checked, every cycle or at the end:
 *   - every instruction completes exactly once, not before it was submitted
 *     plus its minimum latency, and the model drains to idle;
 *   - free MSHRs never exceed (and use never exceeds) the capacity;
 *   - the counters add up (hits + misses = accesses, allocations + merges =
 *     load misses, L2 reads = L1 allocations, DRAM reads = L2 MSHR
 *     allocations, packets up/down = what the L1s sent, ...);
 *   - no deadlock: some instruction completes at least every 200,000 cycles.
 *
 *   test_mem_random [instructions]   (default 400,000, ~5 M transactions;
 *                                     the ASan pass uses fewer; each of the
 *                                     six fixed configurations gets a sixth,
 *                                     the slow "tiny" one a quarter of that,
 *                                     each random one an eightieth)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "splitmix64.h"

static uint64_t total_insts = 400000;

static uint64_t rng_s;   /* the request stream's generator state */
static uint64_t rnd(void) { return splitmix64_next(&rng_s); }

typedef struct expect {
    uint64_t insts[3];             /* by op, global/local only */
    uint64_t load_insts;           /* any space */
    uint64_t tx[3];                /* global/local transactions by op */
} expect;

static void make_request(const mem_config *c, mem_request *r, uint32_t sm,
                         uint64_t tag)
{
    memset(r, 0, sizeof *r);
    r->sm = sm;
    r->warp = (uint32_t)(rnd() % 48);
    r->tag = tag;
    uint32_t k = (uint32_t)(rnd() % 100);
    r->op = k < 70 ? MEM_LOAD : k < 88 ? MEM_STORE : MEM_ATOMIC;
    k = (uint32_t)(rnd() % 100);
    r->space = k < 80 ? MEM_GLOBAL : k < 88 ? MEM_LOCAL : k < 96 ? MEM_SHARED : MEM_CONST;
    if (r->space == MEM_CONST)
        r->op = MEM_LOAD;
    if (r->space == MEM_LOCAL && r->op == MEM_ATOMIC)
        r->op = MEM_STORE;
    r->num_dst = r->op == MEM_STORE ? 0 : (uint8_t)(1 + rnd() % 4);
    for (int i = 0; i < r->num_dst; i++)
        r->dst[i] = (uint16_t)(rnd() % 255);
    /* footprint: 8 KB (reuse, merging), 256 KB (L2-resident) or 64 MB */
    uint32_t f = (uint32_t)(rnd() % 4);
    uint64_t foot = f == 0 ? (64ull << 20) : f == 1 ? (256ull << 10) : (8ull << 10);
    uint64_t base = rnd() % foot & ~3ull;
    uint32_t pattern = (uint32_t)(rnd() % 4);
    uint8_t size = (uint8_t)(1u << (rnd() % 5));      /* 1..16 */
    uint32_t lanes = c->warp_size;
    uint64_t mask = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    if (rnd() % 4 == 0)
        mask &= rnd();                                 /* branch divergence */
    r->active_mask = mask;
    for (uint32_t l = 0; l < lanes; l++) {
        uint64_t a;
        switch (pattern) {
        case 0: a = base + (uint64_t)l * size; break;            /* coherent */
        case 1: a = base + (uint64_t)l * 128 * (1 + rnd() % 3); break;
        case 2: a = rnd() % foot; break;                         /* random */
        default: a = base + (rnd() % 8) * 4096; break;          /* few sets */
        }
        if (rnd() % 16)
            a &= ~(uint64_t)(size - 1);                /* mostly aligned */
        r->addr[l] = a;
        r->size[l] = size;
    }
}

/* MASCAR's re-execution queue per SM for the next run_config (0: off) */
static uint32_t reexec_entries;

static void run_config(const char *name, const mem_config *c, uint64_t ninst,
                       uint64_t seed)
{
    char err[256];
    mem_system *m = mem_create(c, err, sizeof err);
    if (!m)
        fail_msg("%s: %s", name, err);
    assert_int_equal(mem_reexec_enable(m, reexec_entries), 0);
    rng_s = seed;
    uint8_t *done = calloc(ninst, 1);
    uint64_t *submitted_at = calloc(ninst, sizeof *submitted_at);
    uint8_t *op_of = calloc(ninst, 1), *space_of = calloc(ninst, 1);
    assert_non_null(done);
    expect ex;
    memset(&ex, 0, sizeof ex);
    uint64_t next = 0, completed = 0, last_progress = 0;
    mem_completion buf[128];
    mem_request r;
    uint32_t ready[MEM_MAX_SMS];
    while (completed < ninst) {
        /* candidates: the SMs whose LD/ST unit is free; every 8th cycle the
         * list is checked against mem_ldst_ready of every SM */
        uint32_t nready = mem_ldst_ready_list(m, ready);
        if (mem_now(m) % 8 == 0) {
            uint32_t k = 0;
            for (uint32_t s = 0; s < c->num_sms; s++) {
                int listed = k < nready && ready[k] == s;
                if (listed != (int)mem_ldst_ready(m, s))
                    fail_msg("%s: SM %u: ready list and mem_ldst_ready disagree",
                             name, s);
                k += (uint32_t)listed;
            }
            assert_int_equal(k, nready);
        }
        for (uint32_t k = 0; k < nready && next < ninst; k++) {
            uint32_t s = ready[k];
            if (rnd() % 3 == 0)
                continue;
            make_request(c, &r, s, next);
            mem_coalesce_info info;
            if (mem_submit(m, &r, &info, err, sizeof err) != 0)
                fail_msg("%s: submit: %s", name, err);
            submitted_at[next] = mem_now(m);
            op_of[next] = r.active_mask ? (uint8_t)r.op : 255;
            space_of[next] = (uint8_t)r.space;
            if (r.op == MEM_LOAD)
                ex.load_insts++;
            if (r.space == MEM_GLOBAL || r.space == MEM_LOCAL) {
                ex.insts[r.op]++;
                ex.tx[r.op] += info.transactions;
            }
            next++;
        }
        mem_cycle(m);
        for (uint32_t s = 0; s < c->num_sms; s++)
            if (mem_free_mshrs(m, s) > c->l1d_mshr_entries)
                fail_msg("%s: SM %u reports %u free MSHRs of %u", name, s,
                         mem_free_mshrs(m, s), c->l1d_mshr_entries);
        /* completions: per SM (mem_collect) every 4th cycle, otherwise all
         * SMs at once (mem_collect_all, SM by SM in ascending order) */
        int per_sm = mem_now(m) % 4 == 0;
        uint32_t last_sm = 0;
        for (uint32_t s = 0; s < (per_sm ? c->num_sms : 1); s++) {
            size_t n;
            while ((n = per_sm ? mem_collect(m, s, buf, 128)
                               : mem_collect_all(m, buf, 128)) > 0) {
                for (size_t i = 0; i < n; i++) {
                    uint64_t t = buf[i].tag;
                    if (t >= next)
                        fail_msg("%s: completion of unknown tag %llu", name,
                                 (unsigned long long)t);
                    if (done[t])
                        fail_msg("%s: tag %llu completed twice", name,
                                 (unsigned long long)t);
                    done[t] = 1;
                    completed++;
                    last_progress = mem_now(m);
                    if (per_sm) {
                        assert_int_equal(buf[i].sm, s);
                    } else {
                        assert_true(buf[i].sm < c->num_sms);
                        assert_true(buf[i].sm >= last_sm);
                        last_sm = buf[i].sm;
                    }
                    assert_int_equal(buf[i].submit_cycle, submitted_at[t]);
                    assert_true(buf[i].cycle <= mem_now(m));
                    assert_true(buf[i].cycle > submitted_at[t]);
                    if (op_of[t] == MEM_LOAD && space_of[t] <= MEM_LOCAL)
                        assert_true(buf[i].cycle >= submitted_at[t] + c->l1d_latency);
                }
            }
        }
        if (mem_now(m) - last_progress > 200000)
            fail_msg("%s: no completion for 200000 cycles at cycle %llu "
                     "(%llu of %llu done): deadlock", name,
                     (unsigned long long)mem_now(m), (unsigned long long)completed,
                     (unsigned long long)ninst);
    }
    /* drain stores and writebacks */
    for (int i = 0; i < 1000000 && !mem_idle(m); i++)
        mem_cycle(m);
    assert_true(mem_idle(m));
    assert_int_equal(mem_outstanding(m), 0);

    const mem_stats *st = mem_get_stats(m);
    uint64_t sum = 0;
    for (int o = 0; o < 3; o++)
        for (int sp = 0; sp < 4; sp++)
            sum += st->insts[o][sp];
    assert_int_equal(sum, ninst);
    assert_int_equal(st->completions, ninst);
    assert_int_equal(st->load_insts_done, ex.load_insts);
    assert_int_equal(st->transactions, ex.tx[0] + ex.tx[1] + ex.tx[2]);
    for (int o = 0; o < 3; o++)
        assert_int_equal(st->l1_hit[o] + st->l1_miss[o], ex.tx[o]);
    assert_int_equal(st->l1_mshr_alloc + st->l1_mshr_merge, st->l1_miss[MEM_LOAD]);
    assert_int_equal(st->l1_mshr_released, st->l1_mshr_alloc);
    assert_int_equal(st->l1_mshr_targets, st->l1_miss[MEM_LOAD]);
    uint64_t hist = 0, weighted = 0;
    for (int k = 1; k <= 64; k++) {
        hist += st->l1_mshr_merge_hist[k];
        weighted += (uint64_t)k * st->l1_mshr_merge_hist[k];
    }
    assert_int_equal(st->l1_mshr_merge_hist[0], 0);
    assert_int_equal(hist, st->l1_mshr_alloc);
    assert_int_equal(weighted, st->l1_mshr_targets);
    assert_true(st->l1_mshr_occ_max <= c->l1d_mshr_entries);
    assert_true(st->l1_mshr_dup <= st->l1_mshr_alloc);
    assert_true(st->stall_coal + st->stall_mshr + st->stall_icnt <= st->ldst_busy_cycles);
    /* the re-execution queue: used when on (these configurations run out
     * of MSHRs), never when off; at most one replay per SM and cycle */
    if (reexec_entries)
        assert_true(st->reexec_accesses > 0 && st->mascar_replay > 0);
    else
        assert_true(st->reexec_accesses == 0 && st->mascar_replay == 0);
    assert_true(st->mascar_replay <= st->cycles * c->num_sms);
    /* every L1 allocation is one L2 read, every store/atomic transaction one
     * L2 write/atomic */
    assert_int_equal(st->l2_hit[0] + st->l2_miss[0], st->l1_mshr_alloc);
    assert_int_equal(st->l2_hit[1] + st->l2_miss[1], ex.tx[MEM_STORE]);
    assert_int_equal(st->l2_hit[2] + st->l2_miss[2], ex.tx[MEM_ATOMIC]);
    assert_int_equal(st->icnt_up_packets,
                     st->l1_mshr_alloc + ex.tx[MEM_STORE] + ex.tx[MEM_ATOMIC]);
    /* mem.store_acks: every store transaction is answered too */
    assert_int_equal(st->icnt_down_packets, st->l1_mshr_alloc + ex.tx[MEM_ATOMIC] +
                                            (c->store_acks ? ex.tx[MEM_STORE] : 0));
    /* l2.write_miss = fetch: a write miss is a DRAM write, and a read unless
     * it merged into the line's pending entry (l2_mshr_merge counts both) */
    int fetch = c->l2_write_miss == MEM_L2_WM_FETCH;
    assert_int_equal(st->dram_reads, st->l2_miss[0] + st->l2_miss[2] +
                                     (fetch ? st->l2_miss[1] : 0) - st->l2_mshr_merge);
    assert_int_equal(st->dram_writes, st->l2_writebacks + (fetch ? st->l2_miss[1] : 0));
    assert_true(st->dram_row_hits <= st->dram_reads + st->dram_writes);
    fprintf(stderr, "  %-24s %8llu insts %9llu transactions %9llu cycles, "
            "L1 hit %.1f%%, %llu MSHR merges, %llu dup, stalls %llu/%llu/%llu\n",
            name, (unsigned long long)ninst, (unsigned long long)st->transactions,
            (unsigned long long)st->cycles,
            100.0 * st->l1_hit[0] / (double)(st->l1_hit[0] + st->l1_miss[0] + 1),
            (unsigned long long)st->l1_mshr_merge, (unsigned long long)st->l1_mshr_dup,
            (unsigned long long)st->stall_coal, (unsigned long long)st->stall_mshr,
            (unsigned long long)st->stall_icnt);
    free(done);
    free(submitted_at);
    free(op_of);
    free(space_of);
    mem_destroy(m);
}

static mem_config preset(const char *name)
{
    mem_config c;
    char err[256];
    assert_int_equal(mem_config_preset(&c, name, err, sizeof err), 0);
    return c;
}

static void test_presets(void **state)
{
    (void)state;
    uint64_t n = total_insts / 6;
    mem_config c = preset("kepler-k20x");
    run_config("kepler-k20x", &c, n, 1);
    c = preset("fermi-gtx480");
    run_config("fermi-gtx480", &c, n, 2);
    c = preset("si-7970");
    run_config("si-7970", &c, n, 3);
}

/* The tiny allocate-on-miss L1D of the variants: 4 SMs, 4 x 2 lines,
 * 3 MSHRs of 2 merges, one-entry interconnect queues. */
static mem_config tiny_on_miss(void)
{
    mem_config c = preset("kepler-k20x");
    c.num_sms = 4;
    c.l1d_alloc = MEM_ALLOC_ON_MISS;
    c.l1d_sets = 4;
    c.l1d_ways = 2;
    c.l1d_mshr_entries = 3;
    c.l1d_mshr_max_merge = 2;
    c.icnt_queue_entries = 1;
    return c;
}

static void test_variants(void **state)
{
    (void)state;
    uint64_t n = total_insts / 6;
    mem_config c = tiny_on_miss();
    c.l2_mshr_entries = 2;
    c.l2_mshr_max_merge = 1;
    c.dram_queue_entries = 2;
    c.l2_queue_entries = 1;
    c.l2_sets = 4;
    c.l2_ways = 2;
    /* one-entry queues and 3 MSHRs make this configuration ~15x slower
     * per instruction in simulated cycles (almost every cycle is a replay
     * or backpressure stall); a quarter of the instructions still gives
     * millions of such cycles */
    run_config("tiny on_miss", &c, n / 4 ? n / 4 : 1, 4);

    c = preset("fermi-gtx480");
    c.l1d_sector_bytes = 32;
    c.l1d_alloc = MEM_ALLOC_ON_MISS;
    c.l2_partitions = 5;
    c.l2_sets = 8;
    run_config("sectors on_miss 5 parts", &c, n, 5);

    c = preset("fermi-gtx480");
    c.l1d_sector_bytes = 32;
    c.l1d_mshr_entries = 4;
    c.dup_window = 50;
    c.dram_banks = 2;
    c.dram_bank_groups = 2;
    c.dram_row_bytes = 128;
    run_config("sectors on_fill", &c, n, 6);
}

/* The variants' first and last configurations again with MASCAR's
 * re-execution queue (mem_reexec_enable): the same invariants, and the
 * queue is used. */
static void test_reexec(void **state)
{
    (void)state;
    uint64_t n = total_insts / 6;
    mem_config c = tiny_on_miss();
    reexec_entries = 4;
    run_config("tiny on_miss re-exec 4", &c, n / 4 ? n / 4 : 1, 7);

    c = preset("fermi-gtx480");
    c.l1d_sector_bytes = 32;
    c.l1d_mshr_entries = 4;
    reexec_entries = 32;
    run_config("sectors on_fill re-exec 32", &c, n, 8);
    reexec_entries = 0;
}

/* Configurations drawn at random over the keys' ranges (within what keeps
 * a run small: few SMs and sets, latencies up to a few hundred cycles, but
 * extremes such as one-entry queues, 1-byte channels, 256-byte headers, 64
 * ways or partitions, 4 KB lines with 32 sectors, rows of one line, more
 * than 64 SMs and every index function), each with the same invariants. */
static uint32_t pick(uint32_t lo, uint32_t hi) { return lo + (uint32_t)(rnd() % (hi - lo + 1)); }
static uint32_t pick_pow2(uint32_t lo_log, uint32_t hi_log) { return 1u << pick(lo_log, hi_log); }

static void test_random_configs(void **state)
{
    (void)state;
    char err[256], name[64];
    uint32_t nconf = 24;
    uint64_t n = total_insts / 80 ? total_insts / 80 : 1;
    for (uint32_t k = 0; k < nconf; k++) {
        rng_s = 1000 + k;
        mem_config c = preset(k % 3 == 0 ? "kepler-k20x" : k % 3 == 1 ? "fermi-gtx480"
                                                                      : "si-7970");
        c.num_sms = rnd() % 5 == 0 ? pick(65, 80) : pick(1, 8);
        c.warp_size = pick_pow2(3, 6);
        c.dup_window = pick(1, 3000);
        c.sample_interval = pick(0, 500);
        c.l1d_line_bytes = pick_pow2(4, 12);
        c.l1d_sector_bytes = c.l1d_line_bytes >> pick(0, 5);
        if (c.l1d_sector_bytes < 16)
            c.l1d_sector_bytes = 16;
        c.l1d_sets = pick_pow2(0, 6);
        c.l1d_ways = rnd() % 4 == 0 ? 64 : pick(1, 8);
        c.l1d_latency = pick(1, 60);
        c.l1d_index = (uint32_t)(rnd() % 2);        /* linear or hash */
        if (c.l1d_line_bytes == 128 && (c.l1d_sets == 32 || c.l1d_sets == 64) && rnd() % 2)
            c.l1d_index = MEM_INDEX_FERMI;
        c.l1d_alloc = (uint32_t)(rnd() % 2);
        c.l1d_mshr_entries = rnd() % 5 == 0 ? pick(65, 300) : pick(1, 40);
        c.l1d_mshr_max_merge = pick(1, 64);
        c.smem_banks = pick(1, 64);
        c.smem_bank_bytes = pick_pow2(2, 3);
        c.smem_latency = pick(1, 50);
        c.const_latency = pick(1, 50);
        c.icnt_latency = pick(1, 200);
        c.icnt_bytes_per_cycle = rnd() % 4 == 0 ? 1 : pick(2, 256);
        c.icnt_queue_entries = pick(1, 16);
        c.icnt_header_bytes = rnd() % 4 == 0 ? 256 : pick(0, 16);
        c.l2_partitions = rnd() % 5 == 0 ? 64 : pick(1, 12);
        c.l2_line_bytes = c.l1d_line_bytes << pick(0, 1);
        if (c.l2_line_bytes > 4096)
            c.l2_line_bytes = 4096;
        c.l2_sets = pick_pow2(0, 7);
        c.l2_ways = rnd() % 4 == 0 ? 64 : pick(1, 16);
        c.l2_latency = pick(1, 300);
        c.l2_mshr_entries = pick(1, 80);
        c.l2_mshr_max_merge = pick(1, 64);
        c.l2_queue_entries = pick(1, 16);
        c.dram_banks = pick(1, 64);
        c.dram_row_bytes = c.l2_line_bytes << pick(0, 4);
        if (c.dram_row_bytes < 64)
            c.dram_row_bytes = 64;
        c.dram_queue_entries = pick(1, 64);
        c.dram_bytes_per_cycle = pick(1, 128);
        c.dram_latency = pick(0, 200);
        c.dram_tCL = pick(1, 30);
        c.dram_tRP = pick(1, 30);
        c.dram_tRC = pick(1, 60);
        c.dram_tRAS = pick(1, 40);
        c.dram_tRCD = pick(1, 30);
        c.dram_tRRD = pick(1, 20);
        c.dram_tWR = pick(1, 30);
        c.dram_tCDLR = pick(1, 20);
        c.store_acks = (uint32_t)(rnd() % 2);
        c.l2_write_miss = c.l2_queue_entries >= 2 && c.dram_queue_entries >= 2 ? (uint32_t)(rnd() % 2)
                                                                                : MEM_L2_WM_ALLOCATE;
        /* clock domains (half the configurations: one clock), clusters and
         * the two delay lines */
        static const uint32_t mhz[] = { 500, 700, 732, 924, 1000, 1400, 2500 };
        c.clock_core_mhz = rnd() % 2 ? 0 : mhz[pick(0, 6)];
        c.clock_icnt_mhz = c.clock_core_mhz ? mhz[pick(0, 6)] : 0;
        c.clock_l2_mhz = c.clock_core_mhz && rnd() % 2 ? mhz[pick(0, 6)] : 0;
        c.clock_dram_mhz = c.clock_core_mhz ? mhz[pick(0, 6)] : 0;
        if (!mem_clock_base_mhz(&c))     /* time base too fine: one clock less */
            c.clock_dram_mhz = 0;
        if (!mem_clock_base_mhz(&c))
            c.clock_l2_mhz = 0;
        c.icnt_sms_per_cluster = pick(1, c.num_sms < 4 ? c.num_sms : 4);

        c.l2_rop_latency = rnd() % 2 ? 0 : pick(1, 200);
        c.l2_interleave_bytes = rnd() % 2 ? 0 : c.l2_line_bytes << pick(0, 3);
        /* column commands: atoms of a line, bank groups dividing the banks */
        c.dram_atom_bytes = rnd() % 2 ? 0 : c.l2_line_bytes >> pick(0, 3);
        if (c.dram_atom_bytes && c.dram_atom_bytes < 16)
            c.dram_atom_bytes = 16;
        c.dram_bank_groups = 1;
        for (uint32_t g = pick(1, 8); g > 1; g--)
            if (c.dram_banks % g == 0) {
                c.dram_bank_groups = g;
                break;
            }
        c.dram_tCCD = pick(0, 4);
        c.dram_tCCDL = pick(0, 6);
        c.dram_tRTP = pick(0, 4);
        c.dram_tRTPL = pick(0, 4);
        c.dram_tWL = pick(0, 12);
        c.dram_queue_latency = rnd() % 2 ? 0 : pick(1, 200);
        if (mem_config_check(&c, err, sizeof err) != 0)
            fail_msg("random configuration %u is not valid: %s", k, err);
        snprintf(name, sizeof name, "random config %u", k);
        run_config(name, &c, n, 2000 + k);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        total_insts = strtoull(argv[1], NULL, 0);
        if (total_insts < 6) {
            fprintf(stderr, "test_mem_random: instruction count must be >= 6\n");
            return 2;
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_reexec),
        cmocka_unit_test(test_random_configs),
    };
    return cmocka_run_group_tests_name("mem_random", tests, NULL, NULL);
}
