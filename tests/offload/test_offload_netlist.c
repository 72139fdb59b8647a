/*
 * test_offload_netlist.c -- the "netlist" offload transport
 * (cosim/offload/offload_netlist.c, netlist.cl) and its program files
 * (scripts/offload/netlist_gen.py, cosim/offload/snl.h).
 *
 *   - token <-> bit-slice transposes: a round trip and single bits;
 *   - the C reference evaluator of the program equals Verilator (the same
 *     RTL, one Verilated instance per lane) on every output bit of every
 *     cycle: 64 lanes with their own stimulus seeds, held lanes and resets;
 *   - the netlist transport on the OpenCL device (PoCL here) equals the
 *     cmodel transport through the transport interface, for 1, 63, 64, 65
 *     and 80 lanes, k = 1, 7 and 64, held lanes and mid-run resets, over more
 *     than a million lane-cycles;
 *   - a planted flip in the program is caught, by both comparisons;
 *   - open's errors: a missing file, another parameter set, a stale RTL
 *     hash, a damaged file, no OpenCL platform (a child process with
 *     OCL_ICD_VENDORS pointing to an empty folder).
 *
 * Built twice: test_offload_netlist (the tiny set, make check) and, with
 * -DSNL_LONG, test_offload_netlist_long (the Kepler and Fermi presets, make
 * check-long). A machine without an OpenCL platform fails the transport
 * tests with open's message (there is no skip).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "offload_transport.h"
#include "sched_ports.h"
#include "sched_stim.h"
#include "snl.h"

#ifndef SNL_TEST_DIR
#define SNL_TEST_DIR "build/offload"
#endif

static const char *self_exe;

/* the sets of this build: the tiny one of the HAWS tests (an existing
 * Verilated class, VSCHED_CONFIGS), or the presets */
static const sched_params sets[] = {
#ifndef SNL_LONG
    { .num_warps = 4, .num_schedulers = 1, .reg_id_width = 8, .ibuf_depth = 2,
      .sb_entries = 6, .wb_ports = 2, .rcu_depth = 2, .ren_entries = 1 },
#else
    { .num_warps = 48, .num_schedulers = 2, .reg_id_width = 6, .ibuf_depth = 3,
      .sb_entries = 4, .wb_ports = 2, .rcu_depth = 8, .ren_entries = 8 },
    { .num_warps = 64, .num_schedulers = 4, .reg_id_width = 8, .ibuf_depth = 2,
      .sb_entries = 6, .wb_ports = 4, .rcu_depth = 8, .ren_entries = 8 },
#endif
};
#define NUM_SETS (sizeof sets / sizeof sets[0])

static void set_path(const sched_params *p, char *buf, size_t len)
{
    snl_default_path(p, SNL_TEST_DIR, buf, len);
}

/* "port[bit]" of output token bit b. */
static void out_bit_name(const sched_params *p, unsigned b, char *buf, size_t len)
{
    unsigned lsb, w;
    snprintf(buf, len, "output bit %u", b);
#define SCHED_PORT(name, dir, ...)                                                       \
    SCHED_PORT_IF_OUT(dir, if (offload_port_lookup(p, #name, &lsb, &w) == 0 && b >= lsb && \
                               b < lsb + w) snprintf(buf, len, "%s[%u]", #name, b - lsb);)
#include "sched_ports.def"
}

/* The first differing bit of two output tokens, or -1. */
static int first_diff(const sched_params *p, const uint64_t *a, const uint64_t *b)
{
    unsigned bits = offload_out_bits(p);
    for (unsigned i = 0; i < offload_words(bits); i++)
        if (a[i] != b[i])
            return (int)(64 * i + (unsigned)__builtin_ctzll(a[i] ^ b[i]));
    return -1;
}

/* Lane l's control in cycle c: held now and then, reset rarely (the same
 * rule in every comparison, so that each lane's history differs). */
static uint8_t lane_ctl(unsigned l, unsigned c)
{
    uint8_t ctl = OFFLOAD_CTL_STEP;
    if ((c * 7 + l * 3) % 11 == 0)
        ctl = 0;
    if ((c + 131 * l) % 1700 == 900)
        ctl |= OFFLOAD_CTL_RESET;
    return ctl;
}

static void test_transpose(void **state)
{
    (void)state;
    enum { BITS = 200, LANES = 130 };
    unsigned tw = offload_words(BITS), nw = (LANES + 63) / 64 + 1;   /* one padding word */
    uint64_t *tok = calloc((size_t)LANES * tw, 8), *back = calloc((size_t)LANES * tw, 8);
    uint64_t *sl = calloc((size_t)BITS * nw, 8);
    uint64_t x = 88172645463325252ull;
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned t = 0; t < tw; t++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            tok[l * tw + t] = t == tw - 1 ? x & ((1ull << (BITS % 64)) - 1) : x;
        }
    snl_tokens_to_slices(BITS, LANES, nw, tok, sl);
    for (unsigned l = 0; l < LANES; l += 7)
        for (unsigned b = 0; b < BITS; b += 3)
            assert_int_equal((tok[l * tw + b / 64] >> (b % 64)) & 1,
                             (sl[(size_t)b * nw + l / 64] >> (l % 64)) & 1);
    /* lanes beyond LANES are zero in the last word */
    for (unsigned b = 0; b < BITS; b++)
        assert_int_equal(sl[(size_t)b * nw + nw - 1] >> (LANES % 64), 0);
    snl_slices_to_tokens(BITS, LANES, nw, sl, back);
    assert_memory_equal(tok, back, (size_t)LANES * tw * 8);
    free(tok);
    free(back);
    free(sl);
}

/* ---- the C evaluator against Verilator ------------------------------- */

/* 64 lanes, each a Verilated instance with its own stimulus; the program's
 * outputs equal Verilator's on every bit of every cycle. prog NULL: the
 * set's program file. Returns the first mismatch's cycle (or -1) and its
 * description in msg. */
static long eval_vs_verilator(const sched_params *p, const snl_program *prog, unsigned cycles,
                              char *msg, size_t msglen)
{
    enum { LANES = 64 };
    char err[512];
    snl_state *s = snl_state_create(prog, LANES);
    assert_non_null(s);
    sched_backend *rtl[LANES];
    sched_stim *st[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        rtl[l] = sched_rtl_create(p, NULL, err, sizeof err);
        if (!rtl[l])
            fail_msg("sched_rtl_create: %s", err);
        sched_stim_opts so = { .seed = 7000 + l, .policy = -1, .haws = p->rcu_depth > 0,
                               .groups = 1 };
        st[l] = sched_stim_create(p, &so);
    }
    unsigned ib = prog->in_bits, ob = prog->out_bits;
    unsigned iw = offload_words(ib), ow = offload_words(ob);
    uint64_t *in = calloc((size_t)LANES * iw, 8), *want = calloc((size_t)LANES * ow, 8);
    uint64_t *got = calloc((size_t)LANES * ow, 8);
    uint64_t *isl = calloc(ib + 1, 8), *osl = calloc(ob + 1, 8);
    long bad = -1;
    unsigned lsb_iv, w_iv;
    assert_int_equal(offload_port_lookup(p, "issue_valid_o", &lsb_iv, &w_iv), 0);
    uint64_t issues = 0;   /* the stimulus keeps the core busy (not a vacuous check) */
    for (unsigned c = 0; c < cycles && bad < 0; c++) {
        uint64_t step = 0, rst = 0;
        for (unsigned l = 0; l < LANES; l++) {
            uint8_t ctl = lane_ctl(l, c);
            if (ctl & OFFLOAD_CTL_RESET) {
                rst |= 1ull << l;
                sched_reset(rtl[l]);
            }
            sched_inputs si;
            sched_stim_next(st[l], sched_get_outputs(rtl[l]), &si);
            offload_pack_inputs(p, &si, in + (size_t)l * iw);
            if (ctl & OFFLOAD_CTL_STEP) {
                step |= 1ull << l;
                if (sched_step(rtl[l], &si) != 0)
                    fail_msg("lane %u cycle %u: Verilator refused the stimulus: %s", l, c,
                             sched_error(rtl[l]));
            }
            offload_pack_outputs(p, sched_get_outputs(rtl[l]), want + (size_t)l * ow);
            for (unsigned b = lsb_iv; b < lsb_iv + w_iv; b++)
                issues += (want[(size_t)l * ow + b / 64] >> (b % 64)) & 1;
        }
        snl_tokens_to_slices(ib, LANES, 1, in, isl);
        snl_eval_cycle(s, &step, &rst, isl, osl);
        snl_slices_to_tokens(ob, LANES, 1, osl, got);
        for (unsigned l = 0; l < LANES && bad < 0; l++) {
            int b = first_diff(p, want + (size_t)l * ow, got + (size_t)l * ow);
            if (b >= 0) {
                char name[96];
                out_bit_name(p, (unsigned)b, name, sizeof name);
                snprintf(msg, msglen, "cycle %u, lane %u, %s: verilator %d, program %d", c, l,
                         name, (int)((want[(size_t)l * ow + b / 64] >> (b % 64)) & 1),
                         (int)((got[(size_t)l * ow + b / 64] >> (b % 64)) & 1));
                bad = c;
            }
        }
    }
    free(in), free(want), free(got), free(isl), free(osl);
    if (bad < 0) {
        printf("%u cycles x %u lanes: program == Verilator on every output bit (%llu issues)\n",
               cycles, (unsigned)LANES, (unsigned long long)issues);
        assert_true(issues > (uint64_t)cycles * LANES / 50);
    }
    for (unsigned l = 0; l < LANES; l++) {
        sched_destroy(rtl[l]);
        sched_stim_destroy(st[l]);
    }
    snl_state_free(s);
    return bad;
}

static snl_program *load_set(const sched_params *p)
{
    char path[512], err[512];
    set_path(p, path, sizeof path);
    snl_program *g = snl_load(path, p, NULL, err, sizeof err);
    if (!g)
        fail_msg("%s", err);
    return g;
}

static void test_eval_vs_verilator(void **state)
{
    (void)state;
#ifndef SNL_LONG
    const unsigned cycles = 5000;
#else
    const unsigned cycles = 2000;
#endif
    for (size_t i = 0; i < NUM_SETS; i++) {
        snl_program *g = load_set(&sets[i]);
        char msg[256];
        long bad = eval_vs_verilator(&sets[i], g, cycles, msg, sizeof msg);
        if (bad >= 0)
            fail_msg("set %u_%u_%u: %s", sets[i].num_warps, sets[i].num_schedulers,
                     sets[i].reg_id_width, msg);
        snl_free(g);
    }
}

/* ---- the transport against the cmodel transport ---------------------- */

/* A copy of the set's program file with op `op` turned from AND into OR
 * (a wrong gate deep in the logic). Returns the path. */
static const char *planted_copy(const sched_params *p, char *out, size_t len)
{
    snl_program *g = load_set(p);
    /* the first AND in the second half of the input-side ops: logic that the
     * stimulus exercises (the issue path) rather than a constant corner */
    uint32_t victim = UINT32_MAX;
    for (uint32_t i = g->n_s_ops + (g->n_ops - g->n_s_ops) / 2; i < g->n_ops; i++)
        if (g->ops[4 * i] >> 24 == SNL_AND) {
            victim = i;
            break;
        }
    assert_int_not_equal(victim, UINT32_MAX);
    size_t off = (size_t)((const unsigned char *)(g->ops + 4 * victim) -
                          (const unsigned char *)g->file);
    unsigned char *bytes = g->file;
    bytes[off + 3] = SNL_OR;   /* the code is the top byte of the little-endian word */
    snprintf(out, len, "%s/planted-%d.snl", SNL_TEST_DIR, (int)getpid());
    FILE *f = fopen(out, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(g->file, 1, g->file_len, f), g->file_len);
    fclose(f);
    snl_free(g);
    return out;
}

/* Run `cycles` cycles of `lanes` lanes in exchanges of k through both
 * transports; returns the number of lane-cycles compared, or -1 with the
 * first mismatch in msg. */
static long transport_vs_cmodel(const sched_params *p, const char *spec, unsigned lanes,
                                unsigned k, unsigned cycles, uint64_t seed, unsigned vec,
                                char *msg, size_t msglen)
{
    char err[512];
    const offload_transport *tn, *tc;
    /* vec: the kernel's words per work-item (0: the transport's choice) */
    char vs[8];
    snprintf(vs, sizeof vs, "%u", vec);
    if (vec)
        setenv("SMCOSIM_SNL_VEC", vs, 1);
    offload_dev *dn = offload_open_spec(spec, p, lanes, &tn, err, sizeof err);
    unsetenv("SMCOSIM_SNL_VEC");
    if (!dn)
        fail_msg("%s", err);
    offload_dev *dc = offload_open_spec("cmodel", p, lanes, &tc, err, sizeof err);
    assert_non_null(dc);
    /* the stimulus is driven by C models of its own (the transports see
     * tokens k cycles at a time) */
    sched_backend **ref = calloc(lanes, sizeof *ref);
    sched_stim **st = calloc(lanes, sizeof *st);
    for (unsigned l = 0; l < lanes; l++) {
        ref[l] = sched_cmodel_create(p, err, sizeof err);
        sched_stim_opts so = { .seed = seed + 977 * l, .policy = -1, .haws = p->rcu_depth > 0,
                               .groups = 1 };
        st[l] = sched_stim_create(p, &so);
    }
    unsigned iw = offload_words(offload_in_bits(p)), ow = offload_words(offload_out_bits(p));
    uint8_t *ctl = calloc((size_t)k * lanes, 1);
    uint64_t *in = calloc((size_t)k * lanes * iw, 8);
    uint64_t *on = calloc((size_t)k * lanes * ow, 8), *oc = calloc((size_t)k * lanes * ow, 8);
    long done = 0;
    for (unsigned c0 = 0; c0 < cycles && done >= 0; c0 += k) {
        unsigned kk = cycles - c0 < k ? cycles - c0 : k;
        for (unsigned c = 0; c < kk; c++)
            for (unsigned l = 0; l < lanes; l++) {
                size_t i = (size_t)c * lanes + l;
                ctl[i] = lane_ctl(l, c0 + c);
                if (ctl[i] & OFFLOAD_CTL_RESET)
                    sched_reset(ref[l]);
                sched_inputs si;
                sched_stim_next(st[l], sched_get_outputs(ref[l]), &si);
                offload_pack_inputs(p, &si, in + i * iw);
                if ((ctl[i] & OFFLOAD_CTL_STEP) && sched_step(ref[l], &si) != 0)
                    fail_msg("lane %u: %s", l, sched_error(ref[l]));
            }
        if (tn->run(dn, kk, ctl, in, on, err, sizeof err) != 0)
            fail_msg("netlist run: %s", err);
        assert_int_equal(tc->run(dc, kk, ctl, in, oc, err, sizeof err), 0);
        for (unsigned c = 0; c < kk && done >= 0; c++)
            for (unsigned l = 0; l < lanes; l++) {
                size_t i = (size_t)c * lanes + l;
                int b = first_diff(p, oc + i * ow, on + i * ow);
                if (b >= 0) {
                    char name[96];
                    out_bit_name(p, (unsigned)b, name, sizeof name);
                    snprintf(msg, msglen, "lanes %u, k %u: cycle %u, lane %u, %s: cmodel %d, "
                             "netlist %d", lanes, k, c0 + c, l, name,
                             (int)((oc[i * ow + b / 64] >> (b % 64)) & 1),
                             (int)((on[i * ow + b / 64] >> (b % 64)) & 1));
                    done = -1;
                    break;
                }
                done++;
            }
    }
    free(ctl), free(in), free(on), free(oc);
    for (unsigned l = 0; l < lanes; l++) {
        sched_destroy(ref[l]);
        sched_stim_destroy(st[l]);
    }
    free(ref), free(st);
    tn->close(dn);
    tc->close(dc);
    return done;
}

static void test_transport_vs_cmodel(void **state)
{
    (void)state;
    /* lanes, cycles per exchange, cycles, words per work-item (0: the
     * transport's choice: 1 below 256 lanes, 2 for 200) */
    static const struct { unsigned lanes, k, cycles, vec; } runs[] = {
#ifndef SNL_LONG
        { 1, 1, 3000, 0 }, { 63, 7, 3000, 0 }, { 64, 64, 4000, 0 }, { 65, 1, 1500, 0 },
        { 80, 64, 12000, 0 }, { 80, 7, 1400, 8 }, { 200, 64, 1000, 0 }, { 65, 7, 500, 4 },
#else
        { 1, 1, 500, 0 }, { 65, 7, 1000, 0 }, { 80, 64, 2000, 0 }, { 80, 1, 200, 4 },
#endif
    };
    for (size_t s = 0; s < NUM_SETS; s++) {
        long total = 0;
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            char msg[256];
            long n = transport_vs_cmodel(&sets[s], "netlist", runs[r].lanes, runs[r].k,
                                         runs[r].cycles, 100 * r + 1, runs[r].vec, msg,
                                         sizeof msg);
            if (n < 0)
                fail_msg("set %u_%u_%u: %s", sets[s].num_warps, sets[s].num_schedulers,
                         sets[s].reg_id_width, msg);
            assert_int_equal(n, (long)runs[r].lanes * runs[r].cycles);
            total += n;
        }
        printf("set %u_%u_%u...: %ld lane-cycles, netlist transport == cmodel transport\n",
               sets[s].num_warps, sets[s].num_schedulers, sets[s].reg_id_width, total);
#ifndef SNL_LONG
        assert_true(total >= 1000000);
#endif
    }
}

/* A planted flip is caught by both comparisons. */
/* (make check only: unused in the long build) */
__attribute__((unused)) static void test_planted_flip(void **state)
{
    (void)state;
    const sched_params *p = &sets[0];
    char path[512], spec[600], msg[256], err[512];
    planted_copy(p, path, sizeof path);
    snprintf(spec, sizeof spec, "netlist:%s", path);
    long n = transport_vs_cmodel(p, spec, 65, 7, 3000, 5, 0, msg, sizeof msg);
    printf("planted flip, transport: %s\n", n < 0 ? msg : "not caught");
    assert_true(n < 0);
    assert_non_null(strstr(msg, "cycle "));
    assert_non_null(strstr(msg, "lane "));
    snl_program *g = snl_load(path, p, NULL, err, sizeof err);
    assert_non_null(g);
    long bad = eval_vs_verilator(p, g, 3000, msg, sizeof msg);
    printf("planted flip, C evaluator vs Verilator: %s\n", bad >= 0 ? msg : "not caught");
    assert_true(bad >= 0);
    snl_free(g);
    remove(path);
}

/* ---- open's errors ---------------------------------------------------- */

static void expect_open_error(const sched_params *p, const char *spec, const char *want)
{
    char err[1024];
    const offload_transport *t;
    offload_dev *d = offload_open_spec(spec, p, 64, &t, err, sizeof err);
    if (d) {
        t->close(d);
        fail_msg("'%s' opened; expected an error with '%s'", spec, want);
    }
    printf("%s -> %s\n", spec, err);
    if (!strstr(err, want))
        fail_msg("'%s': message '%s' lacks '%s'", spec, err, want);
}

/* A copy of the set's program file with bytes [off, off+n) replaced
 * (n == 0: truncated at off). */
static void damaged_copy(const sched_params *p, const char *path, size_t off, const void *b,
                         size_t n)
{
    char src[512], err[512];
    set_path(p, src, sizeof src);
    snl_program *g = snl_load(src, p, NULL, err, sizeof err);
    assert_non_null(g);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (n) {
        memcpy((unsigned char *)g->file + off, b, n);
        fwrite(g->file, 1, g->file_len, f);
    } else {
        fwrite(g->file, 1, off, f);
    }
    fclose(f);
    snl_free(g);
}

__attribute__((unused)) static void test_open_errors(void **state)
{
    (void)state;
    const sched_params *p = &sets[0];
    char path[512], spec[600];
    expect_open_error(p, "netlist:/nonexistent/x.snl", "No such file");
    /* the tiny program opened for another set */
    sched_params other = *p;
    other.ibuf_depth = 3;
    set_path(p, path, sizeof path);
    snprintf(spec, sizeof spec, "netlist:%s", path);
    expect_open_error(&other, spec, "built for parameter set 4_1_8_2_6_2_2_1, not the "
                                    "requested 4_1_8_3_6_2_2_1");
    /* the default path of a set without a program file */
    other.rcu_depth = 5;
    expect_open_error(&other, "netlist", "4_1_8_3_6_2_5_1.snl: No such file");
    /* stale: another RTL hash in the header (bytes 40..103) */
    snprintf(path, sizeof path, "%s/stale-%d.snl", SNL_TEST_DIR, (int)getpid());
    snprintf(spec, sizeof spec, "netlist:%s", path);
    damaged_copy(p, path, 40, "0000000000000000", 16);
    expect_open_error(p, spec, "stale: built from RTL with sha256 000000000000");
    /* truncated */
    damaged_copy(p, path, 4000, NULL, 0);
    expect_open_error(p, spec, "truncated or damaged");
    /* an op reading a slot not yet written (a damaged body) */
    uint32_t big = 0x00ffffff;
    damaged_copy(p, path, 4 * 51, &big, 4);
    expect_open_error(p, spec, "not yet written");
    damaged_copy(p, path, 0, "XNL1", 4);
    expect_open_error(p, spec, "not a netlist program");
    remove(path);
}

/* No OpenCL platform: a child process (the ICD loader reads its vendors
 * once per process) with OCL_ICD_VENDORS pointing to an empty folder. */
__attribute__((unused)) static void test_no_platform(void **state)
{
    (void)state;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/no-vendors-%d", SNL_TEST_DIR, (int)getpid());
    mkdir(dir, 0755);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("OCL_ICD_VENDORS", dir, 1);
        execl(self_exe, self_exe, "--no-platform-child", (char *)NULL);
        _exit(3);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    rmdir(dir);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static int no_platform_child(void)
{
    char err[1024];
    const offload_transport *t;
    offload_dev *d = offload_open_spec("netlist", &sets[0], 8, &t, err, sizeof err);
    if (d) {
        fprintf(stderr, "no-platform child: the transport opened\n");
        return 1;
    }
    printf("netlist (OCL_ICD_VENDORS=%s) -> %s\n", getenv("OCL_ICD_VENDORS"), err);
    if (!strstr(err, "no OpenCL platform")) {
        fprintf(stderr, "no-platform child: message lacks 'no OpenCL platform'\n");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    self_exe = argv[0];
    /* PoCL's kernel cache under build/, not in the home folder */
    setenv("POCL_CACHE_DIR", "build/pocl-cache", 0);
    if (argc > 1 && strcmp(argv[1], "--no-platform-child") == 0)
        return no_platform_child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_eval_vs_verilator),
        cmocka_unit_test(test_transport_vs_cmodel),
#ifndef SNL_LONG
        cmocka_unit_test(test_planted_flip),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_no_platform),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
