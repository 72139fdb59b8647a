/*
 * test_sched_peers.c -- hand-made scenarios for OAWS's peers in the
 * scheduler core: CCWS (rtl/sched_ccws.sv) and MASCAR (rtl/sched_mascar.sv)
 * (docs/oaws.md, "Peers"; seed 001 §5, Table 3).
 *
 * Every expectation was worked out by hand from the contract
 * (docs/sched-interface.md, docs/oaws.md), not taken from a run. Built twice:
 * against the C model (also in the ASan/UBSan pass) and, with
 * SCHED_TEST_RTL, against the Verilated RTL. Fermi parameters
 * 48/2/6/3/4/2/8/8 (a Verilated set): warp w belongs to scheduler w % 2.
 * "After edge n" = the outputs once n sched_step() calls have been made.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sched_scenario.h"

/* Peer `peer` (1 CCWS, 2 MASCAR) on GTO. */
static void env_init(env *e, unsigned peer, uint64_t warps)
{
    env_open(e, warps);
    e->in.peer = (uint8_t)peer;
    /* Table 3: base score 100, K_THROTTLE 8 -> a VTA hit adds 800 */
    e->in.ccws_base = 100;
    e->in.ccws_bump = 800;
}

/* Push one instruction into warp w at the next edge: op class, long-latency
 * flag (a global/local load), destination (or -1) and first source (or -1). */
static void push(env *e, unsigned w, unsigned op, unsigned long_lat, int dst, int src)
{
    sched_push *p = push_op(e, w, op);
    p->instr.long_lat = (uint8_t)long_lat;
    if (dst >= 0) {
        p->instr.dst_valid = 1;
        p->instr.dst = (uint8_t)dst;
    }
    if (src >= 0) {
        p->instr.src_valid = 1;
        p->instr.src[0] = (uint8_t)src;
    }
}

/* CCWS: warps 0, 2, 4, 6 (scheduler 0) alive: cutoff 4 x 100 = 400. A VTA
 * hit of warp 4 at edge 2 makes its excess 800; after edge n >= 2 it is
 * 800 - (n - 2). A warp is held when the excess of the warps stacked ahead
 * of it is >= (alive - ahead) x base (rtl/sched_ccws.sv).
 *
 * The verdicts are registered, one warp per scheduler per edge (decision
 * P11): at edge e scheduler 0's lane judges warp 2 x ((e - 1) mod 24) on the
 * scores after edge e - 1, so warp 0 is judged at edges 1 + 24j, warp 2 at
 * 2 + 24j, warp 4 at 3 + 24j, warp 6 at 4 + 24j; the excess warp 4 shows
 * at edge e is then 803 - e.
 *   warp 0 (warp 4 ahead): held while 803 - e >= 300, e <= 503: held from
 *     edge 25, free at edge 505 (judged at 481 with 322, at 505 with 298);
 *   warp 2 (4 and 0 ahead): held while >= 200, e <= 603: from 26, free at
 *     626 (602: 201);
 *   warp 4: nothing ahead, never held;
 *   warp 6 (4, 0, 2 ahead): held while >= 100, e <= 703: from 4 (the first
 *     judging after the hit: 799), free at 724 (700: 103). */
static void test_ccws_scores(void **state)
{
    (void)state;
    env e;
    env_init(&e, 1, 0x55);
    const sched_outputs *o = step(&e);                  /* edge 1: launch */
    assert_int_equal(o->ccws_hold, 0);
    e.in.vta_valid = 1;
    e.in.vta_warp = 4;
    o = step(&e);                                       /* edge 2: the hit */
    assert_int_equal(o->ccws_hold, 0);                  /* not judged yet */
    o = step_to(&e, 3);
    assert_int_equal(o->ccws_hold, 0);                  /* warp 4: nothing ahead */
    o = step_to(&e, 4);
    assert_int_equal(o->ccws_hold, 0x40);               /* warp 6 */
    o = step_to(&e, 24);
    assert_int_equal(o->ccws_hold, 0x40);
    o = step_to(&e, 25);
    assert_int_equal(o->ccws_hold, 0x41);               /* warps 0, 6 */
    o = step_to(&e, 26);
    assert_int_equal(o->ccws_hold, 0x45);               /* warps 0, 2, 6 */
    o = step_to(&e, 28);
    assert_int_equal(o->ccws_hold, 0x45);
    /* a held warp's load waits (a warp limit); a store of a held warp and
     * a load of the high-score warp issue */
    push(&e, 0, SCHED_OP_LDST, 1, -1, -1);
    o = step(&e);                                       /* edge 29 */
    assert_int_equal(o->issue[0].valid, 0);
    assert_int_equal(o->stall_reason[0], SCHED_REASON_WARP_LIMIT);
    push(&e, 2, SCHED_OP_LDST, 0, -1, -1);
    o = step(&e);                                       /* edge 30 */
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 2);
    push(&e, 4, SCHED_OP_LDST, 1, -1, -1);
    o = step(&e);                                       /* edge 31 */
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 4);
    o = step(&e);                                       /* edge 32 */
    assert_int_equal(o->issue[0].valid, 0);
    assert_int_equal(o->stall_reason[0], SCHED_REASON_WARP_LIMIT);
    /* the decay, at the cutoff */
    o = step_to(&e, 504);
    assert_int_equal(o->ccws_hold, 0x45);
    assert_int_equal(o->issue[0].valid, 0);
    o = step_to(&e, 505);
    assert_int_equal(o->ccws_hold, 0x44);
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 0);
    o = step_to(&e, 625);
    assert_int_equal(o->ccws_hold, 0x44);
    o = step_to(&e, 626);
    assert_int_equal(o->ccws_hold, 0x40);
    o = step_to(&e, 723);
    assert_int_equal(o->ccws_hold, 0x40);
    o = step_to(&e, 724);
    assert_int_equal(o->ccws_hold, 0);
    /* a second hit while the score is still up adds to it: two hits of warp
     * 6 at edges 725 and 726 -> ex6 = 800, then 799 + 800 = 1599; judged
     * at edge e it shows 2326 - e. Warps 0, 2, 4 are next judged at 745,
     * 746, 747 (6 ahead of all three). */
    e.in.vta_valid = 1;
    e.in.vta_warp = 6;
    step(&e);                                           /* edge 725 */
    e.in.vta_valid = 1;
    e.in.vta_warp = 6;
    step(&e);                                           /* edge 726: ex6 1599 */
    o = step_to(&e, 744);
    assert_int_equal(o->ccws_hold, 0);
    o = step_to(&e, 747);
    assert_int_equal(o->ccws_hold, 0x15);               /* warps 0, 2, 4 */
    /* warp 0 is free once 2326 - e < 300 at a judging edge: 2017 shows 309,
     * 2041 shows 285 */
    o = step_to(&e, 2040);
    assert_int_equal(o->ccws_hold & 1, 1);
    o = step_to(&e, 2041);
    assert_int_equal(o->ccws_hold, 0x14);               /* warps 2, 4 */
    /* finish of warp 6 at edge 2042 clears its score; warp 2, judged at
     * that edge on the scores before it (6 and 0 ahead: 284 >= 200), stays
     * held until its next judging at 2066; warp 4, judged at 2043 with every
     * score back at base, is free. */
    e.in.finish = 0x40;
    o = step(&e);                                       /* edge 2042 */
    assert_int_equal(o->ccws_hold, 0x14);
    o = step(&e);                                       /* edge 2043 */
    assert_int_equal(o->ccws_hold, 0x04);
    o = step_to(&e, 2065);
    assert_int_equal(o->ccws_hold, 0x04);
    o = step_to(&e, 2066);
    assert_int_equal(o->ccws_hold, 0);
    sched_destroy(e.b);
}

/* CCWS off (peer 0 or 2): hits change no hold. */
static void test_ccws_off(void **state)
{
    (void)state;
    env e;
    env_init(&e, 0, 0x55);
    step(&e);
    e.in.vta_valid = 1;
    e.in.vta_warp = 4;
    const sched_outputs *o = step(&e);
    assert_int_equal(o->ccws_hold, 0);
    push(&e, 0, SCHED_OP_LDST, 1, -1, -1);
    o = step(&e);
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 0);
    sched_destroy(e.b);
}

/* MASCAR: warps 0..3 alive (0, 2 on scheduler 0; 1, 3 on scheduler 1). */
static void test_mascar(void **state)
{
    (void)state;
    env e;
    env_init(&e, 2, 0xF);
    e.in.unit_avail[0] = 0;                 /* scheduler 0 issues nothing yet */
    const sched_outputs *o = step(&e);      /* edge 1: launch; peer registered */
    assert_int_equal(o->mascar_owner, 0);   /* chosen at the next edge */
    o = step(&e);                           /* edge 2: the first alive warp owns */
    assert_int_equal(o->mascar_owner, 0x40 | 0);
    /* unsaturated: memory before compute. Warp 0 gets an ALU op, warp 2 a
     * load; GTO alone would take warp 0 (the oldest) */
    push(&e, 0, SCHED_OP_SP, 0, -1, -1);
    step(&e);                               /* edge 3 */
    push(&e, 2, SCHED_OP_LDST, 1, -1, -1);
    step(&e);                               /* edge 4 */
    e.in.unit_avail[0] = 0xF;
    o = step(&e);                           /* edge 5 */
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 2);
    o = step(&e);                           /* edge 6 */
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 0);
    /* saturated from edge 7: only the owner (warp 0) issues LD/ST */
    e.in.mascar_sat = 1;
    o = step(&e);                           /* edge 7 */
    assert_int_equal(o->issue[0].valid, 0);
    push(&e, 2, SCHED_OP_LDST, 1, -1, -1);
    push(&e, 1, SCHED_OP_LDST, 0, -1, -1);
    o = step(&e);                           /* edge 8 */
    assert_int_equal(o->issue[0].valid, 0);
    assert_int_equal(o->stall_reason[0], SCHED_REASON_WARP_LIMIT);
    assert_int_equal(o->issue[1].valid, 0);
    assert_int_equal(o->stall_reason[1], SCHED_REASON_WARP_LIMIT);
    /* the owner's load (writing r5, long) issues ahead of warp 2's */
    push(&e, 0, SCHED_OP_LDST, 1, 5, -1);
    o = step(&e);                           /* edge 9 */
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 0);
    assert_int_equal(o->issue[1].valid, 0);
    /* at edge 10 the load leaves and warp 0's next head reads r5: it waits
     * on a long-latency write, so at edge 11 the owner passes to the first
     * warp after it that does not: warp 1 */
    push(&e, 0, SCHED_OP_SP, 0, -1, 5);
    o = step(&e);                           /* edge 10 */
    assert_int_equal(o->mascar_owner, 0x40 | 0);
    assert_int_equal(o->issue[0].valid, 0);
    assert_int_equal(o->stall_reason[0], SCHED_REASON_LONG_DEP);
    o = step(&e);                           /* edge 11 */
    assert_int_equal(o->mascar_owner, 0x40 | 1);
    assert_int_equal(o->issue[1].valid, 1);
    assert_int_equal(o->issue[1].warp, 1);
    assert_int_equal(o->issue[0].valid, 0);  /* warp 2's load still held */
    /* leaving saturation: warp 2's load issues */
    e.in.mascar_sat = 0;
    o = step(&e);                           /* edge 12 */
    assert_int_equal(o->issue[0].valid, 1);
    assert_int_equal(o->issue[0].warp, 2);
    /* peer 0: no owner */
    e.in.peer = 0;
    step(&e);                               /* edge 13: mode 0 registered */
    o = step(&e);                           /* edge 14 */
    assert_int_equal(o->mascar_owner, 0);
    sched_destroy(e.b);
}

/* Out-of-range peer inputs are rejected with the field's name. */
static void test_input_checks(void **state)
{
    (void)state;
    static const char *const fields[] = { "peer", "ccws_base", "ccws_bump", "vta_valid",
                                          "vta_warp", "mascar_sat" };
    for (unsigned c = 0; c < sizeof fields / sizeof fields[0]; c++) {
        env e;
        env_init(&e, 1, 0x1);
        step(&e);
        sched_inputs bad = e.in;
        switch (c) {
        case 0: bad.peer = 3; break;
        case 1: bad.ccws_base = 1024; break;
        case 2: bad.ccws_bump = 4096; break;
        case 3: bad.vta_valid = 2; break;
        case 4: bad.vta_valid = 1; bad.vta_warp = 64; break;
        default: bad.mascar_sat = 2; break;
        }
        assert_int_equal(sched_step(e.b, &bad), -1);
        if (!strstr(sched_error(e.b), fields[c]))
            fail_msg("error '%s' does not name %s", sched_error(e.b), fields[c]);
        sched_destroy(e.b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccws_scores),
        cmocka_unit_test(test_ccws_off),
        cmocka_unit_test(test_mascar),
        cmocka_unit_test(test_input_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
