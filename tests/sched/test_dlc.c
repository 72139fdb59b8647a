/*
 * test_dlc.c — OAWS's Divergent Load Classifier (cosim/dlc.h: the C model,
 * rtl/macu_dlc.sv Verilated, and the two in lockstep; docs/oaws.md "DLC";
 * seed 001 §4.2, §4.4).
 *
 * The C model's fields by exact sequences, the same hand-worked sequences of
 * hits, associativity bits and counts through every back end, random
 * lockstep runs (C model vs RTL at every read) that must cover replacement
 * and halving, and a planted difference that the lockstep must report.
 * Every expected value is worked out by hand from the rules in dlc.h.
 *
 * Built twice (tests/sched/module.mk): with DLC_TEST_RTL the RTL and
 * lockstep back ends are linked and tested too; without, the C model only
 * (the ASan/UBSan pass).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dlc.h"

#ifdef DLC_TEST_RTL
static const dlc_kind kinds[] = { DLC_C, DLC_RTL, DLC_LOCKSTEP };
#else
static const dlc_kind kinds[] = { DLC_C };
#endif
#define NKINDS (sizeof kinds / sizeof kinds[0])
static const char *const kind_names[] = { "c", "rtl", "lockstep" };

static dlc *open_or_fail(dlc_kind k, unsigned entries, unsigned ports)
{
    char err[512] = "";
    dlc *d = dlc_open(k, entries, ports, err, sizeof err);
    if (!d)
        fail_msg("dlc_open(%s, %u): %s", kind_names[k], entries, err);
    return d;
}

/* ---- the C model's fields (§4.4: 10-bit #acc/#sets; #15, #16) ---- */

static void test_cmodel_fields(void **state)
{
    (void)state;
    dlc_cmodel m;
    dlc_cmodel_init(&m, 32);
    assert_null(dlc_cmodel_find(&m, 7));
    dlc_cmodel_fill(&m, 7, 32, 16);
    dlc_cmodel_fill(&m, 7, 32, 16);           /* same pc: no second entry */
    assert_int_equal(m.n, 1);
    const dlc_entry *e = dlc_cmodel_find(&m, 7);
    assert_non_null(e);
    assert_int_equal(e->acc, 64);
    assert_int_equal(e->sets, 32);
    assert_int_equal(e->assoc, 1);            /* 128 > 96 */
    /* #acc stays below 1024 by halving: after 31 fills of 32 accesses
     * #acc = 992, the 32nd would give 1024, so the entry is halved first
     * (acc 496, sets 124) */
    dlc_cmodel_init(&m, 32);
    for (unsigned i = 0; i < 31; i++) dlc_cmodel_fill(&m, 9, 32, 8);
    e = dlc_cmodel_find(&m, 9);
    assert_int_equal(e->acc, 992);
    assert_int_equal(e->sets, 248);
    dlc_cmodel_fill(&m, 9, 32, 8);
    assert_int_equal(e->acc, 496 + 32);
    assert_int_equal(e->sets, 124 + 8);
    /* #sets alone can force it too */
    dlc_cmodel_init(&m, 32);
    for (unsigned i = 0; i < 8; i++) dlc_cmodel_fill(&m, 3, 1, 127);   /* 8, 1016 */
    dlc_cmodel_fill(&m, 3, 1, 8);             /* 1024 > 1023: halve -> 4 + 1, 508 + 8 */
    e = dlc_cmodel_find(&m, 3);
    assert_int_equal(e->acc, 5);
    assert_int_equal(e->sets, 516);
    /* a fill's fields saturate at 127 (7-bit ports) */
    dlc_cmodel_init(&m, 32);
    dlc_cmodel_fill(&m, 4, 500, 200);
    assert_int_equal(dlc_cmodel_find(&m, 4)->acc, 127);
    assert_int_equal(dlc_cmodel_find(&m, 4)->sets, 127);
    /* 32 entries; a 33rd pc replaces the least recently filled one */
    dlc_cmodel_init(&m, 32);
    for (unsigned pc = 100; pc < 132; pc++) dlc_cmodel_fill(&m, pc, 32, 8);
    dlc_cmodel_fill(&m, 100, 32, 8);          /* 100 is now the most recent; 101 the least */
    dlc_cmodel_fill(&m, 500, 32, 8);
    assert_int_equal(m.n, 32);
    assert_non_null(dlc_cmodel_find(&m, 500));
    assert_non_null(dlc_cmodel_find(&m, 100));
    assert_null(dlc_cmodel_find(&m, 101));
    assert_non_null(dlc_cmodel_find(&m, 102));
    assert_int_equal(dlc_cmodel_find(&m, 500)->acc, 32);   /* a fresh entry */
    /* cleared per launch */
    dlc_cmodel_clear(&m);
    assert_int_equal(m.n, 0);
    assert_null(dlc_cmodel_find(&m, 500));
}

/* ---- the same sequences through every back end ---- */

static void expect(dlc *d, dlc_kind k, unsigned port, uint32_t pc, int hit, int assoc)
{
    int a = -1;
    int h = dlc_lookup(d, port, pc, &a);
    if (h != hit || (hit && a != assoc))
        fail_msg("%s: lookup port %u pc %u: hit %d assoc %d, expected hit %d assoc %d",
                 kind_names[k], port, pc, h, a, hit, assoc);
    assert_string_equal(dlc_failure(d), "");
}

static void test_backends_hand(void **state)
{
    (void)state;
    for (size_t i = 0; i < NKINDS; i++) {
        dlc_kind k = kinds[i];
        dlc *d = open_or_fail(k, 4, 3);
        assert_int_equal(dlc_count(d), 0);
        expect(d, k, 0, 7, 0, 0);
        /* associativity-sensitive: 2 #acc > 3 #sets */
        dlc_fill(d, 7, 32, 16);
        dlc_fill(d, 7, 32, 16);                   /* 64, 32: 128 > 96 */
        expect(d, k, 1, 7, 1, 1);
        dlc_fill(d, 9, 24, 16);                   /* 48 > 48 is false */
        expect(d, k, 2, 9, 1, 0);
        dlc_fill(d, 9, 1, 0);                     /* 25, 16: 50 > 48 */
        expect(d, k, 0, 9, 1, 1);
        assert_int_equal(dlc_count(d), 2);
        /* recency: fills 1, 2 (table 7, 9, 1, 2: full), 7 again, then 5
         * replaces the least recently filled, 9; then 6 replaces 1 */
        dlc_fill(d, 1, 3, 3);
        dlc_fill(d, 2, 3, 3);
        dlc_fill(d, 7, 3, 3);                     /* 7 refreshed: order 7, 2, 1, 9 */
        dlc_fill(d, 5, 3, 3);                     /* replaces 9 */
        assert_int_equal(dlc_count(d), 4);
        expect(d, k, 1, 9, 0, 0);
        expect(d, k, 1, 7, 1, 1);                 /* 67, 35: 134 > 105, kept */
        dlc_fill(d, 6, 3, 3);                     /* order 6, 5, 7, 2, 1 -> replaces 1 */
        expect(d, k, 2, 1, 0, 0);
        expect(d, k, 2, 2, 1, 0);
        expect(d, k, 2, 5, 1, 0);
        expect(d, k, 2, 6, 1, 0);
        dlc_fill(d, 1, 40, 4);                    /* replaces 2 (least recent) */
        expect(d, k, 0, 2, 0, 0);
        expect(d, k, 0, 1, 1, 1);                 /* a fresh entry: 80 > 12 */
        /* halving: ten fills of (100, 100) give 1000, 1000 (not sensitive);
         * the 11th (100, 0) would pass 1023: halve to 500, 500, add ->
         * 600, 500 (1200 > 1500 no); two fills of (127, 0): 727 (no), then
         * 854, 500 (1708 > 1500: sensitive). Without the halving the
         * field would have wrapped or saturated, and stayed insensitive. */
        dlc_clear(d);
        assert_int_equal(dlc_count(d), 0);
        expect(d, k, 0, 1, 0, 0);
        for (int j = 0; j < 10; j++) dlc_fill(d, 5, 100, 100);
        expect(d, k, 1, 5, 1, 0);
        dlc_fill(d, 5, 100, 0);
        expect(d, k, 1, 5, 1, 0);
        dlc_fill(d, 5, 127, 0);
        expect(d, k, 1, 5, 1, 0);
        dlc_fill(d, 5, 127, 0);
        expect(d, k, 1, 5, 1, 1);
        /* a fill above the ports' 7 bits saturates: (127, 1) */
        dlc_fill(d, 8, 1000, 1);
        expect(d, k, 2, 8, 1, 1);
        assert_int_equal(dlc_count(d), 2);
        dlc_close(d);
    }
}

/* one entry: every new pc replaces the only one */
static void test_backends_one_entry(void **state)
{
    (void)state;
    for (size_t i = 0; i < NKINDS; i++) {
        dlc_kind k = kinds[i];
        dlc *d = open_or_fail(k, 1, 1);
        dlc_fill(d, 10, 8, 8);
        dlc_fill(d, 11, 9, 1);
        expect(d, k, 0, 10, 0, 0);
        expect(d, k, 0, 11, 1, 1);
        assert_int_equal(dlc_count(d), 1);
        dlc_close(d);
    }
}

static void test_open_rejects(void **state)
{
    (void)state;
    char err[256] = "";
    assert_null(dlc_open(DLC_C, 0, 1, err, sizeof err));
    assert_non_null(strstr(err, "0 entries"));
    assert_null(dlc_open(DLC_C, DLC_MAX_ENTRIES + 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "65 entries"));
#ifdef DLC_TEST_RTL
    assert_null(dlc_open(DLC_RTL, 32, DLC_MAX_PORTS + 1, err, sizeof err));
    assert_non_null(strstr(err, "read ports"));
#endif
}

#ifdef DLC_TEST_RTL
/* ---- random lockstep: C model and RTL compared at every read ---- */

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static void test_lockstep_random(void **state)
{
    (void)state;
    unsigned long evictions = 0, halvings = 0, hits = 0, assoc_hits = 0, reads = 0;
    for (unsigned run = 0; run < 24; run++) {
        rng_state = 0x9e3779b97f4a7c15ull * (run + 1);
        unsigned entries = run < 4 ? (unsigned[]){ 1, 2, 32, 64 }[run] : 1 + rnd() % 64;
        dlc *d = open_or_fail(DLC_LOCKSTEP, entries, DLC_MAX_PORTS);
        dlc_cmodel shadow;          /* counts what the runs covered */
        dlc_cmodel_init(&shadow, entries);
        /* pcs from a pool larger than the table (replacements) or, every
         * other run, half its size (entries live long enough to be halved);
         * some big pcs */
        unsigned pool = run % 2 ? entries + 1 + rnd() % (entries + 8)
                                : (entries + 1) / 2;
        for (unsigned op = 0; op < 4000; op++) {
            uint32_t r = rnd() % 1000;
            uint32_t pc = rnd() % pool;
            if (pc % 5 == 4)
                pc |= 0x80000000u | (pc << 12);
            if (r < 2) {
                dlc_clear(d);
                dlc_cmodel_clear(&shadow);
            } else if (r < 450) {
                /* large fills now and then, so the fields reach 1023 */
                unsigned acc = rnd() % 4 ? rnd() % 40 : rnd() % 140;
                unsigned sets = rnd() % 4 ? rnd() % 40 : rnd() % 140;
                const dlc_entry *e = dlc_cmodel_find(&shadow, pc);
                unsigned a = acc > DLC_FILL_MAX ? DLC_FILL_MAX : acc;
                unsigned s = sets > DLC_FILL_MAX ? DLC_FILL_MAX : sets;
                if (!e && shadow.n == shadow.entries)
                    evictions++;
                if (e && (e->acc + a > DLC_FIELD_MAX || e->sets + s > DLC_FIELD_MAX))
                    halvings++;
                dlc_fill(d, pc, acc, sets);
                dlc_cmodel_fill(&shadow, pc, acc, sets);
            } else {
                int a = 0;
                unsigned port = rnd() % DLC_MAX_PORTS;
                int h = dlc_lookup(d, port, pc, &a);
                reads++;
                hits += (unsigned long)h;
                assoc_hits += (unsigned long)(h && a);
            }
            if (dlc_failure(d)[0])
                fail_msg("run %u (%u entries), op %u: %s", run, entries, op, dlc_failure(d));
        }
        assert_int_equal(dlc_count(d), shadow.n);
        dlc_close(d);
    }
    printf("# lockstep: %lu reads (%lu hits, %lu sensitive), %lu replacements, %lu halvings\n",
           reads, hits, assoc_hits, evictions, halvings);
    /* the runs must have covered what the RTL could get wrong */
    assert_true(hits > 1000 && hits + 1000 < reads);
    assert_true(assoc_hits > 200 && assoc_hits + 200 < hits);
    assert_true(evictions > 1000);
    assert_true(halvings > 100);
}

/* A planted difference in the C half is reported at the next read of it. */
static void test_lockstep_reports(void **state)
{
    (void)state;
    dlc *d = open_or_fail(DLC_LOCKSTEP, 32, 3);
    dlc_fill(d, 40, 30, 20);                      /* 60 > 60: not sensitive */
    int a = 0;
    assert_int_equal(dlc_lookup(d, 1, 40, &a), 1);
    assert_string_equal(dlc_failure(d), "");
    assert_int_equal(dlc_test_corrupt(d, 40, 31), 0);   /* C: 62 > 60, sensitive */
    assert_int_equal(dlc_test_corrupt(d, 41, 31), -1);  /* no such entry */
    dlc_lookup(d, 2, 40, &a);
    assert_non_null(strstr(dlc_failure(d), "DLC lockstep mismatch"));
    assert_non_null(strstr(dlc_failure(d), "port 2 pc 40: C hit 1 assoc 1, RTL hit 1 assoc 0"));
    dlc_close(d);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmodel_fields),
        cmocka_unit_test(test_backends_hand),
        cmocka_unit_test(test_backends_one_entry),
        cmocka_unit_test(test_open_rejects),
#ifdef DLC_TEST_RTL
        cmocka_unit_test(test_lockstep_random),
        cmocka_unit_test(test_lockstep_reports),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
