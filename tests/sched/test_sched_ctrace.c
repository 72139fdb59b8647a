/*
 * test_sched_ctrace.c -- the C model's FST trace (sched_cmodel_create_traced).
 *
 * Traces are read back with fstapi's reader (in libsmc_vsched.a):
 *   - a hand-made scenario: launch, pushes, and the issue ports at the FST
 *     times the contract gives (push at the edge ending cycle t, issue in
 *     cycle t+1, whose outputs the trace shows at the edge ending t: time
 *     2t+1);
 *   - the port signals and the six parameters of a C trace and an RTL trace
 *     of the same random stimulus are identical, value for value (a
 *     waveform-level differential check);
 *   - the window [start, end) is honoured;
 *   - an unwritable path fails with a message naming it and leaves no file.
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

#include "gtkwave/fstapi.h"
#include "sched_if.h"
#include "sched_stim.h"

/* ---- an FST file's top-scope signals and their changes ------------------ */

#define MAX_SIGS 96

typedef struct change {
    uint64_t time;
    unsigned sig;
    char    *value;                 /* '0'/'1', MSB first */
} change;

typedef struct wave {
    char      name[MAX_SIGS][48];
    uint32_t  width[MAX_SIGS];
    unsigned  nsig;
    unsigned  nested_vars;          /* signals (not parameters) of sched_core.sched_core */
    fstHandle handle[MAX_SIGS];     /* several variables may share a handle (FST
                                       aliases: Verilator's equal parameters) */
    uint8_t  *wanted;               /* per fst handle: some sig has it */
    uint32_t  nmap;
    change   *ch;
    size_t    n, cap;
} wave;

static void on_change(void *user, uint64_t time, fstHandle h, const unsigned char *value)
{
    wave *w = user;
    if (h >= w->nmap || !w->wanted[h]) return;
    for (unsigned k = 0; k < w->nsig; k++) {
        if (w->handle[k] != h) continue;
        if (w->n == w->cap) {
            w->cap = w->cap ? 2 * w->cap : 4096;
            w->ch = realloc(w->ch, w->cap * sizeof *w->ch);
            assert_non_null(w->ch);
        }
        w->ch[w->n++] = (change){ time, k, strdup((const char *)value) };
    }
}

/* The six parameters of the interface (docs/sched-interface.md). */
static const char *const param_names[] = { "NumWarps", "NumSchedulers", "RegIdWidth",
                                           "IbufDepth", "SbEntries", "WbPorts", "RcuDepth",
                                           "RenEntries" };

/* `name` (not NUL-terminated, "NumWarps [31:0]" as Verilator names vectors)
 * is one of them. */
static int is_interface_param(const char *name, size_t len)
{
    const char *space = memchr(name, ' ', len);
    size_t base = space ? (size_t)(space - name) : len;
    for (size_t i = 0; i < sizeof param_names / sizeof param_names[0]; i++)
        if (strlen(param_names[i]) == base && strncmp(name, param_names[i], base) == 0) return 1;
    return 0;
}

/* The variables directly in the top scope `sched_core`; with `params`, also
 * the eight interface parameters of the nested scope `sched_core.sched_core`
 * (named "param NAME"). Counts the nested scope's signals. */
static void wave_read(wave *w, const char *path, int params)
{
    memset(w, 0, sizeof *w);
    void *r = fstReaderOpen(path);
    if (!r) fail_msg("cannot read %s", path);
    w->nmap = (uint32_t)fstReaderGetMaxHandle(r) + 1;
    w->wanted = calloc(w->nmap, 1);
    assert_non_null(w->wanted);
    struct fstHier *h;
    int depth = 0;
    while ((h = fstReaderIterateHier(r))) {
        if (h->htyp == FST_HT_SCOPE) {
            depth++;
            if (depth == 1) assert_string_equal(h->u.scope.name, "sched_core");
        } else if (h->htyp == FST_HT_UPSCOPE) {
            depth--;
        } else if (h->htyp == FST_HT_VAR && depth == 1 && h->u.var.typ == FST_VT_VCD_WIRE) {
            assert_true(w->nsig < MAX_SIGS);
            snprintf(w->name[w->nsig], sizeof w->name[0], "%.*s", (int)h->u.var.name_length,
                     h->u.var.name);
            w->width[w->nsig] = h->u.var.length;
            w->handle[w->nsig++] = h->u.var.handle;
            w->wanted[h->u.var.handle] = 1;
        } else if (h->htyp == FST_HT_VAR && depth == 2) {
            if (h->u.var.typ != FST_VT_VCD_PARAMETER) w->nested_vars++;
            if (params && h->u.var.typ == FST_VT_VCD_PARAMETER &&
                is_interface_param(h->u.var.name, h->u.var.name_length)) {
                assert_true(w->nsig < MAX_SIGS);
                snprintf(w->name[w->nsig], sizeof w->name[0], "param %.*s",
                         (int)h->u.var.name_length, h->u.var.name);
                w->width[w->nsig] = h->u.var.length;
                w->handle[w->nsig++] = h->u.var.handle;
                w->wanted[h->u.var.handle] = 1;
            }
        }
    }
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks(r, on_change, w, NULL);
    fstReaderClose(r);
}

static void wave_free(wave *w)
{
    for (size_t i = 0; i < w->n; i++) free(w->ch[i].value);
    free(w->ch);
    free(w->wanted);
}

/* By full name ("policy_i [1:0]") or base name ("policy_i"). */
static int sig_index(const wave *w, const char *name)
{
    size_t n = strlen(name);
    for (unsigned k = 0; k < w->nsig; k++)
        if (strcmp(w->name[k], name) == 0 ||
            (strncmp(w->name[k], name, n) == 0 && w->name[k][n] == ' '))
            return (int)k;
    fail_msg("no signal %s", name);
    return -1;
}

/* Bits [lo, lo+width) of signal `name` at `time` (its last change at or before). */
static uint64_t value_at(const wave *w, const char *name, uint64_t time, unsigned lo, unsigned width)
{
    int k = sig_index(w, name);
    const char *v = NULL;
    for (size_t i = 0; i < w->n && w->ch[i].time <= time; i++)
        if (w->ch[i].sig == (unsigned)k) v = w->ch[i].value;
    if (!v) fail_msg("%s has no value at time %" PRIu64, name, time);
    uint64_t x = 0;
    for (unsigned b = 0; b < width; b++)
        if (v[w->width[k] - 1 - (lo + b)] == '1') x |= 1ull << b;
    return x;
}

static void temp_path(char *path, size_t len)
{
    snprintf(path, len, "/tmp/sched_ctrace_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

static int tmp_exists(const char *path)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    return exists(tmp);
}

/* ---- tests -------------------------------------------------------------- */

/* Default params (4 schedulers): warps 1 and 5 belong to scheduler 1. */
static void test_hand_scenario(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char path[64], err[512];
    temp_path(path, sizeof path);
    sched_trace_opts t = { .path = path, .start = 0, .end = 0 };
    sched_backend *b = sched_cmodel_create_traced(&p, &t, err, sizeof err);
    if (!b) fail_msg("create: %s", err);
    sched_inputs in;
    memset(&in, 0, sizeof in);
    for (unsigned s = 0; s < 4; s++) in.unit_avail[s] = 0xF;
    in.policy = SCHED_POLICY_LRR;
    for (unsigned c = 0; c < 10; c++) {
        in.launch = c == 0 ? (1ull << 1) | (1ull << 5) : 0;
        memset(in.push, 0, sizeof in.push);
        if (c == 1 || c == 4) {                 /* warp 1 at cycle 1, warp 5 at cycle 4 */
            in.push[1].valid = 1;
            in.push[1].warp = c == 1 ? 1 : 5;
            in.push[1].instr.pc = c == 1 ? 0x40 : 0x44;
        }
        assert_int_equal(sched_step(b, &in), 0);
    }
    sched_destroy(b);
    assert_false(tmp_exists(path));

    wave w;
    wave_read(&w, path, 0);
    /* time 0: after reset, clock low, nothing issues */
    assert_int_equal(value_at(&w, "clk_i", 0, 0, 1), 0);
    assert_int_equal(value_at(&w, "rst_ni", 0, 0, 1), 1);
    assert_int_equal(value_at(&w, "issue_valid_o", 0, 0, 4), 0);
    /* edge ending cycle 0 at time 1: the launch; clock high, low again at 2 */
    assert_int_equal(value_at(&w, "launch_i", 1, 0, 64), 0x22);
    assert_int_equal(value_at(&w, "clk_i", 1, 0, 1), 1);
    assert_int_equal(value_at(&w, "clk_i", 2, 0, 1), 0);
    assert_int_equal(value_at(&w, "launch_i", 3, 0, 64), 0);
    /* push of warp 1 at the edge ending cycle 1 (time 3): it issues in
     * cycle 2, shown from time 3 until the edge ending cycle 2 (time 5) */
    assert_int_equal(value_at(&w, "push_valid_i", 3, 0, 4), 0x2);
    assert_int_equal(value_at(&w, "push_warp_i", 3, 6, 6), 1);
    assert_int_equal(value_at(&w, "issue_valid_o", 2, 0, 4), 0);
    assert_int_equal(value_at(&w, "issue_valid_o", 3, 0, 4), 0x2);
    assert_int_equal(value_at(&w, "issue_valid_o", 4, 0, 4), 0x2);
    assert_int_equal(value_at(&w, "issue_warp_o", 3, 6, 6), 1);
    assert_int_equal(value_at(&w, "issue_pc_o", 3, 32, 32), 0x40);
    assert_int_equal(value_at(&w, "issue_valid_o", 5, 0, 4), 0);
    assert_int_equal(value_at(&w, "issue_warp_o", 5, 6, 6), 0);
    /* push of warp 5 at the edge ending cycle 4 (time 9): issue in cycle 5 */
    assert_int_equal(value_at(&w, "issue_valid_o", 8, 0, 4), 0);
    assert_int_equal(value_at(&w, "issue_valid_o", 9, 0, 4), 0x2);
    assert_int_equal(value_at(&w, "issue_warp_o", 9, 6, 6), 5);
    assert_int_equal(value_at(&w, "issue_pc_o", 9, 32, 32), 0x44);
    assert_int_equal(value_at(&w, "issue_valid_o", 11, 0, 4), 0);
    /* scheduler 1's issue counter (counters_o word 8*1 + 0) */
    assert_int_equal(value_at(&w, "counters_o", 20, 32 * 8, 32), 2);
    /* last time: the falling edge ending cycle 9 = 2 * 10 */
    assert_int_equal(w.ch[w.n - 1].time, 20);
    wave_free(&w);
    unlink(path);
}

/* Drive a back end with seeded random stimulus for `cycles` cycles. */
static void run_stim_opts(sched_backend *b, const sched_params *p, uint64_t seed, unsigned cycles,
                          int haws)
{
    sched_stim_opts so = { .seed = seed, .policy = -1, .reg_range = 0, .haws = haws };
    sched_stim *st = sched_stim_create(p, &so);
    assert_non_null(st);
    sched_inputs in;
    for (unsigned c = 0; c < cycles; c++) {
        sched_stim_next(st, sched_get_outputs(b), &in);
        if (sched_step(b, &in) != 0) fail_msg("step %u: %s", c, sched_error(b));
    }
    sched_stim_destroy(st);
}

static void run_stim(sched_backend *b, const sched_params *p, uint64_t seed, unsigned cycles)
{
    run_stim_opts(b, p, seed, cycles, 0);
}

/* The changes of one signal, with repeats of the same value dropped. */
static size_t changes_of(const wave *w, unsigned k, change *out)
{
    size_t n = 0;
    for (size_t i = 0; i < w->n; i++) {
        if (w->ch[i].sig != k) continue;
        if (n > 0 && strcmp(out[n - 1].value, w->ch[i].value) == 0) continue;
        out[n++] = w->ch[i];
    }
    return n;
}

static void test_same_ports_as_rtl(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);           /* the parameter set built with tracing */
    char cpath[64], rpath[64], err[512];
    temp_path(cpath, sizeof cpath);
    temp_path(rpath, sizeof rpath);
    sched_trace_opts tc = { .path = cpath, .start = 3, .end = 0 };
    sched_trace_opts tr = { .path = rpath, .start = 3, .end = 0 };
    sched_backend *c = sched_cmodel_create_traced(&p, &tc, err, sizeof err);
    if (!c) fail_msg("cmodel: %s", err);
    sched_backend *r = sched_rtl_create(&p, &tr, err, sizeof err);
    if (!r) fail_msg("rtl: %s", err);
    /* with HAWS stimulus, so that its ports move too */
    run_stim_opts(c, &p, 11, 3000, 1);
    run_stim_opts(r, &p, 11, 3000, 1);
    /* a second reset continues the file after the last time */
    sched_reset(c);
    sched_reset(r);
    run_stim(c, &p, 12, 500);
    run_stim(r, &p, 12, 500);
    sched_destroy(c);
    sched_destroy(r);

    wave wc, wr;
    wave_read(&wc, cpath, 1);
    wave_read(&wr, rpath, 1);
    /* clk_i, rst_ni, the 79 ports (37 before HAWS added 16, OAWS 16, the grouped policy 2, the
     * peers CCWS and MASCAR 8) and the eight parameters */
    assert_int_equal(wc.nsig, 81 + 8);
    assert_int_equal(wr.nsig, wc.nsig);
    /* the nested scope repeats the ports, as Verilator's does (the RTL's
     * also has its internal signals) */
    assert_int_equal(wc.nested_vars, 81);
    assert_true(wr.nested_vars > 81);
    change *a = malloc(wc.n * sizeof *a), *bb = malloc(wr.n * sizeof *bb);
    assert_non_null(a);
    assert_non_null(bb);
    size_t total = 0;
    for (unsigned k = 0; k < wc.nsig; k++) {
        int kr = sig_index(&wr, wc.name[k]);
        assert_int_equal(wc.width[k], wr.width[kr]);
        size_t na = changes_of(&wc, k, a), nb = changes_of(&wr, (unsigned)kr, bb);
        for (size_t i = 0; i < na && i < nb; i++)
            if (a[i].time != bb[i].time || strcmp(a[i].value, bb[i].value) != 0)
                fail_msg("%s: change %zu: C at %" PRIu64 " = %s, RTL at %" PRIu64 " = %s",
                         wc.name[k], i, a[i].time, a[i].value, bb[i].time, bb[i].value);
        if (na != nb) fail_msg("%s: %zu changes in C, %zu in RTL", wc.name[k], na, nb);
        total += na;
        /* every HAWS port moves (valid bits and kinds more than a few times) */
        static const char *const haws_ports[] = { "haws_i", "push_rcu_i", "hbr_valid_i",
                                                  "issue_hinted_o", "issue_copy_o",
                                                  "fetch_pc_valid_o", "fetch_pc_o",
                                                  "fetch_rcu_kind_o", "fetch_rcu_pc_o",
                                                  "haws_mode_o", "rcu_busy_o" };
        for (size_t i = 0; i < sizeof haws_ports / sizeof haws_ports[0]; i++)
            if (sig_index(&wc, haws_ports[i]) == (int)k && na < 6)
                fail_msg("%s: only %zu changes", wc.name[k], na);
    }
    /* the stimulus really moves the ports (issues, pushes, writebacks) */
    assert_true(total > 5000);
    free(a);
    free(bb);
    wave_free(&wc);
    wave_free(&wr);
    unlink(cpath);
    unlink(rpath);
}

static void test_window(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char path[64], err[512];
    temp_path(path, sizeof path);
    sched_trace_opts t = { .path = path, .start = 10, .end = 20 };
    sched_backend *b = sched_cmodel_create_traced(&p, &t, err, sizeof err);
    if (!b) fail_msg("create: %s", err);
    run_stim(b, &p, 3, 20);
    /* the window has ended: the file is already complete and in place */
    assert_false(tmp_exists(path));
    run_stim(b, &p, 4, 30);
    sched_destroy(b);
    wave w;
    wave_read(&w, path, 0);
    assert_true(w.n > 0);
    /* FST time: 2 per cycle; cycles 10..19 are times 20..39 */
    assert_int_equal(w.ch[0].time, 20);
    assert_int_equal(w.ch[w.n - 1].time, 39);
    /* every port has its full value at the window's first time */
    for (unsigned k = 0; k < w.nsig; k++) {
        int seen = 0;
        for (size_t i = 0; i < w.n && w.ch[i].time == 20; i++) seen |= w.ch[i].sig == k;
        if (!seen) fail_msg("%s not written at time 20", w.name[k]);
    }
    wave_free(&w);
    unlink(path);
}

static void test_unwritable_path(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char dir[] = "/tmp/sched_ctrace_dir_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/missing/trace.fst", dir);
    sched_trace_opts t = { .path = path, .start = 0, .end = 0 };
    assert_null(sched_cmodel_create_traced(&p, &t, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_false(exists(path));
    assert_false(tmp_exists(path));
    /* nothing at all left behind in the directory */
    assert_int_equal(rmdir(dir), 0);
}

static void test_untraced_is_plain_cmodel(void **state)
{
    (void)state;
    sched_params p;
    sched_params_default(&p);
    char err[512];
    sched_backend *b = sched_cmodel_create_traced(&p, NULL, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(sched_backend_name(b), "cmodel");
    sched_destroy(b);
    sched_trace_opts t = { .path = NULL, .start = 0, .end = 0 };
    b = sched_cmodel_create_traced(&p, &t, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(sched_backend_name(b), "cmodel");
    sched_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_scenario),
        cmocka_unit_test(test_same_ports_as_rtl),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_unwritable_path),
        cmocka_unit_test(test_untraced_is_plain_cmodel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
