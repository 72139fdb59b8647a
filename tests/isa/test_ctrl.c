/*
 * test_ctrl.c — control flow: divergent nested if/else, loops with break and
 * continue, early return, calls to .func with .param arguments and return
 * values (nvcc output: tests/isa/ptx/ctrl.ptx and calls.ptx, from the .cu
 * files beside them), and a
 * hand-written recursive .func with register parameters.
 *
 * The expected values come from the same algorithms written here in C.
 * The suite runs from the repository root (as `make check` does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_util.h"

#define CTRL_PTX  "tests/isa/ptx/ctrl.ptx"
#define CALLS_PTX "tests/isa/ptx/calls.ptx"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_empty_kernel, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_nested_if, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_loops, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_early_return, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_calls, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_recursion_reg_params, isa_setup, isa_teardown),
    };
    return isa_run_group("isa_ctrl", tests, sizeof tests / sizeof tests[0]);
}
