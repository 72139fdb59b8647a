/*
 * test_locality.c — hint-assisted locality-aware scheduling (issue 17,
 * seed 000 ch. 6, docs/locality.md), part 1:
 *
 *   - the launch hint: the per-kernel map of --locality / SMCOSIM_LOCALITY
 *     (parsing, mangled and demangled names), smc_launch_ext.locality_hint
 *     (a bad value is an error naming the kernel and the value), the
 *     gpu.locality_hint override, and the hint reaching the timing model;
 *   - CTA placement: which CTA goes to which SM for small grids under every
 *     hint, computed by hand here (the kernel writes %smid per CTA).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smcosim.h"
#include "timing.h"
#include "../../csrc/device/locality.h"

/* ---- the per-kernel map ---------------------------------------------------- */

static void test_map_parse(void **state)
{
    (void)state;
    locality_map m;
    char err[256];
    assert_int_equal(locality_map_parse(&m, NULL, err, sizeof err), 0);
    assert_int_equal(m.n, 0);
    assert_int_equal(locality_map_parse(&m, " gemm = 1 , _Z6jacobiPf=2,,mvt=0,", err, sizeof err), 0);
    assert_int_equal(m.n, 3);
    assert_string_equal(m.e[0].kernel, "gemm");
    assert_int_equal(m.e[0].hint, 1);
    assert_string_equal(m.e[1].kernel, "_Z6jacobiPf");
    assert_int_equal(m.e[1].hint, 2);
    assert_int_equal(m.e[2].hint, 0);

    /* a bad value names the kernel and the value */
    assert_int_equal(locality_map_parse(&m, "gemm=1,conv2d=7", err, sizeof err), -1);
    assert_non_null(strstr(err, "kernel conv2d"));
    assert_non_null(strstr(err, "'7'"));
    assert_int_equal(locality_map_parse(&m, "gemm=-1", err, sizeof err), -1);
    assert_non_null(strstr(err, "'-1'"));
    assert_int_equal(locality_map_parse(&m, "gemm=12", err, sizeof err), -1);
    assert_int_equal(locality_map_parse(&m, "gemm=", err, sizeof err), -1);
    assert_non_null(strstr(err, "kernel gemm"));
    assert_int_equal(locality_map_parse(&m, "gemm", err, sizeof err), -1);
    assert_non_null(strstr(err, "KERNEL=HINT"));
    assert_int_equal(locality_map_parse(&m, "=1", err, sizeof err), -1);
    assert_int_equal(locality_map_parse(&m, "gemm=1,gemm=2", err, sizeof err), -1);
    assert_non_null(strstr(err, "twice"));
}

static void test_kernel_names(void **state)
{
    (void)state;
    /* plain (extern "C") names: exact only */
    assert_true(locality_kernel_matches("gemm", "gemm"));
    assert_false(locality_kernel_matches("gem", "gemm"));
    /* mangled: the mangled name, the demangled name without parameters */
    assert_true(locality_kernel_matches("_Z4gemmPfS_S_", "_Z4gemmPfS_S_"));
    assert_true(locality_kernel_matches("gemm", "_Z4gemmPfS_S_"));
    assert_false(locality_kernel_matches("gemmP", "_Z4gemmPfS_S_"));
    assert_false(locality_kernel_matches("gem", "_Z4gemmPfS_S_"));
    /* nested names: qualified or last component; std:: */
    assert_true(locality_kernel_matches("ns::k2", "_ZN2ns2k2EPf"));
    assert_true(locality_kernel_matches("k2", "_ZN2ns2k2EPf"));
    assert_true(locality_kernel_matches("a::b::conv", "_ZN1a1b4convEv"));
    assert_true(locality_kernel_matches("std::foo", "_ZNSt3fooEv"));
    /* internal linkage, template arguments */
    assert_true(locality_kernel_matches("st", "_ZL2stPi"));
    assert_true(locality_kernel_matches("tk", "_Z2tkIfEvPT_"));
    assert_true(locality_kernel_matches("ns::tk", "_ZN2ns2tkIiEEvPT_"));
    /* not demangled: only the exact name */
    assert_false(locality_kernel_matches("x", "_Z"));
    assert_false(locality_kernel_matches("x", "_Z99x"));

    locality_map m;
    char err[256];
    uint32_t h = 9;
    assert_int_equal(locality_map_parse(&m, "ns::k2=3,gemm=1", err, sizeof err), 0);
    assert_true(locality_map_lookup(&m, "_ZN2ns2k2EPf", &h));
    assert_int_equal(h, 3);
    assert_true(locality_map_lookup(&m, "_Z4gemmPfS_S_", &h));
    assert_int_equal(h, 1);
    assert_false(locality_map_lookup(&m, "_Z4gemvPf", &h));
}

/* ---- a device with a kernel that writes %smid per CTA ----------------------- */

/* _Z4workPj(out): m dependent adds (so that CTAs stay resident while the
 * first wave is placed), then thread 0 stores %smid to out[linear ctaid]. */
static char *ptx_smid(int m)
{
    size_t cap = 4096 + (size_t)m * 40;
    char *s = malloc(cap);
    assert_non_null(s);
    int n = snprintf(s, cap,
        ".version 9.0\n.target sm_75\n.address_size 64\n\n"
        ".visible .entry _Z4workPj(.param .u64 out)\n{\n"
        ".reg .pred %%p<4>;\n.reg .f32 %%f<8>;\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<8>;\n"
        "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\ncvt.rn.f32.u32 %%f1, %%r1;\n"
        "mov.f32 %%f2, %%f1;\n");
    for (int i = 0; i < m; i++)
        n += snprintf(s + n, cap - (size_t)n, "add.f32 %%f2, %%f2, %%f1;\n");
    snprintf(s + n, cap - (size_t)n,
        "setp.ne.u32 %%p1, %%r1, 0;\n@%%p1 bra DONE;\n"
        "mov.u32 %%r2, %%ctaid.x;\nmov.u32 %%r3, %%ctaid.y;\nmov.u32 %%r4, %%nctaid.x;\n"
        "mad.lo.s32 %%r5, %%r3, %%r4, %%r2;\nmov.u32 %%r6, %%smid;\n"
        "mul.wide.u32 %%rd2, %%r5, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
        "st.global.u32 [%%rd3], %%r6;\nDONE:\nret;\n}\n");
    return s;
}

typedef struct rig {
    smc_device *dev;
    smc_module *mod;
    smc_kernel *k;
    uint64_t out;
} rig;

static void rig_open(rig *r, const char *set, const char *locality)
{
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.mode = SMC_MODE_TIMING;
    o.sched = "c";
    o.config = "kepler-k20x";
    o.set = set;
    o.locality = locality;
    o.print_stats = -1;
    assert_int_equal(smc_device_create(&o, &r->dev), SMC_OK);
    char *ptx = ptx_smid(120);
    smc_status st = smc_module_load_ptx(r->dev, "work", ptx, strlen(ptx), &r->mod);
    free(ptx);
    if (st != SMC_OK)
        fail_msg("PTX: %s", smc_last_message(r->dev));
    assert_int_equal(smc_module_get_kernel(r->mod, "_Z4workPj", &r->k), SMC_OK);
    assert_int_equal(smc_malloc(r->dev, 4096, SMC_MEM_DEVICE, &r->out), SMC_OK);
}

/* Launch grid gx x gy of one-warp CTAs with ext hint `hint`; the SM of every
 * CTA (by linear id) into sm[]; returns the launch's statistics. */
static const timing_stats *run(rig *r, unsigned gx, unsigned gy, uint32_t hint, uint32_t *sm)
{
    smc_launch_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.locality_hint = hint;
    smc_status st = smc_launch(r->dev, r->k, (smc_dim3){ gx, gy, 1 }, (smc_dim3){ 32, 1, 1 }, 0, 0,
                               &r->out, 8, &ext);
    if (st != SMC_OK)
        fail_msg("launch: %s: %s", smc_status_name(st), smc_last_message(r->dev));
    if (sm)
        assert_int_equal(smc_memcpy_dtoh(r->dev, sm, r->out, 4 * gx * gy), SMC_OK);
    const timing_stats *s = smc_device_timing(r->dev, smc_launch_count(r->dev) - 1);
    assert_non_null(s);
    return s;
}

static void test_launch_hint(void **state)
{
    (void)state;
    rig r = { 0 };
    rig_open(&r, "mem.num_sms=3;sm.max_ctas=4", NULL);
    /* a value above 3 is an error naming the kernel and the value */
    smc_launch_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.locality_hint = 4;
    assert_int_equal(smc_launch(r.dev, r.k, (smc_dim3){ 2, 1, 1 }, (smc_dim3){ 32, 1, 1 }, 0, 0,
                                &r.out, 8, &ext), SMC_ERR_INVALID_VALUE);
    assert_non_null(strstr(smc_last_message(r.dev), "_Z4workPj"));
    assert_non_null(strstr(smc_last_message(r.dev), "hint 4"));
    smc_device_reset(r.dev);
    assert_int_equal(smc_malloc(r.dev, 4096, SMC_MEM_DEVICE, &r.out), SMC_OK);
    /* the hint reaches the timing model and its statistics */
    assert_int_equal(run(&r, 2, 1, 0, NULL)->locality_hint, 0);
    assert_int_equal(run(&r, 2, 1, 2, NULL)->locality_hint, 2);
    smc_device_destroy(r.dev);

    /* the per-kernel map (demangled name); the launch's own hint wins */
    rig_open(&r, "mem.num_sms=3", "work=3");
    assert_int_equal(run(&r, 2, 1, 0, NULL)->locality_hint, 3);
    assert_int_equal(run(&r, 2, 1, 1, NULL)->locality_hint, 1);
    smc_device_destroy(r.dev);
    /* a map that names another kernel leaves it alone */
    rig_open(&r, "mem.num_sms=3", "_Z4workPf=1, other=2");
    assert_int_equal(run(&r, 2, 1, 0, NULL)->locality_hint, 0);
    smc_device_destroy(r.dev);
    /* gpu.locality_hint forces one hint on every launch */
    rig_open(&r, "mem.num_sms=3;gpu.locality_hint=0", "work=3");
    assert_int_equal(run(&r, 2, 1, 2, NULL)->locality_hint, 0);
    smc_device_destroy(r.dev);
    rig_open(&r, "mem.num_sms=3;gpu.locality_hint=1", NULL);
    assert_int_equal(run(&r, 2, 1, 0, NULL)->locality_hint, 1);
    smc_device_destroy(r.dev);

    /* a bad map refuses the device */
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.mode = SMC_MODE_TIMING;
    o.locality = "work=5";
    smc_device *d = NULL;
    assert_int_equal(smc_device_create(&o, &d), SMC_ERR_UNSUPPORTED);
    assert_null(d);
}

/* ---- CTA placement, computed by hand ----------------------------------------
 * Linear CTA id = y * gx + x. The expected SM of each CTA follows the rules
 * of docs/locality.md (dispatch.c): round-robin for hint 0; for hints 1..3
 * chunks of k0 = min(N_slot, ceil(CTAs / SMs)) positions (gpu.dispatch_chunk
 * when set) in rounds of SMs x k0, the tail after the last full round cut
 * into SMs near-equal chunks; claimed by SMs in id order when they have a
 * free slot; x-major positions for hints 1 and 3, column-major for hint 2. */

static void expect_sms(const uint32_t *got, const uint32_t *want, unsigned n, const char *what)
{
    for (unsigned i = 0; i < n; i++)
        if (got[i] != want[i]) {
            char g[256] = "", w[256] = "";
            for (unsigned j = 0; j < n; j++) {
                snprintf(g + strlen(g), sizeof g - strlen(g), "%u ", got[j]);
                snprintf(w + strlen(w), sizeof w - strlen(w), "%u ", want[j]);
            }
            fail_msg("%s: CTA %u on SM %u, expected SM %u\n  got:      %s\n  expected: %s",
                     what, i, got[i], want[i], g, w);
        }
}

static void test_dispatch_one_wave(void **state)
{
    (void)state;
    rig r = { 0 };
    /* 3 SMs, N_slot = 4 (sm.max_ctas), one-warp CTAs; grid 4 x 3 = 12 CTAs:
     * one wave, k = min(4, ceil(12 / 3)) = 4 */
    rig_open(&r, "mem.num_sms=3;sm.max_ctas=4", NULL);
    uint32_t sm[12];
    /* hint 0, round-robin: cycle 0 gives CTAs 0, 1, 2 to SMs 0, 1, 2, cycle 1
     * CTAs 3, 4, 5, ...: CTA i on SM i mod 3 */
    static const uint32_t rr[12] = { 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2 };
    const timing_stats *s = run(&r, 4, 3, 0, sm);
    expect_sms(sm, rr, 12, "hint 0");
    assert_int_equal(s->locality_hint, 0);
    assert_int_equal(s->dispatch_chunk, 0);
    /* hint 1, x-major: SM s owns positions 4s..4s+3 = the row y = s */
    static const uint32_t rows[12] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 };
    s = run(&r, 4, 3, 1, sm);
    expect_sms(sm, rows, 12, "hint 1");
    assert_int_equal(s->locality_hint, 1);
    assert_int_equal(s->dispatch_chunk, 4);
    /* hint 3: the same order as hint 1 */
    run(&r, 4, 3, 3, sm);
    expect_sms(sm, rows, 12, "hint 3");
    /* hint 2, column-major: position p = x * 3 + y. SM 0: p 0..3 = (0,0)
     * (0,1) (0,2) (1,0) = CTAs 0 4 8 1; SM 1: p 4..7 = (1,1) (1,2) (2,0)
     * (2,1) = CTAs 5 9 2 6; SM 2: p 8..11 = (2,2) (3,0) (3,1) (3,2) = CTAs
     * 10 3 7 11 */
    static const uint32_t cols[12] = { 0, 0, 1, 2, 0, 1, 1, 2, 0, 1, 2, 2 };
    run(&r, 4, 3, 2, sm);
    expect_sms(sm, cols, 12, "hint 2");
    /* hint 2 on a grid 3 x 4 whose columns are exactly one chunk: SM s gets
     * the column x = s (the same SMs as round-robin, by a different rule) */
    uint32_t sm2[12];
    static const uint32_t cols34[12] = { 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2 };
    run(&r, 3, 4, 2, sm2);
    expect_sms(sm2, cols34, 12, "hint 2, 3 x 4");
    /* hint 2, grid 2 x 6: column x = 0 is positions 0..5, x = 1 is 6..11.
     * SM 0: (0,0..3) = CTAs 0 2 4 6; SM 1: (0,4) (0,5) (1,0) (1,1) = 8 10 1 3;
     * SM 2: (1,2..5) = 5 7 9 11 */
    static const uint32_t cols26[12] = { 0, 1, 0, 1, 0, 2, 0, 2, 1, 2, 1, 2 };
    run(&r, 2, 6, 2, sm2);
    expect_sms(sm2, cols26, 12, "hint 2, 2 x 6");
    smc_device_destroy(r.dev);
}

static void test_dispatch_chunk_size(void **state)
{
    (void)state;
    rig r = { 0 };
    uint32_t sm[6];
    /* 6 CTAs, 3 SMs, N_slot 4: k = min(4, ceil(6 / 3)) = 2, every SM used */
    rig_open(&r, "mem.num_sms=3;sm.max_ctas=4", NULL);
    static const uint32_t k2[6] = { 0, 0, 1, 1, 2, 2 };
    assert_int_equal(run(&r, 6, 1, 1, sm)->dispatch_chunk, 2);
    expect_sms(sm, k2, 6, "hint 1, k = 2");
    smc_device_destroy(r.dev);
    /* gpu.dispatch_chunk = 4: SM 0 takes CTAs 0..3, SM 1 4..5, SM 2 none */
    rig_open(&r, "mem.num_sms=3;sm.max_ctas=4;gpu.dispatch_chunk=4", NULL);
    static const uint32_t k4[6] = { 0, 0, 0, 0, 1, 1 };
    assert_int_equal(run(&r, 6, 1, 1, sm)->dispatch_chunk, 4);
    expect_sms(sm, k4, 6, "hint 1, gpu.dispatch_chunk = 4");
    /* the chunk size does not touch hint 0 */
    static const uint32_t rr[6] = { 0, 1, 2, 0, 1, 2 };
    run(&r, 6, 1, 0, sm);
    expect_sms(sm, rr, 6, "hint 0, gpu.dispatch_chunk = 4");
    smc_device_destroy(r.dev);
}

static void test_dispatch_waves(void **state)
{
    (void)state;
    rig r = { 0 };
    uint32_t sm[8];
    /* 2 SMs, N_slot 2, 8 identical CTAs = 2 waves of 2 per SM; k = min(2, 4)
     * = 2. Cycle 0: SM 0 claims chunk 0 {0,1} and takes CTA 0, SM 1 claims
     * chunk 1 {2,3} and takes CTA 2; cycle 1: CTAs 1 and 3. Both SMs are
     * then full; CTA 0 and CTA 2 end in the same cycle (same work, same
     * start), SM 0 (visited first) claims chunk 2 {4,5}, SM 1 chunk 3 {6,7};
     * a cycle later CTAs 1 and 3 end and 5 and 7 start. */
    rig_open(&r, "mem.num_sms=2;sm.max_ctas=2", NULL);
    static const uint32_t loc[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
    const timing_stats *s = run(&r, 8, 1, 1, sm);
    expect_sms(sm, loc, 8, "hint 1, two waves");
    assert_int_equal(s->waves, 2);
    static const uint32_t rr[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
    run(&r, 8, 1, 0, sm);
    expect_sms(sm, rr, 8, "hint 0, two waves");
    smc_device_destroy(r.dev);

    /* the tail is cut evenly: 3 SMs, N_slot 2, 10 CTAs: k0 = min(2,
     * ceil(10/3)) = 2, one full round of 3 x 2 = 6 positions: cycle 0 SM 0
     * {0,1}, SM 1 {2,3}, SM 2 {4,5}. The tail is R = 4 positions in chunks
     * of 2, 1, 1. CTAs 0, 2, 4 end together: SM 0 claims {6,7}, SM 1 {8},
     * SM 2 {9}. (A fixed k = 2 would give SM 1 {8,9} and SM 2 nothing.) */
    uint32_t sm10[10];
    rig_open(&r, "mem.num_sms=3;sm.max_ctas=2", NULL);
    static const uint32_t tail[10] = { 0, 0, 1, 1, 2, 2, 0, 0, 1, 2 };
    assert_int_equal(run(&r, 10, 1, 1, sm10)->dispatch_chunk, 2);
    expect_sms(sm10, tail, 10, "hint 1, shrinking last chunks");
    smc_device_destroy(r.dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_parse),
        cmocka_unit_test(test_kernel_names),
        cmocka_unit_test(test_launch_hint),
        cmocka_unit_test(test_dispatch_one_wave),
        cmocka_unit_test(test_dispatch_chunk_size),
        cmocka_unit_test(test_dispatch_waves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
