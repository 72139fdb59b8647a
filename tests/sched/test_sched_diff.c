/*
 * test_sched_diff.c -- the C model against the Verilated RTL, in lockstep.
 *
 * Seeded random legal stimulus (cosim/sched_stim.c) for every policy (and a
 * run that switches policy at random) on every built parameter set, with
 * register ids over the whole RegIdWidth (every id must have been issued as a
 * destination and written back); then the stimulus that also breaks every
 * rule the contract says is dropped/ignored identically, on every built
 * parameter set (every kind must have been generated). Every output is
 * compared every cycle. Plus a test that injects a difference
 * through the lockstep's mutator hook and checks the report.
 * Longer runs: make sched-diff-long CYCLES=100000000.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched_if.h"
#include "sched_stim.h"

/* Cycles per (parameter set, policy) run; scaled by the set's cost so the
 * whole suite stays short. Total: see main(). */
typedef struct diff_case {
    sched_params p;
    uint64_t     cycles;
} diff_case;

static const diff_case cases[] = {
    { { 64, 4, 8, 2, 6, 4, 8, 8, 0 }, 30000 },
    { { 48, 2, 6, 3, 4, 2, 8, 8, 0 }, 40000 },
    { { 32, 1, 8, 1, 8, 1, 8, 8, 0 }, 60000 },
    { { 8, 4, 8, 4, 2, 3, 8, 8, 0 }, 130000 },
    { { 4, 1, 8, 2, 6, 2, 2, 1, 0 }, 90000 },   /* (60000 before OAWS: Eq. 1 holds loads back) */
};

static uint64_t total_cycles;

/* Register ids seen: as an issued destination and in a writeback. */
typedef struct reg_cover { uint8_t dst[256], wb[256]; } reg_cover;

static void check_cover(const sched_params *p, const reg_cover *cv, const char *what)
{
    unsigned space = 1u << p->reg_id_width, nd = 0, nw = 0;
    for (unsigned r = 0; r < space; r++) {
        nd += cv->dst[r];
        nw += cv->wb[r];
    }
    if (nd != space || nw != space)
        fail_msg("params %u/%u/%u/%u/%u/%u %s: %u of %u register ids issued as a destination, "
                 "%u written back", p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth,
                 p->sb_entries, p->wb_ports, what, nd, space, nw);
}

static void run_lockstep_opts(const sched_params *p, const sched_stim_opts *so, uint64_t cycles,
                              reg_cover *cv, sched_stim_counts *counts)
{
    char err[512];
    sched_backend *b = sched_lockstep_create(p, NULL, err, sizeof err);
    if (!b) fail_msg("lockstep create: %s", err);
    sched_stim *st = sched_stim_create(p, so);
    assert_non_null(st);
    sched_inputs in;
    uint64_t issued = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        const sched_outputs *o = sched_get_outputs(b);
        for (unsigned s = 0; s < p->num_schedulers; s++)
            if (o->issue[s].valid && o->issue[s].dst_valid) cv->dst[o->issue[s].dst] = 1;
        sched_stim_next(st, o, &in);
        for (unsigned k = 0; k < p->wb_ports; k++)
            if (in.wb[k].valid) cv->wb[in.wb[k].reg] = 1;
        if (sched_step(b, &in) != 0)
            fail_msg("params %u/%u/%u/%u/%u/%u policy %d seed %" PRIu64 "%s: %s", p->num_warps,
                     p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries, p->wb_ports,
                     so->policy, so->seed, so->violate ? " (violations)" : "", sched_error(b));
    }
    for (unsigned s = 0; s < p->num_schedulers; s++)
        issued += sched_get_outputs(b)->counters[s][SCHED_REASON_ISSUE];
    /* the stimulus must really exercise the core */
    assert_true(issued > cycles / 10);
    total_cycles += cycles;
    if (counts) *counts = *sched_stim_stats(st);
    sched_stim_destroy(st);
    sched_destroy(b);
}

static uint64_t peer_holds, peer_moves;   /* peer coverage, summed (printed) */

static void run_lockstep(const sched_params *p, int policy, uint64_t seed, uint64_t cycles)
{
    reg_cover cv;
    memset(&cv, 0, sizeof cv);
    sched_stim_counts n;
    sched_stim_opts so = { .seed = seed, .policy = policy, .reg_range = 0 };
    run_lockstep_opts(p, &so, cycles, &cv, &n);
    /* every register id of the space, whatever the width */
    check_cover(p, &cv, "legal stimulus");
    /* full scoreboards, however many entries */
    if (n.sb_full < 100)
        fail_msg("params %u/%u/%u/%u/%u/%u policy %d: a full scoreboard in only %" PRIu64 " cycles",
                 p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
                 p->wb_ports, policy, n.sb_full);
    /* OAWS (docs/oaws.md): the stimulus draws the OAWS levels, predictions
     * and retirements; Eq. 1 must have held warps back, grants must have
     * charged misses, and Miss_inflight must have climbed */
    if (n.oaws_occluded < 100 || n.oaws_eff_issues < 100 || n.oaws_inflight_max < 20 ||
        n.oaws_ocw_moves < 100)
        fail_msg("params %u/%u/%u/%u/%u/%u policy %d: OAWS barely exercised: %" PRIu64
                 " occluded slots, %" PRIu64 " charged issues, miss_inflight up to %" PRIu64
                 ", OCW moved %" PRIu64 " times",
                 p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
                 p->wb_ports, policy, n.oaws_occluded, n.oaws_eff_issues, n.oaws_inflight_max,
                 n.oaws_ocw_moves);
    /* The peers (docs/oaws.md, "Peers"): CCWS's scores must have held warps
     * from loads, MASCAR's owner must have moved */
    if (n.peer_ccws_holds < 100 || n.peer_owner_moves < 50)
        fail_msg("params %u/%u/%u/%u/%u/%u policy %d: peers barely exercised: CCWS held warps in "
                 "%" PRIu64 " cycles, MASCAR's owner moved %" PRIu64 " times",
                 p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
                 p->wb_ports, policy, n.peer_ccws_holds, n.peer_owner_moves);
    peer_holds += n.peer_ccws_holds;
    peer_moves += n.peer_owner_moves;
}

static void test_random_lockstep(void **state)
{
    (void)state;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int policy = -1; policy < SCHED_NUM_POLICIES; policy++)
            run_lockstep(&cases[k].p, policy, 1000 * k + (uint64_t)(policy + 2), cases[k].cycles);
    printf("lockstep: %" PRIu64 " cycles compared, no difference (peers: CCWS holding in %" PRIu64
           " cycles, MASCAR owner moves %" PRIu64 ")\n", total_cycles, peer_holds, peer_moves);
    assert_true(total_cycles >= 1000000);
}

/* ---- the dropped/ignored contract violations, C model vs RTL ---- */

static void test_violations_lockstep(void **state)
{
    (void)state;
    uint64_t before = total_cycles;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const sched_params *p = &cases[k].p;
        reg_cover cv;
        memset(&cv, 0, sizeof cv);
        sched_stim_counts n;
        sched_stim_opts so = { .seed = 7000 + k, .policy = -1, .reg_range = 0, .violate = 1 };
        run_lockstep_opts(p, &so, cases[k].cycles, &cv, &n);
        check_cover(p, &cv, "violation stimulus");
        printf("violations %u/%u/%u/%u/%u/%u, %" PRIu64 " cycles: push full %" PRIu64 ", dead %" PRIu64
               ", launch/finish %" PRIu64 "; wb stray %" PRIu64 ", dup %" PRIu64 ", same cycle %" PRIu64
               ", stale %" PRIu64 "; launch pending %" PRIu64 ", alive %" PRIu64 ", finish dead %" PRIu64
               ", launch+finish %" PRIu64 "; idle fields %" PRIu64 ", levels %" PRIu64 "\n",
               p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
               p->wb_ports, cases[k].cycles, n.push_full, n.push_dead, n.push_lf, n.wb_stray, n.wb_dup,
               n.wb_same_cycle, n.wb_stale, n.launch_pending, n.launch_alive, n.finish_dead,
               n.launch_finish, n.idle_fields, n.level_range);
        /* every kind generated, and more than a handful of times (a duplicate
         * in one cycle needs two writeback ports) */
        if (p->wb_ports == 1) n.wb_dup = 10;
        const uint64_t kinds[] = { n.push_full, n.push_dead, n.push_lf, n.wb_stray, n.wb_dup,
                                   n.wb_same_cycle, n.wb_stale, n.launch_pending, n.launch_alive,
                                   n.finish_dead, n.launch_finish, n.idle_fields, n.level_range };
        for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            if (kinds[i] < 10) fail_msg("violation kind %u generated only %" PRIu64 " times", i, kinds[i]);
    }
    printf("lockstep with violations: %" PRIu64 " cycles compared, no difference\n", total_cycles - before);
}

/* ---- HAWS: hint mode, RCU and renaming table, C model vs RTL ---- */

/* Random HAWS stimulus (sched_stim.h, haws 1) on every Verilated set, legal
 * and with the dropped/ignored violations; every HAWS state must be reached
 * (docs/haws.md, "Scheduler core"). */
static void test_haws_lockstep(void **state)
{
    (void)state;
    uint64_t before = total_cycles;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int violate = 0; violate < 2; violate++) {
            const sched_params *p = &cases[k].p;
            reg_cover cv;
            memset(&cv, 0, sizeof cv);
            sched_stim_counts n;
            sched_stim_opts so = { .seed = 9000 + 10 * k + (uint64_t)violate, .policy = -1,
                                   .violate = violate, .haws = 1 };
            /* (twice the cycles: a 2-entry RCU makes the load's return
             * during an episode rarer) */
            const uint64_t cycles = 2 * cases[k].cycles;
            run_lockstep_opts(p, &so, cycles, &cv, &n);
            printf("haws %u/%u/%u/%u/%u/%u/%u/%u%s, %" PRIu64 " cycles: entries %" PRIu64
                   ", members %" PRIu64 " (renamed %" PRIu64 ", branches %" PRIu64 ", outcomes %" PRIu64
                   "), hinted issues %" PRIu64 ", exits load %" PRIu64 " chain %" PRIu64 ", skips %" PRIu64
                   ", copies %" PRIu64 " (issued %" PRIu64 "), re-execs %" PRIu64 "\n",
                   p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
                   p->wb_ports, p->rcu_depth, p->ren_entries, violate ? " violations" : "",
                   cycles, n.haws_entries, n.haws_chain, n.haws_renames, n.haws_branches,
                   n.haws_hbr, n.haws_hinted, n.haws_exit_load, n.haws_exit_chain, n.haws_skips,
                   n.haws_copies, n.haws_copy_issues, n.haws_reexecs);
            const uint64_t kinds[] = { n.haws_entries, n.haws_chain, n.haws_renames, n.haws_branches,
                                       n.haws_hbr, n.haws_hinted, n.haws_exit_load, n.haws_exit_chain,
                                       n.haws_skips, n.haws_copies, n.haws_copy_issues,
                                       n.haws_reexecs };
            for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
                if (kinds[i] < 10)
                    fail_msg("params %u/%u/%u/%u/%u/%u/%u/%u: HAWS state %u reached only %" PRIu64
                             " times", p->num_warps, p->num_schedulers, p->reg_id_width,
                             p->ibuf_depth, p->sb_entries, p->wb_ports, p->rcu_depth,
                             p->ren_entries, i, kinds[i]);
        }
    printf("lockstep with HAWS: %" PRIu64 " cycles compared, no difference\n", total_cycles - before);
}

/* ---- the grouped policy (warp groups, OWL priority), C model vs RTL ---- */

/* Random stimulus with the group inputs (sched_stim.h, groups 1): the
 * policy switches among all four, launched warps get group ids, group_prio
 * toggles; legal and with the dropped/ignored violations, on every
 * Verilated set. */
static void test_groups_lockstep(void **state)
{
    (void)state;
    uint64_t before = total_cycles;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int violate = 0; violate < 2; violate++) {
            const sched_params *p = &cases[k].p;
            reg_cover cv;
            memset(&cv, 0, sizeof cv);
            sched_stim_counts n;
            sched_stim_opts so = { .seed = 11000 + 10 * k + (uint64_t)violate, .policy = -1,
                                   .violate = violate, .groups = 1 };
            run_lockstep_opts(p, &so, cases[k].cycles, &cv, &n);
            printf("groups %u/%u/%u/%u/%u/%u%s, %" PRIu64 " cycles, %" PRIu64 " under grouped\n",
                   p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth, p->sb_entries,
                   p->wb_ports, violate ? " violations" : "", cases[k].cycles, n.group_cycles);
            /* the policy switches at random: about a quarter of the cycles */
            if (n.group_cycles < cases[k].cycles / 8)
                fail_msg("params %u/%u/%u/%u/%u/%u: only %" PRIu64 " cycles under grouped",
                         p->num_warps, p->num_schedulers, p->reg_id_width, p->ibuf_depth,
                         p->sb_entries, p->wb_ports, n.group_cycles);
        }
    printf("lockstep with groups: %" PRIu64 " cycles compared, no difference\n", total_cycles - before);
}

/* ---- variants that leave mechanisms out (sched_params.omit, rcu_depth 0) ---- */

/* The RTL back end runs the Verilated variant with the most of the run's
 * omit mask left out (cosim/module.mk, VSCHED_CONFIGS); each must be
 * cycle-exact with the C model under a stimulus that uses what it has,
 * legal and with the dropped/ignored violations. */
typedef struct variant_case {
    sched_params p;
    int          haws, oaws_on, groups;   /* sched_stim_opts */
    const char  *model;                   /* the variant expected */
} variant_case;

#define NO_HAWS (SCHED_OMIT_OAWS | SCHED_OMIT_PEERS | SCHED_OMIT_HAWS)
static const variant_case variants[] = {
    { { 64, 4, 8, 2, 6, 4, 8, 8, SCHED_OMIT_ALL }, 0, 0, 0, "Vsc_64_4_8_2_6_4_0_0_o3" },
    { { 64, 4, 8, 2, 6, 4, 8, 8, NO_HAWS }, 0, 0, 1, "Vsc_64_4_8_2_6_4_0_0_o3" },
    /* (a core without RCU is one without HAWS) */
    { { 64, 4, 8, 2, 6, 4, 0, 0, SCHED_OMIT_OAWS | SCHED_OMIT_PEERS }, 0, 0, 1,
      "Vsc_64_4_8_2_6_4_0_0_o3" },
    { { 64, 4, 8, 2, 6, 4, 8, 8, SCHED_OMIT_ALL & ~SCHED_OMIT_OAWS }, 0, 1, 0,
      "Vsc_64_4_8_2_6_4_0_0_o2" },
    { { 64, 4, 8, 2, 6, 4, 8, 8, SCHED_OMIT_ALL & ~SCHED_OMIT_HAWS }, 1, 0, 0,
      "Vsc_64_4_8_2_6_4_8_8_o3" },
    { { 48, 2, 6, 3, 4, 2, 8, 8, NO_HAWS }, 0, 0, 1, "Vsc_48_2_6_3_4_2_0_0_o3" },
    /* no variant leaves out only the peers, none of 32/1/...: the whole core */
    { { 64, 4, 8, 2, 6, 4, 8, 8, SCHED_OMIT_PEERS }, 0, 0, 0, "Vsc_64_4_8_2_6_4_8_8" },
    { { 32, 1, 8, 1, 8, 1, 8, 8, SCHED_OMIT_ALL }, 0, 0, 0, "Vsc_32_1_8_1_8_1_8_8" },
};

static void test_variants_lockstep(void **state)
{
    (void)state;
    uint64_t before = total_cycles;
    char err[512];
    for (unsigned k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        const variant_case *v = &variants[k];
        sched_backend *r = sched_rtl_create(&v->p, NULL, err, sizeof err);
        if (!r) fail_msg("rtl create: %s", err);
        if (strcmp(sched_rtl_model(r), v->model) != 0)
            fail_msg("omit %u rcu %u: the RTL back end runs %s, expected %s", v->p.omit,
                     v->p.rcu_depth, sched_rtl_model(r), v->model);
        sched_destroy(r);
        for (int violate = 0; violate < 2; violate++) {
            reg_cover cv;
            memset(&cv, 0, sizeof cv);
            sched_stim_counts n;
            sched_stim_opts so = { .seed = 13000 + 10 * k + (uint64_t)violate, .policy = -1,
                                   .violate = violate, .haws = v->haws, .oaws_on = v->oaws_on,
                                   .groups = v->groups };
            run_lockstep_opts(&v->p, &so, v->p.num_warps == 64 ? 30000 : 50000, &cv, &n);
            printf("variant %s (omit %u)%s: HAWS entries %" PRIu64 ", OAWS occluded %" PRIu64
                   ", grouped cycles %" PRIu64 "\n", v->model, v->p.omit,
                   violate ? " violations" : "", n.haws_entries, n.oaws_occluded, n.group_cycles);
            /* what the variant has is exercised */
            if (v->haws) assert_true(n.haws_entries > 10);
            if (v->oaws_on) assert_true(n.oaws_occluded > 10);
            if (v->groups) assert_true(n.group_cycles > 1000);
        }
    }
    printf("lockstep of the variants: %" PRIu64 " cycles compared, no difference\n",
           total_cycles - before);
}

/* An input that would use an omitted mechanism is rejected, naming it, by
 * every back end. */
static void test_omitted_inputs_rejected(void **state)
{
    (void)state;
    const struct {
        unsigned omit;
        const char *says;
    } rules[] = {
        { SCHED_OMIT_OAWS, "omits OAWS" },
        { SCHED_OMIT_PEERS, "omits CCWS and MASCAR" },
        { SCHED_OMIT_GROUPED, "omits the grouped policy" },
        { SCHED_OMIT_HAWS, "omits HAWS" },
    };
    char err[512];
    for (unsigned k = 0; k < 4; k++)
        for (int backend = 0; backend < 2; backend++) {
            sched_params p;
            sched_params_default(&p);
            p.omit = rules[k].omit;
            sched_backend *b = backend ? sched_rtl_create(&p, NULL, err, sizeof err)
                                       : sched_cmodel_create(&p, err, sizeof err);
            if (!b) fail_msg("create: %s", err);
            sched_inputs in;
            memset(&in, 0, sizeof in);
            assert_int_equal(sched_step(b, &in), 0);      /* all zero: fine */
            if (k == 0) in.ocw_event = 3;
            if (k == 1) in.vta_valid = 1;
            if (k == 2) in.policy = SCHED_POLICY_GROUPED;
            if (k == 3) in.haws = 1;
            assert_int_equal(sched_step(b, &in), -1);
            if (!strstr(sched_error(b), rules[k].says))
                fail_msg("%s, omit %u: \"%s\" does not say \"%s\"", sched_backend_name(b),
                         rules[k].omit, sched_error(b), rules[k].says);
            sched_destroy(b);
        }
    /* and a mask with an unknown bit is not a core */
    sched_params p;
    sched_params_default(&p);
    p.omit = 16;
    assert_null(sched_cmodel_create(&p, err, sizeof err));
    assert_non_null(strstr(err, "omit=0x10"));
}

/* ---- the checker catches an injected difference ---- */

typedef struct inject {
    uint64_t at;
    unsigned sched;
    uint8_t  original;
    int      done;
} inject;

static void mutate(sched_outputs *o, uint64_t cycle, void *ctx)
{
    inject *ij = ctx;
    if (cycle != ij->at) return;
    ij->original = o->issue[ij->sched].warp;
    o->issue[ij->sched].warp ^= 1;
    ij->done = 1;
}

static void test_injected_difference_is_reported(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char err[512];
    sched_backend *b = sched_lockstep_create(&p, NULL, err, sizeof err);
    if (!b) fail_msg("lockstep create: %s", err);
    inject ij = { .at = 1234, .sched = 2 };
    sched_lockstep_set_mutator(b, mutate, &ij);
    sched_stim_opts so = { .seed = 7, .policy = SCHED_POLICY_GTO, .reg_range = 0 };
    sched_stim *st = sched_stim_create(&p, &so);
    sched_inputs in;
    uint64_t c;
    int rc = 0;
    for (c = 0; c < 5000 && rc == 0; c++) {
        sched_stim_next(st, sched_get_outputs(b), &in);
        rc = sched_step(b, &in);
    }
    assert_int_equal(rc, -1);
    assert_true(ij.done);
    assert_int_equal(c, 1234);              /* stopped at the step that produced cycle 1234 */
    char want[256];
    snprintf(want, sizeof want,
             "lockstep mismatch at cycle 1234: issue_warp[2]: cmodel=0x%x rtl=0x%x",
             ij.original ^ 1u, ij.original);
    assert_string_equal(sched_error(b), want);
    /* sticky: no further steps */
    assert_int_equal(sched_step(b, &in), -1);
    sched_stim_destroy(st);
    sched_destroy(b);
}

/* ---- several RTL instances in one process (one per SM) ---- */

static void test_instances_are_independent(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char err[512];
    enum { N = 3 };
    sched_backend *b[N];
    sched_stim *st[N];
    for (unsigned i = 0; i < N; i++) {
        b[i] = sched_lockstep_create(&p, NULL, err, sizeof err);
        if (!b[i]) fail_msg("lockstep create: %s", err);
        sched_stim_opts so = { .seed = 50 + i, .policy = (int)i, .reg_range = 0 };
        st[i] = sched_stim_create(&p, &so);
    }
    sched_inputs in;
    for (unsigned c = 0; c < 5000; c++)
        for (unsigned i = 0; i < N; i++) {           /* interleaved, different inputs */
            sched_stim_next(st[i], sched_get_outputs(b[i]), &in);
            if (sched_step(b[i], &in) != 0) fail_msg("instance %u: %s", i, sched_error(b[i]));
        }
    /* different stimulus must have led to different histories */
    uint32_t n0[SCHED_NUM_REASONS], n1[SCHED_NUM_REASONS];
    sched_counters(b[0], 0, n0);
    sched_counters(b[1], 0, n1);
    assert_memory_not_equal(n0, n1, sizeof n0);
    for (unsigned i = 0; i < N; i++) {
        sched_stim_destroy(st[i]);
        sched_destroy(b[i]);
    }
}

/* ---- destroying models in any order (a hang before: Verilator erases a
 * model's scopes through the thread's current context, which was a
 * destroyed model's) ---- */

static void test_destroy_order(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char err[512], path[] = "/tmp/sched_order_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    sched_trace_opts t = { .path = path, .start = 0, .end = 0 };
    sched_backend *a = sched_rtl_create(&p, NULL, err, sizeof err);
    sched_backend *b = sched_rtl_create(&p, &t, err, sizeof err);
    sched_backend *c = sched_lockstep_create(&p, NULL, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    sched_destroy(b);
    sched_destroy(c);
    sched_destroy(a);               /* hung here */
    unlink(path);
}

/* ---- FST tracing restricted to a cycle window ---- */

static void test_trace_window(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char path[] = "/tmp/sched_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char tmp[64], cmd[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    char err[512];
    sched_trace_opts t = { .path = path, .start = 10, .end = 20 };
    sched_backend *b = sched_lockstep_create(&p, &t, err, sizeof err);
    if (!b) fail_msg("lockstep create: %s", err);
    sched_stim_opts so = { .seed = 3, .policy = SCHED_POLICY_LRR, .reg_range = 0 };
    sched_stim *st = sched_stim_create(&p, &so);
    sched_inputs in;
    for (unsigned c = 0; c < 50; c++) {
        sched_stim_next(st, sched_get_outputs(b), &in);
        assert_int_equal(sched_step(b, &in), 0);
    }
    sched_stim_destroy(st);
    sched_destroy(b);
    assert_int_not_equal(access(tmp, F_OK), 0);         /* renamed into place */
    /* FST time: 2 per cycle; cycles 10..19 are times 20..39 */
    snprintf(cmd, sizeof cmd, "fst2vcd %s 2>/dev/null | grep '^#' | sed -n '1p;$p' | tr '\\n' ' '", path);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char line[128] = "";
    assert_non_null(fgets(line, sizeof line, f));
    pclose(f);
    assert_string_equal(line, "#20 #39 ");
    snprintf(cmd, sizeof cmd, "fst2vcd %s 2>/dev/null | grep -c 'rest_q\\[31\\]'", path);
    f = popen(cmd, "r");
    assert_non_null(f);
    int nsig = 0;
    assert_int_equal(fscanf(f, "%d", &nsig), 1);
    pclose(f);
    /* every signal, down to the last buffer entry of warp 63: the payload
     * memory of each of the four schedulers' buffer banks (16 warps each)
     * ends at word 15 * IbufDepth + 1 = 31, and all four are traced */
    assert_true(nsig >= 4);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_window),
        cmocka_unit_test(test_destroy_order),
        cmocka_unit_test(test_instances_are_independent),
        cmocka_unit_test(test_injected_difference_is_reported),
        cmocka_unit_test(test_random_lockstep),
        cmocka_unit_test(test_violations_lockstep),
        cmocka_unit_test(test_haws_lockstep),
        cmocka_unit_test(test_groups_lockstep),
        cmocka_unit_test(test_variants_lockstep),
        cmocka_unit_test(test_omitted_inputs_rejected),
    };
    return cmocka_run_group_tests_name("sched_diff", tests, NULL, NULL);
}
