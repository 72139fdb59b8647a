/*
 * test_offload_group.c -- the group interface (cosim/sched_group.h), the
 * `offload` back end in closed loop and the replay check, over every
 * offload transport in the list below (docs/offload.md).
 *
 *   - lockstep: a C-model group and an offload group driven with the same
 *     contract-respecting random stimulus (cosim/sched_stim.c, HAWS, OAWS
 *     and grouped-policy inputs included), SMs idle at random (not
 *     clocked), every output of every SM compared every cycle; >= 1 M
 *     SM-cycles on 8/4/8/4/2/3, and a shorter run on the Kepler set;
 *   - lane independence: 1, 63, 64, 65 and 80 SMs with distinct seeds,
 *     each equal to its own C model instance;
 *   - a member's sched_reset in mid-run, and a group reset, equal fresh
 *     instances from then on;
 *   - replay/check: a C-model group checked with k = 1, 7 and 4096 finds
 *     no difference; a flip injected into one SM's device outputs at one
 *     cycle is reported at that SM and cycle, with the same message, for
 *     every k;
 *   - errors: unknown transport, a failing device (closed loop and check),
 *     a waveform asked of offload, a check of the offload kind, a check
 *     queue too large, k = 0;
 *   - counters: a token carries all 32 bits (0xFFFFFFFF round-trips).
 *
 * The transports: "cmodel" here; SMCOSIM_OFFLOAD_TRANSPORTS (a
 * comma-separated list of "name[:arg]") replaces the list, so the same
 * tests run on the netlist and board transports.
 *
 * Built a second time with OFFLOAD_TEST_BOARD (test_offload_group_board):
 * the board kernel's Verilated model ("vl-board", with and without random
 * AXI stalls) in closed loop and under the replay check, on the set its
 * model is built for (the tiny set, VLBOARD_CONFIGS) in place of 8/4 and
 * Kepler. The million-cycle run is test_offload_board's; this variant runs
 * a shorter lockstep, lane independence, resets and the replay check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "offload_transport.h"
#include "sched_group.h"
#include "sched_stim.h"

#ifdef OFFLOAD_TEST_BOARD
#define DEFAULT_TRANSPORTS "vl-board,vl-board:stall=30"   /* (the list is comma-separated) */
/* Linked from $(VLBOARD_LIB): the transport table refers to it only
 * weakly, so naming it here (test_board_linked) pulls it in. */
extern const offload_transport offload_transport_vl_board;
#else
#define DEFAULT_TRANSPORTS "cmodel"
#endif

/* Call fn(transport) for every transport of the list. */
static void each_transport(void (*fn)(const char *t))
{
    const char *env = getenv("SMCOSIM_OFFLOAD_TRANSPORTS");
    char list[1024];
    snprintf(list, sizeof list, "%s", env && *env ? env : DEFAULT_TRANSPORTS);
    char *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        print_message("transport %s\n", t);
        fn(t);
    }
}

/* The small set of most tests: 8/4/8/4/2/3 (the board variant: the tiny
 * set 4/2/8/2 with the other defaults, fpga/param-sets/tiny.conf). */
static void set_8_4(sched_params *p)
{
    sched_params_default(p);
#ifdef OFFLOAD_TEST_BOARD
    p->num_warps = 4;
    p->num_schedulers = 2;
    p->reg_id_width = 8;
    p->ibuf_depth = 2;
#else
    p->num_warps = 8;
    p->num_schedulers = 4;
    p->reg_id_width = 8;
    p->ibuf_depth = 4;
    p->sb_entries = 2;
    p->wb_ports = 3;
#endif
}

/* The preset of the tests that want a large core: Kepler (the board
 * variant: its one set). */
static void set_large(sched_params *p)
{
#ifdef OFFLOAD_TEST_BOARD
    set_8_4(p);
#else
    sched_params_default(p);
#endif
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static sched_stim *stim_for(const sched_params *p, uint64_t seed)
{
    sched_stim_opts so = { .seed = seed, .policy = -1, .haws = p->rcu_depth > 0, .groups = 1 };
    return sched_stim_create(p, &so);
}

static void assert_same(const sched_params *p, const sched_backend *ref, const sched_backend *dut,
                        uint64_t cycle, unsigned sm)
{
    char sig[64];
    uint64_t va, vb;
    if (!sched_outputs_compare(p, sched_get_outputs(ref), sched_get_outputs(dut), sig,
                               sizeof sig, &va, &vb))
        fail_msg("cycle %llu, SM %u: %s: c=0x%llx offload=0x%llx", (unsigned long long)cycle,
                 sm, sig, (unsigned long long)va, (unsigned long long)vb);
    assert_int_equal(sched_cycle(ref), sched_cycle(dut));
}

/* ---- lockstep: C-model group vs offload group ----------------------------- */

/* `lanes` SMs for `cycles` cycles; returns the SM-cycles stepped. */
static uint64_t lockstep_run(const char *transport, const sched_params *p, unsigned lanes,
                             unsigned cycles, uint64_t seed)
{
    char err[512], kind[300];
    snprintf(kind, sizeof kind, "offload:%s", transport);
    sched_group *ref = sched_group_open("c", p, lanes, NULL, err, sizeof err);
    assert_non_null(ref);
    sched_group *dut = sched_group_open(kind, p, lanes, NULL, err, sizeof err);
    if (!dut)
        fail_msg("%s: %s", kind, err);
    sched_stim **st = calloc(lanes, sizeof *st);
    sched_inputs *in = calloc(lanes, sizeof *in);
    uint8_t *active = calloc(lanes, 1);
    for (unsigned l = 0; l < lanes; l++)
        st[l] = stim_for(p, seed + l);
    uint64_t r = seed | 1, stepped = 0;
    for (unsigned l = 0; l < lanes; l++)
        assert_same(p, sched_group_member(ref, l), sched_group_member(dut, l), 0, l);
    for (unsigned c = 0; c < cycles; c++) {
        for (unsigned l = 0; l < lanes; l++) {
            active[l] = rng(&r) % 8 != 0;   /* an idle SM now and then: not clocked */
            if (active[l]) {
                sched_stim_next(st[l], sched_get_outputs(sched_group_member(ref, l)), &in[l]);
                stepped++;
            }
        }
        unsigned bad;
        if (sched_group_step(ref, in, active, &bad) != 0)
            fail_msg("c group, SM %u: %s", bad, sched_error(sched_group_member(ref, bad)));
        if (sched_group_step(dut, in, active, &bad) != 0)
            fail_msg("%s, SM %u: %s", kind, bad, sched_error(sched_group_member(dut, bad)));
        for (unsigned l = 0; l < lanes; l++)
            assert_same(p, sched_group_member(ref, l), sched_group_member(dut, l), c + 1, l);
    }
    assert_int_equal(sched_group_cycle(dut), cycles);
    for (unsigned l = 0; l < lanes; l++)
        sched_stim_destroy(st[l]);
    free(st);
    free(in);
    free(active);
    sched_group_close(ref);
    sched_group_close(dut);
    return stepped;
}

#ifndef OFFLOAD_TEST_BOARD
static void lockstep_million(const char *t)
{
    sched_params p;
    set_8_4(&p);
    /* 16 SMs x 71,500 cycles, 7/8 of them clocked: > 1 M SM-cycles */
    uint64_t n = lockstep_run(t, &p, 16, 71500, 101);
    print_message("  %llu SM-cycles compared\n", (unsigned long long)n);
    assert_true(n >= 1000000);
}

#endif

static void lockstep_kepler(const char *t)
{
    sched_params p;
    set_large(&p);
    lockstep_run(t, &p, 8, 6000, 202);
}

#ifndef OFFLOAD_TEST_BOARD
static void test_lockstep_million(void **state) { (void)state; each_transport(lockstep_million); }
#endif
static void test_lockstep_kepler(void **state) { (void)state; each_transport(lockstep_kepler); }

/* ---- lane independence ------------------------------------------------------ */

/* n SMs, distinct seeds, each against its own C model instance, for
 * LANE_CYCLES cycles (the board's Verilated kernel steps every lane's
 * cycles one by one: 273 lanes x 1500 cycles were two thirds of its
 * test's time; 500 cross every lane boundary alike). */
#ifdef OFFLOAD_TEST_BOARD
#define LANE_CYCLES 500
#else
#define LANE_CYCLES 1500
#endif
static void lanes_n(const char *t, unsigned n)
{
    sched_params p;
    set_8_4(&p);
    char err[512], kind[300];
    snprintf(kind, sizeof kind, "offload:%s", t);
    sched_group *dut = sched_group_open(kind, &p, n, NULL, err, sizeof err);
    if (!dut)
        fail_msg("%s: %s", kind, err);
    sched_backend **ref = calloc(n, sizeof *ref);
    sched_stim **st = calloc(n, sizeof *st);
    sched_inputs *in = calloc(n, sizeof *in);
    uint8_t *active = calloc(n, 1);
    for (unsigned l = 0; l < n; l++) {
        assert_non_null(ref[l] = sched_cmodel_create(&p, err, sizeof err));
        st[l] = stim_for(&p, 7000 + 13 * l);
    }
    uint64_t r = 99 + n;
    for (unsigned c = 0; c < LANE_CYCLES; c++) {
        for (unsigned l = 0; l < n; l++) {
            active[l] = rng(&r) % 5 != 0;
            if (!active[l])
                continue;
            sched_stim_next(st[l], sched_get_outputs(ref[l]), &in[l]);
            assert_int_equal(sched_step(ref[l], &in[l]), 0);
        }
        unsigned bad;
        if (sched_group_step(dut, in, active, &bad) != 0)
            fail_msg("%u SMs, SM %u: %s", n, bad, sched_error(sched_group_member(dut, bad)));
        for (unsigned l = 0; l < n; l++)
            assert_same(&p, ref[l], sched_group_member(dut, l), c + 1, l);
    }
    for (unsigned l = 0; l < n; l++) {
        sched_destroy(ref[l]);
        sched_stim_destroy(st[l]);
    }
    free(ref);
    free(st);
    free(in);
    free(active);
    sched_group_close(dut);
}

static void lanes_all(const char *t)
{
    static const unsigned ns[] = { 1, 63, 64, 65, 80 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        lanes_n(t, ns[i]);
}

static void test_lane_independence(void **state) { (void)state; each_transport(lanes_all); }

/* ---- reset in mid-run ------------------------------------------------------- */

static void reset_mid_run(const char *t)
{
    sched_params p;
    set_large(&p);
    enum { N = 4 };
    char err[512], kind[300];
    snprintf(kind, sizeof kind, "offload:%s", t);
    sched_group *dut = sched_group_open(kind, &p, N, NULL, err, sizeof err);
    if (!dut)
        fail_msg("%s: %s", kind, err);
    sched_backend *ref[N];
    sched_stim *st[N];
    sched_inputs in[N];
    for (unsigned l = 0; l < N; l++) {
        assert_non_null(ref[l] = sched_cmodel_create(&p, err, sizeof err));
        st[l] = stim_for(&p, 500 + l);
    }
    for (unsigned c = 0; c < 4000; c++) {
        if (c == 1500) {
            /* SM 2 alone: its view's reset, against a fresh instance */
            sched_reset(sched_group_member(dut, 2));
            sched_destroy(ref[2]);
            sched_stim_destroy(st[2]);
            assert_non_null(ref[2] = sched_cmodel_create(&p, err, sizeof err));
            st[2] = stim_for(&p, 900);
            assert_int_equal(sched_cycle(sched_group_member(dut, 2)), 0);
        }
        if (c == 2500) {
            /* every SM: the group's reset */
            sched_group_reset(dut);
            assert_int_equal(sched_group_cycle(dut), 0);
            for (unsigned l = 0; l < N; l++) {
                sched_destroy(ref[l]);
                sched_stim_destroy(st[l]);
                assert_non_null(ref[l] = sched_cmodel_create(&p, err, sizeof err));
                st[l] = stim_for(&p, 1000 + l);
            }
        }
        for (unsigned l = 0; l < N; l++)
            assert_same(&p, ref[l], sched_group_member(dut, l), c, l);
        for (unsigned l = 0; l < N; l++) {
            sched_stim_next(st[l], sched_get_outputs(ref[l]), &in[l]);
            assert_int_equal(sched_step(ref[l], &in[l]), 0);
        }
        unsigned bad;
        if (sched_group_step(dut, in, NULL, &bad) != 0)
            fail_msg("SM %u: %s", bad, sched_error(sched_group_member(dut, bad)));
    }
    /* a lone step of one member equals the instance's step too */
    sched_stim_next(st[1], sched_get_outputs(ref[1]), &in[1]);
    assert_int_equal(sched_step(ref[1], &in[1]), 0);
    assert_int_equal(sched_step(sched_group_member(dut, 1), &in[1]), 0);
    assert_same(&p, ref[1], sched_group_member(dut, 1), 4001, 1);
    for (unsigned l = 0; l < N; l++) {
        sched_destroy(ref[l]);
        sched_stim_destroy(st[l]);
    }
    sched_group_close(dut);
}

static void test_reset_mid_run(void **state) { (void)state; each_transport(reset_mid_run); }

/* ---- replay / check --------------------------------------------------------- */

typedef struct flip { unsigned lane; uint64_t cycle; unsigned hits; } flip;

static void flip_stall(sched_outputs *o, uint64_t cycle, void *ctx)
{
    flip *f = ctx;
    if (cycle == f->cycle) {
        o->stall_reason[0] ^= 1;
        f->hits++;
    }
}

/* A C-model group of 6 SMs, checked against transport t with k; with
 * inject, a flip of SM 4's device outputs at its cycle 2345. Returns the
 * failure (or an empty message) and where it was found. */
typedef struct check_result {
    int      failed;
    unsigned sm;
    uint64_t failed_cycle, found_at;
    char     msg[256];
} check_result;

static check_result check_run(const char *t, unsigned k, int inject)
{
    sched_params p;
    set_8_4(&p);
    enum { N = 6, CYCLES = 6000 };
    char err[512];
    sched_group_opts o = { .check = t, .check_k = k };
    sched_group *g = sched_group_open("c", &p, N, &o, err, sizeof err);
    if (!g)
        fail_msg("check %s k=%u: %s", t, k, err);
    flip f = { 4, 2345, 0 };
    if (inject)
        assert_int_equal(sched_group_set_mutator(g, f.lane, flip_stall, &f, err, sizeof err), 0);
    sched_stim *st[N];
    sched_inputs in[N];
    uint8_t active[N];
    for (unsigned l = 0; l < N; l++)
        st[l] = stim_for(&p, 40 + l);
    uint64_t r = 4242;
    check_result res = { 0 };
    unsigned bad = 0;
    for (unsigned c = 0; c < CYCLES && !res.failed; c++) {
        if (c == 3000)
            sched_reset(sched_group_member(g, 1));   /* a lone reset is replayed too */
        for (unsigned l = 0; l < N; l++) {
            active[l] = rng(&r) % 6 != 0;
            if (active[l])
                sched_stim_next(st[l], sched_get_outputs(sched_group_member(g, l)), &in[l]);
        }
        if (c == 3000) {   /* SM 1 was reset: its stimulus starts again too */
            sched_stim_destroy(st[1]);
            st[1] = stim_for(&p, 77);
            if (active[1])
                sched_stim_next(st[1], sched_get_outputs(sched_group_member(g, 1)), &in[1]);
        }
        if (sched_group_step(g, in, active, &bad) != 0) {
            res.failed = 1;
            res.found_at = c;
        }
    }
    if (!res.failed && sched_group_sync(g, &bad) != 0) {
        res.failed = 1;
        res.found_at = CYCLES;
    }
    if (res.failed) {
        res.sm = bad;
        res.failed_cycle = sched_group_failed_cycle(g);
        snprintf(res.msg, sizeof res.msg, "%s", sched_error(sched_group_member(g, bad)));
    }
    if (inject)
        assert_int_equal(f.hits, 1);   /* the flip reached the comparison once */
    for (unsigned l = 0; l < N; l++)
        sched_stim_destroy(st[l]);
    sched_group_close(g);
    return res;
}

static void check_k(const char *t)
{
    static const unsigned ks[] = { 1, 7, 4096 };
    check_result first = { 0 };
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        check_result clean = check_run(t, ks[i], 0);
        if (clean.failed)
            fail_msg("k=%u: unexpected difference on SM %u: %s", ks[i], clean.sm, clean.msg);
        check_result r = check_run(t, ks[i], 1);
        assert_true(r.failed);
        assert_int_equal(r.sm, 4);
        /* the SM's own cycle 2345: its outputs after its 2345th edge */
        assert_non_null(strstr(r.msg, "offload check mismatch at cycle 2345: stall_reason[0]"));
        /* found within k cycles of the difference, never before it */
        assert_true(r.found_at >= r.failed_cycle);
        assert_true(r.found_at < r.failed_cycle + ks[i] + 1 || r.found_at == 6000);
        if (i == 0) {
            first = r;
            assert_int_equal(r.found_at, r.failed_cycle);   /* k = 1: at once */
        } else {
            assert_string_equal(r.msg, first.msg);
            assert_int_equal(r.failed_cycle, first.failed_cycle);
        }
    }
    print_message("  flip found at group cycle %llu: %s\n",
                  (unsigned long long)first.failed_cycle, first.msg);
}

static void test_check_k(void **state) { (void)state; each_transport(check_k); }

#ifndef OFFLOAD_TEST_BOARD
/* ---- errors ----------------------------------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    sched_params p;
    set_8_4(&p);
    char err[512];
    assert_null(sched_group_open("offload:warp-drive", &p, 4, NULL, err, sizeof err));
    assert_non_null(strstr(err, "offload transport 'warp-drive': unknown"));
    assert_null(sched_group_open("teleport", &p, 4, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no scheduler back end 'teleport'"));
    assert_null(sched_group_open("c:x", &p, 4, NULL, err, sizeof err));
    assert_null(sched_group_open("c", &p, 0, NULL, err, sizeof err));
    assert_non_null(strstr(err, "at least one member"));
    /* offload writes no waveform */
    sched_trace_opts tr = { "x.fst", 0, 0 };
    const sched_trace_opts *trs[2] = { NULL, &tr };
    sched_group_opts o = { .trace = trs };
    assert_null(sched_group_open("offload:cmodel", &p, 2, &o, err, sizeof err));
    assert_non_null(strstr(err, "no waveform"));
    /* a check is of a looping kind, with a sane k */
    sched_group_opts oc = { .check = "cmodel", .check_k = 8 };
    assert_null(sched_group_open("offload:cmodel", &p, 2, &oc, err, sizeof err));
    assert_non_null(strstr(err, "needs a looping back end"));
    oc.check_k = 0;
    assert_null(sched_group_open("c", &p, 2, &oc, err, sizeof err));
    assert_non_null(strstr(err, "at least 1"));
    oc.check_k = 1 << 20;
    assert_null(sched_group_open("c", &p, 80, &oc, err, sizeof err));
    assert_non_null(strstr(err, "use a smaller k"));
    /* no checker to inject into */
    sched_group *g = sched_group_open("c", &p, 2, NULL, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(sched_group_set_mutator(g, 0, flip_stall, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no checker"));
    sched_group_close(g);
}

/* A device that fails: closed loop names the transport's message; a check
 * reports it as its failure. */
static void test_device_failure(void **state)
{
    (void)state;
    sched_params p;
    set_8_4(&p);
    char err[512];
    /* exchange 0 is the reset at open: the open fails */
    assert_null(sched_group_open("offload:cmodel:fail_at=0", &p, 3, NULL, err, sizeof err));
    assert_non_null(strstr(err, "injected device failure"));
    sched_group *g = sched_group_open("offload:cmodel:fail_at=5", &p, 3, NULL, err, sizeof err);
    assert_non_null(g);
    sched_stim *st = stim_for(&p, 3);
    sched_inputs in[3];
    memset(in, 0, sizeof in);
    unsigned bad = 99;
    int rc = 0;
    unsigned c;
    for (c = 0; c < 10 && rc == 0; c++) {
        sched_stim_next(st, sched_get_outputs(sched_group_member(g, 0)), &in[0]);
        rc = sched_group_step(g, in, NULL, &bad);
    }
    assert_int_equal(rc, -1);
    assert_int_equal(c, 5);                       /* exchanges 1..4 passed */
    assert_int_equal(bad, 0);
    assert_non_null(strstr(sched_error(sched_group_member(g, 0)),
                           "offload transport cmodel failed: injected device failure"));
    assert_int_equal(sched_group_step(g, in, NULL, &bad), -1);   /* sticky */
    sched_group_close(g);
    sched_stim_destroy(st);
    /* the same through the door, as one back end */
    sched_backend *b = sched_open("offload:cmodel:fail_at=1", &p, NULL, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(sched_backend_name(b), "offload");
    sched_inputs zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(sched_step(b, &zero), -1);
    assert_non_null(strstr(sched_error(b), "injected device failure"));
    sched_destroy(b);
    /* a check against a failing device */
    sched_group_opts oc = { .check = "cmodel:fail_at=0", .check_k = 2 };
    g = sched_group_open("c", &p, 2, &oc, err, sizeof err);
    assert_non_null(g);
    memset(in, 0, sizeof in);
    assert_int_equal(sched_group_step(g, in, NULL, &bad), 0);
    assert_int_equal(sched_group_step(g, in, NULL, &bad), -1);   /* the exchange at k = 2 */
    assert_non_null(strstr(sched_error(sched_group_member(g, bad)),
                           "transport cmodel failed: injected device failure"));
    sched_group_close(g);
}

/* Bad inputs are refused before anything is sent, naming the SM. */
static void test_bad_inputs(void **state)
{
    (void)state;
    sched_params p;
    set_8_4(&p);
    char err[512];
    sched_group *g = sched_group_open("offload:cmodel", &p, 3, NULL, err, sizeof err);
    assert_non_null(g);
    sched_inputs in[3];
    memset(in, 0, sizeof in);
    in[2].push[0].valid = 1;
    in[2].push[0].warp = 200;          /* no such warp */
    unsigned bad;
    assert_int_equal(sched_group_step(g, in, NULL, &bad), -1);
    assert_int_equal(bad, 2);
    assert_non_null(strstr(sched_error(sched_group_member(g, 2)), "push[0].warp"));
    /* the SMs before it stepped, as in a loop over back ends */
    assert_int_equal(sched_cycle(sched_group_member(g, 0)), 1);
    assert_int_equal(sched_cycle(sched_group_member(g, 2)), 0);
    sched_group_close(g);
}

/* Counters: all 32 bits cross the wire. (Running a counter through its
 * wrap needs 2^32 cycles of one stall reason: not in a unit test; see
 * docs/offload.md, "Back end and modes".) */
static void test_counter_bits(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    sched_outputs o, back;
    memset(&o, 0, sizeof o);
    for (unsigned s = 0; s < p.num_schedulers; s++)
        for (unsigned r = 0; r < SCHED_NUM_REASONS; r++)
            o.counters[s][r] = r & 1 ? 0xFFFFFFFFu : 0x80000001u;
    uint64_t w[64];
    offload_pack_outputs(&p, &o, w);
    offload_unpack_outputs(&p, w, &back);
    for (unsigned s = 0; s < p.num_schedulers; s++)
        for (unsigned r = 0; r < SCHED_NUM_REASONS; r++)
            assert_int_equal(back.counters[s][r], o.counters[s][r]);
}

#endif

#ifdef OFFLOAD_TEST_BOARD
static void test_board_linked(void **state)
{
    (void)state;
    assert_ptr_equal(offload_transport_find("vl-board"), &offload_transport_vl_board);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef OFFLOAD_TEST_BOARD
        cmocka_unit_test(test_board_linked),
        cmocka_unit_test(test_reset_mid_run),
        cmocka_unit_test(test_lane_independence),
        cmocka_unit_test(test_check_k),
        cmocka_unit_test(test_lockstep_kepler),    /* the tiny set here */
#else
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_counter_bits),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_device_failure),
        cmocka_unit_test(test_reset_mid_run),
        cmocka_unit_test(test_lane_independence),
        cmocka_unit_test(test_check_k),
        cmocka_unit_test(test_lockstep_kepler),
        cmocka_unit_test(test_lockstep_million),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
