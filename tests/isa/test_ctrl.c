/*
 * test_ctrl.c — control flow: divergent nested if/else, loops with break and
 * continue, early return, calls to .func with .param arguments and return
 * values (nvcc output: tests/isa/ptx/ctrl.ptx and calls.ptx, from the .cu
 * files beside them), and a
 * hand-written recursive .func with register parameters; a shared-memory
 * tree reduction with barriers in a loop; a local array (nvcc's
 * __local_depot); predication; exit; brx.idx; trap; CUDA integer intrinsics
 * and warp idioms as nvcc lowers them (ptx/intrinsics.cu).
 *
 * The expected values come from the same algorithms written here in C.
 * The suite runs from the repository root (as `make check` does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa_util.h"

#define CTRL_PTX  "tests/isa/ptx/ctrl.ptx"
#define CALLS_PTX "tests/isa/ptx/calls.ptx"
#define INTRINSICS_PTX "tests/isa/ptx/intrinsics.ptx"
#define CTAS 3
#define TPB  96
#define NT   (CTAS * TPB)

static void load_file(isa_ctx *c, const char *path)
{
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx_file(c->dev, path, &m);
    if (st != SMC_OK) {
        isa_skip_if_unsupported(c, st);
        fail_msg("loading %s: %s: %s", path, smc_status_name(st),
                 smc_last_message(c->dev));
    }
    c->mod = m;
}
#define load_ctrl(c) load_file((c), CTRL_PTX)

static void make_input(int32_t *in, unsigned salt)
{
    uint32_t x = 12345u + salt;
    for (unsigned t = 0; t < NT; t++) {
        x = x * 1103515245u + 12345u;
        in[t] = t < 64 ? (int32_t)t : (int32_t)((x >> 16) % 200);
    }
}

/* ---- C models of ctrl.cu ------------------------------------------------ */

static void nested_ref(int t, int v, int32_t *out)
{
    int r;
    if (v & 1) {
        if (v & 2) {
            r = 1;
            for (int i = 0; i < (v & 7); i++) r = r * 3 + i;
        } else {
            r = 2;
            out[2 * t + 1] = v * 5;
        }
    } else {
        if (v & 4) {
            r = 3;
            while (r < v) r += r / 2 + 1;
        } else {
            r = 4;
            if (v & 8) { r += 10; out[2 * t + 1] = -v; }
        }
    }
    out[2 * t] = r + 100;
}

static int32_t loops_ref(int t, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) continue;
        if (i * (t + 1) > 500) break;
        int j = 0;
        do { sum += j ^ i; j++; } while (j < (i & 3));
    }
    return sum;
}

static int32_t early_ref(int v)
{
    int32_t o = 1;
    if (v % 5 == 0) return o;
    o = 2;
    if (v % 7 == 0) return o;
    for (int i = 0; i < v % 11; i++) {
        if (i == 6) return o;
        o += i;
    }
    return o;
}

static int add3(int a, int b, int c) { return a + b * 2 + c * 3; }
static long long wide(long long x, int s) { return (long long)((unsigned long long)x << s) ^ (x >> 3); }
static float fmix(float x, float y) { return x * 0.5f + y; }
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int branchy(int v) { return (v & 1) ? add3(v, 1, 2) : fact(v % 6); }

/* ---- tests ---------------------------------------------------------------- */

static void run_kernel(isa_ctx *c, const char *name, const int32_t *in,
                       uint64_t out_bytes, void *out)
{
    uint64_t din = isa_alloc_copy(c, in, NT * 4);
    uint64_t dout = isa_alloc(c, out_bytes);
    isa_launch_ok(c, name, (smc_dim3){ CTAS, 1, 1 }, (smc_dim3){ TPB, 1, 1 }, 0,
                  2, (uint64_t[]){ dout, din });
    isa_read(c, out, dout, out_bytes);
}

static void test_nested_if(void **state)
{
    isa_ctx *c = *state;
    load_ctrl(c);
    int32_t in[NT], out[2 * NT], want[2 * NT];
    make_input(in, 1);
    memset(want, 0, sizeof want);
    for (int t = 0; t < NT; t++)
        nested_ref(t, in[t], want);
    run_kernel(c, "nested", in, sizeof out, out);
    for (int i = 0; i < 2 * NT; i++)
        if (out[i] != want[i])
            fail_msg("nested: out[%d] (thread %d, v=%d) = %d, want %d", i, i / 2,
                     in[i / 2], out[i], want[i]);
}

static void test_loops(void **state)
{
    isa_ctx *c = *state;
    load_ctrl(c);
    int32_t in[NT], out[NT];
    make_input(in, 2);
    run_kernel(c, "loops", in, sizeof out, out);
    for (int t = 0; t < NT; t++)
        if (out[t] != loops_ref(t, in[t]))
            fail_msg("loops: thread %d (n=%d) = %d, want %d", t, in[t], out[t],
                     loops_ref(t, in[t]));
}

static void test_early_return(void **state)
{
    isa_ctx *c = *state;
    load_ctrl(c);
    int32_t in[NT], out[NT];
    make_input(in, 3);
    run_kernel(c, "early", in, sizeof out, out);
    for (int t = 0; t < NT; t++)
        if (out[t] != early_ref(in[t]))
            fail_msg("early: thread %d (v=%d) = %d, want %d", t, in[t], out[t],
                     early_ref(in[t]));
}

static void test_calls(void **state)
{
    isa_ctx *c = *state;
    load_file(c, CALLS_PTX);
    int32_t in[NT];
    int64_t out[6 * NT];
    make_input(in, 4);
    run_kernel(c, "calls", in, sizeof out, out);
    for (int t = 0; t < NT; t++) {
        int v = in[t];
        int64_t want[6] = {
            add3(v, t, 5),
            wide((long long)v * 1000003, t % 20),
            (int64_t)(fmix((float)v, 1.25f) * 4.0f),
            fact(v % 10),
            (int64_t)v * 7 + ((int64_t)v << 40),
            branchy(v),
        };
        for (int k = 0; k < 6; k++)
            if (out[6 * t + k] != want[k])
                fail_msg("calls: thread %d (v=%d) result %d = %lld, want %lld", t, v, k,
                         (long long)out[6 * t + k], (long long)want[k]);
    }
}

static void test_reduce(void **state)
{
    isa_ctx *c = *state;
    load_ctrl(c);
    int32_t in[NT], out[CTAS];
    make_input(in, 5);
    run_kernel(c, "reduce", in, sizeof out, out);
    for (int b = 0; b < CTAS; b++) {
        int32_t sum = 0;
        for (int t = 0; t < TPB; t++)
            sum += in[b * TPB + t];
        assert_int_equal(out[b], sum);
    }
}

static void test_local_array(void **state)
{
    isa_ctx *c = *state;
    load_ctrl(c);
    int32_t in[NT], out[NT];
    make_input(in, 6);
    run_kernel(c, "localarr", in, sizeof out, out);
    for (int t = 0; t < NT; t++) {
        int v = in[t], a[32], sum = 0;
        for (int i = 0; i < 32; i++) a[i] = (v * i) ^ t;
        for (int i = 0; i < 32; i++) sum += a[(i * 7 + v) % 32] * (i + 1);
        if (out[t] != sum)
            fail_msg("localarr: thread %d = %d, want %d", t, out[t], sum);
    }
}

static void test_guarded_barrier(void **state)
{
    isa_ctx *c = *state;
    load_ctrl(c);
    int32_t in[NT], out[NT];
    make_input(in, 8);
    static const int ns[] = { NT, NT - 51, TPB + 7, 5 };   /* partial warps and CTAs */
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dout = isa_alloc(c, sizeof out);
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        assert_int_equal(smc_memset(c->dev, dout, 0xff, sizeof out), SMC_OK);
        isa_launch_ok(c, "guarded", (smc_dim3){ CTAS, 1, 1 }, (smc_dim3){ TPB, 1, 1 }, 0,
                      3, (uint64_t[]){ dout, din, (uint64_t)n });
        isa_read(c, out, dout, sizeof out);
        for (int g = 0; g < NT; g++) {
            int b = g / TPB, t = g % TPB;
            int live = TPB < n - b * TPB ? TPB : n - b * TPB;
            int32_t want = g < n ? in[g] * 3 + in[b * TPB + (t + 1) % live] : -1;
            if (out[g] != want)
                fail_msg("guarded n=%d: out[%d] = %d, want %d", n, g, out[g], want);
        }
    }
}

static void test_predication(void **state)
{
    isa_ctx *c = *state;
    /* guarded arithmetic, guarded stores, negated guards, predicate logic */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<8>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 100;\n\tmov.u32 %r3, 0;\n"
        "\tand.b32 %r4, %r1, 1;\n\tsetp.eq.u32 %p1, %r4, 1;\n"        /* odd */
        "\tsetp.lt.u32 %p2, %r1, 20;\n"                                /* < 20 */
        "\t@%p1 add.u32 %r2, %r2, 1;\n"
        "\t@!%p1 add.u32 %r2, %r2, 2;\n"
        "\tand.pred %p3, %p1, %p2;\n\tor.pred %p4, %p1, %p2;\n"
        "\txor.pred %p5, %p1, %p2;\n\tnot.pred %p6, %p2;\n"
        "\t@%p3 or.b32 %r3, %r3, 1;\n\t@%p4 or.b32 %r3, %r3, 2;\n"
        "\t@%p5 or.b32 %r3, %r3, 4;\n\t@%p6 or.b32 %r3, %r3, 8;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], %r2;\n"
        "\t@%p2 st.global.u32 [%rd3+4], %r3;\n"
        "\t@!%p2 st.global.u32 [%rd3+4], %r1;\n"
        "\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 40 * 8);
    isa_launch_ok(c, "k", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 40, 1, 1 }, 0, 1,
                  (uint64_t[]){ dout });
    uint32_t out[80];
    isa_read(c, out, dout, sizeof out);
    for (uint32_t t = 0; t < 40; t++) {
        int odd = t & 1, lt = t < 20;
        uint32_t bits = (uint32_t)((odd && lt) | (odd || lt) << 1 | (odd ^ lt) << 2 | (!lt) << 3);
        assert_int_equal(out[2 * t], odd ? 101 : 102);
        assert_int_equal(out[2 * t + 1], lt ? bits : t);
    }
}

static void test_exit(void **state)
{
    isa_ctx *c = *state;
    /* exit in some threads of a warp, the others go on and reconverge */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], 1;\n"
        "\trem.u32 %r2, %r1, 3;\n\tsetp.eq.u32 %p1, %r2, 0;\n"
        "\t@%p1 exit;\n"
        "\tst.global.u32 [%rd3], 2;\n"
        "\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 50 * 4);
    isa_launch_ok(c, "k", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 50, 1, 1 }, 0, 1,
                  (uint64_t[]){ dout });
    uint32_t out[50];
    isa_read(c, out, dout, sizeof out);
    for (uint32_t t = 0; t < 50; t++)
        assert_int_equal(out[t], t % 3 == 0 ? 1 : 2);
}

static void test_brx_idx(void **state)
{
    isa_ctx *c = *state;
    /* an indirect branch through a jump table, divergent across lanes */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, %tid.x;\n\trem.u32 %r2, %r1, 3;\n"
        "\tts: .branchtargets L0, L1, L2;\n"
        "\tbrx.idx %r2, ts;\n"
        "L0:\n\tmov.u32 %r3, 10;\n\tbra.uni DONE;\n"
        "L1:\n\tmov.u32 %r3, 20;\n\tbra.uni DONE;\n"
        "L2:\n\tmov.u32 %r3, 30;\n"
        "DONE:\n\tadd.u32 %r3, %r3, %r1;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], %r3;\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 40 * 4);
    isa_launch_ok(c, "k", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 40, 1, 1 }, 0, 1,
                  (uint64_t[]){ dout });
    uint32_t out[40];
    isa_read(c, out, dout, sizeof out);
    for (uint32_t t = 0; t < 40; t++)
        assert_int_equal(out[t], 10 * (t % 3 + 1) + t);
}

static void test_trap(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry boom(.param .u32 pwho)\n{\n"
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
        "\tld.param.u32 %r1, [pwho];\n\tmov.u32 %r2, %tid.x;\n"
        "\tsetp.eq.u32 %p1, %r1, %r2;\n\t@%p1 trap;\n\tret;\n}\n");
    smc_status st = isa_launch(c, "boom", (smc_dim3){ 2, 1, 1 }, (smc_dim3){ 64, 1, 1 },
                               0, 1, (uint64_t[]){ 45 });
    isa_skip_if_unsupported(c, st);
    assert_int_equal(st, SMC_ERR_ASSERT);
    smc_fault f;
    smc_device_fault(c->dev, &f);
    assert_int_equal(f.status, SMC_ERR_ASSERT);
    assert_string_equal(f.kernel, "boom");
    assert_int_equal(f.warp, 1);
    assert_int_equal(f.lane, 13);
    assert_int_equal(f.ptx_line, 12);   /* the @%p1 trap line */
}

static void test_watchdog(void **state)
{
    isa_ctx *c = *state;
    /* a kernel that never ends becomes SMC_ERR_LAUNCH_TIMEOUT, not a hang */
    smc_device_destroy(c->dev);
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.watchdog = 200000;
    assert_int_equal(smc_device_create(&o, &c->dev), SMC_OK);
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry spin(.param .u32 pn)\n{\n"
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
        "\tld.param.u32 %r1, [pn];\n\tmov.u32 %r2, 0;\n"
        "LOOP:\n\tadd.u32 %r2, %r2, 1;\n\tsetp.ne.u32 %p1, %r1, 0;\n"
        "\t@%p1 bra LOOP;\n\tret;\n}\n");
    smc_status st = isa_launch(c, "spin", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 64, 1, 1 },
                               0, 1, (uint64_t[]){ 1 });
    assert_int_equal(st, SMC_ERR_LAUNCH_TIMEOUT);
    smc_fault f;
    smc_device_fault(c->dev, &f);
    assert_int_equal(f.status, SMC_ERR_LAUNCH_TIMEOUT);
    assert_string_equal(f.kernel, "spin");
    smc_device_reset(c->dev);
    /* the same kernel told to stop at once runs fine after the reset */
    st = isa_launch(c, "spin", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 64, 1, 1 }, 0, 1,
                    (uint64_t[]){ 0 });
    assert_int_equal(st, SMC_OK);
}

/* ---- CUDA intrinsics (intrinsics.cu), modelled from the CUDA math API ---- */

static uint32_t popc32(uint64_t v) { uint32_t n = 0; for (; v; v &= v - 1) n++; return n; }

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}

static void intops_ref(uint32_t x, uint32_t y, uint32_t *o)
{
    uint32_t sh = (y >> 3) & 31;   /* __funnelshift_l/r: shift amount mod 32 */
    uint64_t lo_hi = ((uint64_t)y << 32) | x;
    uint64_t big = ((uint64_t)x << 32) | y;
    o[0] = popc32(x);
    o[1] = 0;
    for (int i = 31; i >= 0 && !((x >> i) & 1); i--) o[1]++;
    o[2] = 0;
    for (int i = 0; i < 32; i++) if ((x >> i) & 1) o[2] |= 1u << (31 - i);
    o[3] = byte_perm(x, y, y & 0x7777);
    o[4] = (uint32_t)((lo_hi << sh) >> 32);
    o[5] = (uint32_t)(lo_hi >> sh);
    o[6] = (uint32_t)(((uint64_t)x * y) >> 32);
    o[7] = 0;
    for (int i = 0; i < 32; i++) if ((x >> i) & 1) { o[7] = (uint32_t)i + 1; break; }
    o[8] = (x > y ? x - y : y - x) + 7u;
    o[9] = (uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32);
    o[10] = popc32(big);
    o[11] = (uint32_t)((uint64_t)(((unsigned __int128)big * 0x9e3779b97f4a7c15ull) >> 64) >> 7);
}

static void test_intrinsics_int(void **state)
{
    isa_ctx *c = *state;
    load_file(c, INTRINSICS_PTX);
    uint32_t a[NT], b[NT], out[12 * NT];
    uint32_t x = 0x12345678u;
    for (int t = 0; t < NT; t++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        a[t] = t < 8 ? (uint32_t[]){ 0, 1, 0x80000000u, 0xffffffffu, 0x10, 0x7fffffff, 3, 0x100 }[t] : x;
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        b[t] = x;
    }
    uint64_t da = isa_alloc_copy(c, a, sizeof a), db = isa_alloc_copy(c, b, sizeof b);
    uint64_t dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "intops", (smc_dim3){ CTAS, 1, 1 }, (smc_dim3){ TPB, 1, 1 }, 0, 3,
                  (uint64_t[]){ dout, da, db });
    isa_read(c, out, dout, sizeof out);
    static const char *names[12] = { "__popc", "__clz", "__brev", "__byte_perm",
        "__funnelshift_l", "__funnelshift_r", "__umulhi", "__ffs", "__usad", "__mulhi",
        "__popcll", "__umul64hi" };
    for (int t = 0; t < NT; t++) {
        uint32_t want[12];
        intops_ref(a[t], b[t], want);
        for (int k = 0; k < 12; k++)
            if (out[12 * t + k] != want[k])
                fail_msg("%s(0x%x, 0x%x) = 0x%x, want 0x%x (thread %d)", names[k], a[t],
                         b[t], out[12 * t + k], want[k], t);
    }
}

static void test_intrinsics_warp(void **state)
{
    isa_ctx *c = *state;
    load_file(c, INTRINSICS_PTX);
    int32_t in[NT], out[5 * NT];
    make_input(in, 7);
    float zero = 0;
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dsum = isa_alloc_copy(c, &zero, 4);
    uint64_t dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "warpops", (smc_dim3){ CTAS, 1, 1 }, (smc_dim3){ TPB, 1, 1 }, 0, 3,
                  (uint64_t[]){ dout, dsum, din });
    isa_read(c, out, dout, sizeof out);
    float fsum;
    isa_read(c, &fsum, dsum, 4);
    int64_t total = 0;
    for (int w = 0; w < NT / 32; w++) {   /* TPB is a multiple of 32 */
        const int32_t *v = in + 32 * w;
        int32_t sum = 0, scan = 0;
        uint32_t ballot = 0;
        for (int l = 0; l < 32; l++) {
            sum += v[l];
            ballot |= (uint32_t)(v[l] & 1) << l;
        }
        total += sum;
        for (int l = 0; l < 32; l++) {
            const int32_t *o = out + 5 * (32 * w + l);
            scan += v[l];
            if (l == 0 && o[0] != sum)
                fail_msg("warp %d: shuffle-down sum %d, want %d", w, o[0], sum);
            if (o[1] != scan)
                fail_msg("warp %d lane %d: shuffle-up scan %d, want %d", w, l, o[1], scan);
            int32_t bw = (int32_t)popc32(ballot) + (int32_t)(ballot & 0xff) * 1000;
            if (o[2] != bw)
                fail_msg("warp %d lane %d: ballot code %d, want %d", w, l, o[2], bw);
            if (o[3] != v[7] || o[4] != v[l ^ 5])
                fail_msg("warp %d lane %d: shfl idx/xor %d/%d, want %d/%d", w, l, o[3],
                         o[4], v[7], v[l ^ 5]);
        }
    }
    /* every partial sum is an integer below 2^24: exact in any order */
    assert_true(fsum == (float)total);
}

/* Float math: the bound in ulp of each result (CUDA Programming Guide,
 * "Mathematical Functions": single precision, default compiler flags), or -1
 * for results that must be exact. */
static const struct { const char *name; int ulps; } float_fns[16] = {
    { "x / y", 0 }, { "sqrtf", 0 }, { "fmaf", 0 }, { "expf", 2 }, { "logf", 1 },
    { "sinf", 2 }, { "cosf", 2 }, { "tanhf", 2 }, { "exp2f", 2 }, { "rsqrtf", 2 },
    { "__fdividef", 2 }, { "__saturatef", 0 }, { "rintf", 0 }, { "__fmul_rz", 0 },
    { "__fadd_rd", 0 }, { "__float2int_rn", 0 },
};

/* x rounded toward zero / downward, from an exact double */
static float round_rz(double v)
{
    float r = (float)v;
    if (fabs((double)r) > fabs(v))
        r = nextafterf(r, 0.0f);
    return r;
}

static float round_rd(double v)
{
    float r = (float)v;
    if ((double)r > v)
        r = nextafterf(r, -INFINITY);
    return r;
}

static void floatops_ref(float x, float y, double *w)
{
    w[0] = x / y;                                   /* IEEE single division */
    w[1] = sqrtf(fabsf(x));
    w[2] = fmaf(x, y, 1.0f);
    w[3] = exp((double)x);
    w[4] = log((double)(fabsf(y) + 1.0f));
    w[5] = sin((double)x);
    w[6] = cos((double)y);
    w[7] = tanh((double)x);
    w[8] = exp2((double)y);
    w[9] = 1.0 / sqrt((double)(fabsf(x) + 0.5f));
    w[10] = (double)x / y;
    w[11] = x < 0 ? 0.0 : x > 1 ? 1.0 : x;
    w[12] = nearbyint((double)x);                   /* host mode: to nearest even */
    w[13] = round_rz((double)x * y);                /* exact product, then rz */
    w[14] = round_rd((double)x + y);                /* exact sum (|x|, |y| <= 20) */
    w[15] = nearbyint((double)x);
}

static void test_intrinsics_float(void **state)
{
    isa_ctx *c = *state;
    load_file(c, INTRINSICS_PTX);
    float a[NT], b[NT], out[16 * NT];
    uint32_t r = 0xdeadbeefu;
    for (int t = 0; t < NT; t++) {
        r ^= r << 13; r ^= r >> 17; r ^= r << 5;
        a[t] = t < 6 ? (float[]){ 0.0f, -0.0f, 0.5f, -2.5f, 1.0f, 3.14159265f }[t]
                     : (float)((int32_t)(r % 40001u) - 20000) / 1000.0f;
        r ^= r << 13; r ^= r >> 17; r ^= r << 5;
        b[t] = (float)((int32_t)(r % 40001u) - 20000) / 997.0f;
        if (b[t] == 0)
            b[t] = 0.25f;
    }
    uint64_t da = isa_alloc_copy(c, a, sizeof a), db = isa_alloc_copy(c, b, sizeof b);
    uint64_t dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "floatops", (smc_dim3){ CTAS, 1, 1 }, (smc_dim3){ TPB, 1, 1 }, 0, 3,
                  (uint64_t[]){ dout, da, db });
    isa_read(c, out, dout, sizeof out);
    unsigned bad = 0;
    for (int t = 0; t < NT; t++) {
        double w[16];
        floatops_ref(a[t], b[t], w);
        for (int k = 0; k < 16; k++) {
            float got = out[16 * t + k], want = (float)w[k];
            uint64_t d = isa_ulp_diff_f32(got, want);
            /* zero results: compare values (sinf(-0) sign is checked below) */
            if (got == 0 && want == 0)
                d = 0;
            if (d > (uint64_t)float_fns[k].ulps && bad++ < 10)
                print_error("%s: x=%a y=%a: got %a, want %a (%llu ulp, bound %d)\n",
                            float_fns[k].name, a[t], b[t], got, want,
                            (unsigned long long)d, float_fns[k].ulps);
        }
    }
    assert_true(signbit(out[16 * 1 + 5]));   /* sinf(-0) = -0 */
    if (bad)
        fail_msg("float math: %u results outside their bounds", bad);
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void test_recursion_reg_params(void **state)
{
    isa_ctx *c = *state;
    /* .func with register parameters and a register return value, called
     * recursively (divergent recursion depth across lanes). */
    isa_load(c, ISA_PTX_HEADER
        ".func (.reg .u32 %ret) fib(.reg .u32 %n)\n{\n"
        "\t.reg .pred %p<2>;\n\t.reg .u32 %a, %b, %m;\n"
        "\tsetp.lt.u32 %p1, %n, 2;\n\t@%p1 bra BASE;\n"
        "\tsub.u32 %m, %n, 1;\n\tcall (%a), fib, (%m);\n"
        "\tsub.u32 %m, %n, 2;\n\tcall (%b), fib, (%m);\n"
        "\tadd.u32 %ret, %a, %b;\n\tret;\n"
        "BASE:\n\tmov.u32 %ret, %n;\n\tret;\n}\n"
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, %tid.x;\n\trem.u32 %r2, %r1, 13;\n"
        "\tcall (%r3), fib, (%r2);\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tst.global.u32 [%rd3], %r3;\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 40 * 4);
    isa_launch_ok(c, "k", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 40, 1, 1 }, 0, 1,
                  (uint64_t[]){ dout });
    uint32_t out[40];
    isa_read(c, out, dout, sizeof out);
    for (int t = 0; t < 40; t++)
        assert_int_equal(out[t], fib(t % 13));
}

static void test_empty_kernel(void **state)
{
    isa_ctx *c = *state;
    /* no registers, no parameters: loads and runs */
    isa_load(c, ISA_PTX_HEADER ".visible .entry k()\n{\n\tret;\n}\n");
    isa_launch_ok(c, "k", (smc_dim3){ 2, 1, 1 }, (smc_dim3){ 33, 1, 1 }, 0, 0, NULL);
}

/* ---- device printf ---------------------------------------------------------- */

/* nvcc -arch=compute_75 -ptx of
 *   printf("[%*d] [%d] %hx %hhd %hhu [%.*f] [%-*.*s] %lld\n", 5, 42, 7,
 *          0x12345, 200, 0x1ff, 2, 3.14159, 6, 2, "abcdef", -5ll);
 * '*' width/precision take an int argument each; h/hh convert the (int)
 * argument to short/char before printing. */
static const char printf_ptx[] = ISA_PTX_HEADER
    ".extern .func  (.param .b32 func_retval0) vprintf\n"
    "(\n"
    "\t.param .b64 vprintf_param_0,\n"
    "\t.param .b64 vprintf_param_1\n"
    ")\n"
    ";\n"
    ".global .align 1 .b8 $str[47] = {91, 37, 42, 100, 93, 32, 91, 37, 100, 93, 32, 37, 104, 120, 32, 37, 104, 104, 100, 32, 37, 104, 104, 117, 32, 91, 37, 46, 42, 102, 93, 32, 91, 37, 45, 42, 46, 42, 115, 93, 32, 37, 108, 108, 100, 10};\n"
    ".global .align 1 .b8 $str$1[7] = {97, 98, 99, 100, 101, 102};\n"
    ".visible .entry _Z1ki(\n"
    "\t.param .u32 _Z1ki_param_0\n"
    ")\n"
    "{\n"
    "\t.local .align 16 .b8 \t__local_depot0[64];\n"
    "\t.reg .b64 \t%SP;\n"
    "\t.reg .b64 \t%SPL;\n"
    "\t.reg .b32 \t%r<10>;\n"
    "\t.reg .b64 \t%rd<9>;\n"
    "\tmov.u64 \t%SPL, __local_depot0;\n"
    "\tcvta.local.u64 \t%SP, %SPL;\n"
    "\tadd.u64 \t%rd1, %SP, 0;\n"
    "\tadd.u64 \t%rd2, %SPL, 0;\n"
    "\tmov.u32 \t%r1, 74565;\n"
    "\tmov.u32 \t%r2, 7;\n"
    "\tmov.u32 \t%r3, 42;\n"
    "\tmov.u32 \t%r4, 5;\n"
    "\tst.local.v4.u32 \t[%rd2], {%r4, %r3, %r2, %r1};\n"
    "\tmov.u32 \t%r5, 511;\n"
    "\tmov.u32 \t%r6, 200;\n"
    "\tst.local.v2.u32 \t[%rd2+16], {%r6, %r5};\n"
    "\tmov.u32 \t%r7, 2;\n"
    "\tst.local.u32 \t[%rd2+24], %r7;\n"
    "\tmov.u64 \t%rd3, 4614256650576692846;\n"
    "\tst.local.u64 \t[%rd2+32], %rd3;\n"
    "\tmov.u32 \t%r8, 6;\n"
    "\tst.local.v2.u32 \t[%rd2+40], {%r8, %r7};\n"
    "\tmov.u64 \t%rd4, $str$1;\n"
    "\tcvta.global.u64 \t%rd5, %rd4;\n"
    "\tmov.u64 \t%rd6, -5;\n"
    "\tst.local.v2.u64 \t[%rd2+48], {%rd5, %rd6};\n"
    "\tmov.u64 \t%rd7, $str;\n"
    "\tcvta.global.u64 \t%rd8, %rd7;\n"
    "\t{\n"
    "\t.reg .b32 temp_param_reg;\n"
    "\t.param .b64 param0;\n"
    "\tst.param.b64 \t[param0+0], %rd8;\n"
    "\t.param .b64 param1;\n"
    "\tst.param.b64 \t[param1+0], %rd1;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), \n"
    "\tvprintf, \n"
    "\t(\n"
    "\tparam0, \n"
    "\tparam1\n"
    "\t);\n"
    "\tld.param.b32 \t%r9, [retval0+0];\n"
    "\t}\n"
    "\tret;\n"
    "}\n";

/* The host C library is the reference: the same format and arguments. */
static void test_printf_star_and_h(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, printf_ptx);
    char path[] = "/tmp/isa_printf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    uint64_t arg = 0;
    smc_status st = isa_launch(c, "_Z1ki", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 1, 1, 1 }, 0, 1, &arg);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char got[256] = { 0 };
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, got, sizeof got - 1);
    close(fd);
    unlink(path);
    assert_int_equal(st, SMC_OK);
    assert_true(n > 0);
    char want[256];
    snprintf(want, sizeof want, "[%*d] [%d] %hx %hhd %hhu [%.*f] [%-*.*s] %lld\n", 5, 42, 7,
             0x12345, 200, 0x1ff, 2, 3.14159, 6, 2, "abcdef", -5ll);
    assert_string_equal(got, want);
    /* and by hand, the cases of the bug report */
    assert_string_equal(got, "[   42] [7] 2345 -56 255 [3.14] [ab    ] -5\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_empty_kernel, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_nested_if, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_loops, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_early_return, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_reduce, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_local_array, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_guarded_barrier, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_predication, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_exit, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_brx_idx, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_trap, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_watchdog, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_calls, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_intrinsics_int, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_intrinsics_warp, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_intrinsics_float, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_recursion_reg_params, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_printf_star_and_h, isa_setup, isa_teardown),
    };
    return isa_run_group("isa_ctrl", tests, sizeof tests / sizeof tests[0]);
}
