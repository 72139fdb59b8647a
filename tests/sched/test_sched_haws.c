/*
 * test_sched_haws.c -- directed HAWS scenarios for the scheduler core:
 * entry, chain fetch, renaming, both exit causes, the return pass (copy,
 * skip, re-exec), the minimum latencies of docs/sched-interface.md ("HAWS
 * latencies"; ../shared/design/haws-locality.md C.4.4 and D.2 #10), and the
 * rejection of inputs that break the HAWS rules (D.1 #6(h)).
 *
 * Every expectation was worked out by hand from the contract, cycle by
 * cycle (the comments give the cycle), not taken from a run. Built against
 * the C model (also in the ASan pass) and, with SCHED_TEST_RTL, against the
 * Verilated RTL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "haws_hint.h"
#include "sched_if.h"

typedef struct env {
    sched_backend *b;
    sched_inputs   in;       /* levels persist between steps; events are cleared */
} env;

/* One scheduler, 4 warps, 2-entry buffers, 6 scoreboard entries, 2
 * writeback ports, a 2-entry RCU and a 1-entry renaming table (a Verilated
 * set, cosim/module.mk). */
static void params(sched_params *p)
{
    sched_params_default(p);
    p->num_warps = 4;
    p->num_schedulers = 1;
    p->ibuf_depth = 2;
    p->sb_entries = 6;
    p->wb_ports = 2;
    p->rcu_depth = 2;
    p->ren_entries = 1;
}

static void env_init(env *e, const sched_params *p, uint64_t warps)
{
    char err[512] = "";
#ifdef SCHED_TEST_RTL
    e->b = sched_rtl_create(p, NULL, err, sizeof err);
#else
    e->b = sched_cmodel_create(p, err, sizeof err);
#endif
    if (!e->b) fail_msg("create: %s", err);
    memset(&e->in, 0, sizeof e->in);
    e->in.policy = SCHED_POLICY_LRR;
    e->in.launch = warps;
    e->in.haws = 1;
    for (unsigned s = 0; s < p->num_schedulers; s++) e->in.unit_avail[s] = 0xF;
}

static const sched_outputs *out(env *e) { return sched_get_outputs(e->b); }

/* One rising edge, then clear the one-cycle events. */
static const sched_outputs *step(env *e)
{
    if (sched_step(e->b, &e->in) != 0) fail_msg("cycle %llu: %s", (unsigned long long)sched_cycle(e->b),
                                                sched_error(e->b));
    e->in.launch = e->in.finish = 0;
    memset(e->in.push, 0, sizeof e->in.push);
    memset(e->in.wb, 0, sizeof e->in.wb);
    memset(e->in.hbr, 0, sizeof e->in.hbr);
    return out(e);
}

/* A push into warp w (scheduler 0): dst < 0 none, src0 < 0 none. */
static void push(env *e, unsigned w, uint32_t pc, int dst, int src0, int long_lat, uint32_t hint,
                 unsigned rcu)
{
    sched_push *p = &e->in.push[w % e->b->params.num_schedulers];
    p->valid = 1;
    p->warp = (uint8_t)w;
    p->rcu = (uint8_t)rcu;
    p->instr.pc = pc;
    p->instr.op = long_lat ? SCHED_OP_LDST : SCHED_OP_SP;
    p->instr.dst_valid = dst >= 0;
    p->instr.dst = dst >= 0 ? (uint8_t)dst : 0;
    p->instr.src_valid = src0 >= 0;
    p->instr.src[0] = src0 >= 0 ? (uint8_t)src0 : 0;
    p->instr.long_lat = (uint8_t)long_lat;
    p->instr.hint = hint;
}

static void wb(env *e, unsigned k, unsigned w, unsigned reg)
{
    e->in.wb[k].valid = 1;
    e->in.wb[k].warp = (uint8_t)w;
    e->in.wb[k].reg = (uint8_t)reg;
}

static void expect_issue(env *e, uint32_t pc, unsigned hinted, unsigned copy)
{
    const sched_issue *is = &out(e)->issue[0];
    assert_int_equal(is->valid, 1);
    assert_int_equal(is->pc, pc);
    assert_int_equal(is->hinted, hinted);
    assert_int_equal(is->copy, copy);
}

/* The prologue of every scenario: warp 0 loads r1 (pc 10, long latency)
 * and then meets the stall point U (pc 11, reads r1) whose entry hint
 * points `first` instructions ahead. Ends at the start of cycle 3, with U
 * the head, blocked on the load. */
static void prologue(env *e, int first)
{
    sched_params p;
    params(&p);
    env_init(e, &p, 0x1);
    step(e);                                                /* c0: launch */
    assert_int_equal(out(e)->fetch_valid[0], 1);            /* c1 */
    push(e, 0, 10, 1, -1, 1, 0, 0);
    step(e);
    expect_issue(e, 10, 0, 0);                              /* c2: the load issues */
    push(e, 0, 11, 2, 1, 0, haws_hint_f1(first, 0, 0), 0);
    step(e);
    assert_int_equal(out(e)->issue[0].valid, 0);            /* c3: U waits on r1 */
    assert_int_equal(out(e)->stall_reason[0], SCHED_REASON_LONG_DEP);
    assert_int_equal(out(e)->haws_mode, 0);
}

/* Entry, a renamed member, chain end, exit (b) with the re-entry block, and
 * the return pass: copy (no unit needed) and skip. */
static void test_chain_exhausted_and_return_pass(void **state)
{
    (void)state;
    env e;
    prologue(&e, 2);
    /* c3: entry at this edge; a push for the warp at the entry edge is dropped */
    push(&e, 0, 12, -1, -1, 0, 0, 0);
    step(&e);
    /* c4: hint mode; entry -> chain fetch request: 1 cycle; buffer emptied */
    assert_int_equal(out(&e)->haws_mode, 1);
    assert_int_equal(out(&e)->issue[0].valid, 0);           /* U was flushed, the push dropped */
    assert_int_equal(out(&e)->fetch_valid[0], 1);
    assert_int_equal(out(&e)->fetch_pc_valid[0], 1);
    assert_int_equal(out(&e)->fetch_pc[0], 13);
    /* member M1 at pc 13: writes r3 renamed to r20, reads r4; next at +3 */
    push(&e, 0, 13, 3, 4, 0, haws_hint_f1(3, 1, 20), 0);
    step(&e);
    /* c5: M1 issues in hint mode, writing r20; chain push -> next request: 1 cycle */
    expect_issue(&e, 13, 1, 0);
    assert_int_equal(out(&e)->issue[0].dst, 20);
    assert_int_equal(out(&e)->fetch_pc_valid[0], 1);
    assert_int_equal(out(&e)->fetch_pc[0], 14);
    /* member M2 at pc 14 reads r3 (mapped to r20), writes r5; end of chain */
    push(&e, 0, 14, 5, 3, 0, haws_hint_f1(0, 0, 5), 0);
    step(&e);
    /* c6: M2 waits on r20 (the renamed write of M1), a short hazard; no
     * chain fetch (cursor 0) and no other fetch for a warp in hint mode */
    assert_int_equal(out(&e)->issue[0].valid, 0);
    assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_SCOREBOARD);
    assert_int_equal(out(&e)->fetch_valid[0], 0);
    assert_int_equal(out(&e)->rcu_busy, 1);                 /* M1's entry */
    wb(&e, 0, 0, 20);
    step(&e);
    expect_issue(&e, 14, 1, 0);                             /* c7 */
    step(&e);
    /* c8: chain exhausted, nothing buffered: exit (b) at this edge */
    assert_int_equal(out(&e)->haws_mode, 1);
    assert_int_equal(out(&e)->issue[0].valid, 0);
    step(&e);
    /* c9: normal mode; the RCU head (M1, renamed) is shown for the fetch */
    assert_int_equal(out(&e)->haws_mode, 0);
    assert_int_equal(out(&e)->fetch_valid[0], 1);
    assert_int_equal(out(&e)->fetch_pc_valid[0], 0);
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_COPY);
    assert_int_equal(out(&e)->fetch_rcu[0].pc, 13);
    assert_int_equal(out(&e)->fetch_rcu[0].ren, 20);
    assert_int_equal(out(&e)->fetch_rcu[0].dst, 3);
    push(&e, 0, 11, 2, 1, 0, haws_hint_f1(2, 0, 0), 0);    /* the stall point again */
    step(&e);
    /* c10: U still waits on r1; no re-entry (blocked, RCU busy) */
    assert_int_equal(out(&e)->issue[0].valid, 0);
    push(&e, 0, 12, -1, -1, 0, 0, 0);
    wb(&e, 0, 0, 1);                                        /* the load returns */
    step(&e);
    assert_int_equal(out(&e)->haws_mode, 0);
    expect_issue(&e, 11, 0, 0);                             /* c11: U issues */
    assert_int_equal(out(&e)->fetch_valid[0], 0);           /* the buffer is full */
    step(&e);
    expect_issue(&e, 12, 0, 0);                             /* c12 */
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_COPY);
    push(&e, 0, 13, 3, 4, 0, haws_hint_f1(3, 1, 20), SCHED_RCU_COPY);
    e.in.unit_avail[0] = 0;                                 /* no unit from c13 on */
    step(&e);
    /* c13: the copy issues without a unit: dst r3 from src r20 */
    expect_issue(&e, 13, 0, 1);
    assert_int_equal(out(&e)->issue[0].dst, 3);
    assert_int_equal(out(&e)->issue[0].long_lat, 0);
    /* the next head: M2, not renamed, a skip */
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_SKIP);
    assert_int_equal(out(&e)->fetch_rcu[0].pc, 14);
    assert_int_equal(out(&e)->fetch_rcu[0].ren, 5);
    assert_int_equal(out(&e)->fetch_rcu[0].dst, 5);
    assert_int_equal(out(&e)->rcu_busy, 1);
    push(&e, 0, 14, 5, 3, 0, 0, SCHED_RCU_SKIP);
    step(&e);
    /* c14: the skip left no buffer entry; the RCU is empty */
    assert_int_equal(out(&e)->issue[0].valid, 0);
    assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_NO_INSTR);
    assert_int_equal(out(&e)->rcu_busy, 0);
    assert_int_equal(out(&e)->fetch_rcu[0].kind, 0);
    sched_destroy(e.b);
}

/* Exit (a): the releasing writeback ends hint mode at its own edge
 * (haws_mode low in the next cycle), the push at that edge is dropped, and
 * the refetched stall point issues 2 cycles after the exit. A member issued
 * at the exit edge keeps its RCU entry. */
static void test_load_returns(void **state)
{
    (void)state;
    env e;
    prologue(&e, 5);
    step(&e);                                               /* c3: entry */
    assert_int_equal(out(&e)->fetch_pc[0], 16);             /* c4 */
    push(&e, 0, 16, 6, -1, 0, haws_hint_f1(1, 0, 6), 0);
    step(&e);
    expect_issue(&e, 16, 1, 0);                             /* c5: M1 issues */
    assert_int_equal(out(&e)->fetch_pc[0], 12);
    push(&e, 0, 12, 7, -1, 0, 0, 0);                        /* dropped: exit edge */
    wb(&e, 1, 0, 1);                                        /* releasing writeback */
    step(&e);
    /* c6: normal mode; M1's entry remains (a skip); the buffer is empty */
    assert_int_equal(out(&e)->haws_mode, 0);
    assert_int_equal(out(&e)->issue[0].valid, 0);
    assert_int_equal(out(&e)->stall_reason[0], SCHED_REASON_NO_INSTR);
    assert_int_equal(out(&e)->rcu_busy, 1);
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_SKIP);
    assert_int_equal(out(&e)->fetch_rcu[0].pc, 16);
    push(&e, 0, 11, 2, 1, 0, haws_hint_f1(5, 0, 0), 0);
    step(&e);
    expect_issue(&e, 11, 0, 0);                             /* c7 = exit edge (c5) + 2 */
    sched_destroy(e.b);
}

/* A conditional member branch: chain fetch waits for its outcome (hbr at
 * its issue edge), then continues on the taken side; on return the branch
 * is re-executed. A divergent outcome ends the chain. */
static void test_branch_member(void **state)
{
    (void)state;
    env e;
    prologue(&e, 2);
    step(&e);                                               /* c3: entry */
    push(&e, 0, 13, -1, -1, 0, haws_hint_f2(0, 4, 6), 0);  /* c4: branch member */
    step(&e);
    expect_issue(&e, 13, 1, 0);                             /* c5 */
    assert_int_equal(out(&e)->fetch_valid[0], 0);           /* waits for the outcome */
    e.in.hbr[0].valid = 1;
    e.in.hbr[0].warp = 0;
    e.in.hbr[0].taken = 1;
    e.in.hbr[0].uniform = 1;
    step(&e);
    assert_int_equal(out(&e)->fetch_pc_valid[0], 1);        /* c6: taken side */
    assert_int_equal(out(&e)->fetch_pc[0], 15);
    push(&e, 0, 15, -1, -1, 0, haws_hint_f2(0, 7, 8), 0);  /* c6: another branch */
    step(&e);
    expect_issue(&e, 15, 1, 0);                             /* c7 */
    e.in.hbr[0].valid = 1;                                  /* diverged: end of chain */
    step(&e);
    assert_int_equal(out(&e)->fetch_valid[0], 0);           /* c8: cursor 0, exit (b) */
    assert_int_equal(out(&e)->haws_mode, 1);
    step(&e);
    assert_int_equal(out(&e)->haws_mode, 0);                /* c9 */
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_REEXEC);
    assert_int_equal(out(&e)->fetch_rcu[0].pc, 13);
    sched_destroy(e.b);
}

/* The set's limits: a renamed member that finds the renaming table full
 * (1 entry) is the last of its chain whatever its offset; and no more than
 * RcuDepth (2) members are fetched in an episode. */
static void test_limits(void **state)
{
    (void)state;
    env e;
    prologue(&e, 2);
    step(&e);                                               /* c3: entry */
    push(&e, 0, 13, 3, -1, 0, haws_hint_f1(3, 1, 20), 0);  /* c4: r3 -> r20, table full now */
    step(&e);
    assert_int_equal(out(&e)->fetch_pc[0], 14);             /* c5 */
    push(&e, 0, 14, 5, -1, 0, haws_hint_f1(4, 1, 21), 0);  /* r5 -> r21: no room */
    step(&e);
    /* c6: the chain ended at that member although its offset was 4 */
    assert_int_equal(out(&e)->haws_mode, 1);
    assert_int_equal(out(&e)->fetch_valid[0], 0);
    expect_issue(&e, 14, 1, 0);                             /* it still writes r21 */
    assert_int_equal(out(&e)->issue[0].dst, 21);
    sched_destroy(e.b);

    prologue(&e, 2);
    step(&e);                                               /* c3: entry */
    push(&e, 0, 13, -1, -1, 0, haws_hint_f1(3, 0, 0), 0);  /* c4 */
    step(&e);
    push(&e, 0, 14, -1, -1, 0, haws_hint_f1(4, 0, 0), 0);  /* c5: the second member */
    step(&e);
    /* c6: two members fetched (RcuDepth 2): no third request */
    assert_int_equal(out(&e)->fetch_pc_valid[0], 0);
    assert_int_equal(out(&e)->fetch_valid[0], 0);
    expect_issue(&e, 14, 1, 0);
    step(&e);
    step(&e);                                               /* c7: nothing buffered: exit (b) */
    assert_int_equal(out(&e)->haws_mode, 0);                /* c8 */
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_SKIP);
    assert_int_equal(out(&e)->fetch_rcu[0].pc, 13);
    sched_destroy(e.b);
}

/* The cycle in which warp 0 is first in hint mode, for trigger `haws`:
 * its stall point (pc 11) waits from c5 on while warp 1 issues B in c5. */
static unsigned first_mode_cycle(unsigned haws)
{
    env e;
    sched_params p;
    params(&p);
    env_init(&e, &p, 0x3);                                  /* warps 0 and 1 */
    e.in.haws = (uint8_t)haws;
    step(&e);                                               /* c0 */
    push(&e, 0, 10, 1, -1, 1, 0, 0);                        /* c1: w0 load */
    step(&e);
    push(&e, 1, 40, 9, -1, 0, 0, 0);                        /* c2: w1 A writes r9 */
    step(&e);
    expect_issue(&e, 40, 0, 0);                             /* c3 */
    push(&e, 1, 41, -1, 9, 0, 0, 0);                        /* B reads r9 */
    step(&e);
    push(&e, 0, 11, 2, 1, 0, haws_hint_f1(2, 0, 0), 0);    /* c4: U */
    wb(&e, 0, 1, 9);
    step(&e);
    expect_issue(&e, 41, 0, 0);                             /* c5: B issues, U waits */
    unsigned c;
    for (c = 5; c < 10 && !(out(&e)->haws_mode & 1); c++) step(&e);
    sched_destroy(e.b);
    return c;
}

/* haws = 1 enters at the first edge with U blocked (c5 -> mode in c6);
 * haws = 2 not while the scheduler issues (c5), only at c6's edge. */
static void test_scheduler_idle_trigger(void **state)
{
    (void)state;
    assert_int_equal(first_mode_cycle(1), 6);
    assert_int_equal(first_mode_cycle(2), 7);
}

/* With haws = 0, or RcuDepth = 0, nothing enters hint mode. */
static void test_off(void **state)
{
    (void)state;
    env e;
    sched_params p;
    params(&p);
    env_init(&e, &p, 0x1);
    e.in.haws = 0;
    step(&e);
    push(&e, 0, 10, 1, -1, 1, 0, 0);
    step(&e);
    push(&e, 0, 11, 2, 1, 0, haws_hint_f1(2, 0, 0), 0);
    step(&e);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(out(&e)->haws_mode, 0);
        assert_int_equal(out(&e)->fetch_pc_valid[0], 0);
        step(&e);
    }
    sched_destroy(e.b);
}

/* A rejected input names its field, and the state is unchanged after it. */
static void expect_reject(env *e, const char *what)
{
    uint64_t c = sched_cycle(e->b);
    assert_int_equal(sched_step(e->b, &e->in), -1);
    if (!strstr(sched_error(e->b), what)) fail_msg("error '%s' lacks '%s'", sched_error(e->b), what);
    assert_int_equal(sched_cycle(e->b), c);
    memset(e->in.push, 0, sizeof e->in.push);
    memset(e->in.hbr, 0, sizeof e->in.hbr);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    env e;
    prologue(&e, 2);
    /* c3, normal mode, no RCU head: rcu != 0 is wrong */
    push(&e, 0, 12, -1, -1, 0, 0, SCHED_RCU_SKIP);
    expect_reject(&e, "push[0].rcu=1");
    step(&e);                                               /* entry */
    /* c4, hint mode: a push must be the chain member at fetch_pc */
    push(&e, 0, 12, -1, -1, 0, 0, 0);
    expect_reject(&e, "fetch_pc[0]=13");
    push(&e, 0, 13, -1, -1, 0, 0, SCHED_RCU_COPY);
    expect_reject(&e, "push[0].rcu=2");
    e.in.haws = 3;
    expect_reject(&e, "haws=3");
    e.in.haws = 1;
    push(&e, 0, 13, -1, -1, 0, 0x1000000, 0);
    expect_reject(&e, "push[0].hint");
    push(&e, 0, 13, -1, -1, 0, 0, 4);
    expect_reject(&e, "push[0].rcu=4");
    e.in.hbr[0].warp = 5;
    e.in.hbr[0].valid = 1;
    expect_reject(&e, "hbr[0].warp=5");
    e.in.hbr[1].valid = 1;
    expect_reject(&e, "hbr[1]");
    /* a valid member, then the rest as in test_load_returns */
    push(&e, 0, 13, 6, -1, 0, haws_hint_f1(0, 0, 6), 0);
    step(&e);
    wb(&e, 0, 0, 1);
    step(&e);                                               /* c5: exit (a) */
    /* c6, normal mode, head M1 at pc 13 (a skip) */
    assert_int_equal(out(&e)->fetch_rcu[0].kind, SCHED_RCU_SKIP);
    push(&e, 0, 13, 6, -1, 0, 0, 0);
    expect_reject(&e, "push[0].rcu=0");
    push(&e, 0, 13, 6, -1, 0, 0, SCHED_RCU_COPY);
    expect_reject(&e, "kind is 1");
    push(&e, 0, 11, 2, 1, 0, 0, SCHED_RCU_SKIP);
    expect_reject(&e, "not the RCU head");
    push(&e, 0, 11, 2, 1, 0, 0, 0);                         /* fine */
    step(&e);
    sched_destroy(e.b);

    char err[256];
    sched_params p;
    params(&p);
    p.rcu_depth = 9;
    assert_null(sched_cmodel_create(&p, err, sizeof err));
    assert_non_null(strstr(err, "rcu_depth=9"));
    params(&p);
    p.ren_entries = 9;
    assert_null(sched_cmodel_create(&p, err, sizeof err));
    assert_non_null(strstr(err, "ren_entries=9"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_exhausted_and_return_pass),
        cmocka_unit_test(test_load_returns),
        cmocka_unit_test(test_branch_member),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_scheduler_idle_trigger),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_bad_inputs),
    };
#ifdef SCHED_TEST_RTL
    return cmocka_run_group_tests_name("sched_haws_rtl", tests, NULL, NULL);
#else
    return cmocka_run_group_tests_name("sched_haws_cmodel", tests, NULL, NULL);
#endif
}
