/*
 * test_sched_oaws.c -- hand-made OAWS scenarios for the scheduler core
 * (docs/oaws.md; seed 001 Eq. 1, §4.1.2, §4.2, §4.3.2).
 *
 * Every expectation was worked out by hand from the contract
 * (docs/sched-interface.md, docs/oaws.md), not taken from a run. Built twice:
 * against the C model (also in the ASan/UBSan pass) and, with
 * SCHED_TEST_RTL, against the Verilated RTL. Fermi parameters
 * 48/2/6/3/4/2/8/8 (a Verilated set): warp w belongs to scheduler w % 2.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sched_scenario.h"

/* OAWS mode `mode` (1 static, 2 dynamic), 32 MSHRs, the OCW logic's
 * paper values loaded at the first edge (OCW 2). */
static void env_init(env *e, unsigned mode, uint64_t warps)
{
    env_open(e, warps);
    e->in.oaws = (uint8_t)mode;
    e->in.oaws_cap = 32;
    e->in.ocw_event = 3;
    e->in.ocw_min = 2;
    e->in.ocw_max = 48;
    e->in.cnt_max = 255;
    e->in.cnt_init = 128;
}

/* Push one instruction (no registers) into warp w at this edge. */
static void push(env *e, unsigned w, unsigned op, unsigned pred_miss, unsigned pred_div)
{
    sched_push *p = push_op(e, w, op);
    p->instr.pred_miss = (uint8_t)pred_miss;
    p->instr.pred_div = (uint8_t)pred_div;
}

/* T1: Eq. 1 at its boundary (static): eff 16 with 16 free MSHRs issues, 17
 * does not; the held scheduler reports `occluded`, its counter counts every
 * such cycle, and the counters still add up to the cycles. */
static void test_eq1_boundary(void **state)
{
    (void)state;
    for (unsigned pm = 16; pm <= 17; pm++) {
        env e;
        env_init(&e, 1, 0x1);
        e.in.mshr_avail = 16;
        step(&e);                             /* launch */
        push(&e, 0, SCHED_OP_LDST, pm, 1);
        step(&e);
        if (pm == 16) {
            assert_int_equal(out(&e)->issue[0].valid, 1);
            assert_int_equal(out(&e)->issue[0].eff_miss, 16);
            assert_int_equal(out(&e)->issue[0].pred_miss, 16);
            assert_int_equal(out(&e)->issue[0].pred_div, 1);
            assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_ISSUE);
        } else {
            for (unsigned k = 0; k < 5; k++) {
                assert_int_equal(out(&e)->issue[0].valid, 0);
                assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_OCCLUDED);
                step(&e);
            }
            /* cycles 2..6 were occluded: five counts */
            assert_int_equal(out(&e)->counters[0][SCHED_REASON_OCCLUDED], 5);
            uint32_t n[SCHED_NUM_REASONS], sum = 0;
            sched_counters(e.b, 0, n);
            for (unsigned r = 0; r < SCHED_NUM_REASONS; r++) sum += n[r];
            assert_int_equal(sum, e.edges);
            /* one more free MSHR lets it issue the cycle after */
            e.in.mshr_avail = 17;
            step(&e);
            assert_int_equal(out(&e)->issue[0].valid, 1);
            assert_int_equal(out(&e)->issue[0].eff_miss, 17);
        }
        sched_destroy(e.b);
    }
}

/* T2: only LD/ST heads are held: an SP head predicting 63 issues with no
 * free MSHR, and its grant carries eff 0. */
static void test_only_ldst(void **state)
{
    (void)state;
    env e;
    env_init(&e, 1, 0x1);
    e.in.mshr_avail = 0;
    step(&e);
    push(&e, 0, SCHED_OP_SP, 63, 1);
    step(&e);
    assert_int_equal(out(&e)->issue[0].valid, 1);
    assert_int_equal(out(&e)->issue[0].eff_miss, 0);
    assert_int_equal(out(&e)->issue[0].pred_miss, 63);
    sched_destroy(e.b);
}

/* T3: a younger occlusion-free warp issues (§4.1.2): GTO would take warp 0,
 * but its load needs 20 of 10 free entries; warp 2 (1 miss) goes. */
static void test_younger_issues(void **state)
{
    (void)state;
    env e;
    env_init(&e, 1, 0x5);
    e.in.mshr_avail = 10;
    step(&e);
    push(&e, 0, SCHED_OP_LDST, 20, 1);
    step(&e);
    push(&e, 2, SCHED_OP_LDST, 1, 0);
    step(&e);
    assert_int_equal(out(&e)->issue[0].valid, 1);
    assert_int_equal(out(&e)->issue[0].warp, 2);
    assert_int_equal(out(&e)->issue[0].eff_miss, 1);
    assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_ISSUE);
    sched_destroy(e.b);
}

/* T4: Miss_inflight. With 32 free entries a load charging 16 issues at t;
 * from t+1 miss_inflight is 16 and a head charging 17 is held (16 + 17 >
 * 32) until 16 are retired at an edge; it issues in the cycle after. A
 * retirement larger than the register leaves 0. */
static void test_miss_inflight(void **state)
{
    (void)state;
    env e;
    env_init(&e, 1, 0x1);
    e.in.mshr_avail = 32;
    step(&e);
    push(&e, 0, SCHED_OP_LDST, 16, 1);
    step(&e);
    assert_int_equal(out(&e)->miss_inflight, 0);
    assert_int_equal(out(&e)->issue[0].eff_miss, 16);   /* issues in this cycle */
    push(&e, 0, SCHED_OP_LDST, 17, 1);
    step(&e);
    assert_int_equal(out(&e)->miss_inflight, 16);
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(out(&e)->issue[0].valid, 0);
        assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_OCCLUDED);
        step(&e);
    }
    e.in.ldst_retire_miss = 16;
    step(&e);
    assert_int_equal(out(&e)->miss_inflight, 0);
    assert_int_equal(out(&e)->issue[0].valid, 1);
    assert_int_equal(out(&e)->issue[0].eff_miss, 17);
    step(&e);
    assert_int_equal(out(&e)->miss_inflight, 17);
    e.in.ldst_retire_miss = 100;              /* more than charged: floor at 0 */
    step(&e);
    assert_int_equal(out(&e)->miss_inflight, 0);
    sched_destroy(e.b);
}

/* T5: reason priority: one warp occluded and another waiting for a busy
 * unit on the same scheduler -> `occluded`; with OAWS off the same load
 * simply issues (nothing is ever occluded). */
static void test_reason_priority(void **state)
{
    (void)state;
    for (unsigned mode = 0; mode <= 1; mode++) {
        env e;
        env_init(&e, mode, 0x5);
        e.in.mshr_avail = 4;
        e.in.unit_avail[0] = 1u << SCHED_OP_LDST;     /* no SFU */
        step(&e);
        push(&e, 0, SCHED_OP_SFU, 0, 0);
        step(&e);
        push(&e, 2, SCHED_OP_LDST, 5, 1);
        step(&e);
        if (mode) {
            assert_int_equal(out(&e)->issue[0].valid, 0);
            assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_OCCLUDED);
        } else {
            assert_int_equal(out(&e)->issue[0].valid, 1);
            assert_int_equal(out(&e)->issue[0].warp, 2);
            assert_int_equal(out(&e)->issue[0].eff_miss, 0);   /* T7: mode 0 */
            step(&e);
            assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_UNIT_BUSY);
            assert_int_equal(out(&e)->counters[0][SCHED_REASON_OCCLUDED], 0);
        }
        sched_destroy(e.b);
    }
}

/* T6: dynamic classification. Warps 0..7 alive, OCW 2: rank = id. Warp 0
 * (rank 0, a locality warp) charges 0 and issues with no free MSHR. Warp 5
 * (scheduler 1, rank 5, thrashing) with a predicted-divergent load of 16
 * charges 16 + 5 = 21: held with 20 free, issues with 21. A coherent load
 * (pred_div 0, 1) of warp 5 charges 1. After warp 0 finishes, warp 5's rank
 * is 4: 16 + 4 = 20 fits 20. */
static void test_dynamic(void **state)
{
    (void)state;
    env e;
    env_init(&e, 2, 0xFF);
    e.in.mshr_avail = 0;
    step(&e);
    push(&e, 0, SCHED_OP_LDST, 16, 1);
    push(&e, 5, SCHED_OP_LDST, 16, 1);
    step(&e);
    assert_int_equal(out(&e)->issue[0].valid, 1);          /* locality warp */
    assert_int_equal(out(&e)->issue[0].warp, 0);
    assert_int_equal(out(&e)->issue[0].eff_miss, 0);
    assert_int_equal(out(&e)->issue[1].valid, 0);
    assert_int_equal(out(&e)->stall_reason[1], SCHED_REASON_OCCLUDED);
    e.in.mshr_avail = 20;
    step(&e);
    assert_int_equal(out(&e)->issue[1].valid, 0);          /* 21 > 20 */
    e.in.mshr_avail = 21;
    step(&e);
    assert_int_equal(out(&e)->issue[1].valid, 1);
    assert_int_equal(out(&e)->issue[1].warp, 5);
    assert_int_equal(out(&e)->issue[1].eff_miss, 21);
    e.in.mshr_avail = 1;
    e.in.ldst_retire_miss = 21;
    push(&e, 5, SCHED_OP_LDST, 1, 0);
    step(&e);
    assert_int_equal(out(&e)->issue[1].valid, 1);          /* coherent: 1 */
    assert_int_equal(out(&e)->issue[1].eff_miss, 1);
    e.in.ldst_retire_miss = 1;
    e.in.mshr_avail = 20;
    e.in.finish = 0x1;                         /* warp 0 leaves: ranks drop */
    push(&e, 5, SCHED_OP_LDST, 16, 1);
    step(&e);
    assert_int_equal(out(&e)->issue[1].valid, 1);
    assert_int_equal(out(&e)->issue[1].eff_miss, 20);
    /* the effective prediction saturates at the cap (the MSHR count) */
    e.in.ldst_retire_miss = 20;
    e.in.oaws_cap = 8;
    e.in.mshr_avail = 8;
    push(&e, 7, SCHED_OP_LDST, 30, 1);         /* rank 6: 36 -> 8 */
    step(&e);
    assert_int_equal(out(&e)->issue[1].valid, 1);
    assert_int_equal(out(&e)->issue[1].warp, 7);
    assert_int_equal(out(&e)->issue[1].eff_miss, 8);
    sched_destroy(e.b);
}

/* The OCW logic in the core (seed 001 Fig. 7; spec D.2's sequences): n
 * events of one kind, then the registers. */
static void ocw_events(env *e, unsigned n, unsigned event, unsigned half)
{
    for (unsigned i = 0; i < n; i++) {
        e->in.ocw_event = (uint8_t)event;
        e->in.ocw_half = (uint8_t)half;
        step(e);
    }
}

static void expect_ocw(env *e, unsigned ocw, unsigned cnt)
{
    assert_int_equal(out(e)->ocw, ocw);
    assert_int_equal(out(e)->ocw_cnt, cnt);
}

static void test_ocw_sequences(void **state)
{
    (void)state;
    env e;
    env_init(&e, 2, 0xFF);                     /* warps 0..7, dynamic */
    e.in.mshr_avail = 0;
    step(&e);                                  /* load: (2, 128) */
    expect_ocw(&e, 2, 128);
    /* warp 2 (rank 2, scheduler 0) is a thrashing warp: its divergent load
     * charges 16 + 2 = 18 and is held with no free MSHR */
    push(&e, 2, SCHED_OP_LDST, 16, 1);
    ocw_events(&e, 126, 1, 0);
    expect_ocw(&e, 2, 254);
    assert_int_equal(out(&e)->issue[0].valid, 0);
    assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_OCCLUDED);
    ocw_events(&e, 1, 1, 0);                   /* 127th: (3, 0) */
    expect_ocw(&e, 3, 0);
    /* OCW 3: warp 2 is a locality warp now, charges 0 and issues */
    assert_int_equal(out(&e)->issue[0].valid, 1);
    assert_int_equal(out(&e)->issue[0].warp, 2);
    assert_int_equal(out(&e)->issue[0].eff_miss, 0);
    ocw_events(&e, 255, 1, 0);
    expect_ocw(&e, 4, 0);
    ocw_events(&e, 1, 2, 0);                   /* (4, 0) - P with Δ 1 -> (3, 255) */
    expect_ocw(&e, 3, 255);
    ocw_events(&e, 1, 1, 0);                   /* -> (4, 0) */
    expect_ocw(&e, 4, 0);
    /* (5, 255) by a load with other initial values; Δ = CNT/2 */
    e.in.ocw_min = 5;
    e.in.cnt_init = 255;
    ocw_events(&e, 1, 3, 0);
    expect_ocw(&e, 5, 255);
    e.in.ocw_min = 2;
    static const unsigned cnt_after[8] = { 128, 64, 32, 16, 8, 4, 2, 1 };
    for (unsigned i = 0; i < 8; i++) {
        ocw_events(&e, 1, 2, 1);
        expect_ocw(&e, 5, cnt_after[i]);
    }
    ocw_events(&e, 1, 2, 1);
    expect_ocw(&e, 4, 255);
    /* Δ 1 from (4, 255): 254 -> (4, 1), the 255th -> (3, 255) */
    ocw_events(&e, 254, 2, 0);
    expect_ocw(&e, 4, 1);
    ocw_events(&e, 1, 2, 0);
    expect_ocw(&e, 3, 255);
    /* corners: at the bounds CNT stays at its end */
    e.in.cnt_init = 1;
    ocw_events(&e, 1, 3, 0);                   /* (2, 1) */
    ocw_events(&e, 1, 2, 0);
    expect_ocw(&e, 2, 0);
    ocw_events(&e, 1, 2, 0);
    expect_ocw(&e, 2, 0);
    e.in.ocw_min = 48;
    e.in.cnt_init = 255;
    ocw_events(&e, 1, 3, 0);                   /* (48, 255) */
    ocw_events(&e, 1, 1, 0);
    expect_ocw(&e, 48, 255);
    sched_destroy(e.b);
}

/* T8: out-of-range OAWS inputs are rejected with the field's name. */
static void test_input_checks(void **state)
{
    (void)state;
    static const struct { const char *field; } cases[] = {
        { "oaws" }, { "mshr_avail" }, { "ocw_min" }, { "oaws_cap" }, { "ldst_retire_miss" },
        { "pred_miss" }, { "pred_div" }, { "ocw_event" }, { "ocw_half" }, { "ocw_max" },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        env e;
        env_init(&e, 1, 0x1);
        step(&e);
        sched_inputs bad = e.in;
        switch (c) {
        case 0: bad.oaws = 3; break;
        case 1: bad.mshr_avail = 128; break;
        case 2: bad.ocw_min = 128; break;
        case 3: bad.oaws_cap = 128; break;
        case 4: bad.ldst_retire_miss = 128; break;
        case 5: bad.push[0].valid = 1; bad.push[0].instr.pred_miss = 64; break;
        case 6: bad.push[0].valid = 1; bad.push[0].instr.pred_div = 2; break;
        case 7: bad.ocw_event = 4; break;
        case 8: bad.ocw_half = 2; break;
        default: bad.ocw_max = 128; break;
        }
        assert_int_equal(sched_step(e.b, &bad), -1);
        if (!strstr(sched_error(e.b), cases[c].field))
            fail_msg("error '%s' does not name %s", sched_error(e.b), cases[c].field);
        sched_destroy(e.b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eq1_boundary),
        cmocka_unit_test(test_only_ldst),
        cmocka_unit_test(test_younger_issues),
        cmocka_unit_test(test_miss_inflight),
        cmocka_unit_test(test_reason_priority),
        cmocka_unit_test(test_dynamic),
        cmocka_unit_test(test_ocw_sequences),
        cmocka_unit_test(test_input_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
