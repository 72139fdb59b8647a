/*
 * test_half.c — binary16 (.f16) and packed half2 (.f16x2) instructions:
 * add/sub/mul{.rn}{.ftz}{.sat}, fma.rn{.ftz}{.sat}, neg/abs{.ftz},
 * min/max{.ftz}, setp (p and p|q forms), set with every destination type
 * (f16, f16x2, u16/s16/u32/s32, and the f32/integer set forms), and
 * cvt.rni/rzi/rpi/rmi.f16.f16 over all 65,536 inputs.
 *
 * Every lane gets different operands, and the two halves of an .f16x2
 * operand differ too, so a lane mix-up or a half mix-up cannot pass.
 *
 * The reference works on the bit patterns with integers only: a finite half
 * is N * 2^-24 for an integer N, so a sum is an exact integer in units of
 * 2^-24, a product or an fma an exact (128-bit) integer in units of 2^-48,
 * and one round-to-nearest-even step turns that into a half (round_half).
 * Infinities and NaNs are handled separately (host double arithmetic on
 * them is exact). No part of it shares code with the emulator.
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

#include "isa_util.h"

typedef unsigned __int128 u128;

/* ---- binary16 reference ------------------------------------------------- */

static int h_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
static int h_inf(uint16_t h) { return (h & 0x7fff) == 0x7c00; }
static int h_zero(uint16_t h) { return (h & 0x7fff) == 0; }
static int h_sub(uint16_t h) { return (h & 0x7c00) == 0 && (h & 0x3ff); }
static int h_neg(uint16_t h) { return h >> 15; }

/* Magnitude of a finite half in units of 2^-24 (exact). */
static uint64_t h_units(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    return e == 0 ? m : (uint64_t)(m | 0x400) << (e - 1);
}

/* Exact value of any half as a double (finite: N * 2^-24). */
static double h_dbl(uint16_t h)
{
    double v = h_nan(h) ? NAN : h_inf(h) ? INFINITY : ldexp((double)h_units(h), -24);
    return h_neg(h) ? -v : v;
}

/* The half nearest (ties to even) to (-1)^neg * n * 2^k, n != 0 or 0. */
static uint16_t round_half(int neg, u128 n, int k)
{
    uint16_t s = neg ? 0x8000 : 0;
    if (n == 0)
        return s;
    int p = 127;
    while (!((n >> p) & 1))
        p--;
    int e = p + k;              /* value in [2^e, 2^(e+1)) */
    if (e < -14)
        e = -14;                /* subnormal: fixed ulp 2^-24 */
    int sh = (e - 10) - k;      /* bits below the ulp */
    u128 q;
    if (sh <= 0) {
        q = n << -sh;
    } else if (sh > p + 1) {
        q = 0;                  /* below half an ulp */
    } else {
        q = n >> sh;
        u128 rem = n & ((((u128)1) << sh) - 1), half = ((u128)1) << (sh - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
    }
    if (q >= 2048) {            /* rounded up to the next binade */
        q >>= 1;
        e++;
    }
    if (e > 15)
        return s | 0x7c00;      /* overflow: round to nearest gives inf */
    if (q < 1024)
        return s | (uint16_t)q; /* subnormal (or zero) */
    return s | (uint16_t)((unsigned)(e + 15) << 10) | (uint16_t)(q - 1024);
}

/* A double that is inf or NaN, as a half. */
static uint16_t special_half(double v)
{
    if (isnan(v))
        return 0x7e00;
    return v < 0 ? 0xfc00 : 0x7c00;
}

enum hop { H_ADD, H_SUB, H_MUL, H_FMA, H_NEG, H_ABS, H_MIN, H_MAX };
enum { HF_FTZ = 1, HF_SAT = 2 };

static uint16_t ftz_half(uint16_t h) { return h_sub(h) ? (uint16_t)(h & 0x8000) : h; }

/* Signed sum of two signed terms given as (neg, magnitude); exact zero is +0
 * unless both terms are -0 (round to nearest). */
static uint16_t sum_half(int na, u128 ma, int nb, u128 mb, int k)
{
    if (ma == 0 && mb == 0)
        return na && nb ? 0x8000 : 0;
    if (na == nb)
        return round_half(na, ma + mb, k);
    if (ma == mb)
        return 0;
    return ma > mb ? round_half(na, ma - mb, k) : round_half(nb, mb - ma, k);
}

static uint16_t ref_half(enum hop op, unsigned fl, uint16_t a, uint16_t b, uint16_t c)
{
    if (fl & HF_FTZ) {
        a = ftz_half(a);
        b = ftz_half(b);
        c = ftz_half(c);
    }
    uint16_t r;
    switch (op) {
    case H_NEG:
        r = h_nan(a) ? 0x7e00 : (uint16_t)(a ^ 0x8000);
        break;
    case H_ABS:
        r = h_nan(a) ? 0x7e00 : (uint16_t)(a & 0x7fff);
        break;
    case H_MIN: case H_MAX:
        if (h_nan(a) && h_nan(b))
            r = 0x7e00;
        else if (h_nan(a))
            r = b;
        else if (h_nan(b))
            r = a;
        else {
            double x = h_dbl(a), y = h_dbl(b);
            r = (op == H_MIN ? y < x : y > x) ? b : a;
        }
        break;
    case H_ADD: case H_SUB: {
        if (op == H_SUB && !h_nan(b))
            b ^= 0x8000;
        if (h_nan(a) || h_nan(b) || h_inf(a) || h_inf(b)) {
            r = special_half(h_dbl(a) + h_dbl(b));
            break;
        }
        r = sum_half(h_neg(a), h_units(a), h_neg(b), h_units(b), -24);
        break;
    }
    case H_MUL:
        if (h_nan(a) || h_nan(b) || h_inf(a) || h_inf(b)) {
            r = special_half(h_dbl(a) * h_dbl(b));
            break;
        }
        r = round_half(h_neg(a) ^ h_neg(b), (u128)h_units(a) * h_units(b), -48);
        break;
    case H_FMA:
    default:
        if (h_nan(a) || h_nan(b) || h_nan(c) || h_inf(a) || h_inf(b) || h_inf(c)) {
            r = special_half(fma(h_dbl(a), h_dbl(b), h_dbl(c)));
            break;
        }
        /* product in units of 2^-48, addend scaled to the same units */
        r = sum_half(h_neg(a) ^ h_neg(b), (u128)h_units(a) * h_units(b),
                     h_neg(c), (u128)h_units(c) << 24, -48);
        break;
    }
    if (fl & HF_FTZ)
        r = ftz_half(r);
    if (fl & HF_SAT) {
        if (h_nan(r) || h_neg(r))
            r = 0;
        else if (h_dbl(r) > 1.0)
            r = 0x3c00;
    }
    return r;
}

/* Equal as results: same bits, or both NaN, or (any_zero) both zeros. */
static int same_half(uint16_t got, uint16_t want, int any_zero)
{
    if (got == want)
        return 1;
    if (h_nan(got) && h_nan(want))
        return 1;
    return any_zero && h_zero(got) && h_zero(want);
}

/* ---- operands ----------------------------------------------------------- */

static uint64_t rng_state;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static const uint16_t specials[] = {
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x4000, 0xc200, 0x7bff, 0xfbff,
    0x0400, 0x8400, 0x0001, 0x8001, 0x03ff, 0x0200, 0x7c00, 0xfc00, 0x7e00,
    0xfe00, 0x7c01, 0x3555, 0x5640, 0x3bff, 0x3c01, 0x1c00, 0x2e66,
};

/* One half: special values, values near 1 (cancellation, ties), or any. */
static uint16_t gen_half(void)
{
    uint32_t r = rng();
    switch (r & 3) {
    case 0: return specials[(r >> 2) % (sizeof specials / sizeof specials[0])];
    case 1: return (uint16_t)(0x3000 + ((r >> 2) & 0x1fff)) | (uint16_t)(r & 0x8000);
    default: return (uint16_t)(r >> 8);
    }
}

/* b is sometimes close to -a, so that add/fma cancel (exact zeros, tiny
 * results). */
static uint16_t gen_near(uint16_t a)
{
    uint32_t r = rng();
    if ((r & 7) == 0)
        return (uint16_t)(a ^ 0x8000 ^ ((r >> 3) & 3));
    return gen_half();
}

#define NLANES 4096

/* ---- arithmetic cases --------------------------------------------------- */

typedef struct half_case {
    const char *name;            /* isa_case_head */
    const char *insn;            /* instruction with modifiers, no type */
    enum hop op;
    unsigned fl;
} half_case;

static const half_case arith_cases[] = {
    { "add", "add", H_ADD, 0 },
    { "add.rn", "add.rn", H_ADD, 0 },
    { "add.ftz", "add.ftz", H_ADD, HF_FTZ },
    { "add.sat", "add.sat", H_ADD, HF_SAT },
    { "add.rn.ftz.sat", "add.rn.ftz.sat", H_ADD, HF_FTZ | HF_SAT },
    { "sub", "sub", H_SUB, 0 },
    { "sub.rn", "sub.rn", H_SUB, 0 },
    { "sub.ftz", "sub.ftz", H_SUB, HF_FTZ },
    { "sub.rn.sat", "sub.rn.sat", H_SUB, HF_SAT },
    { "mul", "mul", H_MUL, 0 },
    { "mul.rn", "mul.rn", H_MUL, 0 },
    { "mul.ftz", "mul.ftz", H_MUL, HF_FTZ },
    { "mul.sat", "mul.sat", H_MUL, HF_SAT },
    { "mul.rn.ftz.sat", "mul.rn.ftz.sat", H_MUL, HF_FTZ | HF_SAT },
    { "fma.rn", "fma.rn", H_FMA, 0 },
    { "fma.rn.ftz", "fma.rn.ftz", H_FMA, HF_FTZ },
    { "fma.rn.sat", "fma.rn.sat", H_FMA, HF_SAT },
    { "fma.rn.ftz.sat", "fma.rn.ftz.sat", H_FMA, HF_FTZ | HF_SAT },
    { "neg", "neg", H_NEG, 0 },
    { "neg.ftz", "neg.ftz", H_NEG, HF_FTZ },
    { "abs", "abs", H_ABS, 0 },
    { "abs.ftz", "abs.ftz", H_ABS, HF_FTZ },
    { "min", "min", H_MIN, 0 },
    { "min.ftz", "min.ftz", H_MIN, HF_FTZ },
    { "max", "max", H_MAX, 0 },
    { "max.ftz", "max.ftz", H_MAX, HF_FTZ },
};

static unsigned nsrc(enum hop op)
{
    return op == H_FMA ? 3 : op == H_NEG || op == H_ABS ? 1 : 2;
}

/* Runs one case as .f16 (x2 == 0) or .f16x2 (x2 == 1) over NLANES lanes. */
static void run_arith(isa_ctx *c, const half_case *tc, int x2)
{
    unsigned ns = nsrc(tc->op), halves = x2 ? 2 : 1;
    const char *rt = x2 ? "b32" : "b16", *ty = x2 ? "f16x2" : "f16";
    uint32_t *in[3], *d = isa_calloc(c, NLANES, 4);
    uint16_t *in16[3], *d16 = isa_calloc(c, NLANES, 2);
    rng_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)tc->name[0] ^ (uint64_t)tc->op << 32;
    for (unsigned s = 0; s < 3; s++) {
        in[s] = isa_calloc(c, NLANES, 4);
        in16[s] = isa_calloc(c, NLANES, 2);
    }
    for (unsigned i = 0; i < NLANES; i++)
        for (unsigned h = 0; h < 2; h++) {
            uint16_t a = gen_half(), b = gen_near(a), cc = gen_near((uint16_t)(a ^ b));
            in[0][i] |= (uint32_t)a << (16 * h);
            in[1][i] |= (uint32_t)b << (16 * h);
            in[2][i] |= (uint32_t)cc << (16 * h);
        }
    for (unsigned s = 0; s < 3; s++)
        for (unsigned i = 0; i < NLANES; i++)
            in16[s][i] = (uint16_t)in[s][i];
    char body[160];
    snprintf(body, sizeof body, "\t%s.%s %%xd, %%xa%s%s;", tc->insn, ty,
             ns > 1 ? ", %xb" : "", ns > 2 ? ", %xc" : "");
    isa_elem_op op = { rt, rt, ns > 1 ? rt : NULL, ns > 2 ? rt : NULL, NULL, body };
    if (x2)
        isa_elem_run(c, &op, NLANES, in[0], in[1], in[2], d);
    else
        isa_elem_run(c, &op, NLANES, in16[0], in16[1], in16[2], d16);
    unsigned bad = 0;
    for (unsigned i = 0; i < NLANES; i++)
        for (unsigned h = 0; h < halves; h++) {
            uint16_t a = (uint16_t)(in[0][i] >> (16 * h)), b = (uint16_t)(in[1][i] >> (16 * h)),
                     cc = (uint16_t)(in[2][i] >> (16 * h));
            uint16_t got = x2 ? (uint16_t)(d[i] >> (16 * h)) : d16[i];
            uint16_t want = ref_half(tc->op, tc->fl, a, b, cc);
            /* min/max of +0 and -0 may give either; .sat makes -0 +0 */
            int any_zero = tc->op == H_MIN || tc->op == H_MAX || (tc->fl & HF_SAT);
            if (!same_half(got, want, any_zero) && bad++ < 8)
                print_error("%s.%s lane %u half %u: a=0x%04x b=0x%04x c=0x%04x: got 0x%04x, want 0x%04x\n",
                            tc->insn, ty, i, h, a, b, cc, got, want);
        }
    if (bad)
        fail_msg("%s.%s: %u results wrong", tc->insn, ty, bad);
}

static void run_arith_f16(void **state)
{
    isa_ctx *c = *state;
    run_arith(c, c->tcase, 0);
}

static void run_arith_f16x2(void **state)
{
    isa_ctx *c = *state;
    run_arith(c, c->tcase, 1);
}

/* The example from the bug report, by hand: (0.5, 1.0) * (2.0, -3.0) +
 * (0.5, 1.0) = (1.5, -2.0); as f16x2 the low half is the first element. */
static void test_half2_fma_example(void **state)
{
    isa_ctx *c = *state;
    uint32_t a = 0x3c003800u /* (0.5, 1.0) */, b = 0xc2004000u /* (2, -3) */, d = 0;
    isa_elem_op mul = { "b32", "b32", "b32", NULL, NULL, "\tmul.f16x2 %xd, %xa, %xb;" };
    isa_elem_run(c, &mul, 1, &a, &b, NULL, &d);
    assert_int_equal(d, 0xc2003c00u);          /* (1.0, -3.0) */
    isa_elem_op add = { "b32", "b32", "b32", NULL, NULL, "\tadd.f16x2 %xd, %xa, %xb;" };
    isa_elem_run(c, &add, 1, &a, &b, NULL, &d);
    assert_int_equal(d, 0xc0004100u);          /* (2.5, -2.0) */
    isa_elem_op sub = { "b32", "b32", "b32", NULL, NULL, "\tsub.f16x2 %xd, %xa, %xb;" };
    isa_elem_run(c, &sub, 1, &a, &b, NULL, &d);
    assert_int_equal(d, 0x4400be00u);          /* (-1.5, 4.0) */
    isa_elem_op fma_ = { "b32", "b32", "b32", "b32", NULL, "\tfma.rn.f16x2 %xd, %xa, %xb, %xc;" };
    isa_elem_run(c, &fma_, 1, &a, &b, &a, &d);
    assert_int_equal(d, 0xc0003e00u);          /* (1.5, -2.0) */
}

/* ---- setp / set ---------------------------------------------------------- */

static const char *const cmp_names[] = {
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
    "geu", "num", "nan",
};
#define NCMP (sizeof cmp_names / sizeof cmp_names[0])

/* PTX ISA comparison semantics: the ordered forms are false and the
 * unordered (...u) forms true when either operand is NaN. */
static int cmp_ref(unsigned ci, double x, double y)
{
    int un = isnan(x) || isnan(y);
    switch (ci) {
    case 0: return !un && x == y;
    case 1: return !un && x != y;
    case 2: return !un && x < y;
    case 3: return !un && x <= y;
    case 4: return !un && x > y;
    case 5: return !un && x >= y;
    case 6: return un || x == y;
    case 7: return un || x != y;
    case 8: return un || x < y;
    case 9: return un || x <= y;
    case 10: return un || x > y;
    case 11: return un || x >= y;
    case 12: return !un;
    default: return un;
    }
}

/* Source operand kinds and result encodings. */
enum src_kind { S_H, S_H2, S_F32, S_S32 };
enum res_kind {
    K_PRED,     /* setp p: d = p */
    K_PRED2,    /* setp p|q on f16x2: d = p | q << 1 (p: low half) */
    K_F16,      /* set.f16: 1.0 is 0x3c00 */
    K_ALL16,    /* set.u16/.s16: 0xffff */
    K_ALL32,    /* set.u32/.s32: 0xffffffff */
    K_F32,      /* set.f32: 1.0f */
    K_F16X2,    /* set.f16x2.f16x2: 0x3c00 per half */
    K_ALL16X2,  /* set.u32.f16x2: 0xffff per half */
};

typedef struct cmp_case {
    const char *name;            /* isa_case_head */
    const char *fmt;             /* body; %s is the comparison (and modifiers) */
    const char *dtype, *stype;   /* element types of d and a/b */
    enum src_kind src;
    enum res_kind res;
    int ftz;
    int boolop;                  /* 0 none, 1 and, 2 or, 3 xor with %p3 = c & 1 */
} cmp_case;

#define SEL "\n\tselp.u32 %xd, 1, 0, %p1;"
static const cmp_case cmp_cases[] = {
    { "setp.f16", "\tsetp.%s.f16 %p1, %xa, %xb;" SEL, "u32", "b16", S_H, K_PRED, 0, 0 },
    { "setp.ftz.f16", "\tsetp.%s.ftz.f16 %p1, %xa, %xb;" SEL, "u32", "b16", S_H, K_PRED, 1, 0 },
    { "setp.f16x2 p|q", "\tsetp.%s.f16x2 %p1|%p2, %xa, %xb;\n\tselp.u32 %t32_0, 1, 0, %p1;\n"
      "\tselp.u32 %t32_1, 2, 0, %p2;\n\tor.b32 %xd, %t32_0, %t32_1;", "u32", "b32", S_H2, K_PRED2, 0, 0 },
    { "setp.ftz.f16x2 p|q", "\tsetp.%s.ftz.f16x2 %p1|%p2, %xa, %xb;\n\tselp.u32 %t32_0, 1, 0, %p1;\n"
      "\tselp.u32 %t32_1, 2, 0, %p2;\n\tor.b32 %xd, %t32_0, %t32_1;", "u32", "b32", S_H2, K_PRED2, 1, 0 },
    { "set.f16.f16", "\tset.%s.f16.f16 %xd, %xa, %xb;", "b16", "b16", S_H, K_F16, 0, 0 },
    { "set.ftz.f16.f16", "\tset.%s.ftz.f16.f16 %xd, %xa, %xb;", "b16", "b16", S_H, K_F16, 1, 0 },
    { "set.u16.f16", "\tset.%s.u16.f16 %xd, %xa, %xb;", "b16", "b16", S_H, K_ALL16, 0, 0 },
    { "set.s16.f16", "\tset.%s.s16.f16 %xd, %xa, %xb;", "b16", "b16", S_H, K_ALL16, 0, 0 },
    { "set.u32.f16", "\tset.%s.u32.f16 %xd, %xa, %xb;", "u32", "b16", S_H, K_ALL32, 0, 0 },
    { "set.s32.f16", "\tset.%s.s32.f16 %xd, %xa, %xb;", "u32", "b16", S_H, K_ALL32, 0, 0 },
    { "set.f16.f32", "\tset.%s.f16.f32 %xd, %xa, %xb;", "b16", "f32", S_F32, K_F16, 0, 0 },
    { "set.f32.f32", "\tset.%s.f32.f32 %xd, %xa, %xb;", "f32", "f32", S_F32, K_F32, 0, 0 },
    { "set.u32.f32", "\tset.%s.u32.f32 %xd, %xa, %xb;", "u32", "f32", S_F32, K_ALL32, 0, 0 },
    { "set.f32.s32", "\tset.%s.f32.s32 %xd, %xa, %xb;", "f32", "s32", S_S32, K_F32, 0, 0 },
    { "set.s32.s32", "\tset.%s.s32.s32 %xd, %xa, %xb;", "u32", "s32", S_S32, K_ALL32, 0, 0 },
    { "set.f16x2.f16x2", "\tset.%s.f16x2.f16x2 %xd, %xa, %xb;", "b32", "b32", S_H2, K_F16X2, 0, 0 },
    { "set.ftz.f16x2.f16x2", "\tset.%s.ftz.f16x2.f16x2 %xd, %xa, %xb;", "b32", "b32", S_H2, K_F16X2, 1, 0 },
    { "set.u32.f16x2", "\tset.%s.u32.f16x2 %xd, %xa, %xb;", "u32", "b32", S_H2, K_ALL16X2, 0, 0 },
    { "set.s32.f16x2", "\tset.%s.s32.f16x2 %xd, %xa, %xb;", "u32", "b32", S_H2, K_ALL16X2, 0, 0 },
    { "set.and.f16.f16", "\tsetp.ne.b32 %p3, %xc, 0;\n\tset.%s.and.f16.f16 %xd, %xa, %xb, %p3;",
      "b16", "b16", S_H, K_F16, 0, 1 },
    { "set.or.f16x2.f16x2", "\tsetp.ne.b32 %p3, %xc, 0;\n\tset.%s.or.f16x2.f16x2 %xd, %xa, %xb, %p3;",
      "b32", "b32", S_H2, K_F16X2, 0, 2 },
    { "setp.xor.f16x2 p|q", "\tsetp.ne.b32 %p3, %xc, 0;\n\tsetp.%s.xor.f16x2 %p1|%p2, %xa, %xb, %p3;\n"
      "\tselp.u32 %t32_0, 1, 0, %p1;\n\tselp.u32 %t32_1, 2, 0, %p2;\n\tor.b32 %xd, %t32_0, %t32_1;",
      "u32", "b32", S_H2, K_PRED2, 0, 3 },
};

#define CMP_LANES 512

static double src_value(enum src_kind k, uint32_t v, unsigned h, int ftz)
{
    switch (k) {
    case S_H: case S_H2: {
        uint16_t x = (uint16_t)(v >> (16 * h));
        return h_dbl(ftz ? ftz_half(x) : x);
    }
    case S_F32: return (double)isa_f32(v);
    default: return (double)(int32_t)v;
    }
}

static uint32_t gen_src(enum src_kind k)
{
    static const uint32_t f32s[] = {
        0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
        0x7fc00000, 0x00000001, 0x3f800001, 0x40490fdb,
    };
    uint32_t r = rng();
    switch (k) {
    case S_H: return gen_half();
    case S_H2: return gen_half() | (uint32_t)gen_half() << 16;
    case S_F32: return (r & 1) ? f32s[(r >> 1) % 10] : rng();
    default: return (r & 1) ? (r >> 1) % 5 - 2 : rng();
    }
}

static void run_cmp(void **state)
{
    isa_ctx *c = *state;
    const cmp_case *tc = c->tcase;
    int is_int = tc->src == S_S32;
    unsigned ncmp = is_int ? 6 : NCMP;
    unsigned halves = tc->src == S_H2 ? 2 : 1;
    size_t ss = isa_type_size(tc->stype), ds = isa_type_size(tc->dtype);
    uint32_t *a = isa_calloc(c, CMP_LANES, 4), *b = isa_calloc(c, CMP_LANES, 4),
             *cc = isa_calloc(c, CMP_LANES, 4);
    unsigned char *a_ = isa_calloc(c, CMP_LANES, ss), *b_ = isa_calloc(c, CMP_LANES, ss),
                  *d_ = isa_calloc(c, CMP_LANES, ds);
    rng_state = 0x2545f4914f6cdd1dull ^ (uint64_t)tc->res << 40 ^ (uint64_t)tc->src << 48 ^
                (uint64_t)tc->ftz << 56;
    for (unsigned i = 0; i < CMP_LANES; i++) {
        a[i] = gen_src(tc->src);
        /* a quarter of the b operands equal a (per half for f16x2) */
        b[i] = gen_src(tc->src);
        if ((rng() & 3) == 0)
            b[i] = (b[i] & 0xffff0000u) | (a[i] & 0xffff);
        if (halves == 2 && (rng() & 3) == 0)
            b[i] = (b[i] & 0xffff) | (a[i] & 0xffff0000u);
        if (tc->src == S_H)
            a[i] &= 0xffff, b[i] &= 0xffff;
        cc[i] = rng() & 1;
        memcpy(a_ + i * ss, &a[i], ss);
        memcpy(b_ + i * ss, &b[i], ss);
    }
    unsigned bad = 0;
    for (unsigned ci = 0; ci < ncmp; ci++) {
        char body[400];
        /* the body names registers with '%': put the comparison in by hand */
        const char *at = strstr(tc->fmt, "%s");
        snprintf(body, sizeof body, "%.*s%s%s", (int)(at - tc->fmt), tc->fmt, cmp_names[ci], at + 2);
        isa_elem_op op = { tc->dtype, tc->stype, tc->stype, tc->boolop ? "u32" : NULL, NULL, body };
        isa_elem_run(c, &op, CMP_LANES, a_, b_, cc, d_);
        for (unsigned i = 0; i < CMP_LANES; i++) {
            uint32_t got = 0, want = 0;
            memcpy(&got, d_ + i * ds, ds);
            for (unsigned h = 0; h < halves; h++) {
                int r = cmp_ref(ci, src_value(tc->src, a[i], h, tc->ftz),
                                src_value(tc->src, b[i], h, tc->ftz));
                if (is_int)   /* only eq..ge are used: same meaning on integers */
                    r = cmp_ref(ci, (double)(int32_t)a[i], (double)(int32_t)b[i]);
                switch (tc->boolop) {
                case 1: r = r && cc[i]; break;
                case 2: r = r || cc[i]; break;
                case 3: r = r != (int)cc[i]; break;
                default: break;
                }
                switch (tc->res) {
                case K_PRED: want = (uint32_t)r; break;
                case K_PRED2: want |= (uint32_t)r << h; break;
                case K_F16: want = r ? 0x3c00 : 0; break;
                case K_ALL16: want = r ? 0xffff : 0; break;
                case K_ALL32: want = r ? 0xffffffffu : 0; break;
                case K_F32: want = r ? 0x3f800000u : 0; break;
                case K_F16X2: want |= (uint32_t)(r ? 0x3c00 : 0) << (16 * h); break;
                case K_ALL16X2: want |= (uint32_t)(r ? 0xffff : 0) << (16 * h); break;
                }
            }
            if (got != want && bad++ < 8)
                print_error("%s (%s) lane %u: a=0x%x b=0x%x c=%u: got 0x%x, want 0x%x\n", tc->name,
                            cmp_names[ci], i, a[i], b[i], cc[i], got, want);
        }
    }
    if (bad)
        fail_msg("%s: %u results wrong", tc->name, bad);
}

/* The bug report's case by hand: set.eq.f16.f16 of 1.0 and 1.0 is 1.0. */
static void test_set_f16_one(void **state)
{
    isa_ctx *c = *state;
    uint16_t a = 0x3c00, d = 0;
    isa_elem_op op = { "b16", "b16", NULL, NULL, NULL, "\tset.eq.f16.f16 %xd, %xa, %xa;" };
    isa_elem_run(c, &op, 1, &a, NULL, NULL, &d);
    assert_int_equal(d, 0x3c00);
}

/* ---- cvt.r*i.f16.f16: round to an integral half ---------------------------- */

typedef struct rint_case {
    const char *name;            /* isa_case_head */
    char mode;                   /* n (nearest even), z, m (down), p (up) */
} rint_case;

static const rint_case rint_cases[] = {
    { "cvt.rni.f16.f16", 'n' }, { "cvt.rzi.f16.f16", 'z' },
    { "cvt.rmi.f16.f16", 'm' }, { "cvt.rpi.f16.f16", 'p' },
};

/* Integer-only reference: |h| = N * 2^-24, integer part N >> 24. The result
 * keeps the sign of the input (trunc(-0.5) is -0). */
static uint16_t rint_ref(char mode, uint16_t h)
{
    if (h_nan(h) || h_inf(h))
        return h;
    uint64_t n = h_units(h), q = n >> 24, rem = n & 0xffffff;
    int neg = h_neg(h);
    switch (mode) {
    case 'n': if (rem > 0x800000 || (rem == 0x800000 && (q & 1))) q++; break;
    case 'm': if (neg && rem) q++; break;
    case 'p': if (!neg && rem) q++; break;
    default: break;
    }
    return round_half(neg, q, 0);
}

/* All 65,536 inputs. Any NaN in must give a NaN out. */
static void run_rint(void **state)
{
    isa_ctx *c = *state;
    const rint_case *tc = c->tcase;
    uint16_t *a = isa_calloc(c, 65536, 2), *d = isa_calloc(c, 65536, 2);
    for (unsigned i = 0; i < 65536; i++)
        a[i] = (uint16_t)i;
    char body[64];
    snprintf(body, sizeof body, "\t%s %%xd, %%xa;", tc->name);
    isa_elem_op op = { "b16", "b16", NULL, NULL, NULL, body };
    isa_elem_run(c, &op, 65536, a, NULL, NULL, d);
    unsigned bad = 0;
    for (unsigned i = 0; i < 65536; i++) {
        uint16_t want = rint_ref(tc->mode, a[i]);
        if (!same_half(d[i], want, 0) && bad++ < 8)
            print_error("%s: in=0x%04x: got 0x%04x, want 0x%04x\n", tc->name, a[i], d[i], want);
    }
    if (bad)
        fail_msg("%s: %u of 65536 inputs wrong", tc->name, bad);
}

/* By hand: hrint/htrunc/hfloor/hceil of -2.5 are -2, -2, -3, -2. */
static void test_rint_hand(void **state)
{
    isa_ctx *c = *state;
    static const char *const insn[4] = { "rni", "rzi", "rmi", "rpi" };
    static const uint16_t want[4] = { 0xc000, 0xc000, 0xc200, 0xc000 };
    for (unsigned i = 0; i < 4; i++) {
        uint16_t a = 0xc100 /* -2.5 */, d = 0;
        char body[64];
        snprintf(body, sizeof body, "\tcvt.%s.f16.f16 %%xd, %%xa;", insn[i]);
        isa_elem_op op = { "b16", "b16", NULL, NULL, NULL, body };
        isa_elem_run(c, &op, 1, &a, NULL, NULL, &d);
        assert_int_equal(d, want[i]);
    }
}

/* cuda_fp16.hpp's inline asm declares registers as "{.reg.b32 f;" (no
 * space after .reg): the block must load. 1.5 doubled through f32 is 3.0. */
static void test_fp16_hpp_reg_syntax(void **state)
{
    isa_ctx *c = *state;
    /* loaded directly first: isa_load would skip on "unsupported directive",
     * and this is syntax that must be accepted */
    static const char ptx[] = ISA_PTX_HEADER
        ".visible .entry k()\n{\n\t{.reg.b32 f;\n\t.reg.b16 r;\n\tmov.b16 r, 0;\n"
        "\tcvt.f32.f16 f, r;\n\t}\n\tret;\n}\n";
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx(c->dev, "reg-syntax.ptx", ptx, strlen(ptx), &m);
    if (st != SMC_OK)
        fail_msg("%s: %s", smc_status_name(st), smc_last_message(c->dev));
    uint16_t a = 0x3e00 /* 1.5 */, d = 0;
    isa_elem_op op = { "b16", "b16", NULL, NULL, NULL,
        "\t{.reg.b32         f;        \n"
        "\t .reg.b16         r;        \n"
        "\t  mov.b16         r,%xa;     \n"
        "\t  cvt.f32.f16     f,r;      \n"
        "\t  add.f32         f,f,f;    \n"
        "\t  cvt.rn.f16.f32  r,f;      \n"
        "\t  mov.b16         %xd,r;     \n"
        "\t}" };
    isa_elem_run(c, &op, 1, &a, NULL, NULL, &d);
    assert_int_equal(d, 0x4200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_half2_fma_example, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_set_f16_one, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_rint_hand, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_fp16_hpp_reg_syntax, isa_setup, isa_teardown),
    };
    int rc = isa_run_group("isa_half", tests, sizeof tests / sizeof tests[0]);
    rc |= isa_run_table("isa_half_f16", run_arith_f16, arith_cases, sizeof arith_cases[0],
                        sizeof arith_cases / sizeof arith_cases[0]);
    rc |= isa_run_table("isa_half_f16x2", run_arith_f16x2, arith_cases, sizeof arith_cases[0],
                        sizeof arith_cases / sizeof arith_cases[0]);
    rc |= isa_run_table("isa_half_cmp", run_cmp, cmp_cases, sizeof cmp_cases[0],
                        sizeof cmp_cases / sizeof cmp_cases[0]);
    rc |= isa_run_table("isa_half_rint", run_rint, rint_cases, sizeof rint_cases[0],
                        sizeof rint_cases / sizeof rint_cases[0]);
    return rc;
}
