/*
 * test_mem.c — memory instructions: ld/st of every size (u8..u64, s8/s16
 * sign extension, f32/f64, .v2/.v4) to global, shared (static and dynamic
 * .extern .shared), local, const (module .const with initializer), module
 * .global variables, param (scalars and a byte-array struct); generic
 * addressing through cvta; and the faults: misaligned accesses give
 * SMC_ERR_MISALIGNED_ADDRESS, out-of-bounds ones SMC_ERR_ILLEGAL_ADDRESS,
 * both with the fault record filled (kernel, CTA, warp, lane, PC, line,
 * address) and the device sticky until smc_device_reset().
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

#define D1(n) ((smc_dim3){ (n), 1, 1 })
#define ARGS(...) (sizeof((uint64_t[]){ __VA_ARGS__ }) / 8), (uint64_t[]){ __VA_ARGS__ }

/* Global thread index into %r4 and its 64-bit copy into %rd1. */
#define GTID \
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n" \
    "\tmad.lo.u32 %r4, %r2, %r3, %r1;\n\tcvt.u64.u32 %rd1, %r4;\n"
/* The same for printf-style templates. */
#define GTID_F \
    "\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%ctaid.x;\n\tmov.u32 %%r3, %%ntid.x;\n" \
    "\tmad.lo.u32 %%r4, %%r2, %%r3, %%r1;\n\tcvt.u64.u32 %%rd1, %%r4;\n"

/* ---- ld/st global, every scalar size ------------------------------------ */

typedef struct scalar_case {
    const char *name;     /* isa_case_head */
    const char *type;     /* loaded type */
    const char *reg;      /* register type it lands in */
    unsigned    in_size, out_size;
} scalar_case;

static const scalar_case scalars[] = {
    { "ld/st.global.u8", "u8", "u32", 1, 4 },
    { "ld/st.global.s8", "s8", "s32", 1, 4 },
    { "ld/st.global.u16", "u16", "u32", 2, 4 },
    { "ld/st.global.s16", "s16", "s32", 2, 4 },
    { "ld/st.global.u32", "u32", "u32", 4, 4 },
    { "ld/st.global.s32", "s32", "s32", 4, 4 },
    { "ld/st.global.b64", "b64", "b64", 8, 8 },
    { "ld/st.global.f32", "f32", "f32", 4, 4 },
    { "ld/st.global.f64", "f64", "f64", 8, 8 },
};

/* Pseudo-random but fixed bytes. */
static void fill_bytes(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = 0x9e3779b9u ^ seed;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        p[i] = (unsigned char)(x >> 7);
    }
}

static void run_scalar(void **state)
{
    isa_ctx *c = *state;
    const scalar_case *tc = c->tcase;
    const char *st = tc->out_size == 8 ? "b64" : (tc->reg[0] == 'f' ? "f32" : "b32");
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u64 pin, .param .u32 pn)\n{\n"
        "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<8>;\n"
        "\t.reg .%s %%v;\n"
        GTID_F
        "\tld.param.u32 %%r5, [pn];\n\tsetp.ge.u32 %%p1, %%r4, %%r5;\n\t@%%p1 bra DONE;\n"
        "\tld.param.u64 %%rd2, [pin];\n\tld.param.u64 %%rd3, [pout];\n"
        "\tcvta.to.global.u64 %%rd2, %%rd2;\n\tcvta.to.global.u64 %%rd3, %%rd3;\n"
        "\tmad.lo.u64 %%rd4, %%rd1, %u, %%rd2;\n\tmad.lo.u64 %%rd5, %%rd1, %u, %%rd3;\n"
        "\tld.global.%s %%v, [%%rd4];\n\tst.global.%s [%%rd5], %%v;\n"
        "DONE:\n\tret;\n}\n",
        tc->reg, tc->in_size, tc->out_size, tc->type, st);
    enum { N = 100 };
    unsigned char in[N * 8], out[N * 8];
    fill_bytes(in, sizeof in, tc->in_size);
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(4), D1(32), 0, ARGS(dout, din, N));
    isa_read(c, out, dout, sizeof out);
    for (unsigned i = 0; i < N; i++) {
        uint64_t raw = 0, want, got = 0;
        memcpy(&raw, in + i * tc->in_size, tc->in_size);
        want = raw;
        if (tc->type[0] == 's' && tc->in_size < 4) {   /* sign extension */
            uint64_t m = 1ull << (8 * tc->in_size - 1);
            want = ((raw ^ m) - m) & 0xffffffffu;
        }
        memcpy(&got, out + i * tc->out_size, tc->out_size);
        if (got != want)
            fail_msg("%s: element %u (in 0x%llx): got 0x%llx want 0x%llx", tc->name,
                     i, (unsigned long long)raw, (unsigned long long)got,
                     (unsigned long long)want);
    }
}

/* ---- vectors: loaded, reversed, stored ---------------------------------- */

static void test_vectors(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u64 pin)\n{\n"
        "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .b16 %h<4>;\n\t.reg .f64 %fd<2>;\n"
        GTID
        "\tld.param.u64 %rd2, [pin];\n\tld.param.u64 %rd3, [pout];\n"
        "\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd3, %rd3;\n"
        /* each thread owns 64 bytes: v4.u32 | v2.u32 v2.f64 | v4.u16 v2.u8 ... */
        "\tmad.lo.u64 %rd4, %rd1, 64, %rd2;\n\tmad.lo.u64 %rd5, %rd1, 64, %rd3;\n"
        "\tld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd4];\n"
        "\tst.global.v4.u32 [%rd5], {%r8, %r7, %r6, %r5};\n"
        "\tld.global.v2.u32 {%r9, %r10}, [%rd4+16];\n"
        "\tst.global.v2.u32 [%rd5+16], {%r10, %r9};\n"
        "\tld.global.v2.f64 {%fd0, %fd1}, [%rd4+32];\n"
        "\tst.global.v2.f64 [%rd5+32], {%fd1, %fd0};\n"
        "\tld.global.v4.u16 {%h0, %h1, %h2, %h3}, [%rd4+48];\n"
        "\tst.global.v4.u16 [%rd5+48], {%h3, %h2, %h1, %h0};\n"
        "\tld.global.v2.u8 {%h0, %h1}, [%rd4+56];\n"
        "\tst.global.v2.u8 [%rd5+56], {%h1, %h0};\n"
        "\tret;\n}\n");
    enum { T = 40 };
    unsigned char in[T * 64], out[T * 64], want[T * 64];
    fill_bytes(in, sizeof in, 7);
    memset(want, 0, sizeof want);
    for (unsigned t = 0; t < T; t++) {
        const unsigned char *s = in + 64 * t;
        unsigned char *w = want + 64 * t;
        for (int e = 0; e < 4; e++) memcpy(w + 4 * e, s + 4 * (3 - e), 4);
        for (int e = 0; e < 2; e++) memcpy(w + 16 + 4 * e, s + 16 + 4 * (1 - e), 4);
        for (int e = 0; e < 2; e++) memcpy(w + 32 + 8 * e, s + 32 + 8 * (1 - e), 8);
        for (int e = 0; e < 4; e++) memcpy(w + 48 + 2 * e, s + 48 + 2 * (3 - e), 2);
        w[56] = s[57];
        w[57] = s[56];
    }
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(2), D1(20), 0, ARGS(dout, din));
    isa_read(c, out, dout, sizeof out);
    for (unsigned i = 0; i < sizeof out; i++)
        if (out[i] != want[i])
            fail_msg("vector ld/st: byte %u (thread %u, offset %u): got 0x%02x want 0x%02x",
                     i, i / 64, i % 64, out[i], want[i]);
}

/* ---- shared memory: static and dynamic, reversal across a CTA ----------- */

static void test_shared_static(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u64 pin)\n{\n"
        "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
        "\t.shared .align 4 .u32 s32[128];\n"
        "\t.shared .align 2 .u16 s16[128];\n"
        GTID
        "\tld.param.u64 %rd2, [pin];\n\tld.param.u64 %rd3, [pout];\n"
        "\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd3, %rd3;\n"
        "\tmad.lo.u64 %rd4, %rd1, 4, %rd2;\n\tld.global.u32 %r5, [%rd4];\n"
        "\tmov.u32 %r6, s32;\n\tmad.lo.u32 %r7, %r1, 4, %r6;\n\tst.shared.u32 [%r7], %r5;\n"
        "\tmov.u32 %r8, s16;\n\tmad.lo.u32 %r9, %r1, 2, %r8;\n\tst.shared.u16 [%r9], %r5;\n"
        "\tbar.sync 0;\n"
        "\tsub.u32 %r10, 127, %r1;\n"              /* reversed index in the CTA */
        "\tmad.lo.u32 %r11, %r10, 4, %r6;\n\tld.shared.u32 %r12, [%r11];\n"
        "\tmad.lo.u32 %r13, %r10, 2, %r8;\n\tld.shared.u16 %r14, [%r13];\n"
        "\tadd.u32 %r15, %r12, %r14;\n"
        "\tmad.lo.u64 %rd5, %rd1, 4, %rd3;\n\tst.global.u32 [%rd5], %r15;\n"
        "\tret;\n}\n");
    enum { CTAS = 3, N = CTAS * 128 };
    uint32_t in[N], out[N];
    for (unsigned i = 0; i < N; i++) in[i] = i * 0x10001u + 0x8000u;
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(CTAS), D1(128), 0, ARGS(dout, din));
    isa_read(c, out, dout, sizeof out);
    for (unsigned i = 0; i < N; i++) {
        unsigned j = (i / 128) * 128 + (127 - i % 128);
        uint32_t want = in[j] + (in[j] & 0xffff);
        if (out[i] != want)
            fail_msg("shared static: out[%u] = 0x%x, want 0x%x", i, out[i], want);
    }
}

static void test_shared_dynamic(void **state)
{
    isa_ctx *c = *state;
    /* a static array next to the dynamic one: they must not overlap */
    isa_load(c, ISA_PTX_HEADER
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".visible .entry k(.param .u64 pout, .param .u64 pin, .param .u32 pn)\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
        "\t.shared .align 8 .u64 stat[4];\n"
        GTID
        "\tld.param.u64 %rd2, [pin];\n\tld.param.u64 %rd3, [pout];\n"
        "\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd3, %rd3;\n"
        "\tld.param.u32 %r5, [pn];\n"                 /* elements per CTA */
        "\tsetp.lt.u32 %p1, %r1, 4;\n"
        "\tmov.u64 %rd9, stat;\n\tmul.wide.u32 %rd10, %r1, 8;\n\tadd.u64 %rd11, %rd9, %rd10;\n"
        "\tmov.u64 %rd13, 0xdeadbeefdeadbeef;\n"
        "\t@%p1 st.shared.u64 [%rd11], %rd13;\n"
        "\tmad.lo.u64 %rd4, %rd1, 8, %rd2;\n\tld.global.u64 %rd6, [%rd4];\n"
        "\tmov.u64 %rd7, dyn;\n\tmul.wide.u32 %rd8, %r1, 8;\n\tadd.u64 %rd8, %rd7, %rd8;\n"
        "\tst.shared.u64 [%rd8], %rd6;\n"
        "\tbar.sync 0;\n"
        "\tsub.u32 %r6, %r5, 1;\n\tsub.u32 %r6, %r6, %r1;\n"
        "\tmul.wide.u32 %rd8, %r6, 8;\n\tadd.u64 %rd8, %rd7, %rd8;\n"
        "\tld.shared.u64 %rd6, [%rd8];\n"
        "\t@%p1 ld.shared.u64 %rd12, [%rd11];\n"
        "\t@%p1 add.u64 %rd6, %rd6, %rd12;\n"
        "\tmad.lo.u64 %rd5, %rd1, 8, %rd3;\n\tst.global.u64 [%rd5], %rd6;\n"
        "\tret;\n}\n");
    enum { CTAS = 2, B = 96, N = CTAS * B };
    uint64_t in[N], out[N];
    for (unsigned i = 0; i < N; i++) in[i] = 0x0101010100000000ull * i + i;
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(CTAS), D1(B), B * 8, ARGS(dout, din, B));
    isa_read(c, out, dout, sizeof out);
    for (unsigned i = 0; i < N; i++) {
        unsigned t = i % B, j = (i / B) * B + (B - 1 - t);
        uint64_t want = in[j] + (t < 4 ? 0xdeadbeefdeadbeefull : 0);
        if (out[i] != want)
            fail_msg("dynamic shared: out[%u] = 0x%llx, want 0x%llx", i,
                     (unsigned long long)out[i], (unsigned long long)want);
    }
}

/* 4 bytes of static shared memory and 64 of dynamic: the dynamic part starts
 * at 16 (its .align), so the CTA needs 80 bytes, not 4 + 64 (the top 12 bytes
 * used to fault). Thread t stores t + 100 to dyn[t] and reads dyn[15 - t]. */
static void test_shared_dynamic_unaligned_static(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
        "\t.shared .align 4 .u32 one;\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 7;\n\tst.shared.u32 [one], %r2;\n"
        "\tmov.u64 %rd1, dyn;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
        "\tadd.u32 %r3, %r1, 100;\n\tst.shared.u32 [%rd3], %r3;\n\tbar.sync 0;\n"
        "\tmov.u32 %r4, 15;\n\tsub.u32 %r4, %r4, %r1;\n\tmul.wide.u32 %rd4, %r4, 4;\n"
        "\tadd.u64 %rd4, %rd1, %rd4;\n\tld.shared.u32 %r5, [%rd4];\n"
        "\tld.shared.u32 %r6, [one];\n\tadd.u32 %r5, %r5, %r6;\n"
        "\tld.param.u64 %rd5, [pout];\n\tcvta.to.global.u64 %rd5, %rd5;\n"
        "\tadd.u64 %rd5, %rd5, %rd2;\n\tst.global.u32 [%rd5], %r5;\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 16 * 4);
    isa_launch_ok(c, "k", D1(1), D1(16), 64, ARGS(dout));
    uint32_t out[16];
    isa_read(c, out, dout, sizeof out);
    for (unsigned t = 0; t < 16; t++)
        assert_int_equal(out[t], (15 - t) + 100 + 7);
}

/* Immediates inside vector operands: `mov.b32 %r, {0, %rs}` (nvcc's bf16 ->
 * f32 conversion), on an instruction that is also a branch target, and a
 * vector store with an immediate element. Thread t: out[2t] = 7,
 * out[2t + 1] = (t << 16) | 0x1234 (the low half is the immediate; a
 * branch to the label must still run the hidden mov that sets it). */
static void test_vector_immediates(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<2>;\n\t.reg .b16 %rs<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tcvt.u16.u32 %rs1, %r1;\n"
        "\tsetp.ne.u32 %p1, %r1, 99;\n\t@%p1 bra TARGET;\n\tmov.u32 %r2, 12345;\n"
        "TARGET:\n\tmov.b32 %r2, {0x1234, %rs1};\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.u64 %rd1, %rd1, %rd2;\n"
        "\tst.global.v2.u32 [%rd1], {7, %r2};\n\tret;\n}\n");
    uint64_t dout = isa_alloc(c, 64 * 8);
    isa_launch_ok(c, "k", D1(1), D1(64), 0, ARGS(dout));
    uint32_t out[128];
    isa_read(c, out, dout, sizeof out);
    for (unsigned t = 0; t < 64; t++) {
        assert_int_equal(out[2 * t], 7);
        assert_int_equal(out[2 * t + 1], (t << 16) | 0x1234);
    }
}

/* ---- local memory -------------------------------------------------------- */

static void test_local(void **state)
{
    isa_ctx *c = *state;
    /* Each thread writes 16 words (i*tid + k) to its own .local array with a
     * computed index, then reads them back in reverse and sums with weights;
     * also goes once through a generic pointer made with cvta.local. */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
        "\t.local .align 8 .b8 buf[64];\n"
        GTID
        "\tmov.u64 %rd2, buf;\n\tmov.u32 %r5, 0;\n"
        "WLOOP:\n"
        "\tmad.lo.u32 %r6, %r4, %r5, 3;\n"
        "\tmul.wide.u32 %rd3, %r5, 4;\n\tadd.u64 %rd4, %rd2, %rd3;\n"
        "\tst.local.u32 [%rd4], %r6;\n"
        "\tadd.u32 %r5, %r5, 1;\n\tsetp.lt.u32 %p1, %r5, 16;\n\t@%p1 bra WLOOP;\n"
        "\tcvta.local.u64 %rd5, %rd2;\n"
        "\tld.u32 %r7, [%rd5+60];\n"                /* generic read of buf[15] */
        "\tst.u8 [%rd5+1], %r4;\n"                  /* generic byte write into buf[0] */
        "\tmov.u32 %r8, 0;\n\tmov.u32 %r5, 16;\n"
        "RLOOP:\n"
        "\tsub.u32 %r5, %r5, 1;\n"
        "\tmul.wide.u32 %rd3, %r5, 4;\n\tadd.u64 %rd4, %rd2, %rd3;\n"
        "\tld.local.u32 %r9, [%rd4];\n"
        "\tadd.u32 %r10, %r5, 1;\n\tmad.lo.u32 %r8, %r9, %r10, %r8;\n"
        "\tsetp.ne.u32 %p2, %r5, 0;\n\t@%p2 bra RLOOP;\n"
        "\tld.param.u64 %rd6, [pout];\n\tcvta.to.global.u64 %rd6, %rd6;\n"
        "\tmad.lo.u64 %rd7, %rd1, 12, %rd6;\n"
        "\tst.global.u32 [%rd7], %r8;\n\tst.global.u32 [%rd7+4], %r7;\n"
        "\tld.local.u32 %r11, [buf];\n\tst.global.u32 [%rd7+8], %r11;\n"
        "\tret;\n}\n");
    enum { N = 70 };
    uint32_t out[N * 3];
    uint64_t dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(2), D1(35), 0, ARGS(dout));
    isa_read(c, out, dout, sizeof out);
    for (uint32_t t = 0; t < N; t++) {
        /* word 0 was 3 before the generic byte store put t into byte 1 */
        uint32_t buf0 = 3u | ((t & 0xff) << 8);
        uint32_t sum = buf0;
        for (uint32_t k = 1; k < 16; k++)
            sum += (t * k + 3) * (k + 1);
        assert_int_equal(out[3 * t], sum);
        assert_int_equal(out[3 * t + 1], t * 15 + 3);
        assert_int_equal(out[3 * t + 2], buf0);
    }
}

/* ---- const, module globals, param ---------------------------------------- */

static const char const_ptx[] = ISA_PTX_HEADER
    ".const .align 4 .u32 ctab[8] = {10, 20, 30, 40, 50, 60, 70, 4294967295};\n"
    ".const .align 8 .f64 cpi = 0d400921FB54442D18;\n"
    ".global .align 8 .u64 gvar = 0x1122334455667788;\n"
    ".global .align 4 .u32 garr[4] = {1, 2, 3, 4};\n"
    ".visible .entry k(.param .u64 pout)\n{\n"
    "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .f64 %fd<2>;\n"
    GTID
    "\tand.b32 %r5, %r4, 7;\n\tmov.u64 %rd2, ctab;\n"
    "\tmul.wide.u32 %rd3, %r5, 4;\n\tadd.u64 %rd4, %rd2, %rd3;\n"
    "\tld.const.u32 %r6, [%rd4];\n"
    "\tld.const.f64 %fd0, [cpi];\n"
    "\tld.global.u64 %rd5, [gvar];\n"
    "\tand.b32 %r7, %r4, 3;\n\tmov.u64 %rd6, garr;\n"
    "\tmul.wide.u32 %rd7, %r7, 4;\n\tadd.u64 %rd8, %rd6, %rd7;\n"
    "\tld.global.u32 %r8, [%rd8];\n"
    "\tld.param.u64 %rd9, [pout];\n\tcvta.to.global.u64 %rd9, %rd9;\n"
    "\tmad.lo.u64 %rd10, %rd1, 32, %rd9;\n"
    "\tst.global.u32 [%rd10], %r6;\n\tst.global.u32 [%rd10+4], %r8;\n"
    "\tst.global.u64 [%rd10+8], %rd5;\n\tst.global.f64 [%rd10+16], %fd0;\n"
    "\tret;\n}\n";

static void check_const_out(isa_ctx *c, uint64_t dout, const uint32_t *tab,
                            const uint32_t *arr, uint64_t gv)
{
    enum { N = 20 };
    unsigned char out[N * 32];
    isa_read(c, out, dout, sizeof out);
    for (unsigned t = 0; t < N; t++) {
        uint32_t a, b;
        uint64_t g;
        double pi;
        memcpy(&a, out + 32 * t, 4);
        memcpy(&b, out + 32 * t + 4, 4);
        memcpy(&g, out + 32 * t + 8, 8);
        memcpy(&pi, out + 32 * t + 16, 8);
        assert_int_equal(a, tab[t % 8]);
        assert_int_equal(b, arr[t % 4]);
        assert_int_equal(g, gv);
        assert_true(isa_bits64(pi) == 0x400921FB54442D18ull);
    }
}

static void test_const_and_globals(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, const_ptx);
    uint64_t dout = isa_alloc(c, 20 * 32);
    isa_launch_ok(c, "k", D1(1), D1(20), 0, ARGS(dout));
    uint32_t tab[8] = { 10, 20, 30, 40, 50, 60, 70, 0xffffffffu };
    uint32_t arr[4] = { 1, 2, 3, 4 };
    check_const_out(c, dout, tab, arr, 0x1122334455667788ull);

    /* smc_module_get_global: sizes, initial contents, and writes that the
     * next launch sees (cudaMemcpyToSymbol) */
    uint64_t p = 0;
    size_t bytes = 0;
    assert_int_equal(smc_module_get_global(c->mod, "ctab", &p, &bytes), SMC_OK);
    assert_int_equal(bytes, 32);
    uint32_t got[8];
    isa_read(c, got, p, sizeof got);
    assert_memory_equal(got, tab, sizeof tab);
    tab[3] = 0xabcdef01u;
    assert_int_equal(smc_memcpy_htod(c->dev, p, tab, sizeof tab), SMC_OK);
    assert_int_equal(smc_module_get_global(c->mod, "garr", &p, &bytes), SMC_OK);
    assert_int_equal(bytes, 16);
    arr[2] = 333;
    assert_int_equal(smc_memcpy_htod(c->dev, p, arr, sizeof arr), SMC_OK);
    assert_int_equal(smc_module_get_global(c->mod, "gvar", &p, &bytes), SMC_OK);
    assert_int_equal(bytes, 8);
    assert_int_equal(smc_module_get_global(c->mod, "nosuch", &p, &bytes),
                     SMC_ERR_NOT_FOUND);
    isa_launch_ok(c, "k", D1(1), D1(20), 0, ARGS(dout));
    check_const_out(c, dout, tab, arr, 0x1122334455667788ull);
}

static void test_params(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u8 pb, .param .u16 ph,"
        " .param .u32 pw, .param .f32 pf, .param .u64 pq, .param .f64 pd,"
        " .param .align 8 .b8 ps[24])\n{\n"
        "\t.reg .b16 %h<2>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
        "\t.reg .f32 %f<2>;\n\t.reg .f64 %fd<2>;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tld.param.u8 %h0, [pb];\n\tld.param.u16 %h1, [ph];\n"
        "\tld.param.u32 %r1, [pw];\n\tld.param.f32 %f0, [pf];\n"
        "\tld.param.u64 %rd2, [pq];\n\tld.param.f64 %fd0, [pd];\n"
        "\tld.param.u32 %r2, [ps];\n\tld.param.u8 %r3, [ps+5];\n"
        "\tld.param.v2.u32 {%r4, %r5}, [ps+8];\n\tld.param.u64 %rd3, [ps+16];\n"
        "\tst.global.u16 [%rd1], %h0;\n\tst.global.u16 [%rd1+2], %h1;\n"
        "\tst.global.u32 [%rd1+4], %r1;\n\tst.global.f32 [%rd1+8], %f0;\n"
        "\tst.global.u32 [%rd1+12], %r2;\n\tst.global.u64 [%rd1+16], %rd2;\n"
        "\tst.global.f64 [%rd1+24], %fd0;\n\tst.global.u32 [%rd1+32], %r3;\n"
        "\tst.global.u32 [%rd1+36], %r4;\n\tst.global.u32 [%rd1+40], %r5;\n"
        "\tst.global.u64 [%rd1+48], %rd3;\n"
        "\tret;\n}\n");
    smc_kernel *k = NULL;
    assert_int_equal(smc_module_get_kernel(c->mod, "k", &k), SMC_OK);
    smc_kernel_info info;
    smc_kernel_get_info(k, &info);
    assert_int_equal(info.num_params, 8);
    /* natural alignment: 0,8,10,12,16,24,32,40(align 8) -> 64 bytes */
    static const uint32_t offs[8] = { 0, 8, 10, 12, 16, 24, 32, 40 };
    static const uint32_t sizes[8] = { 8, 1, 2, 4, 4, 8, 8, 24 };
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t off = 0, size = 0;
        assert_int_equal(smc_kernel_param(k, i, &off, &size), SMC_OK);
        assert_int_equal(off, offs[i]);
        assert_int_equal(size, sizes[i]);
    }
    assert_int_equal(info.param_bytes, 64);
    uint64_t dout = isa_alloc(c, 56);
    unsigned char pbuf[64];
    memset(pbuf, 0, sizeof pbuf);
    uint8_t b = 0xa5;
    uint16_t h = 0xbeef;
    uint32_t w = 0xfeedface;
    float f = -3.25f;
    uint64_t q = 0x0123456789abcdefull;
    double d = 1e300;
    unsigned char s[24];
    fill_bytes(s, sizeof s, 3);
    memcpy(pbuf, &dout, 8); memcpy(pbuf + 8, &b, 1); memcpy(pbuf + 10, &h, 2);
    memcpy(pbuf + 12, &w, 4); memcpy(pbuf + 16, &f, 4); memcpy(pbuf + 24, &q, 8);
    memcpy(pbuf + 32, &d, 8); memcpy(pbuf + 40, s, 24);
    smc_status st = smc_launch(c->dev, k, D1(1), D1(1), 0, 0, pbuf, sizeof pbuf, NULL);
    isa_skip_if_unsupported(c, st);
    assert_int_equal(st, SMC_OK);
    unsigned char out[56];
    isa_read(c, out, dout, sizeof out);
    uint16_t ob, oh; uint32_t ow, os0, os5, os8, os12; float of; uint64_t oq, os16; double od;
    memcpy(&ob, out, 2); memcpy(&oh, out + 2, 2); memcpy(&ow, out + 4, 4);
    memcpy(&of, out + 8, 4); memcpy(&os0, out + 12, 4); memcpy(&oq, out + 16, 8);
    memcpy(&od, out + 24, 8); memcpy(&os5, out + 32, 4); memcpy(&os8, out + 36, 4);
    memcpy(&os12, out + 40, 4); memcpy(&os16, out + 48, 8);
    assert_int_equal(ob, b);
    assert_int_equal(oh, h);
    assert_int_equal(ow, w);
    assert_true(of == f);
    assert_int_equal(oq, q);
    assert_true(od == d);
    uint32_t e0, e8, e12; uint64_t e16;
    memcpy(&e0, s, 4); memcpy(&e8, s + 8, 4); memcpy(&e12, s + 12, 4); memcpy(&e16, s + 16, 8);
    assert_int_equal(os0, e0);
    assert_int_equal(os5, s[5]);
    assert_int_equal(os8, e8);
    assert_int_equal(os12, e12);
    assert_int_equal(os16, e16);
}

static void test_big_param(void **state)
{
    isa_ctx *c = *state;
    /* a 4000-byte parameter (CUDA's classic limit is 4 KiB in total) */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .align 4 .b8 big[4000])\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
        "\tld.param.u32 %r1, [big];\n\tld.param.u32 %r2, [big+1996];\n"
        "\tld.param.v2.u32 {%r3, %r4}, [big+3992];\n"
        "\tst.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n\tret;\n}\n");
    smc_kernel *k = NULL;
    assert_int_equal(smc_module_get_kernel(c->mod, "k", &k), SMC_OK);
    smc_kernel_info info;
    smc_kernel_get_info(k, &info);
    assert_int_equal(info.param_bytes, 4008);
    uint32_t off = 0, size = 0;
    assert_int_equal(smc_kernel_param(k, 1, &off, &size), SMC_OK);
    assert_int_equal(off, 8);
    assert_int_equal(size, 4000);
    uint64_t dout = isa_alloc(c, 16);
    unsigned char *pbuf = isa_calloc(c, 4008, 1);
    memcpy(pbuf, &dout, 8);
    fill_bytes(pbuf + 8, 4000, 5);
    smc_status st = smc_launch(c->dev, k, D1(1), D1(1), 0, 0, pbuf, 4008, NULL);
    isa_skip_if_unsupported(c, st);
    assert_int_equal(st, SMC_OK);
    uint32_t out[4], want[4];
    isa_read(c, out, dout, sizeof out);
    memcpy(&want[0], pbuf + 8, 4);
    memcpy(&want[1], pbuf + 8 + 1996, 4);
    memcpy(&want[2], pbuf + 8 + 3992, 8);
    assert_memory_equal(out, want, sizeof out);
}

/* ---- generic addressing ------------------------------------------------- */

static void test_generic(void **state)
{
    isa_ctx *c = *state;
    /* Generic pointers to global, shared and local, selected per thread, and
     * cvta.to.shared back to a shared-window address. */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout)\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
        "\t.shared .align 4 .u32 sh[64];\n"
        "\t.local .align 4 .u32 lbuf[4];\n"
        GTID
        "\tld.param.u64 %rd2, [pout];\n"            /* generic global pointer */
        "\tmov.u64 %rd3, sh;\n\tcvta.shared.u64 %rd4, %rd3;\n"
        "\tmov.u64 %rd5, lbuf;\n\tcvta.local.u64 %rd6, %rd5;\n"
        "\tmul.wide.u32 %rd7, %r1, 4;\n"
        "\tadd.u64 %rd8, %rd4, %rd7;\n"
        "\tadd.u32 %r5, %r4, 1000;\n\tst.u32 [%rd8], %r5;\n"   /* shared via generic */
        "\tadd.u32 %r6, %r4, 2000;\n\tst.u32 [%rd6+8], %r6;\n" /* local via generic */
        "\tbar.sync 0;\n"
        "\txor.b32 %r7, %r1, 1;\n\tmul.wide.u32 %rd9, %r7, 4;\n"
        "\tadd.u64 %rd10, %rd3, %rd9;\n\tld.shared.u32 %r8, [%rd10];\n"  /* neighbour */
        "\tld.local.u32 %r9, [lbuf+8];\n"
        "\tcvta.to.shared.u64 %rd11, %rd8;\n\tld.shared.u32 %r10, [%rd11];\n"
        "\tmul.wide.u32 %rd12, %r4, 12;\n\tadd.u64 %rd13, %rd2, %rd12;\n"
        "\tst.u32 [%rd13], %r8;\n\tst.u32 [%rd13+4], %r9;\n"
        "\tcvta.to.global.u64 %rd14, %rd13;\n\tst.global.u32 [%rd14+8], %r10;\n"
        "\tret;\n}\n");
    enum { B = 64, N = 2 * B };
    uint32_t out[N * 3];
    uint64_t dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(2), D1(B), 0, ARGS(dout));
    isa_read(c, out, dout, sizeof out);
    for (uint32_t t = 0; t < N; t++) {
        uint32_t nb = (t / B) * B + ((t % B) ^ 1);
        assert_int_equal(out[3 * t], nb + 1000);
        assert_int_equal(out[3 * t + 1], t + 2000);
        assert_int_equal(out[3 * t + 2], t + 1000);
    }
}

/* ---- cache and ordering qualifiers, fences ------------------------------ */

static void test_qualifiers(void **state)
{
    isa_ctx *c = *state;
    /* Functionally every qualifier is a plain load/store; nvcc emits many of
     * them (ld.global.nc for const __restrict__, volatile, relaxed/acquire). */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pout, .param .u64 pin)\n{\n"
        "\t.reg .b32 %r<24>;\n\t.reg .b64 %rd<16>;\n"
        GTID
        "\tld.param.u64 %rd2, [pin];\n\tld.param.u64 %rd3, [pout];\n"
        "\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd3, %rd3;\n"
        "\tmad.lo.u64 %rd4, %rd1, 64, %rd2;\n\tmad.lo.u64 %rd5, %rd1, 64, %rd3;\n"
        "\tld.global.nc.u32 %r5, [%rd4];\n"
        "\tld.global.ca.u32 %r6, [%rd4+4];\n"
        "\tld.global.cg.u32 %r7, [%rd4+8];\n"
        "\tld.global.cs.u32 %r8, [%rd4+12];\n"
        "\tld.global.lu.u32 %r9, [%rd4+16];\n"
        "\tld.global.cv.u32 %r10, [%rd4+20];\n"
        "\tld.volatile.global.u32 %r11, [%rd4+24];\n"
        "\tld.relaxed.gpu.global.u32 %r12, [%rd4+28];\n"
        "\tld.acquire.gpu.global.u32 %r13, [%rd4+32];\n"
        "\tld.global.nc.v4.u32 {%r14, %r15, %r16, %r17}, [%rd4+48];\n"
        "\tld.global.L1::no_allocate.u32 %r18, [%rd4+36];\n"
        "\tst.global.wb.u32 [%rd5], %r5;\n"
        "\tst.global.cg.u32 [%rd5+4], %r6;\n"
        "\tst.global.cs.u32 [%rd5+8], %r7;\n"
        "\tst.global.wt.u32 [%rd5+12], %r8;\n"
        "\tst.volatile.global.u32 [%rd5+16], %r9;\n"
        "\tst.relaxed.gpu.global.u32 [%rd5+20], %r10;\n"
        "\tst.release.gpu.global.u32 [%rd5+24], %r11;\n"
        "\tst.global.u32 [%rd5+28], %r12;\n"
        "\tst.global.u32 [%rd5+32], %r13;\n"
        "\tst.global.u32 [%rd5+36], %r18;\n"
        "\tst.global.v4.u32 [%rd5+48], {%r14, %r15, %r16, %r17};\n"
        "\tret;\n}\n");
    enum { T = 50 };
    uint32_t in[T * 16], out[T * 16];
    fill_bytes((unsigned char *)in, sizeof in, 11);
    uint64_t din = isa_alloc_copy(c, in, sizeof in), dout = isa_alloc(c, sizeof out);
    isa_launch_ok(c, "k", D1(2), D1(25), 0, ARGS(dout, din));
    isa_read(c, out, dout, sizeof out);
    for (unsigned i = 0; i < T * 16; i++) {
        uint32_t want = (i % 16 == 10 || i % 16 == 11) ? 0 : in[i];   /* 40..47 unused */
        if (out[i] != want)
            fail_msg("qualified ld/st: word %u (thread %u, word %u): got 0x%x want 0x%x",
                     i, i / 16, i % 16, out[i], want);
    }
}

/* Fences, prefetches, __syncwarp, nanosleep: no functional effect here, but
 * they must be accepted (nvcc emits membar.gl for __threadfence() and
 * bar.warp.sync for __syncwarp()). One case per instruction. */
typedef struct fence_case { const char *name; } fence_case;
static const fence_case fences[] = {
    { "membar.cta" }, { "membar.gl" }, { "membar.sys" }, { "fence.sc.cta" },
    { "fence.sc.gpu" }, { "fence.acq_rel.gpu" }, { "fence.acq_rel.sys" },
    { "prefetch.global.L1 [%rd2]" }, { "prefetch.global.L2 [%rd2]" },
    { "prefetchu.L1 [%rd2]" }, { "bar.warp.sync -1" /* __syncwarp() */ },
    { "nanosleep.u32 100" },
};

static void run_fence(void **state)
{
    isa_ctx *c = *state;
    const fence_case *tc = c->tcase;
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n"
        "\tld.param.u64 %%rd1, [p];\n\tcvta.to.global.u64 %%rd2, %%rd1;\n"
        "\tmov.u32 %%r1, %%tid.x;\n\tmul.wide.u32 %%rd3, %%r1, 4;\n\tadd.u64 %%rd2, %%rd2, %%rd3;\n"
        "\tld.global.u32 %%r2, [%%rd2];\n\tadd.u32 %%r2, %%r2, 1;\n"
        "\tst.global.u32 [%%rd2], %%r2;\n\t%s;\n\tld.global.u32 %%r3, [%%rd2];\n"
        "\tadd.u32 %%r3, %%r3, %%r1;\n\tst.global.u32 [%%rd2], %%r3;\n\tret;\n}\n",
        tc->name);
    uint32_t v[40];
    for (uint32_t i = 0; i < 40; i++) v[i] = 1000 * i;
    uint64_t p = isa_alloc_copy(c, v, sizeof v);
    isa_launch_ok(c, "k", D1(1), D1(40), 0, ARGS(p));
    isa_read(c, v, p, sizeof v);
    for (uint32_t i = 0; i < 40; i++)
        assert_int_equal(v[i], 1000 * i + 1 + i);
}

/* ---- faults --------------------------------------------------------------- */

/* The faulting instruction is on line FAULT_LINE of this text (1-based). */
static const char fault_ptx[] = ISA_PTX_HEADER          /* lines 1-4 */
    ".visible .entry bad(.param .u64 pbuf, .param .u64 poff, .param .u32 pcta, .param .u32 ptid)\n" /* 5 */
    "{\n"                                                  /* 6 */
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n" /* 7-9 */
    "\tld.param.u64 %rd1, [pbuf];\n"                       /* 10 */
    "\tld.param.u64 %rd2, [poff];\n"                       /* 11 */
    "\tld.param.u32 %r1, [pcta];\n"                        /* 12 */
    "\tld.param.u32 %r2, [ptid];\n"                        /* 13 */
    "\tmov.u32 %r3, %ctaid.x;\n"                           /* 14 */
    "\tmov.u32 %r4, %tid.x;\n"                             /* 15 */
    "\tsetp.eq.u32 %p1, %r3, %r1;\n"                       /* 16 */
    "\tsetp.eq.and.u32 %p2, %r4, %r2, %p1;\n"              /* 17 */
    "\tselp.b64 %rd3, %rd2, 0, %p2;\n"                     /* 18 */
    "\tadd.u64 %rd4, %rd1, %rd3;\n"                        /* 19 */
    "\tld.global.u32 %r5, [%rd4];\n"                       /* 20: FAULT_LINE */
    "\tst.global.u32 [%rd1], %r5;\n"                       /* 21 */
    "\tret;\n}\n";
#define FAULT_LINE 20

static const char ok_ptx_kernel[] = "bad";

static void expect_fault(isa_ctx *c, uint64_t off, smc_status want, uint64_t base)
{
    smc_module *m = isa_load(c, fault_ptx);
    (void)m;
    /* only CTA (1,0,0) thread 37 (warp 1, lane 5) goes astray */
    smc_status st = isa_launch(c, ok_ptx_kernel, D1(3), D1(64), 0,
                               ARGS(base, off, 1, 37));
    isa_skip_if_unsupported(c, st);
    assert_int_equal(st, want);
    smc_fault f;
    memset(&f, 0, sizeof f);
    smc_device_fault(c->dev, &f);
    assert_int_equal(f.status, want);
    assert_string_equal(f.kernel, "bad");
    assert_int_equal(f.cta.x, 1);
    assert_int_equal(f.cta.y, 0);
    assert_int_equal(f.cta.z, 0);
    assert_int_equal(f.warp, 1);
    assert_int_equal(f.lane, 5);
    assert_int_equal(f.ptx_line, FAULT_LINE);
    assert_int_equal(f.pc, 10); /* instruction index: ten precede it */
    assert_int_equal(f.address, base + off);
    assert_true(f.message[0] != '\0');
    print_message("fault message: %s\n", f.message);

    /* sticky until reset, as CUDA */
    st = isa_launch(c, ok_ptx_kernel, D1(1), D1(32), 0, ARGS(base, 0, 5, 5));
    assert_int_not_equal(st, SMC_OK);
    smc_device_reset(c->dev);
    memset(&f, 0, sizeof f);
    smc_device_fault(c->dev, &f);
    assert_int_equal(f.status, SMC_OK);
}

static void test_misaligned(void **state)
{
    isa_ctx *c = *state;
    uint64_t base = isa_alloc(c, 256);
    expect_fault(c, 2, SMC_ERR_MISALIGNED_ADDRESS, base);
}

static void test_out_of_bounds(void **state)
{
    isa_ctx *c = *state;
    uint64_t base = isa_alloc(c, 256);
    expect_fault(c, 1u << 24, SMC_ERR_ILLEGAL_ADDRESS, base);
}

static void test_null_pointer(void **state)
{
    isa_ctx *c = *state;
    uint64_t base = isa_alloc(c, 256);
    expect_fault(c, 0 - base, SMC_ERR_ILLEGAL_ADDRESS, base);   /* address 0 */
}

static void test_fault_variants(void **state)
{
    isa_ctx *c = *state;
    /* misaligned 64-bit store, misaligned v4 load, shared out of range, one
     * byte past a block, misaligned shared and local, atomics out of range
     * and misaligned */
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry st64(.param .u64 p)\n{\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [p];\n\tst.global.u64 [%rd1+4], %rd1;\n\tret;\n}\n"
        ".visible .entry v4(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [p];\n\tld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd1+8];\n"
        "\tst.global.u32 [%rd1], %r0;\n\tret;\n}\n"
        ".visible .entry shoob(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\t.shared .align 4 .u32 sh[16];\n"
        "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, sh;\n"
        "\tld.shared.u32 %r2, [%r1+1048576];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n"
        ".visible .entry stoob(.param .u64 p)\n{\n\t.reg .b16 %h<2>;\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [p];\n\tmov.u16 %h1, 1;\n"
        "\tst.global.u8 [%rd1+256], %h1;\n\tret;\n}\n"
        ".visible .entry shmis(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\t.shared .align 4 .u32 sh[16];\n"
        "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, sh;\n"
        "\tld.shared.u32 %r2, [%r1+2];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n"
        ".visible .entry lomis(.param .u64 p)\n{\n\t.reg .b64 %rd<4>;\n"
        "\t.local .align 8 .b8 lb[16];\n"
        "\tld.param.u64 %rd1, [p];\n\tmov.u64 %rd2, lb;\n"
        "\tst.local.u64 [%rd2+4], %rd1;\n\tld.local.u64 %rd3, [%rd2+4];\n"
        "\tst.global.u64 [%rd1], %rd3;\n\tret;\n}\n"
        ".visible .entry atomoob(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [p];\n\tadd.u64 %rd2, %rd1, 4096;\n"
        "\tatom.global.add.u32 %r1, [%rd2], 1;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
        ".visible .entry atommis(.param .u64 p)\n{\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tatom.global.exch.b64 %rd2, [%rd1+12], %rd1;\n\tst.global.u64 [%rd1], %rd2;\n\tret;\n}\n");
    uint64_t base = isa_alloc(c, 256);
    static const struct { const char *k; smc_status want; } v[] = {
        { "st64", SMC_ERR_MISALIGNED_ADDRESS },
        { "v4", SMC_ERR_MISALIGNED_ADDRESS },
        { "shoob", SMC_ERR_ILLEGAL_ADDRESS },
        { "stoob", SMC_ERR_ILLEGAL_ADDRESS },   /* one byte past a 256-byte block */
        { "shmis", SMC_ERR_MISALIGNED_ADDRESS },
        { "lomis", SMC_ERR_MISALIGNED_ADDRESS },
        { "atomoob", SMC_ERR_ILLEGAL_ADDRESS },
        { "atommis", SMC_ERR_MISALIGNED_ADDRESS },
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        smc_status st = isa_launch(c, v[i].k, D1(1), D1(1), 0, ARGS(base));
        isa_skip_if_unsupported(c, st);
        if (st != v[i].want)
            fail_msg("kernel %s: got %s, want %s", v[i].k, smc_status_name(st),
                     smc_status_name(v[i].want));
        smc_fault f;
        smc_device_fault(c->dev, &f);
        assert_int_equal(f.status, v[i].want);
        assert_string_equal(f.kernel, v[i].k);
        smc_device_reset(c->dev);
    }
}

int main(void)
{
    int rc = isa_run_table("isa_mem_scalars", run_scalar, scalars,
                           sizeof scalars[0], sizeof scalars / sizeof scalars[0]);
    rc |= isa_run_table("isa_mem_fences", run_fence, fences, sizeof fences[0],
                        sizeof fences / sizeof fences[0]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_vectors, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_shared_static, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_shared_dynamic, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_shared_dynamic_unaligned_static, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_vector_immediates, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_local, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_const_and_globals, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_params, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_big_param, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_generic, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_qualifiers, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_misaligned, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_out_of_bounds, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_null_pointer, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_fault_variants, isa_setup, isa_teardown),
    };
    rc |= isa_run_group("isa_mem", tests, sizeof tests / sizeof tests[0]);
    return rc;
}
