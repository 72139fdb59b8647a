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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_half2_fma_example, isa_setup, isa_teardown),
    };
    int rc = isa_run_group("isa_half", tests, sizeof tests / sizeof tests[0]);
    rc |= isa_run_table("isa_half_f16", run_arith_f16, arith_cases, sizeof arith_cases[0],
                        sizeof arith_cases / sizeof arith_cases[0]);
    rc |= isa_run_table("isa_half_f16x2", run_arith_f16x2, arith_cases, sizeof arith_cases[0],
                        sizeof arith_cases / sizeof arith_cases[0]);
    return rc;
}
