/*
 * test_mem_units.c — unit tests of the memory model with expectations
 * computed by hand from the configuration (see the derivations next to each
 * expected number; docs/memory-model.md gives the same formulas).
 *
 * The base configuration is fermi-gtx480 with 4 SMs, one memory partition
 * and linear L1 indexing, so every address maps to DRAM bank
 * (addr / 2048) % 16, row addr / 32768. Its constants:
 *   icnt.latency L = 10, header 8 B, 32 B/cycle: a read request takes
 *   ser_req = ceil(8/32) = 1 cycle, a 128 B response ser_resp =
 *   ceil(136/32) = 5; l2.latency = 94; l1d.latency = 28.
 *   L2-hit round trip = 2L + ser_req + ser_resp + l2.latency = 120.
 *   DRAM closed-row read adds tRCD + tCL + burst + dram.latency + 1
 *   = 12 + 12 + ceil(128/21) + 69 + 1 = 101 cycles: a cold load takes 221.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mem.h"

#define L2_HIT_RT 120
#define COLD_RT   221

typedef struct harness {
    mem_system *m;
    mem_completion log[512];
    int n;
} harness;

static mem_config base_config(void)
{
    mem_config c;
    char err[256];
    assert_int_equal(mem_config_preset(&c, "fermi-gtx480-v1", err, sizeof err), 0);
    c.num_sms = 4;
    c.l2_partitions = 1;
    c.l1d_index = MEM_INDEX_LINEAR;
    return c;
}

static void start(harness *h, const mem_config *c)
{
    char err[256];
    memset(h, 0, sizeof *h);
    h->m = mem_create(c, err, sizeof err);
    if (!h->m)
        fail_msg("mem_create: %s", err);
}

static void step(harness *h)
{
    mem_cycle(h->m);
    for (uint32_t s = 0; s < mem_get_config(h->m)->num_sms; s++) {
        mem_completion buf[64];
        size_t n = mem_collect(h->m, s, buf, 64);
        for (size_t i = 0; i < n; i++) {
            assert_true(h->n < 512);
            assert_true(buf[i].cycle <= mem_now(h->m));
            h->log[h->n++] = buf[i];
        }
    }
}

static void run(harness *h, uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++)
        step(h);
}

static void run_until(harness *h, uint64_t cycle)
{
    while (mem_now(h->m) < cycle)
        step(h);
}

/* Completion cycle of the instruction with this tag (fails if absent). */
static uint64_t done_at(const harness *h, uint64_t tag)
{
    int found = -1;
    for (int i = 0; i < h->n; i++) {
        if (h->log[i].tag == tag) {
            assert_int_equal(found, -1);   /* exactly once */
            found = i;
        }
    }
    if (found < 0)
        fail_msg("instruction tag %llu never completed", (unsigned long long)tag);
    return h->log[found].cycle;
}

static void stop(harness *h)
{
    /* everything drains and nothing is left over */
    for (int i = 0; i < 5000 && !mem_idle(h->m); i++)
        step(h);
    assert_true(mem_idle(h->m));
    mem_destroy(h->m);
}

static mem_request request(uint32_t sm, uint32_t warp, mem_op op, mem_space sp,
                           uint64_t tag)
{
    mem_request r;
    memset(&r, 0, sizeof r);
    r.sm = sm;
    r.warp = warp;
    r.op = op;
    r.space = sp;
    r.tag = tag;
    r.num_dst = op == MEM_STORE ? 0 : 1;
    r.dst[0] = 7;
    return r;
}

/* Lanes 0..n-1 access addr[i] with `size` bytes. */
static void lanes(mem_request *r, const uint64_t *addr, int n, uint8_t size)
{
    for (int i = 0; i < n; i++) {
        r->addr[i] = addr[i];
        r->size[i] = size;
        r->active_mask |= 1ull << i;
    }
}

static void submit(harness *h, mem_request *r)
{
    char err[256];
    assert_true(mem_ldst_ready(h->m, r->sm));
    if (mem_submit(h->m, r, NULL, err, sizeof err) != 0)
        fail_msg("mem_submit: %s", err);
}

/* One-lane 4-byte load or store. */
static void access1(harness *h, uint32_t sm, mem_op op, uint64_t addr, uint64_t tag)
{
    mem_request r = request(sm, 0, op, MEM_GLOBAL, tag);
    lanes(&r, &addr, 1, 4);
    submit(h, &r);
}

/* ---- coalescer ----------------------------------------------------------- */

static void coalesce(const mem_config *c, mem_request *r, mem_coalesce_info *info)
{
    char err[256];
    mem_system *m = mem_create(c, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(mem_coalesce(m, r, info, err, sizeof err), 0);
    mem_destroy(m);
}

static void test_coalescer(void **state)
{
    (void)state;
    mem_config c = base_config();
    mem_coalesce_info info;
    uint64_t a[32];

    /* 32 consecutive words = one 128 B line: 1 transaction, coherent */
    mem_request r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    for (int i = 0; i < 32; i++) a[i] = 0x1000 + 4 * i;
    lanes(&r, a, 32, 4);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 1);
    assert_int_equal(info.lines, 1);
    assert_int_equal(info.sets, 1);
    assert_true(info.coherent);

    /* stride 128 B: 32 lines in 32 consecutive sets (32 sets, linear) */
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    for (int i = 0; i < 32; i++) a[i] = 128 * i;
    lanes(&r, a, 32, 4);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 32);
    assert_int_equal(info.sets, 32);
    assert_false(info.coherent);

    /* stride 4096 B = sets*line: every line in set 0 with linear indexing... */
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    for (int i = 0; i < 32; i++) a[i] = 4096 * i;
    lanes(&r, a, 32, 4);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 32);
    assert_int_equal(info.sets, 1);
    /* ...and in 32 different sets with the XOR-folded hash: line index 32*i
     * has low 5 bits 0 and next 5 bits i, so the set is i */
    c.l1d_index = MEM_INDEX_HASH;
    coalesce(&c, &r, &info);
    assert_int_equal(info.sets, 32);
    c.l1d_index = MEM_INDEX_LINEAR;

    /* two lines (lanes 0-15 in one, 16-31 in the next) are still coherent;
     * inactive lanes are ignored */
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    for (int i = 0; i < 32; i++) a[i] = 64 + 4 * i;
    lanes(&r, a, 32, 4);
    r.addr[5] = 1 << 20;
    r.active_mask &= ~(1ull << 5);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 2);
    assert_true(info.coherent);

    /* an 8-byte access straddling a line boundary is split */
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    a[0] = 124;
    lanes(&r, a, 1, 8);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 2);
    assert_int_equal(info.lines, 2);

    /* three lines: divergent */
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    a[0] = 0; a[1] = 128; a[2] = 256;
    lanes(&r, a, 3, 4);
    coalesce(&c, &r, &info);
    assert_false(info.coherent);

    /* sectors of 32 B: one line of consecutive words is 4 transactions */
    c.l1d_sector_bytes = 32;
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    for (int i = 0; i < 32; i++) a[i] = 4 * i;
    lanes(&r, a, 32, 4);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 4);
    assert_int_equal(info.lines, 1);
    assert_true(info.coherent);
}

static void test_bad_requests(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    char err[256];
    uint64_t a = 0;
    mem_request r = request(9, 0, MEM_LOAD, MEM_GLOBAL, 1);
    lanes(&r, &a, 1, 4);
    assert_int_equal(mem_submit(h.m, &r, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "SM 9"));
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    lanes(&r, &a, 1, 3);
    assert_int_equal(mem_submit(h.m, &r, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "lane 0"));
    r = request(0, 0, MEM_STORE, MEM_CONST, 1);
    lanes(&r, &a, 1, 4);
    assert_int_equal(mem_submit(h.m, &r, NULL, err, sizeof err), -1);
    /* lanes beyond the warp size */
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    lanes(&r, &a, 1, 4);
    r.active_mask |= 1ull << 40;
    r.size[40] = 4;
    assert_int_equal(mem_submit(h.m, &r, NULL, err, sizeof err), -1);
    /* busy unit */
    access1(&h, 0, MEM_LOAD, 0, 1);
    r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 2);
    lanes(&r, &a, 1, 4);
    assert_int_equal(mem_submit(h.m, &r, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "busy"));
    stop(&h);
}

/* ---- latencies ----------------------------------------------------------- */

static void test_miss_then_hit_latency(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.sample_interval = 100;
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0x10000, 1);
    run(&h, 1);
    assert_int_equal(mem_free_mshrs(h.m, 0), 31);
    run_until(&h, 300);
    assert_int_equal(done_at(&h, 1), COLD_RT);
    assert_int_equal(mem_free_mshrs(h.m, 0), 32);
    /* one entry in use during cycles 0..219 (the fill frees it in 220):
     * 220 entry-cycles; per-SM averages over 100-cycle samples, 4 SMs */
    assert_int_equal(mem_get_stats(h.m)->l1_mshr_occ_sum, 220);
    size_t ns;
    const double *series = mem_occupancy_series(h.m, &ns);
    assert_int_equal(ns, 3);
    assert_true(series[0] == 0.25 && series[1] == 0.25 && series[2] == 0.05);
    /* now an L1 hit: l1d.latency */
    access1(&h, 0, MEM_LOAD, 0x10004, 2);
    run(&h, 40);
    assert_int_equal(done_at(&h, 2), 300 + 28);
    /* another SM misses in its L1 and hits in the L2 */
    access1(&h, 1, MEM_LOAD, 0x10008, 3);
    run(&h, 200);
    assert_int_equal(done_at(&h, 3), 340 + L2_HIT_RT);
    const mem_stats *st = mem_get_stats(h.m);
    assert_int_equal(st->l1_hit[MEM_LOAD], 1);
    assert_int_equal(st->l1_miss[MEM_LOAD], 2);
    assert_int_equal(st->l2_hit[0], 1);
    assert_int_equal(st->l2_miss[0], 1);
    assert_int_equal(st->dram_reads, 1);
    assert_int_equal(st->load_insts_done, 3);
    assert_int_equal(st->load_latency_sum, COLD_RT + 28 + L2_HIT_RT);
    stop(&h);
}

static void test_dram_row_hit_and_miss(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0, 1);          /* bank 0, row 0, closed */
    run_until(&h, 1000);
    access1(&h, 0, MEM_LOAD, 128, 2);        /* bank 0, row 0: row hit */
    run_until(&h, 2000);
    access1(&h, 0, MEM_LOAD, 32768, 3);      /* bank 0, row 1: row miss */
    run_until(&h, 3000);
    assert_int_equal(done_at(&h, 1), COLD_RT);
    /* row hit saves tRCD = 12 */
    assert_int_equal(done_at(&h, 2) - 1000, COLD_RT - 12);
    /* row miss pays tRP = 12 more */
    assert_int_equal(done_at(&h, 3) - 2000, COLD_RT + 12);
    const mem_stats *st = mem_get_stats(h.m);
    assert_int_equal(st->dram_reads, 3);
    assert_int_equal(st->dram_row_hits, 1);
    stop(&h);
}

/* Row numbers are not truncated: 2^47 is in bank (2^47 / 2048) % 16 = 0
 * like address 0, in row 2^47 / 32768 = 2^32, which a 32-bit row number
 * would confuse with row 0. It must be a row miss (tRP more than cold). */
static void test_dram_rows_beyond_32_bits(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0, 1);                   /* bank 0, row 0 */
    run_until(&h, 1000);
    access1(&h, 0, MEM_LOAD, 1ull << 47, 2);          /* bank 0, row 2^32 */
    run_until(&h, 2000);
    assert_int_equal(done_at(&h, 1), COLD_RT);
    assert_int_equal(done_at(&h, 2) - 1000, COLD_RT + 12);
    assert_int_equal(mem_get_stats(h.m)->dram_row_hits, 0);
    stop(&h);
}

static void test_frfcfs_reorders_row_hits(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    /* A (row 0) at cycle 0, C (row 1) at 1, B (row 0) at 2, same bank */
    access1(&h, 0, MEM_LOAD, 0, 'A');
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 32768, 'C');
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 128, 'B');
    run_until(&h, 400);
    /* A: activate 106, column 118, data 130-137, done 206, ready 221.
     * At 125 (bank ready = 137 - tCL) B is a row hit and goes before the
     * older C: column 125, data 137-144, done 213, ready 228.
     * C: precharge waits for tRAS (106+28=134), activate 146 (= tRC
     * 106+40 too), column 158, data 170-177, done 246, ready 261. */
    assert_int_equal(done_at(&h, 'A'), 221);
    assert_int_equal(done_at(&h, 'B'), 228);
    assert_int_equal(done_at(&h, 'C'), 261);
    assert_int_equal(mem_get_stats(h.m)->dram_row_hits, 1);
    stop(&h);
}

/* ---- L1D ----------------------------------------------------------------- */

static void test_lru_eviction_order(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.l1d_sets = 1;
    c.l1d_ways = 2;
    harness h;
    start(&h, &c);
    const mem_stats *st = mem_get_stats(h.m);
    const uint64_t A = 0, B = 1 << 12, C = 2 << 12;
    /* expected hit(1)/miss(0) by hand: A m, B m, A h, C m (evicts B, the LRU),
     * A h, B m (evicts C), C m (evicts A), B h */
    const uint64_t seq[] = { A, B, A, C, A, B, C, B };
    const int hit[] = { 0, 0, 1, 0, 1, 0, 0, 1 };
    uint64_t hits = 0, misses = 0;
    for (int i = 0; i < 8; i++) {
        access1(&h, 0, MEM_LOAD, seq[i], (uint64_t)i);
        run(&h, 400);
        hits += hit[i];
        misses += !hit[i];
        assert_int_equal(st->l1_hit[MEM_LOAD], hits);
        assert_int_equal(st->l1_miss[MEM_LOAD], misses);
    }
    assert_int_equal(st->l1_evictions, 3);
    stop(&h);
}

/* CCWS's victim tag array (mem-model/mem_vta.c; docs/oaws.md, "Peers"):
 * one L1 set of 2 ways, a VTA of 4 tags in 2 ways per warp. Worked out by
 * hand (lines A, B, C all map to VTA set 0):
 *   w3 A miss; w3 B miss; w5 C miss, evicts A (LRU) -> VTA[3] {A};
 *   w5 A miss, VTA[5] empty: no hit; evicts B -> VTA[3] {A, B};
 *   w3 B miss, VTA[3] hit (B dropped; event for warp 3); evicts C -> VTA[5] {C};
 *   w3 B hit in L1: no probe; w5 C miss, VTA[5] hit (event for warp 5);
 *   evicts A (wid 5) -> VTA[5] {A}.
 * Without mem_vta_enable nothing is recorded. */
static void test_ccws_victim_tags(void **state)
{
    (void)state;
    for (int on = 0; on < 2; on++) {
        mem_config c = base_config();
        c.l1d_sets = 1;
        c.l1d_ways = 2;
        harness h;
        start(&h, &c);
        if (on)
            assert_int_equal(mem_vta_enable(h.m, 4, 2, 8), 0);
        const mem_stats *st = mem_get_stats(h.m);
        const uint64_t A = 0, B = 1 << 12, C = 2 << 12;
        const struct { uint32_t warp; uint64_t addr; uint64_t inserts, hits; int event; } seq[] = {
            { 3, A, 0, 0, -1 }, { 3, B, 0, 0, -1 }, { 5, C, 1, 0, -1 }, { 5, A, 2, 0, -1 },
            { 3, B, 3, 1, 3 },  { 3, B, 3, 1, -1 }, { 5, C, 4, 2, 5 },
        };
        for (unsigned i = 0; i < sizeof seq / sizeof seq[0]; i++) {
            mem_request r = request(0, seq[i].warp, MEM_LOAD, MEM_GLOBAL, i);
            lanes(&r, &seq[i].addr, 1, 4);
            submit(&h, &r);
            run(&h, 400);
            assert_int_equal(st->vta_inserts, on ? seq[i].inserts : 0);
            assert_int_equal(st->vta_hits, on ? seq[i].hits : 0);
            uint32_t w = 99;
            if (on && seq[i].event >= 0) {
                assert_int_equal(mem_vta_hit_pop(h.m, 0, &w), 1);
                assert_int_equal(w, (uint32_t)seq[i].event);
            }
            assert_int_equal(mem_vta_hit_pop(h.m, 0, &w), 0);
        }
        assert_int_equal(st->l1_evictions, 4);
        stop(&h);
    }
    /* sizes the VTA cannot take */
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    assert_int_equal(mem_vta_enable(h.m, 6, 4, 8), -1);   /* 6 tags not in sets of 4 */
    assert_int_equal(mem_vta_enable(h.m, 16, 8, 65), -1);  /* more than 64 warps */
    stop(&h);
}

/* Fermi's set index (Nugteren et al., HPCA 2014): byte-address bits 7..11
 * XOR bits {13, 14, 15, 17, 19}; with 64 sets bit 12 on top. The expected
 * sets below are worked out by hand from that rule. */
static void test_fermi_set_index(void **state)
{
    (void)state;
    char err[256];
    mem_config c = base_config();            /* 32 sets x 8 ways x 128 B */
    c.l1d_index = MEM_INDEX_FERMI;
    mem_coalesce_info info;
    uint64_t a[32];

    /* stride 4096 (= sets * line): bits 7..11 are 0 and lane i's address
     * has i in bits 12..16, so the set is bits 13..15 = (i >> 1) & 7:
     * 8 sets (lanes 2k and 2k+1 differ only in bit 12, which 32 sets
     * ignore; bit 16 is not in the function) */
    mem_request r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    for (int i = 0; i < 32; i++) a[i] = 4096 * (uint64_t)i;
    lanes(&r, a, 32, 4);
    coalesce(&c, &r, &info);
    assert_int_equal(info.transactions, 32);
    assert_int_equal(info.sets, 8);
    /* 64 sets (48 KB): bit 12 becomes the top index bit, 16 sets */
    mem_config c64 = c;
    c64.l1d_sets = 64;
    c64.l1d_ways = 6;
    coalesce(&c64, &r, &info);
    assert_int_equal(info.sets, 16);

    /* Nine lines that all fall in set 0 (bits 7..11 equal to the upper
     * bits): k * 0x2080 for k = 0..7 (bits 7..11 = k, bits 13..15 = k) and
     * 0x20400 (bits 7..11 = 8, bit 17 -> upper value 8). With 8 ways the
     * ninth evicts the first (LRU), so re-reading line 0 misses and its
     * fill evicts the next LRU line, 0x2080: two evictions. With linear
     * indexing they are in sets 0..8 and the re-read hits. */
    const uint64_t lines[9] = { 0, 0x2080, 0x4100, 0x6180, 0x8200, 0xa280,
                                0xc300, 0xe380, 0x20400 };
    for (int pass = 0; pass < 2; pass++) {
        mem_config cc = base_config();
        cc.l1d_index = pass == 0 ? MEM_INDEX_FERMI : MEM_INDEX_LINEAR;
        harness h;
        start(&h, &cc);
        for (int i = 0; i < 9; i++) {
            access1(&h, 0, MEM_LOAD, lines[i], (uint64_t)i);
            run(&h, 400);
        }
        access1(&h, 0, MEM_LOAD, 0, 100);
        run(&h, 400);
        const mem_stats *st = mem_get_stats(h.m);
        assert_int_equal(st->l1_miss[MEM_LOAD], pass == 0 ? 10 : 9);
        assert_int_equal(st->l1_hit[MEM_LOAD], pass == 0 ? 0 : 1);
        assert_int_equal(st->l1_evictions, pass == 0 ? 2 : 0);
        stop(&h);
    }

    /* defined only for 128-byte lines and 32 or 64 sets: named error */
    c.l1d_sets = 16;
    assert_int_equal(mem_config_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "'l1d.index'"));
    c.l1d_sets = 32;
    c.l1d_line_bytes = c.l1d_sector_bytes = 64;
    assert_null(mem_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "'l1d.index'"));
    /* the key's value by name */
    c = base_config();
    assert_int_equal(mem_config_apply(&c, "l1d.index=fermi", err, sizeof err), 0);
    assert_int_equal(c.l1d_index, MEM_INDEX_FERMI);
    /* and the preset that models Fermi uses it */
    assert_int_equal(mem_config_preset(&c, "fermi-gtx480-v1", err, sizeof err), 0);
    assert_int_equal(c.l1d_index, MEM_INDEX_FERMI);
}

static void test_mshr_merge_limit_and_replay(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.l1d_mshr_entries = 2;
    c.l1d_mshr_max_merge = 2;
    harness h;
    start(&h, &c);
    const mem_stats *st = mem_get_stats(h.m);
    access1(&h, 0, MEM_LOAD, 0, 10);   /* allocates */
    run(&h, 1);
    assert_int_equal(mem_free_mshrs(h.m, 0), 1);
    access1(&h, 0, MEM_LOAD, 4, 11);   /* merges: entry holds 2 requests */
    run(&h, 1);
    assert_int_equal(mem_free_mshrs(h.m, 0), 1);
    assert_int_equal(st->l1_mshr_merge, 1);
    access1(&h, 0, MEM_LOAD, 8, 12);   /* entry full: replayed */
    run(&h, 1);
    assert_false(mem_ldst_ready(h.m, 0));
    run_until(&h, 219);
    assert_false(mem_ldst_ready(h.m, 0));
    run_until(&h, 600);
    /* the fill arrives at 220: both merged requests ready at 221; the
     * replayed one then hits the filled line at 220: 220 + 28 */
    assert_int_equal(done_at(&h, 10), 221);
    assert_int_equal(done_at(&h, 11), 221);
    assert_int_equal(done_at(&h, 12), 248);
    assert_int_equal(st->stall_mshr, 220 - 2);      /* cycles 2..219 */
    assert_int_equal(st->l1_mshr_alloc, 1);
    assert_int_equal(st->l1_mshr_targets, 2);
    assert_int_equal(st->l1_mshr_merge_hist[2], 1);
    assert_int_equal(st->l1_hit[MEM_LOAD], 1);
    stop(&h);
}

static void test_mshr_exhaustion_occludes(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.l1d_mshr_entries = 2;
    harness h;
    start(&h, &c);
    const mem_stats *st = mem_get_stats(h.m);
    /* one divergent load to lines in banks 0, 2, 4 */
    uint64_t a[3] = { 0, 4096, 8192 };
    mem_request r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
    lanes(&r, a, 3, 4);
    submit(&h, &r);
    run(&h, 3);
    assert_int_equal(mem_free_mshrs(h.m, 0), 0);
    assert_false(mem_ldst_ready(h.m, 0));
    run_until(&h, 220);
    assert_false(mem_ldst_ready(h.m, 0));
    step(&h);                     /* cycle 220: the first fill frees an entry */
    assert_true(mem_ldst_ready(h.m, 0));
    run_until(&h, 1000);
    /* the third line is sent at 220 and is a cold miss on a closed bank */
    assert_int_equal(done_at(&h, 1), 220 + COLD_RT);
    assert_int_equal(st->stall_coal, 2);            /* cycles 0 and 1 */
    assert_int_equal(st->stall_mshr, 220 - 2);      /* cycles 2..219 */
    assert_int_equal(st->stall_icnt, 0);
    assert_int_equal(st->ldst_busy_cycles, 221);    /* cycles 0..220 */
    assert_int_equal(st->divergent_insts, 1);
    stop(&h);
}

/* l1d.ports (issue 37, Multi2Sim's memory unit): a divergent load's three
 * lines are accessed in one cycle with 4 ports, in three with 1; with 2
 * MSHRs the third line is refused, retried every cycle, and taken when the
 * first fill frees an entry (cycle 220, as in the test above). */
static void test_ldst_ports(void **state)
{
    (void)state;
    for (uint32_t ports = 1; ports <= 4; ports += 3) {
        mem_config c = base_config();
        c.l1d_ports = ports;
        harness h;
        start(&h, &c);
        const mem_stats *st = mem_get_stats(h.m);
        uint64_t a[3] = { 0, 4096, 8192 };
        mem_request r = request(0, 0, MEM_LOAD, MEM_GLOBAL, 1);
        lanes(&r, a, 3, 4);
        submit(&h, &r);
        step(&h);
        assert_int_equal(mem_ldst_ready(h.m, 0), ports == 4);
        run(&h, 2);
        assert_true(mem_ldst_ready(h.m, 0));
        assert_int_equal(st->stall_coal, ports == 4 ? 0 : 2);
        assert_int_equal(st->ldst_busy_cycles, ports == 4 ? 1 : 3);
        assert_int_equal(mem_free_mshrs(h.m, 0), c.l1d_mshr_entries - 3);
        stop(&h);

        c.l1d_mshr_entries = 2;
        start(&h, &c);
        st = mem_get_stats(h.m);
        submit(&h, &r);
        run(&h, 3);
        assert_false(mem_ldst_ready(h.m, 0));
        run_until(&h, 221);
        assert_true(mem_ldst_ready(h.m, 0));
        /* 1 port: cycles 0, 1 take a line each, 2..219 replay the third;
         * 4 ports: cycle 0 takes two and refuses the third, 1..219 replay */
        assert_int_equal(st->stall_mshr, ports == 4 ? 220 : 218);
        assert_int_equal(st->ldst_busy_cycles, 221);
        run_until(&h, 1000);
        assert_int_equal(done_at(&h, 1), 220 + COLD_RT);
        stop(&h);
    }
}

/* mem.ldst_inflight: with a limit of 2, the unit takes no third instruction
 * while two that left it are not complete, and takes one in the cycle the
 * first of them is collected. */
static void test_ldst_inflight(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.ldst_inflight = 2;
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0, 1);          /* cold misses, two banks */
    step(&h);
    assert_true(mem_ldst_ready(h.m, 0));     /* one in flight */
    access1(&h, 0, MEM_LOAD, 4096, 2);
    step(&h);
    assert_false(mem_ldst_ready(h.m, 0));    /* two in flight: full */
    assert_true(mem_ldst_ready(h.m, 1));     /* per SM */
    while (!mem_ldst_ready(h.m, 0)) {
        assert_int_equal(h.n, 0);
        assert_true(mem_now(h.m) < 1000);
        step(&h);
    }
    assert_int_equal(h.n, 1);
    assert_int_equal(done_at(&h, 1), COLD_RT);
    assert_int_equal(mem_now(h.m), COLD_RT);
    access1(&h, 0, MEM_LOAD, 8192, 3);       /* taken at once */
    step(&h);
    assert_false(mem_ldst_ready(h.m, 0));
    run_until(&h, 1000);
    /* the second waited for the first's 7-cycle burst on the one channel;
     * the third, sent at COLD_RT, is a cold miss of its own */
    assert_int_equal(done_at(&h, 2), COLD_RT + 7);
    assert_int_equal(done_at(&h, 3), 2 * COLD_RT);
    stop(&h);
}

/* MASCAR's re-execution queue (mem_reexec_enable; docs/oaws.md, "Peers",
 * P10), worked by hand: one MSHR, a queue of 2. Every line below is a cold
 * DRAM read on its own closed bank (bank = addr / 2048 % 16: B 0, C 2, E 6,
 * F 8, H 4), so a miss sent at cycle t fills at t + 220 and its load is done
 * at t + COLD_RT; an L1 hit is done l1d.latency = 28 after its access. */
static void test_reexec_queue(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.l1d_mshr_entries = 1;
    harness h;
    start(&h, &c);
    assert_int_equal(mem_reexec_entries(h.m), 0);
    assert_int_equal(mem_reexec_enable(h.m, 2), 0);
    assert_int_equal(mem_reexec_entries(h.m), 2);
    const mem_stats *st = mem_get_stats(h.m);
    access1(&h, 0, MEM_LOAD, 8320, 1);   /* H: warms its line (set 1) */
    run_until(&h, 400);
    const uint64_t T = 400;
    access1(&h, 0, MEM_LOAD, 0, 2);      /* T: B misses, takes the only MSHR */
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 4096, 3);   /* T+1: C finds no MSHR: queued */
    run(&h, 1);
    mem_ldst_retire rr;                  /* C left the unit at T+1, a miss */
    assert_int_equal(mem_ldst_retired(h.m, 0, &rr), 1);
    assert_int_equal(rr.tag, 3);
    assert_int_equal(rr.l1_misses, 1);
    assert_int_equal(rr.replay_mshr, 0);
    assert_true(mem_ldst_ready(h.m, 0)); /* the unit goes on */
    access1(&h, 0, MEM_LOAD, 8320 + 4, 4); /* T+2: D hits H's line */
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 12288, 5);  /* T+3: E queued: the queue is full */
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 16384, 6);  /* T+4: F: no MSHR, no room: replays */
    run(&h, 1);
    assert_false(mem_ldst_ready(h.m, 0));
    assert_int_equal(st->reexec_accesses, 2);
    run_until(&h, T + 221);
    /* T+220: B's fill frees the MSHR; the head C takes it (new miss) and
     * the L1D's access of that cycle, so F waits; T+221: the head E finds no
     * MSHR, F moves into the freed entry and leaves the unit */
    assert_false(mem_ldst_ready(h.m, 0));
    step(&h);
    assert_true(mem_ldst_ready(h.m, 0));
    run_until(&h, T + 1000);
    assert_int_equal(done_at(&h, 4), T + 2 + 28);
    assert_int_equal(done_at(&h, 2), T + COLD_RT);
    /* a queued load completes only once its access is served: C sent at
     * T+220, E when C's fill frees the MSHR (T+440), F at T+660 */
    assert_int_equal(done_at(&h, 3), T + 220 + COLD_RT);
    assert_int_equal(done_at(&h, 5), T + 440 + COLD_RT);
    assert_int_equal(done_at(&h, 6), T + 660 + COLD_RT);
    assert_int_equal(st->reexec_accesses, 3);
    /* MASCAR_Replay: the queue holds an access and its head cannot go:
     * T+2..T+219 (218), T+221 (1), T+222..T+439 (218), T+441 (1),
     * T+442..T+659 (218); not T+1 (the unit's failed try), T+220, T+440,
     * T+660 (the head sent) */
    assert_int_equal(st->mascar_replay, 218 + 1 + 218 + 1 + 218);
    /* the unit itself stalled only with the queue full: F at T+4..T+219 */
    assert_int_equal(st->stall_mshr, 216);
    assert_int_equal(st->stall_icnt, 0);
    assert_int_equal(st->l1_hit[MEM_LOAD], 1);
    assert_int_equal(st->l1_miss[MEM_LOAD], 5);   /* H, B, C, E, F once each */
    assert_int_equal(st->l1_mshr_alloc, 5);
    stop(&h);
}

/* A store whose block has a queued load waits for it in the unit (a write
 * must not overtake an earlier read of its data); a store elsewhere goes. */
static void test_reexec_store_waits(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.l1d_mshr_entries = 1;
    harness h;
    start(&h, &c);
    assert_int_equal(mem_reexec_enable(h.m, 4), 0);
    const mem_stats *st = mem_get_stats(h.m);
    access1(&h, 0, MEM_LOAD, 0, 1);      /* 0: B takes the MSHR */
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 4096, 2);   /* 1: C queued */
    run(&h, 1);
    access1(&h, 0, MEM_STORE, 8192, 3);  /* 2: another line: goes, done at 3 */
    run(&h, 1);
    access1(&h, 0, MEM_STORE, 4096, 4);  /* 3: C's line: waits */
    run_until(&h, 221);
    assert_false(mem_ldst_ready(h.m, 0));
    /* 220: B's fill, C sent (the L1D's access); 221: the store goes */
    step(&h);
    assert_true(mem_ldst_ready(h.m, 0));
    run_until(&h, 1000);
    assert_int_equal(done_at(&h, 3), 3);
    assert_int_equal(done_at(&h, 4), 222);
    assert_int_equal(done_at(&h, 2), 220 + COLD_RT);
    assert_int_equal(st->stall_mshr, 220 - 3);    /* the store: 3..219 */
    assert_int_equal(st->mascar_replay, 220 - 2); /* 2..219 */
    stop(&h);
}

static void alloc_policy_case(int policy, uint64_t *a_done, uint64_t *hits)
{
    mem_config c = base_config();
    c.l1d_sets = 1;
    c.l1d_ways = 1;
    c.l1d_alloc = (uint32_t)policy;
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0, 1);            /* A cached */
    run_until(&h, 400);
    access1(&h, 0, MEM_LOAD, 4096, 2);         /* B misses, conflicts with A */
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 0, 3);            /* A again, at cycle 401 */
    run_until(&h, 1200);
    *a_done = done_at(&h, 3);
    *hits = mem_get_stats(h.m)->l1_hit[MEM_LOAD];
    stop(&h);
}

static void test_allocate_on_miss_vs_fill(void **state)
{
    (void)state;
    uint64_t done, hits;
    /* allocate-on-fill: A stays until B's data arrives: a hit */
    alloc_policy_case(MEM_ALLOC_ON_FILL, &done, &hits);
    assert_int_equal(done, 401 + 28);
    assert_int_equal(hits, 1);
    /* allocate-on-miss: B's miss evicted A and reserved the only way, so A
     * misses and cannot reserve a line until B fills at 400 + 220; it then
     * evicts B and hits in the L2: 620 + 120 */
    alloc_policy_case(MEM_ALLOC_ON_MISS, &done, &hits);
    assert_int_equal(done, 400 + 220 + L2_HIT_RT);
    assert_int_equal(hits, 0);
}

static void test_write_evict(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    const mem_stats *st = mem_get_stats(h.m);
    access1(&h, 0, MEM_LOAD, 0x2000, 1);
    run_until(&h, 300);
    access1(&h, 0, MEM_STORE, 0x2004, 2);       /* evicts the line */
    run(&h, 1);
    assert_int_equal(done_at(&h, 2), 301);      /* store done when sent */
    assert_int_equal(st->l1_write_evicts, 1);
    access1(&h, 0, MEM_LOAD, 0x2008, 3);        /* misses again, L2 hit */
    run_until(&h, 600);
    assert_int_equal(done_at(&h, 3), 301 + L2_HIT_RT);
    assert_int_equal(st->l1_hit[MEM_LOAD], 0);
    assert_int_equal(st->l1_miss[MEM_LOAD], 2);
    assert_int_equal(st->l2_hit[1], 1);         /* the write hit in the L2 */
    assert_int_equal(st->l2_hit[0], 1);
    stop(&h);
}

/* l2.write_miss: SM 0 stores to a line the L2 does not hold; SM 1 loads it
 * one cycle later, SM 2 at cycle 400 (each from a cold L1). */
static void write_miss_case(uint32_t policy, uint64_t *first, uint64_t *second,
                            mem_stats *out)
{
    mem_config c = base_config();
    c.l2_write_miss = policy;
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_STORE, 0x6000, 1);
    run(&h, 1);
    access1(&h, 1, MEM_LOAD, 0x6000, 2);
    run_until(&h, 400);
    access1(&h, 2, MEM_LOAD, 0x6000, 3);
    run_until(&h, 800);
    *first = done_at(&h, 2);
    *second = done_at(&h, 3);
    for (int i = 0; i < 5000 && !mem_idle(h.m); i++)
        step(&h);
    *out = *mem_get_stats(h.m);
    stop(&h);
}

static void test_l2_write_miss(void **state)
{
    (void)state;
    uint64_t first, second;
    mem_stats st;
    /* allocate: the write makes the line valid (dirty) at once, nothing goes
     * to DRAM, and both loads hit in the L2 */
    write_miss_case(MEM_L2_WM_ALLOCATE, &first, &second, &st);
    assert_int_equal(st.l2_miss[1], 1);
    assert_int_equal(st.dram_reads, 0);
    assert_int_equal(st.dram_writes, 0);
    assert_int_equal(first, 1 + L2_HIT_RT);
    assert_int_equal(second, 400 + L2_HIT_RT);
    /* fetch (GPGPU-Sim's wr_miss_wa): the write goes to DRAM and the line is
     * read; the first load merges into that read's MSHR entry and completes
     * with it: a cold round trip counted from the write's arrival at the L2
     * (one cycle before the load's), plus the write ahead of the read in the
     * same bank and row: its column (tWL = tCL 12), its data (128 B at 21 B
     * a cycle: 7) and the write-to-read gap tCDLR 5. The second load hits
     * the line, which came in clean (no write-back is ever due). */
    write_miss_case(MEM_L2_WM_FETCH, &first, &second, &st);
    assert_int_equal(st.l2_miss[1], 1);
    assert_int_equal(st.l2_miss[0], 1);
    assert_int_equal(st.l2_mshr_merge, 1);
    assert_int_equal(st.dram_reads, 1);
    assert_int_equal(st.dram_writes, 1);
    assert_int_equal(st.l2_writebacks, 0);
    assert_int_equal(first, 1 + COLD_RT - 1 + 12 + 7 + 5);
    assert_int_equal(second, 400 + L2_HIT_RT);
}

/* mem.store_acks: a store completes when the L2's acknowledgement is back
 * (a header each way plus the store's 4 bytes: the atomic's 116 cycles of
 * test_atomic_goes_to_l2), not when sent; under l2.write_miss = fetch a
 * missing line's write is acknowledged when the line's read arrives. */
static uint64_t store_done(uint32_t acks, uint32_t write_miss, uint64_t *load_done)
{
    mem_config c = base_config();
    c.store_acks = acks;
    c.l2_write_miss = write_miss;
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0x8000, 1);       /* brings the line into the L2 */
    run_until(&h, 300);
    access1(&h, 1, MEM_STORE, 0x8000, 2);      /* an L2 hit */
    run_until(&h, 600);
    access1(&h, 2, MEM_STORE, 0xa000, 3);      /* an L2 miss */
    run(&h, 1);
    access1(&h, 3, MEM_LOAD, 0xa000, 4);       /* merges into 0xa000's read (fetch) */
    run_until(&h, 1200);
    uint64_t hit = done_at(&h, 2);
    *load_done = done_at(&h, 4);
    uint64_t miss = done_at(&h, 3);
    stop(&h);
    return hit | miss << 32;
}

static void test_store_acks(void **state)
{
    (void)state;
    uint64_t ld, r = store_done(0, MEM_L2_WM_ALLOCATE, &ld);
    assert_int_equal(r & 0xffffffff, 301);      /* posted: done when sent */
    assert_int_equal(r >> 32, 601);
    r = store_done(1, MEM_L2_WM_ALLOCATE, &ld);
    assert_int_equal(r & 0xffffffff, 300 + 116);
    assert_int_equal(r >> 32, 600 + 116);       /* allocated at once, acked at once */
    r = store_done(1, MEM_L2_WM_FETCH, &ld);
    assert_int_equal(r & 0xffffffff, 300 + 116);
    /* the miss's acknowledgement leaves with the fill, just ahead of the
     * merged load's data (the write came first): the load's response waits
     * the acknowledgement's one cycle on the port, then takes 4 cycles more
     * (128 bytes and a header against a header: ceil(136 / 32) - ceil(8 / 32)) */
    assert_int_equal(r >> 32, ld - 1 - 4);
}

static void test_duplicate_mshr_allocations(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.dup_window = 100;
    harness h;
    start(&h, &c);
    const mem_stats *st = mem_get_stats(h.m);
    access1(&h, 0, MEM_LOAD, 0x4000, 1);
    access1(&h, 1, MEM_LOAD, 0x4000, 2);     /* same line, same cycle: dup */
    run_until(&h, 400);
    assert_int_equal(st->l1_mshr_alloc, 2);
    assert_int_equal(st->l1_mshr_dup, 1);
    /* SM 1 drops the line (write-evict) and misses again at 401: the other
     * SM's allocation is 401 cycles old > W, not a duplicate */
    access1(&h, 1, MEM_STORE, 0x4000, 3);
    run(&h, 1);
    access1(&h, 1, MEM_LOAD, 0x4000, 4);
    run(&h, 50);
    assert_int_equal(st->l1_mshr_alloc, 3);
    assert_int_equal(st->l1_mshr_dup, 1);
    /* SM 0 does the same 50 cycles later: within W of SM 1: duplicate */
    access1(&h, 0, MEM_STORE, 0x4000, 5);
    run(&h, 1);
    access1(&h, 0, MEM_LOAD, 0x4000, 6);
    run(&h, 1);
    assert_int_equal(st->l1_mshr_alloc, 4);
    assert_int_equal(st->l1_mshr_dup, 2);
    stop(&h);
}

/* ---- instruction cache ------------------------------------------------------ */

/* GPGPU-Sim 3.2.1's GTX480 L1I (-gpgpu_cache:il1 4:128:4,L:R:f:N,A:2:32,4)
 * on the one-clock machine of the other tests */
static mem_config l1i_config(void)
{
    mem_config c = base_config();
    c.l1i_sets = 4;
    c.l1i_ways = 4;
    c.l1i_line_bytes = 128;
    c.l1i_mshr_entries = 2;
    c.l1i_mshr_max_merge = 32;
    c.l1i_miss_queue = 4;
    c.l1i_inst_bytes = 8;
    return c;
}

/* Cycles from now until warp w of SM 0 may fetch again (at most `limit`). */
static uint64_t ifetch_wait(harness *h, uint32_t w, uint64_t limit)
{
    uint64_t t0 = mem_now(h->m);
    while (mem_ifetch_waiting(h->m, 0, w) && mem_now(h->m) - t0 < limit)
        step(h);
    return mem_now(h->m) - t0;
}

static void test_l1i(void **state)
{
    (void)state;
    mem_config c = l1i_config();
    harness h;
    start(&h, &c);
    const mem_stats *st = mem_get_stats(h.m);
    const uint64_t code = 0xF0000000u;
    /* cycle 0: warp 0 misses (a new MSHR entry), warp 1 merges into it,
     * warp 2 misses another line (the second entry), warp 3 a third line:
     * no entry left, refused; a waiting warp may not fetch at all */
    assert_int_equal(mem_ifetch(h.m, 0, 0, code + 8), MEM_IFETCH_MISS);
    assert_int_equal(mem_ifetch(h.m, 0, 1, code + 16), MEM_IFETCH_MISS);
    assert_int_equal(mem_ifetch(h.m, 0, 2, code + 128), MEM_IFETCH_MISS);
    assert_int_equal(mem_ifetch(h.m, 0, 3, code + 256), MEM_IFETCH_FAIL);
    assert_int_equal(mem_ifetch(h.m, 0, 0, code + 8), -1);
    assert_true(mem_ifetch_waiting(h.m, 0, 0) && mem_ifetch_waiting(h.m, 0, 1));
    assert_false(mem_ifetch_waiting(h.m, 0, 3));
    /* the line comes as a load's would (a read, a 128-byte response: the
     * cold round trip COLD_RT, docs/memory-model.md); its warps are
     * released one per cycle from the fill's cycle, COLD_RT - 1, on */
    assert_int_equal(ifetch_wait(&h, 0, 1000), COLD_RT);
    assert_true(mem_ifetch_waiting(h.m, 0, 1));
    assert_int_equal(ifetch_wait(&h, 1, 10), 1);
    /* the second line left the miss queue a cycle later and is a row hit
     * behind the first: a few cycles behind, not another round trip */
    uint64_t behind = ifetch_wait(&h, 2, 1000);
    assert_true(behind >= 1 && behind <= 20);
    assert_int_equal(st->l1i_miss, 3);
    assert_int_equal(st->l1i_merge, 1);
    assert_int_equal(st->l1i_fail, 1);
    assert_int_equal(st->l1i_fills, 2);
    assert_int_equal(st->l2_miss[0], 2);         /* reads at the L2 */
    /* both lines now hit, for any warp */
    assert_int_equal(mem_ifetch(h.m, 0, 3, code + 120), MEM_IFETCH_HIT);
    assert_int_equal(mem_ifetch(h.m, 0, 0, code + 128), MEM_IFETCH_HIT);
    /* 4 sets of 128 bytes: lines 512 bytes apart share a set. Three more
     * lines in set 0 fill its 4 ways; a fifth evicts the least recently
     * used, code + 0 */
    for (uint32_t k = 1; k <= 4; k++) {
        assert_int_equal(mem_ifetch(h.m, 0, 4, code + 512 * k), MEM_IFETCH_MISS);
        ifetch_wait(&h, 4, 1000);
        assert_int_equal(mem_ifetch(h.m, 0, 4, code + 512 * k), MEM_IFETCH_HIT);
    }
    assert_int_equal(mem_ifetch(h.m, 0, 4, code + 128), MEM_IFETCH_HIT);   /* set 1 */
    assert_int_equal(mem_ifetch(h.m, 0, 4, code + 512 * 2), MEM_IFETCH_HIT);
    assert_int_equal(mem_ifetch(h.m, 0, 4, code), MEM_IFETCH_MISS);
    ifetch_wait(&h, 4, 1000);
    /* another SM has its own L1I: a miss, an L2 hit (L2_HIT_RT) */
    uint64_t l2_hits = st->l2_hit[0];
    assert_int_equal(mem_ifetch(h.m, 1, 0, code + 128), MEM_IFETCH_MISS);
    uint64_t t0 = mem_now(h.m);
    while (mem_ifetch_waiting(h.m, 1, 0))
        step(&h);
    assert_int_equal(mem_now(h.m) - t0, L2_HIT_RT);
    assert_int_equal(st->l2_hit[0], l2_hits + 1);
    /* the lines persist into the next launch's system (mem.keep_caches) */
    char err[256];
    mem_system *next = mem_create(&c, err, sizeof err);
    assert_non_null(next);
    assert_int_equal(mem_inherit_caches(next, h.m), 1);
    assert_int_equal(mem_ifetch(next, 0, 0, code + 8), MEM_IFETCH_HIT);
    assert_int_equal(mem_ifetch(next, 0, 0, code + 512), MEM_IFETCH_MISS);   /* evicted */
    assert_int_equal(mem_ifetch(next, 1, 0, code + 128), MEM_IFETCH_HIT);
    mem_destroy(next);
    stop(&h);
}

/* A full miss queue refuses every miss, even one that would merge
 * (read_only_cache::access); an ideal cache hits always. */
static void test_l1i_miss_queue(void **state)
{
    (void)state;
    mem_config c = l1i_config();
    c.l1i_mshr_entries = 8;
    c.l1i_miss_queue = 1;
    harness h;
    start(&h, &c);
    assert_int_equal(mem_ifetch(h.m, 0, 0, 0xF0000000u), MEM_IFETCH_MISS);
    assert_int_equal(mem_ifetch(h.m, 0, 1, 0xF0000000u), MEM_IFETCH_FAIL);
    assert_int_equal(mem_ifetch(h.m, 0, 2, 0xF0000080u), MEM_IFETCH_FAIL);
    run(&h, 1);                  /* the request has left the miss queue */
    assert_int_equal(mem_ifetch(h.m, 0, 1, 0xF0000000u), MEM_IFETCH_MISS);
    assert_int_equal(mem_ifetch(h.m, 0, 2, 0xF0000080u), MEM_IFETCH_MISS);
    assert_int_equal(mem_get_stats(h.m)->l1i_fail, 2);
    stop(&h);
    c.l1i_sets = 0;
    start(&h, &c);
    assert_int_equal(mem_ifetch(h.m, 0, 0, 0xF0000000u), MEM_IFETCH_HIT);
    assert_false(mem_ifetch_waiting(h.m, 0, 0));
    stop(&h);
}

/* ---- shared and constant memory ------------------------------------------ */

static uint32_t smem_case(harness *h, uint64_t stride, uint8_t size, int same,
                          uint64_t tag)
{
    uint64_t a[32];
    for (int i = 0; i < 32; i++)
        a[i] = same ? 64 : stride * i;
    mem_request r = request(0, 0, MEM_LOAD, MEM_SHARED, tag);
    lanes(&r, a, 32, size);
    mem_coalesce_info info;
    char err[256];
    assert_true(mem_ldst_ready(h->m, 0));
    assert_int_equal(mem_submit(h->m, &r, &info, err, sizeof err), 0);
    return info.bank_conflict;
}

static void test_shared_bank_conflicts(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    /* stride 8 B: words 0,2,4..62 -> banks 0,2,..30 twice each: degree 2 */
    uint64_t t0 = mem_now(h.m);
    assert_int_equal(smem_case(&h, 8, 4, 0, 1), 2);
    run(&h, 1);
    assert_false(mem_ldst_ready(h.m, 0));       /* second bank cycle */
    run(&h, 1);
    assert_true(mem_ldst_ready(h.m, 0));
    run(&h, 40);
    assert_int_equal(done_at(&h, 1), t0 + 24 + 1);   /* smem.latency + 1 */
    /* stride 4 B: conflict free */
    assert_int_equal(smem_case(&h, 4, 4, 0, 2), 1);
    run(&h, 40);
    /* all lanes on one word: broadcast */
    assert_int_equal(smem_case(&h, 0, 4, 1, 3), 1);
    run(&h, 40);
    /* stride 128 B: every lane in bank 0: 32-way */
    t0 = mem_now(h.m);
    assert_int_equal(smem_case(&h, 128, 4, 0, 4), 32);
    run(&h, 80);
    assert_int_equal(done_at(&h, 4), t0 + 24 + 31);
    /* 8-byte accesses, consecutive: 64 words over 32 banks: 2 */
    assert_int_equal(smem_case(&h, 8, 8, 0, 5), 2);
    run(&h, 40);
    const mem_stats *st = mem_get_stats(h.m);
    assert_int_equal(st->smem_accesses, 5);
    assert_int_equal(st->smem_bank_cycles, 2 + 1 + 1 + 32 + 2);
    stop(&h);
}

static void test_const_serialises_distinct_words(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    uint64_t a[4] = { 0, 0, 4, 8 };      /* 3 distinct words */
    mem_request r = request(0, 0, MEM_LOAD, MEM_CONST, 1);
    lanes(&r, a, 4, 4);
    submit(&h, &r);
    run(&h, 40);
    assert_int_equal(done_at(&h, 1), 2 + 20);   /* 3 cycles, const.latency 20 */
    stop(&h);
}

static void test_atomic_goes_to_l2(void **state)
{
    (void)state;
    mem_config c = base_config();
    harness h;
    start(&h, &c);
    access1(&h, 0, MEM_LOAD, 0x8000, 1);
    run_until(&h, 300);
    mem_request r = request(0, 0, MEM_ATOMIC, MEM_GLOBAL, 2);
    uint64_t a = 0x8000;
    lanes(&r, &a, 1, 4);
    submit(&h, &r);
    run_until(&h, 600);
    /* request carries 4 B: ser ceil(12/32) = 1; response 4 B: 1 cycle;
     * L2 hit: 2*10 + 1 + 1 + 94 = 116 */
    assert_int_equal(done_at(&h, 2), 300 + 116);
    const mem_stats *st = mem_get_stats(h.m);
    assert_int_equal(st->l2_hit[2], 1);
    assert_int_equal(st->l1_write_evicts, 1);
    stop(&h);
}

static void test_interconnect_backpressure(void **state)
{
    (void)state;
    mem_config c = base_config();
    c.icnt_queue_entries = 1;
    harness h;
    start(&h, &c);
    /* 4 full-line stores: each needs 5 cycles on the 32 B port
     * (ceil(136/32)); the injection queue holds one, so the unit stalls */
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = 128 * (i / 8) + 16 * (i % 8);
    mem_request r = request(0, 0, MEM_STORE, MEM_GLOBAL, 1);
    lanes(&r, a, 32, 16);
    submit(&h, &r);
    run_until(&h, 100);
    /* tx0 at 0 (queue), moved at 1 (port busy to 6); tx1 queued at 1;
     * tx2 stalls at 2..5, tx1 moves at 6 so tx2 goes at 6; tx3 stalls at
     * 7..10, queued at 11: done at 12. Stall cycles: 4 + 4. */
    assert_int_equal(done_at(&h, 1), 12);
    assert_int_equal(mem_get_stats(h.m)->stall_icnt, 8);
    stop(&h);
}

static void test_collect_all(void **state)
{
    (void)state;
    mem_config c = base_config();
    char err[256];
    mem_system *m = mem_create(&c, err, sizeof err);
    assert_non_null(m);
    /* L1 hits are not needed: constant loads finish at t + const.latency */
    uint64_t a = 0;
    for (uint32_t sm = 3; sm >= 1; sm--) {
        mem_request r = request(sm, sm, MEM_LOAD, MEM_CONST, 100 + sm);
        lanes(&r, &a, 1, 4);
        assert_int_equal(mem_submit(m, &r, NULL, err, sizeof err), 0);
    }
    mem_completion out[8];
    for (int i = 0; i < 19; i++) {
        mem_cycle(m);
        assert_int_equal(mem_collect_all(m, out, 8), 0);
    }
    mem_cycle(m);                                   /* now = 20 */
    assert_int_equal(mem_collect_all(m, out, 2), 2);  /* cap respected */
    assert_int_equal(out[0].sm, 1);
    assert_int_equal(out[0].tag, 101);
    assert_int_equal(out[1].sm, 2);
    assert_int_equal(out[1].cycle, 20);
    assert_int_equal(mem_collect_all(m, out, 8), 1);
    assert_int_equal(out[0].sm, 3);
    assert_int_equal(out[0].warp, 3);
    assert_int_equal(mem_collect_all(m, out, 8), 0);
    assert_true(mem_idle(m));
    mem_destroy(m);
}

static void test_deterministic(void **state)
{
    (void)state;
    mem_config c = base_config();
    uint64_t sig[2] = { 0, 0 };
    for (int run_i = 0; run_i < 2; run_i++) {
        harness h;
        start(&h, &c);
        uint64_t x = 12345;
        for (int k = 0; k < 2000; k++) {
            for (uint32_t s = 0; s < 4; s++) {
                if (!mem_ldst_ready(h.m, s))
                    continue;
                mem_request r = request(s, 0, MEM_LOAD, MEM_GLOBAL, (uint64_t)k);
                uint64_t a[8];
                for (int i = 0; i < 8; i++) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    a[i] = (x >> 20) % (1 << 20) * 4;
                }
                lanes(&r, a, 8, 4);
                submit(&h, &r);
            }
            step(&h);
            if (h.n > 400) {
                for (int i = 0; i < h.n; i++)
                    sig[run_i] = sig[run_i] * 31 + h.log[i].cycle * 7 + h.log[i].sm;
                h.n = 0;
            }
        }
        for (int i = 0; i < h.n; i++)
            sig[run_i] = sig[run_i] * 31 + h.log[i].cycle * 7 + h.log[i].sm;
        stop(&h);
    }
    assert_true(sig[0] != 0);
    assert_int_equal(sig[0], sig[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalescer),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_miss_then_hit_latency),
        cmocka_unit_test(test_dram_row_hit_and_miss),
        cmocka_unit_test(test_dram_rows_beyond_32_bits),
        cmocka_unit_test(test_frfcfs_reorders_row_hits),
        cmocka_unit_test(test_lru_eviction_order),
        cmocka_unit_test(test_ccws_victim_tags),
        cmocka_unit_test(test_fermi_set_index),
        cmocka_unit_test(test_mshr_merge_limit_and_replay),
        cmocka_unit_test(test_mshr_exhaustion_occludes),
        cmocka_unit_test(test_ldst_ports),
        cmocka_unit_test(test_ldst_inflight),
        cmocka_unit_test(test_reexec_queue),
        cmocka_unit_test(test_reexec_store_waits),
        cmocka_unit_test(test_allocate_on_miss_vs_fill),
        cmocka_unit_test(test_write_evict),
        cmocka_unit_test(test_l2_write_miss),
        cmocka_unit_test(test_store_acks),
        cmocka_unit_test(test_l1i),
        cmocka_unit_test(test_l1i_miss_queue),
        cmocka_unit_test(test_duplicate_mshr_allocations),
        cmocka_unit_test(test_shared_bank_conflicts),
        cmocka_unit_test(test_const_serialises_distinct_words),
        cmocka_unit_test(test_atomic_goes_to_l2),
        cmocka_unit_test(test_interconnect_backpressure),
        cmocka_unit_test(test_collect_all),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests_name("mem_units", tests, NULL, NULL);
}
