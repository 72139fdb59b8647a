/*
 * test_int.c — integer instruction family: arithmetic (16/32/64-bit, s/u),
 * min/max, abs/neg, bit manipulation (popc clz brev bfe bfi prmt), shifts
 * (incl. shift >= width), funnel shifts, logic and lop3, carry chains, sad.
 *
 * Each case runs one PTX body over the cross product of value sets (edge
 * values first) and compares every lane with `ref`, an independent C model
 * written from the PTX ISA description. Division by zero: PTX leaves the
 * integer result unspecified; NVIDIA hardware gives all ones for div.u32 and
 * the dividend for rem.u32 (the quotient-then-multiply sequence ptxas emits),
 * so those two are checked and documented in docs/isa-coverage.md; signed
 * and 64-bit division by zero and INT_MIN / -1 are left unchecked.
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

typedef int (*int_ref)(uint64_t a, uint64_t b, uint64_t c, uint64_t *d);
typedef struct vset { const uint64_t *v; size_t n; } vset;

typedef struct int_case {
    const char *name;                      /* isa_case_head */
    const char *dtype, *atype, *btype, *ctype;
    const char *body;
    int_ref     ref;
    vset        va, vb, vc;
} int_case;

/* ---- value sets --------------------------------------------------------- */

#define VS(arr) { arr, sizeof(arr) / sizeof(arr[0]) }
static const uint64_t v16[] = {
    0, 1, 2, 15, 16, 17, 0x7f, 0x80, 0xff, 0x1234, 0x7fff, 0x8000, 0x8001,
    0xabcd, 0xfffe, 0xffff,
};
static const uint64_t v32[] = {
    0, 1, 2, 3, 5, 7, 31, 32, 33, 0xff, 0x8000, 0xffff, 0x10000, 0x12345678,
    0x7fffffff, 0x80000000, 0x80000001, 0xcafebabe, 0xdeadbeef, 0xfffffffe,
    0xffffffff,
};
static const uint64_t v32s[] = {   /* small set for third operands */
    0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x12345678,
};
static const uint64_t v64[] = {
    0, 1, 2, 3, 63, 64, 65, 0x80000000, 0xffffffffu, 0x100000000ull,
    0x123456789abcdef0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
    0x8000000000000001ull, 0xdeadbeefcafebabeull, 0xfffffffffffffffeull,
    0xffffffffffffffffull,
};
static const uint64_t v64s[] = {
    0, 1, 0xffffffffu, 0x8000000000000000ull, 0xffffffffffffffffull,
};
static const uint64_t vshift[] = {   /* shift amounts, including >= width */
    0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 0x80000000,
    0xffffffff,
};
static const uint64_t vbit[] = {     /* bfe/bfi positions and lengths */
    0, 1, 4, 8, 15, 16, 31, 32, 33, 63, 64, 200, 255, 0x100, 0x104,
};
static const uint64_t vprmt[] = {    /* prmt selectors; high bits ignored */
    0x3210, 0x0123, 0x7654, 0x4567, 0x1111, 0x8888, 0x9abc, 0xf0e1, 0x5e1a,
    0x0000, 0xffff1234, 0x00000001, 0x00000002, 0x00000003, 0x00000007,
};
static const uint64_t vlane[] = { 0 };  /* placeholder for unused operands */

/* ---- helpers for the reference models ---------------------------------- */

static uint64_t sext(uint64_t v, int bits)
{
    uint64_t m = 1ull << (bits - 1);
    v &= (bits == 64) ? ~0ull : ((1ull << bits) - 1);
    return (v ^ m) - m;
}
#define S16(x) ((int64_t)sext((x), 16))
#define S32(x) ((int64_t)sext((x), 32))
#define S64(x) ((int64_t)(x))
#define U16(x) ((x) & 0xffffu)
#define U32(x) ((x) & 0xffffffffu)

/* ---- arithmetic --------------------------------------------------------- */

#define REF(name) static int name(uint64_t a, uint64_t b, uint64_t c, uint64_t *d)
#define UNUSED3 (void)a; (void)b; (void)c

REF(r_add)     { UNUSED3; *d = a + b; return 1; }
REF(r_sub)     { UNUSED3; *d = a - b; return 1; }
REF(r_mullo)   { UNUSED3; *d = a * b; return 1; }
REF(r_mulhi_u16) { UNUSED3; *d = (U16(a) * U16(b)) >> 16; return 1; }
REF(r_mulhi_s16) { UNUSED3; *d = (uint64_t)((S16(a) * S16(b)) >> 16); return 1; }
REF(r_mulwide_s16) { UNUSED3; *d = (uint64_t)(S16(a) * S16(b)); return 1; }
REF(r_mulhi_u32) { UNUSED3; *d = (U32(a) * U32(b)) >> 32; return 1; }
REF(r_mulhi_s32) { UNUSED3; *d = (uint64_t)((S32(a) * S32(b)) >> 32); return 1; }
REF(r_mulwide_u32) { UNUSED3; *d = U32(a) * U32(b); return 1; }
REF(r_mulwide_s32) { UNUSED3; *d = (uint64_t)(S32(a) * S32(b)); return 1; }
REF(r_mulhi_u64)
{
    UNUSED3;
    *d = (uint64_t)(((unsigned __int128)a * b) >> 64);
    return 1;
}
REF(r_mulhi_s64)
{
    UNUSED3;
    *d = (uint64_t)(((__int128)S64(a) * S64(b)) >> 64);
    return 1;
}
REF(r_madlo)   { *d = a * b + c; return 1; }
REF(r_madhi_u32) { *d = ((U32(a) * U32(b)) >> 32) + c; return 1; }
REF(r_madhi_s32) { *d = (uint64_t)((S32(a) * S32(b)) >> 32) + c; return 1; }
REF(r_madwide_u32) { *d = U32(a) * U32(b) + c; return 1; }
REF(r_madwide_s32) { *d = (uint64_t)(S32(a) * S32(b)) + c; return 1; }

REF(r_div_u16) { UNUSED3; if (U16(b) == 0) return 0; *d = U16(a) / U16(b); return 1; }
REF(r_rem_u16) { UNUSED3; if (U16(b) == 0) return 0; *d = U16(a) % U16(b); return 1; }
REF(r_div_s16)
{
    UNUSED3;
    if (U16(b) == 0 || (U16(a) == 0x8000 && U16(b) == 0xffff)) return 0;
    *d = (uint64_t)(S16(a) / S16(b));
    return 1;
}
REF(r_rem_s16)
{
    UNUSED3;
    if (U16(b) == 0 || (U16(a) == 0x8000 && U16(b) == 0xffff)) return 0;
    *d = (uint64_t)(S16(a) % S16(b));
    return 1;
}
/* div.u32 by zero: all ones; rem.u32 by zero: the dividend (hardware). */
REF(r_div_u32) { UNUSED3; *d = U32(b) ? U32(a) / U32(b) : 0xffffffffu; return 1; }
REF(r_rem_u32) { UNUSED3; *d = U32(b) ? U32(a) % U32(b) : U32(a); return 1; }
REF(r_div_s32)
{
    UNUSED3;
    if (U32(b) == 0 || (U32(a) == 0x80000000u && U32(b) == 0xffffffffu))
        return 0;
    *d = (uint64_t)(S32(a) / S32(b));
    return 1;
}
REF(r_rem_s32)
{
    UNUSED3;
    if (U32(b) == 0 || (U32(a) == 0x80000000u && U32(b) == 0xffffffffu))
        return 0;
    *d = (uint64_t)(S32(a) % S32(b));
    return 1;
}
REF(r_div_u64) { UNUSED3; if (!b) return 0; *d = a / b; return 1; }
REF(r_rem_u64) { UNUSED3; if (!b) return 0; *d = a % b; return 1; }
REF(r_div_s64)
{
    UNUSED3;
    if (!b || (a == 0x8000000000000000ull && b == ~0ull)) return 0;
    *d = (uint64_t)(S64(a) / S64(b));
    return 1;
}
REF(r_rem_s64)
{
    UNUSED3;
    if (!b || (a == 0x8000000000000000ull && b == ~0ull)) return 0;
    *d = (uint64_t)(S64(a) % S64(b));
    return 1;
}

REF(r_min_u)   { UNUSED3; *d = a < b ? a : b; return 1; }
REF(r_max_u)   { UNUSED3; *d = a > b ? a : b; return 1; }
REF(r_min_s16) { UNUSED3; *d = S16(a) < S16(b) ? a : b; return 1; }
REF(r_max_s16) { UNUSED3; *d = S16(a) > S16(b) ? a : b; return 1; }
REF(r_min_s32) { UNUSED3; *d = S32(a) < S32(b) ? a : b; return 1; }
REF(r_max_s32) { UNUSED3; *d = S32(a) > S32(b) ? a : b; return 1; }
REF(r_min_s64) { UNUSED3; *d = S64(a) < S64(b) ? a : b; return 1; }
REF(r_max_s64) { UNUSED3; *d = S64(a) > S64(b) ? a : b; return 1; }
/* abs of the most negative value is itself. */
REF(r_abs_s16) { UNUSED3; *d = S16(a) < 0 ? (uint64_t)-S16(a) : a; return 1; }
REF(r_abs_s32) { UNUSED3; *d = S32(a) < 0 ? (uint64_t)-S32(a) : a; return 1; }
REF(r_abs_s64) { UNUSED3; *d = (a >> 63) ? 0 - a : a; return 1; }
REF(r_neg)     { UNUSED3; *d = 0 - a; return 1; }
REF(r_sad_u32) { *d = (U32(a) > U32(b) ? U32(a) - U32(b) : U32(b) - U32(a)) + c; return 1; }
REF(r_sad_s32)
{
    int64_t x = S32(a), y = S32(b);
    *d = (uint64_t)(x > y ? x - y : y - x) + c;
    return 1;
}

/* ---- bit manipulation --------------------------------------------------- */

static uint64_t popcount(uint64_t v) { uint64_t n = 0; while (v) { n += v & 1; v >>= 1; } return n; }
static uint64_t clz(uint64_t v, int bits)
{
    uint64_t n = 0;
    for (int i = bits - 1; i >= 0 && !((v >> i) & 1); i--)
        n++;
    return n;
}
static uint64_t brev(uint64_t v, int bits)
{
    uint64_t r = 0;
    for (int i = 0; i < bits; i++)
        if ((v >> i) & 1)
            r |= 1ull << (bits - 1 - i);
    return r;
}
REF(r_popc32) { UNUSED3; *d = popcount(U32(a)); return 1; }
REF(r_popc64) { UNUSED3; *d = popcount(a); return 1; }
REF(r_clz32)  { UNUSED3; *d = clz(a, 32); return 1; }
REF(r_clz64)  { UNUSED3; *d = clz(a, 64); return 1; }
REF(r_brev32) { UNUSED3; *d = brev(a, 32); return 1; }
REF(r_brev64) { UNUSED3; *d = brev(a, 64); return 1; }
REF(r_not)    { UNUSED3; *d = ~a; return 1; }
REF(r_and)    { UNUSED3; *d = a & b; return 1; }
REF(r_or)     { UNUSED3; *d = a | b; return 1; }
REF(r_xor)    { UNUSED3; *d = a ^ b; return 1; }
REF(r_cnot)   { UNUSED3; *d = a == 0; return 1; }

/* bfe as written in the PTX ISA pseudocode. */
static uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn)
{
    int msb = bits - 1;
    unsigned pos = b & 0xff, len = c & 0xff;
    unsigned top = pos + len - 1;
    int sbit = 0;
    if (sgn && len != 0)
        sbit = (int)((a >> (top < (unsigned)msb ? top : (unsigned)msb)) & 1);
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        int bit = ((unsigned)i < len && pos + i <= (unsigned)msb)
                      ? (int)((a >> (pos + i)) & 1) : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}
REF(r_bfe_u32) { *d = bfe(U32(a), b, c, 32, 0); return 1; }
REF(r_bfe_s32) { *d = bfe(U32(a), b, c, 32, 1); return 1; }
REF(r_bfe_u64) { *d = bfe(a, b, c, 64, 0); return 1; }
REF(r_bfe_s64) { *d = bfe(a, b, c, 64, 1); return 1; }

/* bfi.b32 f, a, b, pos, len: test packs pos = c & 0xff, len = c >> 8. */
static uint64_t bfi(uint64_t a, uint64_t b, unsigned pos, unsigned len, int bits)
{
    uint64_t f = b;
    pos &= 0xff;
    len &= 0xff;
    for (unsigned i = 0; i < len && pos + i <= (unsigned)bits - 1; i++) {
        f &= ~(1ull << (pos + i));
        f |= ((a >> i) & 1) << (pos + i);
    }
    return f;
}
REF(r_bfi_b32) { *d = bfi(U32(a), U32(b), (unsigned)c, (unsigned)(c >> 8), 32); return 1; }
REF(r_bfi_b64) { *d = bfi(a, b, (unsigned)c, (unsigned)(c >> 8), 64); return 1; }

/* prmt: byte i of {b,a} (a = bytes 0..3, b = bytes 4..7). */
static unsigned byte_of(uint64_t a, uint64_t b, unsigned i)
{
    uint64_t v = (U32(b) << 32) | U32(a);
    return (unsigned)((v >> (8 * (i & 7))) & 0xff);
}
REF(r_prmt)
{
    uint64_t r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned sel = (unsigned)(c >> (4 * i)) & 0xf;
        unsigned byte = byte_of(a, b, sel & 7);
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0x00;
        r |= (uint64_t)byte << (8 * i);
    }
    *d = r;
    return 1;
}
/* Mode tables from the PTX ISA: source byte for d.b0..d.b3 per c[1:0]. */
static const unsigned char prmt_modes[6][4][4] = {
    /* f4e  */ { {0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6} },
    /* b4e  */ { {0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0} },
    /* rc8  */ { {0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3} },
    /* ecl  */ { {0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3} },
    /* ecr  */ { {0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3} },
    /* rc16 */ { {0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3} },
};
static int prmt_mode(int m, uint64_t a, uint64_t b, uint64_t c, uint64_t *d)
{
    uint64_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint64_t)byte_of(a, b, prmt_modes[m][c & 3][i]) << (8 * i);
    *d = r;
    return 1;
}
REF(r_prmt_f4e)  { return prmt_mode(0, a, b, c, d); }
REF(r_prmt_b4e)  { return prmt_mode(1, a, b, c, d); }
REF(r_prmt_rc8)  { return prmt_mode(2, a, b, c, d); }
REF(r_prmt_ecl)  { return prmt_mode(3, a, b, c, d); }
REF(r_prmt_ecr)  { return prmt_mode(4, a, b, c, d); }
REF(r_prmt_rc16) { return prmt_mode(5, a, b, c, d); }

/* ---- shifts: amounts >= width clamp (PTX: "shift amounts greater than the
 * register width N are clamped to N"). ----------------------------------- */
REF(r_shl16) { UNUSED3; *d = U32(b) >= 16 ? 0 : U16(a) << U32(b); return 1; }
REF(r_shl32) { UNUSED3; *d = U32(b) >= 32 ? 0 : U32(a) << U32(b); return 1; }
REF(r_shl64) { UNUSED3; *d = U32(b) >= 64 ? 0 : a << U32(b); return 1; }
REF(r_shr_u16) { UNUSED3; *d = U32(b) >= 16 ? 0 : U16(a) >> U32(b); return 1; }
REF(r_shr_u32) { UNUSED3; *d = U32(b) >= 32 ? 0 : U32(a) >> U32(b); return 1; }
REF(r_shr_u64) { UNUSED3; *d = U32(b) >= 64 ? 0 : a >> U32(b); return 1; }
static uint64_t sar(int64_t v, uint64_t n, int bits)
{
    if (n >= (uint64_t)bits)
        n = (uint64_t)bits - 1;
    return (uint64_t)(v >> n);   /* gcc: arithmetic shift of negatives */
}
REF(r_shr_s16) { UNUSED3; *d = sar(S16(a), U32(b), 16); return 1; }
REF(r_shr_s32) { UNUSED3; *d = sar(S32(a), U32(b), 32); return 1; }
REF(r_shr_s64) { UNUSED3; *d = sar(S64(a), U32(b), 64); return 1; }

/* shf: the 64-bit value {b:a}. wrap: n = c & 31; clamp: n = min(c, 32). */
REF(r_shf_l_wrap)  { uint64_t v = (U32(b) << 32) | U32(a); *d = (v << (U32(c) & 31)) >> 32; return 1; }
REF(r_shf_r_wrap)  { uint64_t v = (U32(b) << 32) | U32(a); *d = U32(v >> (U32(c) & 31)); return 1; }
REF(r_shf_l_clamp)
{
    uint64_t v = (U32(b) << 32) | U32(a), n = U32(c) > 32 ? 32 : U32(c);
    *d = (v << n) >> 32;
    return 1;
}
REF(r_shf_r_clamp)
{
    uint64_t v = (U32(b) << 32) | U32(a), n = U32(c) > 32 ? 32 : U32(c);
    *d = U32(v >> n);
    return 1;
}

static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut)
{
    uint64_t r = 0;
    for (int i = 0; i < 32; i++) {
        unsigned idx = (unsigned)(((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1));
        r |= (uint64_t)((lut >> idx) & 1) << i;
    }
    return r;
}
REF(r_lop3_96) { *d = lop3(a, b, c, 0x96); return 1; }
REF(r_lop3_e8) { *d = lop3(a, b, c, 0xe8); return 1; }
REF(r_lop3_ca) { *d = lop3(a, b, c, 0xca); return 1; }
REF(r_lop3_01) { *d = lop3(a, b, c, 0x01); return 1; }
REF(r_lop3_6a) { *d = lop3(a, b, c, 0x6a); return 1; }
REF(r_lop3_ff) { *d = lop3(a, b, c, 0xff); return 1; }

/* ---- carry chains ------------------------------------------------------ */
REF(r_add64)      { UNUSED3; *d = a + b; return 1; }
REF(r_carry64)    { UNUSED3; *d = (a + b) < a; return 1; }
REF(r_sub64)      { UNUSED3; *d = a - b; return 1; }
REF(r_borrow64)   { UNUSED3; *d = a < b ? 0xffffffffu : 0; return 1; }
REF(r_madcc)      { *d = U32(a) * U32(b) + c; return 1; }

/* ---- comparisons and selection ------------------------------------------ */
#define CMP(name, expr) REF(name) { (void)c; *d = (expr) ? 1 : 0; return 1; }
CMP(c_eq, a == b)
CMP(c_ne, a != b)
CMP(c_lt_s32, S32(a) < S32(b))
CMP(c_le_s32, S32(a) <= S32(b))
CMP(c_gt_s32, S32(a) > S32(b))
CMP(c_ge_s32, S32(a) >= S32(b))
CMP(c_lo, a < b)
CMP(c_ls, a <= b)
CMP(c_hi, a > b)
CMP(c_hs, a >= b)
CMP(c_lt_s64, S64(a) < S64(b))
CMP(c_ge_s64, S64(a) >= S64(b))
CMP(c_lt_s16, S16(a) < S16(b))
CMP(c_le_s16_and, S16(a) <= S16(b) && (c & 1))
CMP(c_hi_or_not, a > b || !(c & 1))
CMP(c_eq_xor, (a == b) ^ (int)(c & 1))
REF(r_selp)      { *d = (c & 1) ? a : b; return 1; }
REF(r_slct_s32)  { *d = S32(c) >= 0 ? a : b; return 1; }
REF(r_set_lt_s32) { (void)c; *d = S32(a) < S32(b) ? 0xffffffffu : 0; return 1; }
REF(r_set_hs_u32) { (void)c; *d = U32(a) >= U32(b) ? 0xffffffffu : 0; return 1; }

/* ---- mul24/mad24, bfind, dp4a/dp2a, 16-bit wide ---------------------------- */
static int64_t s24(uint64_t v) { return (int64_t)sext(v & 0xffffff, 24); }
REF(r_mul24lo_u) { (void)c; *d = (a & 0xffffff) * (b & 0xffffff); return 1; }
REF(r_mul24hi_u) { (void)c; *d = ((a & 0xffffff) * (b & 0xffffff)) >> 16; return 1; }
REF(r_mul24lo_s) { (void)c; *d = (uint64_t)(s24(a) * s24(b)); return 1; }
REF(r_mul24hi_s) { (void)c; *d = (uint64_t)((s24(a) * s24(b)) >> 16); return 1; }
REF(r_mad24lo_u) { *d = (a & 0xffffff) * (b & 0xffffff) + c; return 1; }
/* bfind: bit position of the most significant non-sign bit, 0xffffffff if none */
static uint64_t bfind(uint64_t a, int bits, int sgn, int shiftamt)
{
    if (sgn && ((a >> (bits - 1)) & 1))
        a = ~a & (bits == 64 ? ~0ull : (1ull << bits) - 1);
    for (int i = bits - 1; i >= 0; i--)
        if ((a >> i) & 1)
            return shiftamt ? (uint64_t)(bits - 1 - i) : (uint64_t)i;
    return 0xffffffffu;
}
REF(r_bfind_u32) { UNUSED3; *d = bfind(U32(a), 32, 0, 0); return 1; }
REF(r_bfind_s32) { UNUSED3; *d = bfind(U32(a), 32, 1, 0); return 1; }
REF(r_bfind_u64) { UNUSED3; *d = bfind(a, 64, 0, 0); return 1; }
REF(r_bfind_shift_u32) { UNUSED3; *d = bfind(U32(a), 32, 0, 1); return 1; }
REF(r_dp4a_u) {
    uint64_t acc = c;
    for (int i = 0; i < 4; i++)
        acc += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
    *d = acc;
    return 1;
}
REF(r_dp4a_s) {
    int64_t acc = S32(c);
    for (int i = 0; i < 4; i++)
        acc += (int64_t)sext(a >> (8 * i), 8) * (int64_t)sext(b >> (8 * i), 8);
    *d = (uint64_t)acc;
    return 1;
}
/* dp2a.lo: two 16-bit halves of a times the low two bytes of b */
REF(r_dp2a_lo_u) {
    uint64_t acc = c;
    for (int i = 0; i < 2; i++)
        acc += ((a >> (16 * i)) & 0xffff) * ((b >> (8 * i)) & 0xff);
    *d = acc;
    return 1;
}
REF(r_mulwide_u16) { UNUSED3; *d = U16(a) * U16(b); return 1; }
static uint64_t clamp_s32(int64_t v) { return (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v); }
REF(r_add_sat_s32) { UNUSED3; *d = clamp_s32(S32(a) + S32(b)); return 1; }
REF(r_sub_sat_s32) { UNUSED3; *d = clamp_s32(S32(a) - S32(b)); return 1; }
REF(r_swap_halves) { UNUSED3; *d = (U32(a) >> 16) | (U32(a) << 16); return 1; }
REF(r_pack_halves) { UNUSED3; *d = (U16(b) << 16) | U16(a); return 1; }
/* add.cc.u64 lo = a + b; addc.u64 hi = b + a + carry(lo) */
REF(r_addc_u64) { UNUSED3; *d = b + a + ((a + b) < a); return 1; }
REF(r_madwide_s16) { *d = (uint64_t)(S16(a) * S16(b) + S32(c)); return 1; }

/* ---- the table ---------------------------------------------------------- */

#define B2(op) "\t" op " %xd, %xa, %xb;"
#define B1(op) "\t" op " %xd, %xa;"
#define B3(op) "\t" op " %xd, %xa, %xb, %xc;"
#define NONE VS(vlane)
#define SETP(cmp, t) "\tsetp." cmp "." t " %p1, %xa, %xb;\n\tselp.u32 %xd, 1, 0, %p1;"
#define SETPC(cmp, t, comb, neg) "\tand.b32 %t32_0, %xc, 1;\n\tsetp.ne.u32 %p2, %t32_0, 0;\n" \
    "\tsetp." cmp "." comb "." t " %p1, %xa, %xb, " neg "%p2;\n\tselp.u32 %xd, 1, 0, %p1;"
static const uint64_t vbool[] = { 0, 1, 2, 3 };

static const int_case cases[] = {
    /* 16-bit arithmetic */
    { "add.u16", "u16", "u16", "u16", NULL, B2("add.u16"), r_add, VS(v16), VS(v16), NONE },
    { "sub.s16", "s16", "s16", "s16", NULL, B2("sub.s16"), r_sub, VS(v16), VS(v16), NONE },
    { "mul.lo.u16", "u16", "u16", "u16", NULL, B2("mul.lo.u16"), r_mullo, VS(v16), VS(v16), NONE },
    { "mul.hi.u16", "u16", "u16", "u16", NULL, B2("mul.hi.u16"), r_mulhi_u16, VS(v16), VS(v16), NONE },
    { "mul.hi.s16", "s16", "s16", "s16", NULL, B2("mul.hi.s16"), r_mulhi_s16, VS(v16), VS(v16), NONE },
    { "mul.wide.s16", "s32", "s16", "s16", NULL, B2("mul.wide.s16"), r_mulwide_s16, VS(v16), VS(v16), NONE },
    { "mad.lo.s16", "s16", "s16", "s16", "s16", B3("mad.lo.s16"), r_madlo, VS(v16), VS(v16), VS(v16) },
    { "div.u16", "u16", "u16", "u16", NULL, B2("div.u16"), r_div_u16, VS(v16), VS(v16), NONE },
    { "div.s16", "s16", "s16", "s16", NULL, B2("div.s16"), r_div_s16, VS(v16), VS(v16), NONE },
    { "rem.u16", "u16", "u16", "u16", NULL, B2("rem.u16"), r_rem_u16, VS(v16), VS(v16), NONE },
    { "rem.s16", "s16", "s16", "s16", NULL, B2("rem.s16"), r_rem_s16, VS(v16), VS(v16), NONE },
    { "min.s16", "s16", "s16", "s16", NULL, B2("min.s16"), r_min_s16, VS(v16), VS(v16), NONE },
    { "max.u16", "u16", "u16", "u16", NULL, B2("max.u16"), r_max_u, VS(v16), VS(v16), NONE },
    { "max.s16", "s16", "s16", "s16", NULL, B2("max.s16"), r_max_s16, VS(v16), VS(v16), NONE },
    { "abs.s16", "s16", "s16", NULL, NULL, B1("abs.s16"), r_abs_s16, VS(v16), NONE, NONE },
    { "neg.s16", "s16", "s16", NULL, NULL, B1("neg.s16"), r_neg, VS(v16), NONE, NONE },
    /* 32-bit arithmetic */
    { "add.u32", "u32", "u32", "u32", NULL, B2("add.u32"), r_add, VS(v32), VS(v32), NONE },
    { "sub.s32", "s32", "s32", "s32", NULL, B2("sub.s32"), r_sub, VS(v32), VS(v32), NONE },
    { "mul.lo.s32", "s32", "s32", "s32", NULL, B2("mul.lo.s32"), r_mullo, VS(v32), VS(v32), NONE },
    { "mul.hi.u32", "u32", "u32", "u32", NULL, B2("mul.hi.u32"), r_mulhi_u32, VS(v32), VS(v32), NONE },
    { "mul.hi.s32", "s32", "s32", "s32", NULL, B2("mul.hi.s32"), r_mulhi_s32, VS(v32), VS(v32), NONE },
    { "mul.wide.u32", "u64", "u32", "u32", NULL, B2("mul.wide.u32"), r_mulwide_u32, VS(v32), VS(v32), NONE },
    { "mul.wide.s32", "s64", "s32", "s32", NULL, B2("mul.wide.s32"), r_mulwide_s32, VS(v32), VS(v32), NONE },
    { "mad.lo.u32", "u32", "u32", "u32", "u32", B3("mad.lo.u32"), r_madlo, VS(v32), VS(v32), VS(v32s) },
    { "mad.hi.u32", "u32", "u32", "u32", "u32", B3("mad.hi.u32"), r_madhi_u32, VS(v32), VS(v32), VS(v32s) },
    { "mad.hi.s32", "s32", "s32", "s32", "s32", B3("mad.hi.s32"), r_madhi_s32, VS(v32), VS(v32), VS(v32s) },
    { "mad.wide.u32", "u64", "u32", "u32", "u64", B3("mad.wide.u32"), r_madwide_u32, VS(v32), VS(v32), VS(v64s) },
    { "mad.wide.s32", "s64", "s32", "s32", "s64", B3("mad.wide.s32"), r_madwide_s32, VS(v32), VS(v32), VS(v64s) },
    { "div.u32", "u32", "u32", "u32", NULL, B2("div.u32"), r_div_u32, VS(v32), VS(v32), NONE },
    { "div.s32", "s32", "s32", "s32", NULL, B2("div.s32"), r_div_s32, VS(v32), VS(v32), NONE },
    { "rem.u32", "u32", "u32", "u32", NULL, B2("rem.u32"), r_rem_u32, VS(v32), VS(v32), NONE },
    { "rem.s32", "s32", "s32", "s32", NULL, B2("rem.s32"), r_rem_s32, VS(v32), VS(v32), NONE },
    { "min.u32", "u32", "u32", "u32", NULL, B2("min.u32"), r_min_u, VS(v32), VS(v32), NONE },
    { "min.s32", "s32", "s32", "s32", NULL, B2("min.s32"), r_min_s32, VS(v32), VS(v32), NONE },
    { "max.u32", "u32", "u32", "u32", NULL, B2("max.u32"), r_max_u, VS(v32), VS(v32), NONE },
    { "max.s32", "s32", "s32", "s32", NULL, B2("max.s32"), r_max_s32, VS(v32), VS(v32), NONE },
    { "abs.s32", "s32", "s32", NULL, NULL, B1("abs.s32"), r_abs_s32, VS(v32), NONE, NONE },
    { "neg.s32", "s32", "s32", NULL, NULL, B1("neg.s32"), r_neg, VS(v32), NONE, NONE },
    { "sad.u32", "u32", "u32", "u32", "u32", B3("sad.u32"), r_sad_u32, VS(v32), VS(v32), VS(v32s) },
    { "sad.s32", "s32", "s32", "s32", "s32", B3("sad.s32"), r_sad_s32, VS(v32), VS(v32), VS(v32s) },
    /* 64-bit arithmetic */
    { "add.s64", "s64", "s64", "s64", NULL, B2("add.s64"), r_add, VS(v64), VS(v64), NONE },
    { "sub.u64", "u64", "u64", "u64", NULL, B2("sub.u64"), r_sub, VS(v64), VS(v64), NONE },
    { "mul.lo.u64", "u64", "u64", "u64", NULL, B2("mul.lo.u64"), r_mullo, VS(v64), VS(v64), NONE },
    { "mul.hi.u64", "u64", "u64", "u64", NULL, B2("mul.hi.u64"), r_mulhi_u64, VS(v64), VS(v64), NONE },
    { "mul.hi.s64", "s64", "s64", "s64", NULL, B2("mul.hi.s64"), r_mulhi_s64, VS(v64), VS(v64), NONE },
    { "mad.lo.s64", "s64", "s64", "s64", "s64", B3("mad.lo.s64"), r_madlo, VS(v64), VS(v64), VS(v64s) },
    { "div.u64", "u64", "u64", "u64", NULL, B2("div.u64"), r_div_u64, VS(v64), VS(v64), NONE },
    { "div.s64", "s64", "s64", "s64", NULL, B2("div.s64"), r_div_s64, VS(v64), VS(v64), NONE },
    { "rem.u64", "u64", "u64", "u64", NULL, B2("rem.u64"), r_rem_u64, VS(v64), VS(v64), NONE },
    { "rem.s64", "s64", "s64", "s64", NULL, B2("rem.s64"), r_rem_s64, VS(v64), VS(v64), NONE },
    { "min.s64", "s64", "s64", "s64", NULL, B2("min.s64"), r_min_s64, VS(v64), VS(v64), NONE },
    { "max.s64", "s64", "s64", "s64", NULL, B2("max.s64"), r_max_s64, VS(v64), VS(v64), NONE },
    { "min.u64", "u64", "u64", "u64", NULL, B2("min.u64"), r_min_u, VS(v64), VS(v64), NONE },
    { "abs.s64", "s64", "s64", NULL, NULL, B1("abs.s64"), r_abs_s64, VS(v64), NONE, NONE },
    { "neg.s64", "s64", "s64", NULL, NULL, B1("neg.s64"), r_neg, VS(v64), NONE, NONE },
    /* bit manipulation */
    { "popc.b32", "u32", "b32", NULL, NULL, B1("popc.b32"), r_popc32, VS(v32), NONE, NONE },
    { "popc.b64", "u32", "b64", NULL, NULL, B1("popc.b64"), r_popc64, VS(v64), NONE, NONE },
    { "clz.b32", "u32", "b32", NULL, NULL, B1("clz.b32"), r_clz32, VS(v32), NONE, NONE },
    { "clz.b64", "u32", "b64", NULL, NULL, B1("clz.b64"), r_clz64, VS(v64), NONE, NONE },
    { "brev.b32", "b32", "b32", NULL, NULL, B1("brev.b32"), r_brev32, VS(v32), NONE, NONE },
    { "brev.b64", "b64", "b64", NULL, NULL, B1("brev.b64"), r_brev64, VS(v64), NONE, NONE },
    { "bfe.u32", "u32", "u32", "u32", "u32", B3("bfe.u32"), r_bfe_u32, VS(v32s), VS(vbit), VS(vbit) },
    { "bfe.s32", "s32", "s32", "u32", "u32", B3("bfe.s32"), r_bfe_s32, VS(v32s), VS(vbit), VS(vbit) },
    { "bfe.u64", "u64", "u64", "u32", "u32", B3("bfe.u64"), r_bfe_u64, VS(v64s), VS(vbit), VS(vbit) },
    { "bfe.s64", "s64", "s64", "u32", "u32", B3("bfe.s64"), r_bfe_s64, VS(v64s), VS(vbit), VS(vbit) },
    { "bfi.b32", "b32", "b32", "b32", "b32",
      "\tshr.b32 %t32_1, %xc, 8;\n\tbfi.b32 %xd, %xa, %xb, %xc, %t32_1;",
      r_bfi_b32, VS(v32s), VS(v32s), VS(vprmt) },
    { "bfi.b64", "b64", "b64", "b64", "b32",
      "\tshr.b32 %t32_1, %xc, 8;\n\tbfi.b64 %xd, %xa, %xb, %xc, %t32_1;",
      r_bfi_b64, VS(v64s), VS(v64s), VS(vprmt) },
    { "prmt.b32", "b32", "b32", "b32", "b32", B3("prmt.b32"), r_prmt, VS(v32s), VS(v32s), VS(vprmt) },
    { "prmt.b32.f4e", "b32", "b32", "b32", "b32", B3("prmt.b32.f4e"), r_prmt_f4e, VS(v32s), VS(v32s), VS(vprmt) },
    { "prmt.b32.b4e", "b32", "b32", "b32", "b32", B3("prmt.b32.b4e"), r_prmt_b4e, VS(v32s), VS(v32s), VS(vprmt) },
    { "prmt.b32.rc8", "b32", "b32", "b32", "b32", B3("prmt.b32.rc8"), r_prmt_rc8, VS(v32s), VS(v32s), VS(vprmt) },
    { "prmt.b32.ecl", "b32", "b32", "b32", "b32", B3("prmt.b32.ecl"), r_prmt_ecl, VS(v32s), VS(v32s), VS(vprmt) },
    { "prmt.b32.ecr", "b32", "b32", "b32", "b32", B3("prmt.b32.ecr"), r_prmt_ecr, VS(v32s), VS(v32s), VS(vprmt) },
    { "prmt.b32.rc16", "b32", "b32", "b32", "b32", B3("prmt.b32.rc16"), r_prmt_rc16, VS(v32s), VS(v32s), VS(vprmt) },
    /* logic */
    { "and.b32", "b32", "b32", "b32", NULL, B2("and.b32"), r_and, VS(v32), VS(v32), NONE },
    { "or.b64", "b64", "b64", "b64", NULL, B2("or.b64"), r_or, VS(v64), VS(v64), NONE },
    { "xor.b16", "b16", "b16", "b16", NULL, B2("xor.b16"), r_xor, VS(v16), VS(v16), NONE },
    { "not.b32", "b32", "b32", NULL, NULL, B1("not.b32"), r_not, VS(v32), NONE, NONE },
    { "not.b64", "b64", "b64", NULL, NULL, B1("not.b64"), r_not, VS(v64), NONE, NONE },
    { "cnot.b32", "b32", "b32", NULL, NULL, B1("cnot.b32"), r_cnot, VS(v32), NONE, NONE },
    { "lop3.b32.0x96", "b32", "b32", "b32", "b32", "\tlop3.b32 %xd, %xa, %xb, %xc, 0x96;", r_lop3_96, VS(v32s), VS(v32s), VS(v32) },
    { "lop3.b32.0xe8", "b32", "b32", "b32", "b32", "\tlop3.b32 %xd, %xa, %xb, %xc, 0xe8;", r_lop3_e8, VS(v32s), VS(v32s), VS(v32) },
    { "lop3.b32.0xca", "b32", "b32", "b32", "b32", "\tlop3.b32 %xd, %xa, %xb, %xc, 0xca;", r_lop3_ca, VS(v32s), VS(v32s), VS(v32) },
    { "lop3.b32.0x01", "b32", "b32", "b32", "b32", "\tlop3.b32 %xd, %xa, %xb, %xc, 0x01;", r_lop3_01, VS(v32s), VS(v32s), VS(v32) },
    { "lop3.b32.0x6a", "b32", "b32", "b32", "b32", "\tlop3.b32 %xd, %xa, %xb, %xc, 0x6a;", r_lop3_6a, VS(v32s), VS(v32s), VS(v32) },
    { "lop3.b32.0xff", "b32", "b32", "b32", "b32", "\tlop3.b32 %xd, %xa, %xb, %xc, 0xff;", r_lop3_ff, VS(v32s), VS(v32s), VS(v32) },
    /* shifts, amounts up to and beyond the width */
    { "shl.b16", "b16", "b16", "u32", NULL, B2("shl.b16"), r_shl16, VS(v16), VS(vshift), NONE },
    { "shl.b32", "b32", "b32", "u32", NULL, B2("shl.b32"), r_shl32, VS(v32), VS(vshift), NONE },
    { "shl.b64", "b64", "b64", "u32", NULL, B2("shl.b64"), r_shl64, VS(v64), VS(vshift), NONE },
    { "shr.u16", "u16", "u16", "u32", NULL, B2("shr.u16"), r_shr_u16, VS(v16), VS(vshift), NONE },
    { "shr.u32", "u32", "u32", "u32", NULL, B2("shr.u32"), r_shr_u32, VS(v32), VS(vshift), NONE },
    { "shr.u64", "u64", "u64", "u32", NULL, B2("shr.u64"), r_shr_u64, VS(v64), VS(vshift), NONE },
    { "shr.s16", "s16", "s16", "u32", NULL, B2("shr.s16"), r_shr_s16, VS(v16), VS(vshift), NONE },
    { "shr.s32", "s32", "s32", "u32", NULL, B2("shr.s32"), r_shr_s32, VS(v32), VS(vshift), NONE },
    { "shr.s64", "s64", "s64", "u32", NULL, B2("shr.s64"), r_shr_s64, VS(v64), VS(vshift), NONE },
    { "shf.l.wrap.b32", "b32", "b32", "b32", "u32", B3("shf.l.wrap.b32"), r_shf_l_wrap, VS(v32s), VS(v32s), VS(vshift) },
    { "shf.r.wrap.b32", "b32", "b32", "b32", "u32", B3("shf.r.wrap.b32"), r_shf_r_wrap, VS(v32s), VS(v32s), VS(vshift) },
    { "shf.l.clamp.b32", "b32", "b32", "b32", "u32", B3("shf.l.clamp.b32"), r_shf_l_clamp, VS(v32s), VS(v32s), VS(vshift) },
    { "shf.r.clamp.b32", "b32", "b32", "b32", "u32", B3("shf.r.clamp.b32"), r_shf_r_clamp, VS(v32s), VS(v32s), VS(vshift) },
    /* integer setp (all comparison operators), predicate combining, selp/slct/set */
    { "setp.eq.u32", "u32", "u32", "u32", NULL, SETP("eq", "u32"), c_eq, VS(v32), VS(v32), NONE },
    { "setp.ne.b32", "u32", "b32", "b32", NULL, SETP("ne", "b32"), c_ne, VS(v32), VS(v32), NONE },
    { "setp.lt.s32", "u32", "s32", "s32", NULL, SETP("lt", "s32"), c_lt_s32, VS(v32), VS(v32), NONE },
    { "setp.le.s32", "u32", "s32", "s32", NULL, SETP("le", "s32"), c_le_s32, VS(v32), VS(v32), NONE },
    { "setp.gt.s32", "u32", "s32", "s32", NULL, SETP("gt", "s32"), c_gt_s32, VS(v32), VS(v32), NONE },
    { "setp.ge.s32", "u32", "s32", "s32", NULL, SETP("ge", "s32"), c_ge_s32, VS(v32), VS(v32), NONE },
    { "setp.lt.u32", "u32", "u32", "u32", NULL, SETP("lt", "u32"), c_lo, VS(v32), VS(v32), NONE },
    { "setp.lo.u32", "u32", "u32", "u32", NULL, SETP("lo", "u32"), c_lo, VS(v32), VS(v32), NONE },
    { "setp.ls.u32", "u32", "u32", "u32", NULL, SETP("ls", "u32"), c_ls, VS(v32), VS(v32), NONE },
    { "setp.hi.u32", "u32", "u32", "u32", NULL, SETP("hi", "u32"), c_hi, VS(v32), VS(v32), NONE },
    { "setp.hs.u32", "u32", "u32", "u32", NULL, SETP("hs", "u32"), c_hs, VS(v32), VS(v32), NONE },
    { "setp.ge.u32", "u32", "u32", "u32", NULL, SETP("ge", "u32"), c_hs, VS(v32), VS(v32), NONE },
    { "setp.lt.s64", "u32", "s64", "s64", NULL, SETP("lt", "s64"), c_lt_s64, VS(v64), VS(v64), NONE },
    { "setp.ge.s64", "u32", "s64", "s64", NULL, SETP("ge", "s64"), c_ge_s64, VS(v64), VS(v64), NONE },
    { "setp.hi.u64", "u32", "u64", "u64", NULL, SETP("hi", "u64"), c_hi, VS(v64), VS(v64), NONE },
    { "setp.lt.s16", "u32", "s16", "s16", NULL, SETP("lt", "s16"), c_lt_s16, VS(v16), VS(v16), NONE },
    { "setp.le.and.s16", "u32", "s16", "s16", "u32", SETPC("le", "s16", "and", ""), c_le_s16_and, VS(v16), VS(v16), VS(vbool) },
    { "setp.hi.or.u32 !p", "u32", "u32", "u32", "u32", SETPC("hi", "u32", "or", "!"), c_hi_or_not, VS(v32), VS(v32), VS(vbool) },
    { "setp.eq.xor.b64", "u32", "b64", "b64", "u32", SETPC("eq", "b64", "xor", ""), c_eq_xor, VS(v64s), VS(v64s), VS(vbool) },
    { "selp.b32", "b32", "b32", "b32", "u32",
      "\tand.b32 %t32_0, %xc, 1;\n\tsetp.ne.u32 %p2, %t32_0, 0;\n\tselp.b32 %xd, %xa, %xb, %p2;",
      r_selp, VS(v32s), VS(v32s), VS(vbool) },
    { "selp.b64", "b64", "b64", "b64", "u32",
      "\tand.b32 %t32_0, %xc, 1;\n\tsetp.ne.u32 %p2, %t32_0, 0;\n\tselp.b64 %xd, %xa, %xb, %p2;",
      r_selp, VS(v64s), VS(v64s), VS(vbool) },
    { "slct.b32.s32", "b32", "b32", "b32", "s32", B3("slct.b32.s32"), r_slct_s32, VS(v32s), VS(v32s), VS(v32) },
    { "set.lt.u32.s32", "u32", "s32", "s32", NULL, B2("set.lt.u32.s32"), r_set_lt_s32, VS(v32), VS(v32), NONE },
    { "set.hs.u32.u32", "u32", "u32", "u32", NULL, B2("set.hs.u32.u32"), r_set_hs_u32, VS(v32), VS(v32), NONE },
    /* mul24/mad24, bfind, dp4a/dp2a, 16-bit wide */
    { "mul24.lo.u32", "u32", "u32", "u32", NULL, B2("mul24.lo.u32"), r_mul24lo_u, VS(v32), VS(v32), NONE },
    { "mul24.hi.u32", "u32", "u32", "u32", NULL, B2("mul24.hi.u32"), r_mul24hi_u, VS(v32), VS(v32), NONE },
    { "mul24.lo.s32", "s32", "s32", "s32", NULL, B2("mul24.lo.s32"), r_mul24lo_s, VS(v32), VS(v32), NONE },
    { "mul24.hi.s32", "s32", "s32", "s32", NULL, B2("mul24.hi.s32"), r_mul24hi_s, VS(v32), VS(v32), NONE },
    { "mad24.lo.u32", "u32", "u32", "u32", "u32", B3("mad24.lo.u32"), r_mad24lo_u, VS(v32), VS(v32), VS(v32s) },
    { "bfind.u32", "u32", "u32", NULL, NULL, B1("bfind.u32"), r_bfind_u32, VS(v32), NONE, NONE },
    { "bfind.s32", "u32", "s32", NULL, NULL, B1("bfind.s32"), r_bfind_s32, VS(v32), NONE, NONE },
    { "bfind.u64", "u32", "u64", NULL, NULL, B1("bfind.u64"), r_bfind_u64, VS(v64), NONE, NONE },
    { "bfind.shiftamt.u32", "u32", "u32", NULL, NULL, B1("bfind.shiftamt.u32"), r_bfind_shift_u32, VS(v32), NONE, NONE },
    { "dp4a.u32.u32", "u32", "u32", "u32", "u32", B3("dp4a.u32.u32"), r_dp4a_u, VS(v32s), VS(v32), VS(v32s) },
    { "dp4a.s32.s32", "s32", "s32", "s32", "s32", B3("dp4a.s32.s32"), r_dp4a_s, VS(v32s), VS(v32), VS(v32s) },
    { "dp2a.lo.u32.u32", "u32", "u32", "u32", "u32", B3("dp2a.lo.u32.u32"), r_dp2a_lo_u, VS(v32s), VS(v32), VS(v32s) },
    { "mul.wide.u16", "u32", "u16", "u16", NULL, B2("mul.wide.u16"), r_mulwide_u16, VS(v16), VS(v16), NONE },
    { "add.sat.s32", "s32", "s32", "s32", NULL, B2("add.sat.s32"), r_add_sat_s32, VS(v32), VS(v32), NONE },
    { "sub.sat.s32", "s32", "s32", "s32", NULL, B2("sub.sat.s32"), r_sub_sat_s32, VS(v32), VS(v32), NONE },
    { "mov.b32 unpack/pack {h0,h1} (swap)", "b32", "b32", NULL, NULL,
      "\tmov.b32 {%t16_0, %t16_1}, %xa;\n\tmov.b32 %xd, {%t16_1, %t16_0};", r_swap_halves, VS(v32), NONE, NONE },
    { "mov.b32 pack {a,b} from 16-bit", "b32", "b16", "b16", NULL,
      "\tmov.b32 %xd, {%xa, %xb};", r_pack_halves, VS(v16), VS(v16), NONE },
    { "add.cc.u64 + addc.u64 (carry into the high word)", "u64", "u64", "u64", NULL,
      "\tadd.cc.u64 %t64_0, %xa, %xb;\n\taddc.u64 %xd, %xb, %xa;", r_addc_u64, VS(v64), VS(v64), NONE },
    { "mad.wide.s16", "s32", "s16", "s16", "s32", B3("mad.wide.s16"), r_madwide_s16, VS(v16), VS(v16), VS(v32s) },
    /* carry chains: a 64-bit add/sub built from 32-bit halves, carry out */
    { "add.cc+addc (64-bit sum)", "u64", "u64", "u64", NULL,
      "\tmov.b64 {%t32_0, %t32_1}, %xa;\n\tmov.b64 {%t32_2, %t32_3}, %xb;\n"
      "\tadd.cc.u32 %t32_4, %t32_0, %t32_2;\n\taddc.u32 %t32_5, %t32_1, %t32_3;\n"
      "\tmov.b64 %xd, {%t32_4, %t32_5};", r_add64, VS(v64), VS(v64), NONE },
    { "addc.cc carry out", "u32", "u64", "u64", NULL,
      "\tmov.b64 {%t32_0, %t32_1}, %xa;\n\tmov.b64 {%t32_2, %t32_3}, %xb;\n"
      "\tadd.cc.u32 %t32_4, %t32_0, %t32_2;\n\taddc.cc.u32 %t32_5, %t32_1, %t32_3;\n"
      "\taddc.u32 %xd, 0, 0;", r_carry64, VS(v64), VS(v64), NONE },
    { "sub.cc+subc (64-bit difference)", "u64", "u64", "u64", NULL,
      "\tmov.b64 {%t32_0, %t32_1}, %xa;\n\tmov.b64 {%t32_2, %t32_3}, %xb;\n"
      "\tsub.cc.u32 %t32_4, %t32_0, %t32_2;\n\tsubc.u32 %t32_5, %t32_1, %t32_3;\n"
      "\tmov.b64 %xd, {%t32_4, %t32_5};", r_sub64, VS(v64), VS(v64), NONE },
    { "subc.cc borrow out", "u32", "u64", "u64", NULL,
      "\tmov.b64 {%t32_0, %t32_1}, %xa;\n\tmov.b64 {%t32_2, %t32_3}, %xb;\n"
      "\tsub.cc.u32 %t32_4, %t32_0, %t32_2;\n\tsubc.cc.u32 %t32_5, %t32_1, %t32_3;\n"
      "\tsubc.u32 %xd, 0, 0;", r_borrow64, VS(v64), VS(v64), NONE },
    { "mad.lo.cc+madc.hi (32x32+64)", "u64", "u32", "u32", "u64",
      "\tmov.b64 {%t32_0, %t32_1}, %xc;\n"
      "\tmad.lo.cc.u32 %t32_4, %xa, %xb, %t32_0;\n\tmadc.hi.u32 %t32_5, %xa, %xb, %t32_1;\n"
      "\tmov.b64 %xd, {%t32_4, %t32_5};", r_madcc, VS(v32), VS(v32), VS(v64s) },
};

/* ---- the runner ---------------------------------------------------------- */

static void put(void *arr, size_t size, size_t i, uint64_t v)
{
    memcpy((char *)arr + i * size, &v, size);   /* little-endian low bytes */
}

static uint64_t get(const void *arr, size_t size, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)arr + i * size, size);
    return v;
}

static void run_int_case(void **state)
{
    isa_ctx *c = *state;
    const int_case *tc = c->tcase;
    size_t na = tc->va.n, nb = tc->btype ? tc->vb.n : 1,
           nc = tc->ctype ? tc->vc.n : 1;
    size_t n = na * nb * nc;
    size_t sa = isa_type_size(tc->atype);
    size_t sb = tc->btype ? isa_type_size(tc->btype) : 1;
    size_t sc = tc->ctype ? isa_type_size(tc->ctype) : 1;
    size_t sd = isa_type_size(tc->dtype);
    void *a = isa_calloc(c, n, sa), *b = isa_calloc(c, n, sb),
         *cc = isa_calloc(c, n, sc), *d = isa_calloc(c, n, sd);
    size_t i = 0;
    for (size_t x = 0; x < na; x++)
        for (size_t y = 0; y < nb; y++)
            for (size_t z = 0; z < nc; z++, i++) {
                put(a, sa, i, tc->va.v[x]);
                put(b, sb, i, tc->vb.v[y % tc->vb.n]);
                put(cc, sc, i, tc->vc.v[z % tc->vc.n]);
            }
    isa_elem_op op = { tc->dtype, tc->atype, tc->btype, tc->ctype, NULL,
                       tc->body };
    isa_elem_run(c, &op, (unsigned)n, a, tc->btype ? b : NULL,
                 tc->ctype ? cc : NULL, d);
    uint64_t mask = sd == 8 ? ~0ull : (1ull << (8 * sd)) - 1;
    unsigned bad = 0;
    for (i = 0; i < n; i++) {
        uint64_t va = get(a, sa, i), vb = get(b, sb, i), vc = get(cc, sc, i);
        uint64_t want = 0, got = get(d, sd, i);
        if (!tc->ref(va, vb, vc, &want))
            continue;
        want &= mask;
        if (want != got && bad++ < 8)
            print_error("%s: a=0x%llx b=0x%llx c=0x%llx: got 0x%llx, want 0x%llx\n",
                        tc->name, (unsigned long long)va, (unsigned long long)vb,
                        (unsigned long long)vc, (unsigned long long)got,
                        (unsigned long long)want);
    }
    if (bad)
        fail_msg("%s: %u of %zu lanes wrong", tc->name, bad, n);
}

int main(void)
{
    return isa_run_table("isa_int", run_int_case, cases, sizeof cases[0],
                         sizeof cases / sizeof cases[0]);
}
