/*
 * test_oaws.c — OAWS's SM-side logic (csrc/timing/oaws.c: prediction,
 * OCW/CNT) by exact sequences, and a synthetic kernel where OAWS removes the
 * MSHR replays of a divergent load (docs/oaws.md; seed 001 §4.2–§4.3,
 * ../shared/design/oaws.md D.2, D.4). Every expected value is worked out
 * by hand from the paper's rules and the decisions in docs/oaws.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tm_rig.h"
#include "oaws.h"
#include "sched_if.h"

static oaws_params params(unsigned mode, unsigned smr)
{
    oaws_params p = { mode, smr, 32, 255, 128, 2, 48, OAWS_DELTA_AUTO };
    return p;
}

/* ---- prediction (§4.2: Div_pred x SMR, rounded up; #5, #6) ---- */

static void test_predict(void **state)
{
    (void)state;
    oaws_params p = params(OAWS_STATIC, 50);
    uint8_t div = 9;
    /* a load whose pc is in the DLC (a divergent load) */
    assert_int_equal(oaws_predict(&p, 1, 1, 32, &div), 16);
    assert_int_equal(div, 1);
    assert_int_equal(oaws_predict(&p, 1, 1, 31, &div), 16);   /* 15.5 -> 16 */
    assert_int_equal(oaws_predict(&p, 1, 1, 17, &div), 9);    /* 8.5 -> 9 */
    assert_int_equal(oaws_predict(&p, 1, 1, 1, &div), 1);
    /* a load not in the DLC: one miss, not divergent */
    assert_int_equal(oaws_predict(&p, 1, 0, 32, &div), 1);
    assert_int_equal(div, 0);
    /* not a global/local load (store, atomic, shared, const, ALU): 0 */
    assert_int_equal(oaws_predict(&p, 0, 1, 32, &div), 0);
    assert_int_equal(div, 0);
    p.smr = 5;
    assert_int_equal(oaws_predict(&p, 1, 1, 32, &div), 2);    /* 1.6 -> 2 */
    p.smr = 100;
    assert_int_equal(oaws_predict(&p, 1, 1, 32, &div), 32);
    /* SMR 0 = GTO: nothing predicts a miss, not even a coherent load */
    p.smr = 0;
    assert_int_equal(oaws_predict(&p, 1, 1, 32, &div), 0);
    assert_int_equal(oaws_predict(&p, 1, 0, 32, &div), 0);
    assert_int_equal(div, 0);
    /* dynamic: the stored part is Div_pred x 50 % whatever the SMR key says */
    p = params(OAWS_DYNAMIC, 0);
    assert_int_equal(oaws_predict(&p, 1, 1, 32, &div), 16);
    assert_int_equal(div, 1);
    p = params(OAWS_OFF, 50);
    assert_int_equal(oaws_predict(&p, 1, 1, 32, &div), 0);
}

/* (The DLC, C model and RTL: tests/sched/test_dlc.c.) */

/* ---- OCW / CNT (§4.3.1, Fig. 7; #13, #14): the rule the core implements
 * (sched_oaws_ocw_step, cosim/sched_if.h; the same sequences run on the
 * core's C model and RTL in tests/sched/test_sched_oaws.c) ---- */

typedef struct { uint8_t ocw, cnt; } ocw_state;

static void ocw_events(ocw_state *o, unsigned n, unsigned event, unsigned half)
{
    for (unsigned i = 0; i < n; i++)
        sched_oaws_ocw_step(&o->ocw, &o->cnt, event, half, 2, 48, 255, 128);
}

static void test_ocw(void **state)
{
    (void)state;
    ocw_state o = { 0, 0 };
    ocw_events(&o, 1, 3, 0);                   /* load: (2, 128) */
    assert_int_equal(o.ocw, 2);
    assert_int_equal(o.cnt, 128);
    ocw_events(&o, 126, 1, 0);
    assert_int_equal(o.ocw, 2);
    assert_int_equal(o.cnt, 254);
    ocw_events(&o, 1, 1, 0);                   /* 127th: CNT reaches 255 */
    assert_int_equal(o.ocw, 3);
    assert_int_equal(o.cnt, 0);
    ocw_events(&o, 255, 1, 0);
    assert_int_equal(o.ocw, 4);
    assert_int_equal(o.cnt, 0);
    /* from (3, 0): one partially cached load with Δ 1 -> (2, 255); one fully -> (3, 0) */
    o = (ocw_state){ 3, 0 };
    ocw_events(&o, 1, 2, 0);
    assert_int_equal(o.ocw, 2);
    assert_int_equal(o.cnt, 255);
    ocw_events(&o, 1, 1, 0);
    assert_int_equal(o.ocw, 3);
    assert_int_equal(o.cnt, 0);
    /* from (5, 255), Δ = CNT/2 (at least 1): 128, 64, ..., 1, then 0 -> (4, 255) */
    o = (ocw_state){ 5, 255 };
    static const unsigned cnt_after[8] = { 128, 64, 32, 16, 8, 4, 2, 1 };
    for (unsigned i = 0; i < 8; i++) {
        ocw_events(&o, 1, 2, 1);
        assert_int_equal(o.cnt, cnt_after[i]);
        assert_int_equal(o.ocw, 5);
    }
    ocw_events(&o, 1, 2, 1);
    assert_int_equal(o.ocw, 4);
    assert_int_equal(o.cnt, 255);
    /* from (5, 255) with Δ 1: 254 events -> (5, 1), the 255th -> (4, 255) */
    o = (ocw_state){ 5, 255 };
    ocw_events(&o, 254, 2, 0);
    assert_int_equal(o.ocw, 5);
    assert_int_equal(o.cnt, 1);
    ocw_events(&o, 1, 2, 0);
    assert_int_equal(o.ocw, 4);
    assert_int_equal(o.cnt, 255);
    /* corner cases (D): CNT stays at its end when OCW is at its bound */
    o = (ocw_state){ 2, 0 };
    ocw_events(&o, 1, 2, 0);
    assert_int_equal(o.ocw, 2);
    assert_int_equal(o.cnt, 0);
    o = (ocw_state){ 2, 1 };
    ocw_events(&o, 1, 2, 0);
    assert_int_equal(o.ocw, 2);
    assert_int_equal(o.cnt, 0);
    o = (ocw_state){ 48, 255 };
    ocw_events(&o, 1, 1, 0);
    assert_int_equal(o.ocw, 48);
    assert_int_equal(o.cnt, 255);
    /* the event the timing model reports: fully cached -> 1; partially
     * cached -> 2, with Δ CNT/2 for an associativity-sensitive load under
     * sched.oaws_delta=auto, always with half, never with one */
    oaws_params p = params(OAWS_DYNAMIC, 50);
    uint8_t half = 9;
    assert_int_equal(oaws_ocw_event(&p, 1, 1, &half), 1);
    assert_int_equal(half, 0);
    assert_int_equal(oaws_ocw_event(&p, 0, 1, &half), 2);
    assert_int_equal(half, 1);
    assert_int_equal(oaws_ocw_event(&p, 0, 0, &half), 2);
    assert_int_equal(half, 0);
    p.delta = OAWS_DELTA_ONE;
    assert_int_equal(oaws_ocw_event(&p, 0, 1, &half), 2);
    assert_int_equal(half, 0);
    p.delta = OAWS_DELTA_HALF;
    assert_int_equal(oaws_ocw_event(&p, 0, 0, &half), 2);
    assert_int_equal(half, 1);
}

/* ---- a synthetic kernel: OAWS removes the MSHR replays (D.4 D32) ---- */

/* d32(a): 2 warps; each loops 4 times over one global load whose 32 lanes
 * read 32 distinct lines (4 KiB apart, never reused): every occurrence
 * needs 32 MSHRs, all fermi-gtx480 has. The loaded value is not used. */
static void ptx_d32(sbuf *b)
{
    header(b, "d32", ".param .u64 a");
    put(b, "ld.param.u64 %%rd1, [a];\nmov.u32 %%r1, %%tid.x;\n");
    put(b, "mul.wide.u32 %%rd2, %%r1, 4096;\nadd.s64 %%rd3, %%rd1, %%rd2;\nmov.u32 %%r2, 0;\n");
    put(b, "LOOP:\nld.global.f32 %%f1, [%%rd3];\nadd.s64 %%rd3, %%rd3, 262144;\n");
    put(b, "add.u32 %%r2, %%r2, 1;\nsetp.lt.u32 %%p1, %%r2, 4;\n@%%p1 bra LOOP;\nret;\n}\n");
}

static void run_d32(const char *be, const char *set, timing_stats *s)
{
    backend = be;
    rig r = { 0 };
    rig_open(&r, "fermi-gtx480", set, NULL);
    ptx_d32(&r.ptx);
    rig_load(&r, "d32");
    uint64_t a;
    assert_int_equal(smc_malloc(r.dev, 4 * 64 * 4096, SMC_MEM_DEVICE, &a), SMC_OK);
    *s = *launch(&r, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 64, 1, 1 }, &a, 8);
    s->mem_json = NULL;                         /* owned by the device */
    assert_int_equal(s->status, SMC_OK);
    rig_close(&r);
    backend = "c";
}

static void test_d32(void **state)
{
    (void)state;
    static const char *const backends[] = { "c", "rtl", "lockstep" };
    for (unsigned k = 0; k < 3; k++) {
        timing_stats gto, s100, s50, dyn;
        run_d32(backends[k], "sched.policy=gto", &gto);
        /* GTO: the second warp's load finds no MSHR and replays */
        assert_true(gto.mem.stall_mshr > 0);
        assert_int_equal(gto.slots[TS_OCCLUDED], 0);
        assert_int_equal(gto.oaws.on, 0);
        run_d32(backends[k], "sched.policy=gto;sched.oaws=static;sched.oaws_smr=100", &s100);
        /* SMR 100 %: a load known divergent waits until all 32 MSHRs are
         * free, so it is never replayed; it waited (occluded) instead */
        assert_int_equal(s100.oaws.on, 1);
        assert_true(s100.slots[TS_OCCLUDED] > 0);
        assert_true(s100.oaws.pred_div_loads > 0);
        assert_int_equal(s100.oaws.pred_div_replay_mshr, 0);
        assert_int_equal(s100.oaws.pred_div_min_avail, 32);
        assert_int_equal(s100.oaws.eff_issued, s100.oaws.eff_retired);
        assert_int_equal(s100.oaws.div_loads, 8);   /* 2 warps x 4 */
        assert_int_equal(s100.oaws.div_fully_cached, 0);
        assert_true(s100.mem.stall_mshr < gto.mem.stall_mshr);
        run_d32(backends[k], "sched.policy=gto;sched.oaws=static;sched.oaws_smr=50", &s50);
        assert_true(s50.oaws.pred_div_loads > 0);
        assert_true(s50.oaws.pred_div_min_avail >= 16);
        assert_int_equal(s50.oaws.eff_issued, s50.oaws.eff_retired);
        run_d32(backends[k], "sched.policy=gto;sched.oaws=dynamic", &dyn);
        assert_int_equal(dyn.oaws.on, 2);
        assert_int_equal(dyn.oaws.eff_issued, dyn.oaws.eff_retired);
        /* 8 partially cached divergent loads: OCW stays at its floor, 2 */
        assert_int_equal(dyn.oaws.ocw_events, 8);
        assert_int_equal(dyn.oaws.ocw_min, 2);
        assert_int_equal(dyn.oaws.ocw_max, 2);
        assert_int_equal(dyn.oaws.dlc_max, 1);
        if (k > 0) {   /* the back ends agree cycle for cycle */
            timing_stats c100;
            run_d32("c", "sched.policy=gto;sched.oaws=static;sched.oaws_smr=100", &c100);
            assert_int_equal(c100.cycles, s100.cycles);
            assert_int_equal(c100.slots[TS_OCCLUDED], s100.slots[TS_OCCLUDED]);
        }
    }
}

/* --policy oaws-static:0 is GTO: same cycles and slots (§5.4). */
static void test_smr0_is_gto(void **state)
{
    (void)state;
    timing_stats gto, s0;
    run_d32("c", "sched.policy=gto", &gto);
    run_d32("c", "sched.policy=gto;sched.oaws=static;sched.oaws_smr=0", &s0);
    assert_int_equal(gto.cycles, s0.cycles);
    assert_memory_equal(gto.slots, s0.slots, sizeof gto.slots);
    assert_int_equal(gto.mem.stall_mshr, s0.mem.stall_mshr);
    assert_int_equal(s0.slots[TS_OCCLUDED], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predict),
        cmocka_unit_test(test_ocw),
        cmocka_unit_test(test_d32),
        cmocka_unit_test(test_smr0_is_gto),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
