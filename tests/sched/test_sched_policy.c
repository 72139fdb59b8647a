/*
 * test_sched_policy.c -- hand-made scenarios for the scheduler core.
 *
 * Every expectation below was worked out by hand from the interface contract
 * (docs/sched-interface.md), not taken from a run. The same source is built
 * twice: against the C model (also in the ASan/UBSan pass) and, with
 * SCHED_TEST_RTL, against the Verilated RTL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sched_if.h"

typedef struct env {
    sched_backend *b;
    sched_inputs   in;       /* levels persist between steps; events are cleared */
} env;

static sched_backend *make(const sched_params *p)
{
    char err[512] = "";
#ifdef SCHED_TEST_RTL
    sched_backend *b = sched_rtl_create(p, NULL, err, sizeof err);
#else
    sched_backend *b = sched_cmodel_create(p, err, sizeof err);
#endif
    if (!b) fail_msg("create: %s", err);
    return b;
}

static void env_init(env *e, const sched_params *p, unsigned policy, uint64_t warps)
{
    e->b = make(p);
    memset(&e->in, 0, sizeof e->in);
    e->in.policy = (uint8_t)policy;
    e->in.launch = warps;
}

/* One rising edge, then clear the one-cycle events. */
static const sched_outputs *step(env *e)
{
    assert_int_equal(sched_step(e->b, &e->in), 0);
    e->in.launch = e->in.finish = 0;
    memset(e->in.push, 0, sizeof e->in.push);
    memset(e->in.wb, 0, sizeof e->in.wb);
    return sched_get_outputs(e->b);
}

static const sched_outputs *out(env *e) { return sched_get_outputs(e->b); }

static void push(env *e, unsigned warp, uint32_t pc, int dst, int src0, int long_lat)
{
    unsigned s = warp % e->b->params.num_schedulers;
    sched_push *p = &e->in.push[s];
    assert_int_equal(p->valid, 0);
    p->valid = 1;
    p->warp = (uint8_t)warp;
    p->instr.pc = pc;
    p->instr.op = long_lat ? SCHED_OP_LDST : SCHED_OP_SP;
    p->instr.dst_valid = dst >= 0;
    p->instr.dst = dst >= 0 ? (uint8_t)dst : 0;
    p->instr.src_valid = src0 >= 0 ? 1 : 0;
    p->instr.src[0] = src0 >= 0 ? (uint8_t)src0 : 0;
    p->instr.long_lat = (uint8_t)long_lat;
}

static void all_units(env *e, uint8_t mask)
{
    for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++) e->in.unit_avail[s] = s < e->b->params.num_schedulers ? mask : 0;
}

/* Issue sequence of scheduler s over n cycles, -1 for no issue. */
static void issue_seq(env *e, unsigned s, int *seq, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const sched_issue *is = &out(e)->issue[s];
        seq[i] = is->valid ? is->warp : -1;
        step(e);
    }
}

/* Launch warps 0,4,8,12 (scheduler 0 of 4) and fill each buffer with two
 * independent instructions while no unit is available. */
static void fill_sched0(env *e, unsigned policy)
{
    sched_params p;
    sched_params_default(&p);
    env_init(e, &p, policy, 0x1111);
    step(e);                                  /* launch */
    static const unsigned order[] = { 0, 4, 8, 12 };
    for (unsigned k = 0; k < 8; k++) {
        unsigned w = order[k % 4];
        push(e, w, 0x100 * w + 8 * (k / 4), -1, -1, 0);
        step(e);
    }
    for (unsigned k = 0; k < 4; k++) assert_int_equal(out(e)->issue[0].valid, 0);
    all_units(e, 0xF);
    step(e);                                  /* units seen from the next cycle */
}

static void test_lrr_rotates(void **state)
{
    (void)state;
    env e;
    fill_sched0(&e, SCHED_POLICY_LRR);
    int seq[9];
    issue_seq(&e, 0, seq, 9);
    const int want[9] = { 0, 4, 8, 12, 0, 4, 8, 12, -1 };
    assert_memory_equal(seq, want, sizeof want);
    assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_NO_INSTR);
    sched_destroy(e.b);
}

static void test_gto_greedy_then_oldest(void **state)
{
    (void)state;
    env e;
    fill_sched0(&e, SCHED_POLICY_GTO);
    int seq[9];
    issue_seq(&e, 0, seq, 9);
    /* reset leaves "last issued" at the last warp (12), not ready -> oldest */
    const int want[9] = { 0, 0, 4, 4, 8, 8, 12, 12, -1 };
    assert_memory_equal(seq, want, sizeof want);
    sched_destroy(e.b);
}

/* GTO leaves a warp when it stalls and returns to the oldest ready one. */
static void test_gto_returns_to_oldest(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, SCHED_POLICY_GTO, 0x11);          /* warps 0 and 4 */
    step(&e);
    push(&e, 0, 0x0, 1, -1, 0);  step(&e);             /* w0: r1 = ...   */
    push(&e, 4, 0x40, -1, -1, 0); step(&e);            /* w4: independent */
    push(&e, 0, 0x8, 2, 1, 0);   step(&e);             /* w0: r2 = f(r1) */
    push(&e, 4, 0x48, -1, -1, 0); step(&e);
    all_units(&e, 0xF);
    step(&e);
    int seq[5];
    /* cycle 0: w0 issues r1; 1: w0 stalls (RAW on r1) -> oldest ready w4;
     * 2: greedy on w4; a writeback of r1 is given in cycle 2, so w0 is ready
     * in cycle 3 (w4 is empty by then). */
    for (unsigned i = 0; i < 5; i++) {
        const sched_issue *is = &out(&e)->issue[0];
        seq[i] = is->valid ? is->warp : -1;
        if (i == 1) assert_int_equal(out(&e)->issue[0].pc, 0x40);
        if (i == 2) {
            e.in.wb[0].valid = 1;
            e.in.wb[0].warp = 0;
            e.in.wb[0].reg = 1;
        }
        step(&e);
    }
    const int want[5] = { 0, 4, 4, 0, -1 };
    assert_memory_equal(seq, want, sizeof want);
    sched_destroy(e.b);
}

/* Two-level: pool of one warp per scheduler; a long-latency stall swaps it. */
static void run_two_level(unsigned policy, int *seq, uint8_t *reason, unsigned n)
{
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, policy, 0x1111);
    e.in.pool_size = 1;
    step(&e);
    push(&e, 0, 0x0, 1, -1, 1);   step(&e);            /* w0: ld.global r1 */
    push(&e, 4, 0x40, -1, -1, 0); step(&e);
    push(&e, 0, 0x8, 2, 1, 0);    step(&e);            /* w0: use r1 */
    push(&e, 4, 0x48, -1, -1, 0); step(&e);
    push(&e, 8, 0x80, -1, -1, 0); step(&e);
    all_units(&e, 0xF);
    step(&e);
    for (unsigned i = 0; i < n; i++) {
        const sched_issue *is = &out(&e)->issue[0];
        seq[i] = is->valid ? is->warp : -1;
        reason[i] = out(&e)->stall_reason[0];
        if (i == 1) assert_true(out(&e)->long_pending & 1);
        step(&e);
    }
    sched_destroy(e.b);
}

static void test_two_level_swaps_pools(void **state)
{
    (void)state;
    int seq[6];
    uint8_t reason[6];
    run_two_level(SCHED_POLICY_TWO_LEVEL, seq, reason, 6);
    /* w0 (the only active warp) issues its load; next cycle it waits on the
     * load (long-latency dependence) and leaves the pool; w4 (oldest pending)
     * enters and issues twice; then w4 is empty and w0, w8 are outside the
     * pool: the reason is the warp limit. */
    const int want[6] = { 0, -1, 4, 4, -1, -1 };
    assert_memory_equal(seq, want, sizeof want);
    assert_int_equal(reason[1], SCHED_REASON_LONG_DEP);
    assert_int_equal(reason[4], SCHED_REASON_WARP_LIMIT);
    /* control: plain LRR with the same input goes on to w4 at once */
    run_two_level(SCHED_POLICY_LRR, seq, reason, 6);
    const int want_lrr[6] = { 0, 4, 8, 4, -1, -1 };
    assert_memory_equal(seq, want_lrr, sizeof want_lrr);
    assert_int_equal(reason[4], SCHED_REASON_LONG_DEP);
}

/* Grouped policy (docs/sched-interface.md, "Grouped"): warps 0, 4, 8, 12 of
 * scheduler 0 (local 0..3) in groups 1, 0, 1, 0; `n0` instructions in the
 * group-0 warps, two in the group-1 warps; after cycle 2, one more
 * instruction into warp 4 when `late` is set. */
static void run_grouped(unsigned prio, unsigned n0, int late, int *seq, unsigned n)
{
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, SCHED_POLICY_GROUPED, 0x1111);
    e.in.group_prio = (uint8_t)prio;
    e.in.launch_group[0] = 1;
    e.in.launch_group[4] = 0;
    e.in.launch_group[8] = 1;
    e.in.launch_group[12] = 0;
    step(&e);                                   /* launch */
    memset(e.in.launch_group, 0, sizeof e.in.launch_group);
    static const unsigned order[] = { 0, 4, 8, 12 };
    for (unsigned k = 0; k < 8; k++) {
        unsigned w = order[k % 4];
        if (w % 8 == 4 && k / 4 >= n0) continue;   /* group-0 warps get n0 */
        push(&e, w, 0x100 * w + 8 * (k / 4), -1, -1, 0);
        step(&e);
    }
    all_units(&e, 0xF);
    step(&e);
    for (unsigned i = 0; i < n; i++) {
        const sched_issue *is = &out(&e)->issue[0];
        seq[i] = is->valid ? is->warp : -1;
        if (late && i == 2) push(&e, 4, 0x4F0, -1, -1, 0);
        step(&e);
    }
    sched_destroy(e.b);
}

static void test_grouped_round_robin_in_group(void **state)
{
    (void)state;
    int seq[9];
    /* The active group is 0 after reset: {4, 12} issue round-robin from
     * after the last warp (local 3 = w12 after reset) until both are empty,
     * then the scheduler switches to the next group with a ready warp (1:
     * w0, w8), LRR from after w12. */
    run_grouped(0, 2, 0, seq, 9);
    const int want[9] = { 4, 12, 4, 12, 0, 8, 0, 8, -1 };
    assert_memory_equal(seq, want, sizeof want);
    /* OWL priority gives the same here: group 0 never becomes ready again */
    run_grouped(1, 2, 0, seq, 9);
    assert_memory_equal(seq, want, sizeof want);
}

static void test_grouped_switch_sticks_owl_returns(void **state)
{
    (void)state;
    int seq[8];
    /* One instruction in w4 and w12: 4, 12, then group 1 (w0); w4 gets an
     * instruction for cycle 3. Thesis rule (prio 0): the switch to group 1
     * sticks until group 1 has no ready warp (8, 0, 8), then back to w4. */
    run_grouped(0, 1, 1, seq, 8);
    const int want0[8] = { 4, 12, 0, 8, 0, 8, 4, -1 };
    assert_memory_equal(seq, want0, sizeof want0);
    /* OWL (prio 1): group 0 keeps the priority while it has alive warps, so
     * w4 issues as soon as it is ready; then group 1 from after w4. */
    run_grouped(1, 1, 1, seq, 8);
    const int want1[8] = { 4, 12, 0, 4, 8, 0, 8, -1 };
    assert_memory_equal(seq, want1, sizeof want1);
}

static void test_swl_limits_issuing_set(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, SCHED_POLICY_LRR, 0xFF);           /* warps 0..7 */
    e.in.warp_limit = 2;
    step(&e);
    for (unsigned w = 0; w < 8; w++) {
        push(&e, w, 0x100 * w, -1, -1, 0);
        if (w % 4 == 3) step(&e);              /* one push per port per cycle */
    }
    all_units(&e, 0xF);
    step(&e);
    /* only the first two alive warps (0 and 1) may issue */
    const sched_outputs *o = out(&e);
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 0);
    assert_int_equal(o->issue[1].valid, 1);
    assert_int_equal(o->issue[1].warp, 1);
    assert_int_equal(o->issue[2].valid, 0);
    assert_int_equal(o->stall_reason[2], SCHED_REASON_WARP_LIMIT);
    assert_int_equal(o->issue[3].valid, 0);
    assert_int_equal(o->stall_reason[3], SCHED_REASON_WARP_LIMIT);
    e.in.finish = 1;                                    /* warp 0 finishes */
    step(&e);
    /* now warps 1 and 2 are the first two: 1 is empty, 2 issues */
    o = out(&e);
    assert_int_equal(o->issue[2].valid, 1);
    assert_int_equal(o->issue[2].warp, 2);
    assert_int_equal(o->issue[3].valid, 0);
    assert_int_equal(o->stall_reason[0], SCHED_REASON_WARP_LIMIT);  /* warp 4 */
    sched_destroy(e.b);
}

static void test_raw_blocks_until_writeback(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    for (int long_lat = 0; long_lat <= 1; long_lat++) {
        env e;
        env_init(&e, &p, SCHED_POLICY_LRR, 0x1);
        all_units(&e, 0xF);
        step(&e);
        push(&e, 0, 0x0, 5, -1, long_lat);             /* r5 = ... */
        step(&e);
        push(&e, 0, 0x8, 6, 5, 0);                     /* push -> issue: 1 cycle */
        assert_int_equal(out(&e)->issue[0].valid, 1);  /* the first one issues */
        assert_int_equal(out(&e)->issue[0].long_lat, long_lat);
        step(&e);
        for (unsigned i = 0; i < 3; i++) {             /* RAW on r5 */
            assert_int_equal(out(&e)->issue[0].valid, 0);
            assert_int_equal(out(&e)->stall_reason[0],
                             long_lat ? SCHED_REASON_LONG_DEP : SCHED_REASON_SCOREBOARD);
            assert_int_equal(out(&e)->long_pending, (uint64_t)long_lat);
            if (i == 2) {
                e.in.wb[0].valid = 1;
                e.in.wb[0].warp = 0;
                e.in.wb[0].reg = 5;
            }
            step(&e);
        }
        assert_int_equal(out(&e)->issue[0].valid, 1); /* writeback -> ready: 1 cycle */
        assert_int_equal(out(&e)->issue[0].pc, 0x8);
        assert_int_equal(out(&e)->long_pending, 0);
        sched_destroy(e.b);
    }
}

/* Counters: one reason per scheduler per cycle; checked against our own count. */
static void test_counters_and_scoreboard_full(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, SCHED_POLICY_GTO, 0x1);
    all_units(&e, 0xF);
    uint32_t issued = 0, cycles = 0, sb = 0;
    int pushed = 0;
    for (unsigned c = 0; c < 12; c++) {
        const sched_outputs *o = out(&e);
        if (o->issue[0].valid) issued++;
        if (c == 9) assert_int_equal(o->stall_reason[0], SCHED_REASON_SCOREBOARD);
        if (o->stall_reason[0] == SCHED_REASON_SCOREBOARD) sb++;
        if (o->fetch_valid[0]) {
            assert_int_equal(o->fetch_warp[0], 0);
            push(&e, 0, 8u * (unsigned)pushed, pushed + 10, -1, 0);   /* distinct dsts */
            pushed++;
        }
        step(&e);
        cycles++;
    }
    /* cycle 0: launch; 1: first push; issues in cycles 2..7 fill the 6
     * scoreboard entries; from cycle 8 the 7th instruction waits (full). */
    uint32_t n[SCHED_NUM_REASONS];
    sched_counters(e.b, 0, n);
    assert_int_equal(issued, 6);
    assert_int_equal(n[SCHED_REASON_ISSUE], issued);
    assert_int_equal(n[SCHED_REASON_SCOREBOARD], sb);
    assert_int_equal(sb, 4);
    uint32_t total = 0;
    for (unsigned r = 0; r < SCHED_NUM_REASONS; r++) total += n[r];
    assert_int_equal(total, cycles);
    sched_destroy(e.b);
}

/* A warp waiting at a barrier gets no fetch request: the front end cannot
 * supply its next instruction before the release, and a request would take
 * the fetch slot of a warp that can issue (found by GPUDIAG's throughput
 * test under GTO, which issued every other cycle). Warps 0 and 4 share
 * scheduler 0; with 0 at a barrier every request is 4's, after the release
 * the round robin alternates again. */
static void test_fetch_skips_barrier_warps(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, SCHED_POLICY_GTO, 0x11);
    all_units(&e, 0xF);
    step(&e);                                 /* launch */
    e.in.barrier = 0x1;
    step(&e);                                 /* the barrier level is sampled */
    for (unsigned c = 0; c < 6; c++) {
        assert_int_equal(out(&e)->fetch_valid[0], 1);
        assert_int_equal(out(&e)->fetch_warp[0], 4);
        step(&e);
    }
    e.in.barrier = 0;
    step(&e);
    unsigned seen = 0;
    for (unsigned c = 0; c < 4; c++) {
        assert_int_equal(out(&e)->fetch_valid[0], 1);
        seen |= 1u << out(&e)->fetch_warp[0];
        step(&e);
    }
    assert_int_equal(seen, 0x11);
    sched_destroy(e.b);
}

static void test_warp_split_among_schedulers(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, SCHED_POLICY_LRR, 0xFF);
    all_units(&e, 0xF);
    step(&e);
    for (unsigned w = 0; w < 4; w++) push(&e, w + 4, 0x10 * w, -1, -1, 0);   /* warps 4..7 */
    step(&e);
    for (unsigned s = 0; s < 4; s++) {
        assert_int_equal(out(&e)->issue[s].valid, 1);
        assert_int_equal(out(&e)->issue[s].warp, s + 4);
        assert_int_equal(out(&e)->issue[s].pc, 0x10 * s);
    }
    /* a push through the port of another scheduler is rejected */
    e.in.push[1].valid = 1;
    e.in.push[1].warp = 6;
    assert_int_equal(sched_step(e.b, &e.in), -1);
    assert_non_null(strstr(sched_error(e.b), "push[1].warp=6"));
    sched_destroy(e.b);
}

static void test_bad_inputs_and_params(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    env e;
    env_init(&e, &p, 4, 0);
    assert_int_equal(sched_step(e.b, &e.in), -1);
    assert_non_null(strstr(sched_error(e.b), "policy=4"));
    e.in.policy = 0;
    e.in.wb[0].valid = 1;
    e.in.wb[0].warp = 64;
    assert_int_equal(sched_step(e.b, &e.in), -1);
    assert_non_null(strstr(sched_error(e.b), "wb[0].warp=64"));
    sched_destroy(e.b);

    char err[256];
    p.num_warps = 30;
    p.num_schedulers = 4;
    assert_null(sched_cmodel_create(&p, err, sizeof err));
    assert_non_null(strstr(err, "num_warps=30"));
#ifdef SCHED_TEST_RTL
    sched_params_default(&p);
    p.sb_entries = 5;                       /* valid, but not a built model */
    assert_null(sched_rtl_create(&p, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no Verilated sched_core"));
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr_rotates),
        cmocka_unit_test(test_gto_greedy_then_oldest),
        cmocka_unit_test(test_gto_returns_to_oldest),
        cmocka_unit_test(test_two_level_swaps_pools),
        cmocka_unit_test(test_grouped_round_robin_in_group),
        cmocka_unit_test(test_grouped_switch_sticks_owl_returns),
        cmocka_unit_test(test_swl_limits_issuing_set),
        cmocka_unit_test(test_raw_blocks_until_writeback),
        cmocka_unit_test(test_counters_and_scoreboard_full),
        cmocka_unit_test(test_fetch_skips_barrier_warps),
        cmocka_unit_test(test_warp_split_among_schedulers),
        cmocka_unit_test(test_bad_inputs_and_params),
    };
#ifdef SCHED_TEST_RTL
    return cmocka_run_group_tests_name("sched_policy_rtl", tests, NULL, NULL);
#else
    return cmocka_run_group_tests_name("sched_policy_cmodel", tests, NULL, NULL);
#endif
}
