/*
 * test_timing.c — microbenchmarks with known answers for the timing model
 * (issue 5), written as PTX generated here so that every instruction is known:
 *
 *   - a dependent chain of N ALU instructions takes N x unit.sp.latency;
 *   - independent instructions from many warps issue one per cycle per
 *     scheduler (Kepler), or one per ii cycles (Fermi's 16-lane SIMD);
 *   - more CTAs than fit run in waves (GPUDIAG Eq. 3.2/3.3);
 *   - a pointer chase measures the configured L1 / L2 / DRAM latencies;
 *   - Eq. 3.1 limits return the CUDA-equivalent status;
 *   - the JSON statistics are byte-identical across runs.
 * Expected values are computed here from the configuration keys and the
 * latency formulas of docs/memory-model.md, not taken from the model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smcosim.h"
#include "timing.h"
#include "sched_if.h"

#include "tm_rig.h"

/* chain(out): N dependent fp32 adds between two clock reads. */
static void ptx_chain(sbuf *b, int n)
{
    header(b, "chain", ".param .u64 out, .param .f32 a");
    put(b, "ld.param.u64 %%rd1, [out];\nld.param.f32 %%f1, [a];\n");
    put(b, "add.f32 %%f2, %%f1, %%f1;\nmov.u32 %%r1, %%clock;\n");
    for (int i = 0; i < n; i++)
        put(b, "add.f32 %%f2, %%f2, %%f1;\n");
    put(b, "mov.u32 %%r2, %%clock;\nsub.s32 %%r3, %%r2, %%r1;\n");
    put(b, "st.global.u32 [%%rd1], %%r3;\nst.global.f32 [%%rd1+4], %%f2;\nret;\n}\n");
}

/* indep(out): every thread does k independent adds on 16 destinations. */
static void ptx_indep(sbuf *b, int k)
{
    header(b, "indep", ".param .u64 out");
    put(b, "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\ncvt.rn.f32.u32 %%f1, %%r1;\n");
    for (int i = 0; i < k; i++)
        put(b, "add.f32 %%f%d, %%f1, %%f1;\n", 2 + i % 16);
    put(b, "mov.u32 %%r2, %%ctaid.x;\nmov.u32 %%r3, %%ntid.x;\nmad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n");
    put(b, "mul.wide.u32 %%rd2, %%r4, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\n");
    put(b, "add.f32 %%f20, %%f2, %%f17;\nst.global.f32 [%%rd3], %%f20;\nret;\n}\n");
}

/* work(out): m dependent adds per thread (latency-bound CTAs). */
static void ptx_work(sbuf *b, int m)
{
    header(b, "work", ".param .u64 out");
    put(b, "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\ncvt.rn.f32.u32 %%f1, %%r1;\n");
    put(b, "mov.f32 %%f2, %%f1;\n");
    for (int i = 0; i < m; i++)
        put(b, "add.f32 %%f2, %%f2, %%f1;\n");
    put(b, "mov.u32 %%r2, %%ctaid.x;\nmov.u32 %%r3, %%ntid.x;\nmad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n");
    put(b, "mul.wide.u32 %%rd2, %%r4, 4;\nadd.s64 %%rd3, %%rd1, %%rd2;\nst.global.f32 [%%rd3], %%f2;\nret;\n}\n");
}

/* chase(start, out): one thread follows n pointers, reading %clock after
 * every load; out[i] = clock after load i, out[n] = low word of the end. */
static void ptx_chase(sbuf *b, int n)
{
    header(b, "chase", ".param .u64 start, .param .u64 out");
    put(b, "ld.param.u64 %%rd1, [start];\nld.param.u64 %%rd79, [out];\n");
    put(b, "mov.u32 %%r1, %%tid.x;\nsetp.ne.u32 %%p1, %%r1, 0;\n@%%p1 bra DONE;\n");
    for (int i = 0; i < n; i++)
        put(b, "ld.global.u64 %%rd%d, [%%rd%d];\nmov.u32 %%r%d, %%clock;\n", 2 + i, 1 + i, 2 + i);
    for (int i = 0; i < n; i++)
        put(b, "st.global.u32 [%%rd79+%d], %%r%d;\n", 4 * i, 2 + i);
    put(b, "cvt.u32.u64 %%r70, %%rd%d;\nst.global.u32 [%%rd79+%d], %%r70;\nDONE:\nret;\n}\n", 1 + n, 4 * n);
}

/* ---- dependent chain: N x latency ---------------------------------------- */

static uint32_t run_chain(const char *set, int n)
{
    rig r = { 0 };
    rig_open(&r, "kepler-k20x", set, NULL);
    ptx_chain(&r.ptx, n);
    rig_load(&r, "chain");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 8, SMC_MEM_DEVICE, &out), SMC_OK);
    struct { uint64_t out; float a; } __attribute__((packed)) p = { out, 1.0f };
    char params[16] = { 0 };
    memcpy(params, &p.out, 8);
    memcpy(params + 8, &p.a, 4);
    launch(&r, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 32, 1, 1 }, params, 12);
    uint32_t res[2];
    assert_int_equal(smc_memcpy_dtoh(r.dev, res, out, 8), SMC_OK);
    float f;
    memcpy(&f, &res[1], 4);
    assert_true(f == (float)(n + 2));         /* the emulator's result, unchanged */
    rig_close(&r);
    return res[0];
}

static void test_dependent_chain(void **state)
{
    (void)state;
    /* kepler-k20x: unit.sp.latency = 9 */
    assert_int_equal(run_chain(NULL, 64), 64 * 9);
    assert_int_equal(run_chain("unit.sp.latency=20", 64), 64 * 20);
    assert_int_equal(run_chain("unit.sp.latency=3", 100), 100 * 3);
}

/* ---- GPGPU-Sim 3.2.1's latency per opcode (unit.opcode_latency = g321) --- */

/* opchain(out): `step` (a dependent instruction on one register, which
 * `init` sets) once, then n times between two clock reads; out = cycles,
 * out[1] = the register (kept live, so that the second clock read cannot
 * share its physical register and wait for its write). */
static uint32_t run_opchain(const char *config, const char *set, const char *init, const char *step,
                            const char *keep, int n)
{
    rig r = { 0 };
    rig_open(&r, config, set, NULL);
    sbuf *b = &r.ptx;
    header(b, "opchain", ".param .u64 out");
    put(b, "ld.param.u64 %%rd1, [out];\n%s\n%s\nmov.u32 %%r1, %%clock;\n", init, step);
    for (int i = 0; i < n; i++)
        put(b, "%s\n", step);
    put(b, "mov.u32 %%r2, %%clock;\nsub.s32 %%r3, %%r2, %%r1;\nst.global.u32 [%%rd1], %%r3;\n");
    put(b, "%s\nret;\n}\n", keep);
    rig_load(&r, "opchain");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 16, SMC_MEM_DEVICE, &out), SMC_OK);
    launch(&r, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 32, 1, 1 }, &out, 8);
    uint32_t res;
    assert_int_equal(smc_memcpy_dtoh(r.dev, &res, out, 4), SMC_OK);
    rig_close(&r);
    return res;
}

/* Dependent chains cost GPGPU-Sim 3.2.1's latency of their opcode (the
 * GTX480 columns, written here from its gpgpusim.config, not from the
 * model) + unit.issue_stages per instruction. */
static void test_g321_latencies(void **state)
{
    (void)state;
    const char *g = "unit.opcode_latency=g321;unit.issue_stages=6";
    const int n = 32;
    /* -ptx_opcode_latency_fp ADD 4 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.f32 %f1, 0f3F800000;", "add.f32 %f1, %f1, %f1;", "st.global.f32 [%rd1+8], %f1;", n), n * (4 + 6));
    /* MAD 5 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.f32 %f1, 0f3F800000;", "mad.rn.f32 %f1, %f1, %f1, %f1;", "st.global.f32 [%rd1+8], %f1;", n),
                     n * (5 + 6));
    /* fma is not in 3.2.1's table: latency 1 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.f32 %f1, 0f3F800000;", "fma.rn.f32 %f1, %f1, %f1, %f1;", "st.global.f32 [%rd1+8], %f1;", n),
                     n * (1 + 6));
    /* -ptx_opcode_latency_int MUL 4, on the SFU (initiation 2 does not
     * matter for one chain) */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.u32 %r4, 3;", "mul.lo.u32 %r4, %r4, %r4;", "st.global.u32 [%rd1+8], %r4;", n), n * (4 + 6));
    /* mov: latency 1 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.u32 %r4, 3;", "mov.b32 %r4, %r4;",
                                 "st.global.u32 [%rd1+8], %r4;", n), n * (1 + 6));
    /* logic: latency 1 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.u32 %r4, 3;", "xor.b32 %r4, %r4, 5;", "st.global.u32 [%rd1+8], %r4;", n), n * (1 + 6));
    /* -ptx_opcode_latency_dp ADD 8 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.b64 %rd4, 0x3FF0000000000000;", "add.f64 %rd4, %rd4, %rd4;", "st.global.u64 [%rd1+8], %rd4;", n),
                     n * (8 + 6));
    /* transcendentals: the dp MUL column, 8 */
    assert_int_equal(run_opchain("kepler-k20x", g, "mov.f32 %f1, 0f3F800000;", "sin.approx.f32 %f1, %f1;", "st.global.f32 [%rd1+8], %f1;", n), n * (8 + 6));
    /* without the stages a latency-1 opcode still takes the core's 2 */
    assert_int_equal(run_opchain("kepler-k20x", "unit.opcode_latency=g321", "mov.u32 %r4, 3;",
                                 "xor.b32 %r4, %r4, 5;", "st.global.u32 [%rd1+8], %r4;", n), n * 2);
    /* fermi-gtx480 is this machine; unit mode takes the unit's latency
     * (with an ideal instruction cache: its cold misses are test_l1i's and
     * tests/e2e/ifetch-cuda.sh's, not this chain's) */
    assert_int_equal(run_opchain("fermi-gtx480", "l1i.sets=0", "mov.f32 %f1, 0f3F800000;", "add.f32 %f1, %f1, %f1;", "st.global.f32 [%rd1+8], %f1;", n),
                     n * (4 + 6));
    assert_int_equal(run_opchain("kepler-k20x", NULL, "mov.f32 %f1, 0f3F800000;", "fma.rn.f32 %f1, %f1, %f1, %f1;", "st.global.f32 [%rd1+8], %f1;", n),
                     n * 9);                                 /* kepler-k20x: unit.sp.latency 9 */
}

/* ---- independent instructions: one per cycle per scheduler ---------------- */

static double run_indep(const char *config, unsigned ctas, unsigned threads, int k, int sp_only)
{
    rig r = { 0 };
    /* an ideal instruction cache: 1,024 adds are 8 KB of code, four times
     * fermi-gtx480's L1I, and this is a test of the units */
    rig_open(&r, config, "mem.num_sms=1;l1i.sets=0", NULL);
    ptx_indep(&r.ptx, k);
    rig_load(&r, "indep");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, (size_t)ctas * threads * 4, SMC_MEM_DEVICE, &out), SMC_OK);
    const timing_stats *s = launch(&r, (smc_dim3){ ctas, 1, 1 }, (smc_dim3){ threads, 1, 1 }, &out, 8);
    /* issue rate (all instructions, or those on the SP units) per cycle */
    double rate = (double)(sp_only ? s->unit_insts[GPU_UNIT_SP] : s->slots[TS_ISSUED]) /
                  (double)s->cycles;
    float v;
    assert_int_equal(smc_memcpy_dtoh(r.dev, &v, out + 4 * 5, 4), SMC_OK);
    assert_true(v == 5.0f * 2 + 5.0f * 2);
    rig_close(&r);
    return rate;
}

static void test_independent_issue(void **state)
{
    (void)state;
    /* Kepler: 4 schedulers, a private SP (ii 1) each: at most 4 per cycle;
     * 64 warps x 512 adds keep them busy but for the start and the end. */
    double k = run_indep("kepler-k20x", 2, 1024, 512, 0);
    assert_true(k <= 4.0);
    assert_true(k >= 3.8);
    /* Fermi v1: 2 schedulers with a 16-lane SP each (ii 2): 1 SP
     * instruction per cycle. */
    double f = run_indep("fermi-gtx480-v1", 3, 512, 512, 1);
    assert_true(f <= 1.0);
    assert_true(f >= 0.95);
    /* Fermi (GPGPU-Sim 3.2.1): 2 schedulers sharing 2 32-lane SP units at
     * 700 MHz (ii 1): 2 per cycle. Twice the adds: the end waits for the
     * last stores' acknowledgements (mem.store_acks), a DRAM write each. */
    f = run_indep("fermi-gtx480", 3, 512, 1024, 1);
    assert_true(f <= 2.0);
    assert_true(f >= 1.9);
}

/* ---- unit kinds that share a core op class -------------------------------- */

/* mixed(out): warps 0 and 1 run a chain of integer multiplies (the INT
 * unit), the other warps three chains of f64 adds (the DPU); both kinds
 * map onto the core's op class DP. */
static void ptx_mixed(sbuf *b, int n)
{
    header(b, "mixed", ".param .u64 out");
    put(b, "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\nshr.u32 %%r2, %%r1, 5;\n");
    put(b, "cvt.rn.f64.u32 %%rd10, %%r1;\nmov.b64 %%rd11, %%rd10;\nmov.b64 %%rd12, %%rd10;\n"
           "mov.b64 %%rd13, %%rd10;\nmov.u32 %%r3, %%r1;\nsetp.lt.u32 %%p1, %%r2, 2;\n@%%p1 bra INT;\n");
    for (int i = 0; i < n; i++)
        put(b, "add.f64 %%rd%d, %%rd%d, %%rd10;\n", 11 + i % 3, 11 + i % 3);
    put(b, "bra.uni DONE;\nINT:\n");
    for (int i = 0; i < n; i++)
        put(b, "mul.lo.u32 %%r3, %%r3, %%r1;\n");
    put(b, "DONE:\nmul.wide.u32 %%rd2, %%r1, 8;\nadd.s64 %%rd3, %%rd1, %%rd2;\n"
           "add.f64 %%rd14, %%rd11, %%rd12;\nadd.f64 %%rd14, %%rd14, %%rd13;\n"
           "cvt.u64.u32 %%rd15, %%r3;\nadd.s64 %%rd14, %%rd14, %%rd15;\nst.global.u64 [%%rd3], %%rd14;\nret;\n}\n");
}

/* fermi-gtx480 has one shared DPU and one shared INT unit, both on the
 * core's op class DP, which a scheduler sees as available only when every
 * kind its warps' heads need has been offered to it. Offered from separate
 * round-robin starts, the two schedulers could hold one kind each, in step,
 * for ever (GPUDIAG's dpu kernel hung there, as this kernel did): the run
 * must finish, with every multiply and add issued. */
static void test_shared_kinds_of_one_class(void **state)
{
    (void)state;
    for (unsigned warps = 4; warps <= 8; warps += 2) {
        rig r = { 0 };
        /* per unit kind (under g321 integer mul goes to the SFU) */
        rig_open(&r, "fermi-gtx480", "mem.num_sms=1;gpu.watchdog_cycles=100000;unit.opcode_latency=unit",
                 NULL);
        ptx_mixed(&r.ptx, 64);
        rig_load(&r, "mixed");
        uint64_t out;
        assert_int_equal(smc_malloc(r.dev, 8 * 32 * warps, SMC_MEM_DEVICE, &out), SMC_OK);
        const timing_stats *s = launch(&r, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 32 * warps, 1, 1 }, &out, 8);
        /* 64 multiplies in each of warps 0 and 1, 64 adds in each other
         * warp (and a few more of each kind in the prologue and epilogue) */
        assert_true(s->unit_insts[GPU_UNIT_INT] >= 2 * 64);
        assert_true(s->unit_insts[GPU_UNIT_DPU] >= 64 * (warps - 2));
        rig_close(&r);
    }
}

/* ---- waves (Eq. 3.2 / 3.3) --------------------------------------------- */

static void test_occupancy_eq33(void **state)
{
    (void)state;
    gpu_config c;
    char err[256];
    assert_int_equal(gpu_config_preset(&c, "kepler-k20x", err, sizeof err), 0);
    timing_occupancy o;
    /* 256 threads (b = 8), 32 regs (1024 per warp), 4 KB: regs 64 warps -> 8,
     * warps 64/8 = 8, threads 2048/256 = 8, CTAs 16, smem 48K/4K = 12 */
    timing_kernel_req q = { .threads_per_cta = 256, .regs_per_thread = 32, .smem_per_cta = 4096, .num_ctas = 1000 };
    assert_int_equal(timing_occupancy_compute(&c, &q, &o, err, sizeof err), SMC_OK);
    assert_int_equal(o.warps_per_cta, 8);
    assert_int_equal(o.limit_regs, 8);
    assert_int_equal(o.limit_smem, 12);
    assert_int_equal(o.ctas_per_sm, 8);
    /* g = ceil(1000/14) = 72, waves = 9 */
    assert_int_equal(o.waves, 9);
    /* 63 regs -> 2016 -> rounded to 2048 per warp: 32 warps -> 4 CTAs */
    q.regs_per_thread = 63;
    assert_int_equal(timing_occupancy_compute(&c, &q, &o, err, sizeof err), SMC_OK);
    assert_int_equal(o.regs_per_warp, 2048);
    assert_int_equal(o.ctas_per_sm, 4);
    assert_string_equal(o.limiter, "registers");
    /* 100 bytes of shared memory round to 256: 192 per SM, capped by 16 CTAs */
    q = (timing_kernel_req){ .threads_per_cta = 32, .regs_per_thread = 8, .smem_per_cta = 100, .num_ctas = 1 };
    assert_int_equal(timing_occupancy_compute(&c, &q, &o, err, sizeof err), SMC_OK);
    assert_int_equal(o.smem_per_cta, 256);
    assert_int_equal(o.ctas_per_sm, 16);
    assert_string_equal(o.limiter, "ctas");
    /* Eq. 3.1 violations */
    q = (timing_kernel_req){ .threads_per_cta = 2048, .regs_per_thread = 8, .smem_per_cta = 0, .num_ctas = 1 };
    assert_int_equal(timing_occupancy_compute(&c, &q, &o, err, sizeof err), SMC_ERR_INVALID_CONFIGURATION);
    q = (timing_kernel_req){ .threads_per_cta = 256, .regs_per_thread = 8, .smem_per_cta = 64 * 1024, .num_ctas = 1 };
    assert_int_equal(timing_occupancy_compute(&c, &q, &o, err, sizeof err), SMC_ERR_LAUNCH_OUT_OF_RESOURCES);
    assert_non_null(strstr(err, "block.max_smem"));
    q = (timing_kernel_req){ .threads_per_cta = 1024, .regs_per_thread = 255, .smem_per_cta = 0, .num_ctas = 1 };     /* 1024 x 255 > 65536 */
    assert_int_equal(timing_occupancy_compute(&c, &q, &o, err, sizeof err), SMC_ERR_LAUNCH_OUT_OF_RESOURCES);
}

static void test_waves(void **state)
{
    (void)state;
    rig r = { 0 };
    /* 2 SMs, 2 CTA slots each: N_slot = 2 */
    rig_open(&r, "kepler-k20x", "mem.num_sms=2;sm.max_ctas=2", NULL);
    ptx_work(&r.ptx, 60);
    rig_load(&r, "work");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 64 * 64 * 4, SMC_MEM_DEVICE, &out), SMC_OK);
    uint64_t t[4];
    unsigned grids[4] = { 4, 8, 12, 5 };
    uint64_t waves[4] = { 1, 2, 3, 2 };     /* ceil(ceil(G/2)/2) */
    for (int i = 0; i < 4; i++) {
        const timing_stats *s = launch(&r, (smc_dim3){ grids[i], 1, 1 }, (smc_dim3){ 64, 1, 1 }, &out, 8);
        assert_int_equal(s->waves, waves[i]);
        assert_int_equal(s->ctas_per_sm_limit, 2);
        t[i] = s->cycles;
    }
    /* latency-bound CTAs: fu(c) = 1, so T(g) = waves x T(1 wave) (Eq. 3.2) */
    double r2 = (double)t[1] / t[0], r3 = (double)t[2] / t[0], r5 = (double)t[3] / t[0];
    assert_true(r2 > 1.9 && r2 < 2.1);
    assert_true(r3 > 2.85 && r3 < 3.15);
    assert_true(r5 > 1.9 && r5 < 2.1);
    rig_close(&r);
}

/* ---- CTA placement over SM clusters (GPGPU-Sim 3.2.1 issue_block2core) --- */

/* where(out): thread 0 of each CTA writes its SM and the cycle it starts. */
static void ptx_where(sbuf *b)
{
    header(b, "where", ".param .u64 out");
    put(b, "mov.u32 %%r9, %%clock;\nld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\n");
    put(b, "setp.ne.u32 %%p1, %%r1, 0;\n@%%p1 bra DONE;\nmov.u32 %%r2, %%ctaid.x;\n");
    put(b, "mov.u32 %%r3, %%smid;\nmul.wide.u32 %%rd2, %%r2, 8;\nadd.s64 %%rd3, %%rd1, %%rd2;\n");
    put(b, "st.global.u32 [%%rd3], %%r3;\nst.global.u32 [%%rd3+4], %%r9;\nDONE:\nret;\n}\n");
}

/* `where` of 12 CTAs; with first > 0, after a launch of `first` CTAs on the
 * same device. */
static void run_where_after(const char *set, unsigned first, uint32_t where[12][2])
{
    rig r = { 0 };
    /* an ideal instruction cache: the CTAs' start cycles are compared, and
     * the first CTA on each SM would wait for its code's cold misses */
    char sets[256];
    snprintf(sets, sizeof sets, "%s;l1i.sets=0", set);
    rig_open(&r, "fermi-gtx480", sets, NULL);
    ptx_where(&r.ptx);
    rig_load(&r, "where");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 12 * 8, SMC_MEM_DEVICE, &out), SMC_OK);
    if (first)
        launch(&r, (smc_dim3){ first, 1, 1 }, (smc_dim3){ 32, 1, 1 }, &out, 8);
    launch(&r, (smc_dim3){ 12, 1, 1 }, (smc_dim3){ 32, 1, 1 }, &out, 8);
    assert_int_equal(smc_memcpy_dtoh(r.dev, where, out, 12 * 8), SMC_OK);
    rig_close(&r);
}

static void run_where(const char *set, uint32_t where[12][2])
{
    run_where_after(set, 0, where);
}

/* The SM of each of the 12 CTAs is the expected one. */
static void assert_sms(uint32_t where[12][2], const uint32_t sm[12])
{
    for (int i = 0; i < 12; i++)
        assert_int_equal(where[i][0], sm[i]);
}

/* Clusters of 2 from SM 0, every launch (gpu.dispatch_persist off). */
static const uint32_t sm_clusters_from_0[12] = { 0, 2, 4, 1, 3, 5, 0, 2, 4, 1, 3, 5 };

/* 6 SMs with 2 CTA slots each: 12 CTAs fit at once. In clusters of 2, a
 * cluster places one CTA per cycle, alternating its SMs: CTAs 0-2 go to
 * SMs 0, 2, 4 in the first cycle, 3-5 to 1, 3, 5 in the next, and so on.
 * Without clusters every SM takes one per cycle, in id order. */
static void test_cta_placement_clusters(void **state)
{
    (void)state;
    uint32_t w[12][2];
    run_where("mem.num_sms=6;sm.max_ctas=2;icnt.sms_per_cluster=2;gpu.dispatch_persist=0", w);
    assert_sms(w, sm_clusters_from_0);
    for (int i = 0; i < 3; i++)               /* alone on their SMs: one cycle apart */
        assert_int_equal(w[i + 3][1] - w[i][1], 1);
    run_where("mem.num_sms=6;sm.max_ctas=2;icnt.sms_per_cluster=1;gpu.dispatch_persist=0", w);
    for (int i = 0; i < 12; i++)
        assert_int_equal(w[i][0], (uint32_t)i % 6);
    for (int i = 1; i < 6; i++)
        assert_int_equal(w[i][1], w[0][1]);
}

/* gpu.dispatch_persist (fermi-gtx480's default, GPGPU-Sim 3.2.1): the
 * device's first CTA goes to cluster 1, and a launch goes on where the last
 * one stopped. A launch of 1 CTA takes cluster 1's first SM (2); the next
 * launch starts at cluster 2, and cluster 1 next uses its other SM (3).
 * Off, every launch starts at SM 0. */
static void test_cta_placement_persist(void **state)
{
    (void)state;
    uint32_t w[12][2];
    run_where("mem.num_sms=6;sm.max_ctas=2;icnt.sms_per_cluster=2", w);
    static const uint32_t first[12] = { 2, 4, 0, 3, 5, 1, 2, 4, 0, 3, 5, 1 };
    assert_sms(w, first);
    run_where_after("mem.num_sms=6;sm.max_ctas=2;icnt.sms_per_cluster=2", 1, w);
    static const uint32_t after1[12] = { 4, 0, 3, 5, 1, 2, 4, 0, 3, 5, 1, 2 };
    assert_sms(w, after1);
    run_where_after("mem.num_sms=6;sm.max_ctas=2;icnt.sms_per_cluster=1", 2, w);
    for (int i = 0; i < 12; i++)                /* SMs 1, 2 served: SM 3 next */
        assert_int_equal(w[i][0], (uint32_t)(i + 3) % 6);
    run_where_after("mem.num_sms=6;sm.max_ctas=2;icnt.sms_per_cluster=2;gpu.dispatch_persist=0", 1, w);
    assert_sms(w, sm_clusters_from_0);
}

/* ---- pointer chase: L1 / L2 / DRAM latencies ------------------------------ */

#define CHASE_N 64

/* Median of the per-load latencies of loads [from, CHASE_N - 1). */
static uint32_t run_chase(const char *set, unsigned nodes, unsigned from)
{
    rig r = { 0 };
    rig_open(&r, "kepler-k20x-v1", set, NULL);
    ptx_chase(&r.ptx, CHASE_N);
    rig_load(&r, "chase");
    uint64_t arr, out;
    size_t stride = 128;
    assert_int_equal(smc_malloc(r.dev, nodes * stride, SMC_MEM_DEVICE, &arr), SMC_OK);
    assert_int_equal(smc_malloc(r.dev, 4 * (CHASE_N + 1), SMC_MEM_DEVICE, &out), SMC_OK);
    /* node i points to node (i + 1) mod nodes, one node per 128-byte line */
    for (unsigned i = 0; i < nodes; i++) {
        uint64_t next = arr + ((i + 1) % nodes) * stride;
        assert_int_equal(smc_memcpy_htod(r.dev, arr + i * stride, &next, 8), SMC_OK);
    }
    uint64_t params[2] = { arr, out };
    launch(&r, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 32, 1, 1 }, params, 16);
    uint32_t clk[CHASE_N + 1];
    assert_int_equal(smc_memcpy_dtoh(r.dev, clk, out, sizeof clk), SMC_OK);
    assert_int_equal(clk[CHASE_N], (uint32_t)(arr + (CHASE_N % nodes) * stride));
    uint32_t lat[CHASE_N];
    unsigned n = 0;
    for (unsigned i = from; i + 1 < CHASE_N; i++)
        lat[n++] = clk[i + 1] - clk[i];       /* issue of load i+1 - issue of load i */
    for (unsigned i = 0; i < n; i++)           /* insertion sort */
        for (unsigned j = i; j > 0 && lat[j] < lat[j - 1]; j--) {
            uint32_t x = lat[j]; lat[j] = lat[j - 1]; lat[j - 1] = x;
        }
    rig_close(&r);
    return lat[n / 2];
}

static void test_pointer_chase(void **state)
{
    (void)state;
    /* L1 hits: 8 lines fit the 16 KB L1; after the first 8 loads every load
     * hits: l1d.latency (kepler-k20x-v1: 28) */
    assert_int_equal(run_chase(NULL, 8, 8), 28);
    assert_int_equal(run_chase("l1d.latency=40", 8, 8), 40);
    /* L2 hits: a 1-set, 4-way L1 cannot hold 16 lines; the L2 can. Round
     * trip 2 x icnt.latency + ser(8 B) + ser(8 + 128 B) + l2.latency
     * = 20 + 1 + 5 + 94 = 120 (docs/memory-model.md) */
    uint32_t l2 = run_chase("l1d.sets=1", 16, 16);
    assert_int_equal(l2, 120);
    uint32_t l2b = run_chase("l1d.sets=1;l2.latency=150", 16, 16);
    assert_int_equal(l2b, 176);
    /* DRAM: 512 lines overflow a 1-set L2 (6 x 16 lines): round trip + tRCD +
     * tCL + burst ceil(128/57) + dram.latency + 1 = 120 + 12 + 12 + 3 + 73 + 1
     * = 221 with the row closed; a row hit saves tRCD (209), a row miss adds
     * tRP (233) */
    uint32_t d = run_chase("l1d.sets=1;l2.sets=1", 512, 1);
    assert_true(d >= 209 && d <= 233);
}

/* ---- the buffered LD/ST path (ldst.*; docs/timing-model.md) -------------- */

/* An L1 hit from issue to the dependent load's issue: the path's three
 * stages (ID_OC_MEM, a collector unit for 2 cycles, OC_EX_MEM: submitted at
 * issue + 3) and l1d.latency. fermi-gtx480: 3 + 1 = 4 core cycles, GPGPU-Sim
 * 3.2.1's issue-to-dependent-issue for an L1 hit (mem_config.c explains). */
static void test_ldst_path_latency(void **state)
{
    (void)state;
    const char *path = "ldst.id_oc=1;ldst.collectors=2;ldst.oc_ex=1";
    assert_int_equal(run_chase(path, 8, 8), 3 + 28);
    char set[128];
    snprintf(set, sizeof set, "%s;l1d.latency=5", path);
    assert_int_equal(run_chase(set, 8, 8), 3 + 5);
    /* wider registers do not shorten the path (one stage per cycle) */
    snprintf(set, sizeof set, "ldst.id_oc=2;ldst.collectors=4;ldst.oc_ex=2;l1d.latency=5");
    assert_int_equal(run_chase(set, 8, 8), 3 + 5);
}

/* lpath(arr, out): one warp; a divergent load (32 lines: 32 cycles in the
 * LD/ST unit at one L1 access per cycle), then K coalesced stores, with a
 * %clock read after each memory instruction. The stores write nothing to
 * the scoreboard, so only the LD/ST class holds them back. */
#define LPATH_K 8
static void ptx_lpath(sbuf *b)
{
    header(b, "lpath", ".param .u64 arr, .param .u64 out");
    put(b, "ld.param.u64 %%rd1, [arr];\nld.param.u64 %%rd2, [out];\nmov.u32 %%r1, %%tid.x;\n");
    put(b, "mul.wide.u32 %%rd3, %%r1, 128;\nadd.s64 %%rd4, %%rd1, %%rd3;\n");
    put(b, "mul.wide.u32 %%rd5, %%r1, 4;\nadd.s64 %%rd6, %%rd1, %%rd5;\nadd.s64 %%rd7, %%rd6, 8192;\n");
    put(b, "ld.global.u32 %%r10, [%%rd4];\nmov.u32 %%r20, %%clock;\n");
    for (int i = 1; i <= LPATH_K; i++)
        put(b, "st.global.u32 [%%rd7+%d], %%r1;\nmov.u32 %%r%d, %%clock;\n", 128 * i, 20 + i);
    put(b, "setp.ne.u32 %%p1, %%r1, 0;\n@%%p1 bra DONE;\n");
    for (int i = 0; i <= LPATH_K; i++)
        put(b, "st.global.u32 [%%rd2+%d], %%r%d;\n", 4 * i, 20 + i);
    put(b, "st.global.u32 [%%rd2+%d], %%r10;\nDONE:\nret;\n}\n", 4 * (LPATH_K + 1));
}

/* The first store whose issue waited for the divergent load to leave the
 * unit (a gap of more than 16 cycles after the previous clock read). */
static int lpath_first_wait(const char *config, const char *set)
{
    rig r = { 0 };
    rig_open(&r, config, set, NULL);
    ptx_lpath(&r.ptx);
    rig_load(&r, "lpath");
    uint64_t arr, out;
    assert_int_equal(smc_malloc(r.dev, 32 * 128 + 8192 + 128 * (LPATH_K + 1), SMC_MEM_DEVICE, &arr),
                     SMC_OK);
    assert_int_equal(smc_malloc(r.dev, 4 * (LPATH_K + 2), SMC_MEM_DEVICE, &out), SMC_OK);
    uint32_t v = 7;
    assert_int_equal(smc_memcpy_htod(r.dev, arr, &v, 4), SMC_OK);
    uint64_t params[2] = { arr, out };
    launch(&r, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 32, 1, 1 }, params, 16);
    uint32_t clk[LPATH_K + 2];
    assert_int_equal(smc_memcpy_dtoh(r.dev, clk, out, sizeof clk), SMC_OK);
    assert_int_equal(clk[LPATH_K + 1], 7);                  /* lane 0 loaded arr[0] */
    int first = -1;
    for (int i = 1; i <= LPATH_K && first < 0; i++)
        if (clk[i] - clk[i - 1] > 16)
            first = i;
    rig_close(&r);
    return first;
}

/* While an instruction occupies the LD/ST unit, ldst.id_oc +
 * ldst.collectors + ldst.oc_ex more memory instructions issue behind it
 * (GPGPU-Sim 3.2.1's ID_OC_MEM, memory collector units, OC_EX_MEM); the
 * next one waits. Without the path the first one after it waits. */
static void test_ldst_path_depth(void **state)
{
    (void)state;
    assert_int_equal(lpath_first_wait("kepler-k20x-v1", NULL), 1);
    assert_int_equal(lpath_first_wait("kepler-k20x-v1", "ldst.id_oc=1;ldst.collectors=2;ldst.oc_ex=1"),
                     1 + 2 + 1 + 1);
    assert_int_equal(lpath_first_wait("kepler-k20x-v1", "ldst.id_oc=1;ldst.collectors=1;ldst.oc_ex=1"),
                     1 + 1 + 1 + 1);
    assert_int_equal(lpath_first_wait("kepler-k20x-v1", "ldst.id_oc=2;ldst.collectors=3;ldst.oc_ex=1"),
                     2 + 3 + 1 + 1);
    assert_int_equal(lpath_first_wait("fermi-gtx480", "l1i.sets=0"), 1 + 2 + 1 + 1);
    /* kepler-k20x, Multi2Sim's unit: the divergent load's 32 lines are
     * accessed in one cycle (l1d.ports), and with one port its 2 + 100 + 1
     * buffered instructions hold every store; a shorter read buffer does not */
    assert_int_equal(lpath_first_wait("kepler-k20x", NULL), -1);
    assert_int_equal(lpath_first_wait("kepler-k20x", "l1d.ports=1"), -1);
    assert_int_equal(lpath_first_wait("kepler-k20x", "l1d.ports=1;ldst.collectors=2"), 2 + 2 + 1 + 1);
    assert_int_equal(lpath_first_wait("fermi-gtx480-v1", NULL), 1);
}

/* ---- JSON determinism -------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

static void run_for_json(const char *path)
{
    rig r = { 0 };
    rig_open(&r, "kepler-k20x", "mem.num_sms=3", path);
    ptx_indep(&r.ptx, 40);
    rig_load(&r, "indep");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 20 * 256 * 4, SMC_MEM_DEVICE, &out), SMC_OK);
    launch(&r, (smc_dim3){ 20, 1, 1 }, (smc_dim3){ 256, 1, 1 }, &out, 8);
    launch(&r, (smc_dim3){ 7, 1, 1 }, (smc_dim3){ 96, 1, 1 }, &out, 8);
    rig_close(&r);
}

static void test_json_deterministic(void **state)
{
    (void)state;
    char a[] = "/tmp/smc_json_a_XXXXXX", b[] = "/tmp/smc_json_b_XXXXXX";
    close(mkstemp(a));
    close(mkstemp(b));
    run_for_json(a);
    run_for_json(b);
    size_t na, nb;
    char *sa = slurp(a, &na), *sb = slurp(b, &nb);
    assert_true(na > 100);
    assert_int_equal(na, nb);
    assert_memory_equal(sa, sb, na);
    assert_non_null(strstr(sa, "\"launches\""));
    assert_non_null(strstr(sa, "\"issue_slots\""));
    assert_non_null(strstr(sa, "\"l1d\""));
    free(sa);
    free(sb);
    unlink(a);
    unlink(b);
}

/* ---- back ends: the RTL and lockstep give the C model's cycles exactly --- */

typedef struct summary { uint64_t cycles, slots[TS_COUNT], l1_miss; } summary;

static summary run_mixed(const char *be, const char *policy)
{
    backend = be;
    rig r = { 0 };
    char set[128];
    snprintf(set, sizeof set, "mem.num_sms=2;sched.policy=%s", policy);
    rig_open(&r, "kepler-k20x", set, NULL);
    ptx_work(&r.ptx, 24);
    rig_load(&r, "work");
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 12 * 192 * 4, SMC_MEM_DEVICE, &out), SMC_OK);
    const timing_stats *s = launch(&r, (smc_dim3){ 12, 1, 1 }, (smc_dim3){ 192, 1, 1 }, &out, 8);
    summary m;
    m.cycles = s->cycles;
    memcpy(m.slots, s->slots, sizeof m.slots);
    m.l1_miss = s->mem.l1_miss[0] + s->mem.l1_miss[1];
    float v;
    assert_int_equal(smc_memcpy_dtoh(r.dev, &v, out + 4 * (192 * 5 + 7), 4), SMC_OK);
    assert_true(v == 7.0f * 25);
    rig_close(&r);
    backend = "c";
    return m;
}

static void test_backends_agree(void **state)
{
    (void)state;
    const char *pols[] = { "lrr", "gto", "two-level" };
    for (int p = 0; p < 3; p++) {
        summary c = run_mixed("c", pols[p]);
        summary v = run_mixed("rtl", pols[p]);
        summary l = run_mixed("lockstep", pols[p]);
        assert_int_equal(c.cycles, v.cycles);
        assert_int_equal(c.cycles, l.cycles);
        assert_memory_equal(c.slots, v.slots, sizeof c.slots);
        assert_memory_equal(c.slots, l.slots, sizeof c.slots);
        assert_int_equal(c.l1_miss, v.l1_miss);
    }
}

/* A difference injected into SM 2's C-model outputs at cycle 100: the
 * lockstep back end stops the launch and the message names the SM, the
 * cycle, the signal and both values. */
static void flip_stall(sched_outputs *o, uint64_t cycle, void *ctx)
{
    (void)ctx;
    if (cycle == 100)
        o->stall_reason[1] ^= 1;
}

static void test_lockstep_mismatch(void **state)
{
    (void)state;
    backend = "lockstep";
    /* no re-run for a waveform (tests/timing/mismatch-fst.sh covers it) */
    setenv("SMCOSIM_MISMATCH_WINDOW", "0", 1);
    rig r = { 0 };
    rig_open(&r, "kepler-k20x", "mem.num_sms=4", NULL);
    ptx_work(&r.ptx, 200);
    rig_load(&r, "work");
    sched_lockstep_set_mutator(timing_sm_backend(smc_device_timing_model(r.dev), 2), flip_stall, NULL);
    uint64_t out;
    assert_int_equal(smc_malloc(r.dev, 8 * 128 * 4, SMC_MEM_DEVICE, &out), SMC_OK);
    smc_status st = smc_launch(r.dev, r.k, (smc_dim3){ 8, 1, 1 }, (smc_dim3){ 128, 1, 1 }, 0, 0,
                               &out, 8, NULL);
    assert_int_equal(st, SMC_ERR_LAUNCH_FAILED);
    const char *m = smc_last_message(r.dev);
    assert_non_null(strstr(m, "SM 2"));
    assert_non_null(strstr(m, "cycle 100"));
    assert_non_null(strstr(m, "stall_reason[1]"));
    assert_non_null(strstr(m, "cmodel="));
    assert_non_null(strstr(m, "rtl="));
    rig_close(&r);
    backend = "c";
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_chain),
        cmocka_unit_test(test_g321_latencies),
        cmocka_unit_test(test_independent_issue),
        cmocka_unit_test(test_shared_kinds_of_one_class),
        cmocka_unit_test(test_occupancy_eq33),
        cmocka_unit_test(test_waves),
        cmocka_unit_test(test_cta_placement_clusters),
        cmocka_unit_test(test_cta_placement_persist),
        cmocka_unit_test(test_pointer_chase),
        cmocka_unit_test(test_ldst_path_latency),
        cmocka_unit_test(test_ldst_path_depth),
        cmocka_unit_test(test_json_deterministic),
        cmocka_unit_test(test_backends_agree),
        cmocka_unit_test(test_lockstep_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
