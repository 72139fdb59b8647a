/*
 * test_cvt.c — cvt: integer <-> integer (sign/zero extension, truncation,
 * .sat), float -> integer with .rni .rzi .rmi .rpi (always saturating in PTX;
 * NaN -> 0), integer -> float in every rounding mode, f32 <-> f64, and
 * float -> integral float (cvt.rni.f32.f32 ...), binary16 <-> f32/f64 in
 * every rounding mode (ties, overflow, subnormals) and add/mul/fma.rn.f16.
 *
 * The reference is an independent C model over bit patterns; the host's
 * rounding mode is set with fesetround() around it (-frounding-math).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_util.h"

enum cvt_kind { I2I, F2I, I2F, F2F, FRND, F2H, H2F, HARITH };
enum rmode { R_NONE, R_N, R_Z, R_M, R_P };

typedef struct bset { const uint64_t *v; size_t n; } bset;

typedef struct cvt_case {
    const char *name;            /* isa_case_head */
    const char *dtype, *atype;
    const char *body;
    enum cvt_kind kind;
    enum rmode rnd;
    int sat, ftz;
    bset vals;                   /* bit patterns of the source */
    const char *reftype;         /* source type the reference sees when it
                                    differs from the loaded register type */
} cvt_case;

#define BS(arr) { arr, sizeof(arr) / sizeof(arr[0]) }

/* Bit patterns. */
static const uint64_t i16v[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0x8001, 0xffff, 0x1234 };
static const uint64_t i32v[] = {
    0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x12345678,
    0x7fffffff, 0x80000000, 0x80000001, 0xffff8000, 0xffffff80, 0xfffffffe,
    0xffffffff, 16777217, 0x7fffffc0, 0x7fffffbf,
};
static const uint64_t i64v[] = {
    0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
    0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
    0xffffffff80000000ull, 0xffffffff7fffffffull, 0x20000000000001ull,
    0x20000000000003ull, 0xfffffffffffffc00ull, 0x123456789abcdefull,
    0xfffffffffffffffeull, 16777217, 16777219,
};
static const uint64_t f32v[] = {
    0x00000000, 0x80000000, 0x3f800000 /* 1 */, 0xbf800000 /* -1 */,
    0x3f000000 /* 0.5 */, 0xbf000000, 0x3fc00000 /* 1.5 */, 0xbfc00000,
    0x40200000 /* 2.5 */, 0xc0200000, 0x3f7fffff, 0x3f800001,
    0x4b000001 /* 2^23+1 */, 0x4effffff /* 2^31-128 */, 0x4f000000 /* 2^31 */,
    0xcf000000 /* -2^31 */, 0xcf000001, 0x4f800000 /* 2^32 */,
    0x5f000000 /* 2^63 */, 0xdf000000 /* -2^63 */, 0x5f800000 /* 2^64 */,
    0x46fffe00 /* 32767 */, 0x47000000 /* 32768 */, 0xc7000080 /* -32768.5 */,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
    0x00000001 /* subnormal */, 0x807fffff, 0x00800000, 0x42f6e979 /* 123.456 */,
    0xc2f6e979,
};
static const uint64_t f64v[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x3fe0000000000000ull, 0xbfe0000000000000ull,
    0x3ff8000000000000ull, 0xc004000000000000ull /* -2.5 */,
    0x41dfffffffc00000ull /* 2^31-1 */, 0x41e0000000000000ull /* 2^31 */,
    0xc1e0000000000000ull /* -2^31 */, 0xc1e0000000200000ull /* -2^31-1 */,
    0x41efffffffe00000ull /* 2^32-1 */, 0x41f0000000000000ull /* 2^32 */,
    0x43e0000000000000ull /* 2^63 */, 0xc3e0000000000000ull, 0x43f0000000000000ull,
    0x3ff0000010000000ull /* 1 + 2^-24: f32 tie */, 0x3ff0000010000001ull,
    0x3ff0000030000000ull, 0xbff0000010000000ull,
    0x47efffffe0000000ull /* FLT_MAX */, 0x47efffffefffffffull, 0x47effffff0000000ull /* rounds to inf */,
    0x3810000000000000ull /* FLT_MIN */, 0x3690000000000000ull /* 2^-150 */,
    0x36a0000000000000ull /* 2^-149 */, 0x380fffffe0000000ull, 0x0000000000000001ull,
    0x7fefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x405edd2f1a9fbe77ull /* 123.456 */,
};

/* binary16 bit patterns: zeros, 1, -2, max, min normal, subnormals, inf, NaN */
static const uint64_t h16v[] = {
    0x0000, 0x8000, 0x3c00, 0xc000, 0x3555 /* ~1/3 */, 0x7bff, 0xfbff, 0x0400,
    0x0001, 0x83ff, 0x0200, 0x7c00, 0xfc00, 0x7e00, 0x3c01, 0x5640 /* 100 */,
    0x2e66 /* ~0.1 */, 0x1c00,
};
/* f32 values on and around binary16 rounding boundaries */
static const uint64_t h32v[] = {
    0x3f801000 /* 1 + 2^-11: tie, to even (1) */, 0x3f803000 /* 1 + 3*2^-11: tie, up */,
    0x3f801001, 0x3f800fff, 0xbf801000, 0x477fe000 /* 65504 */,
    0x477fefff /* just below the overflow tie */, 0x477ff000 /* 65520: tie -> inf */,
    0x33800000 /* 2^-24 */, 0x33000000 /* 2^-25: tie -> 0 */, 0x33000001,
    0x33c00000 /* 1.5 * 2^-24: tie -> 2^-23 */, 0x38800000 /* 2^-14 */,
    0x387fc000 /* largest subnormal */, 0x387fe000 /* tie between subnormal and 2^-14 */,
    0xb3000001,
};

/* ---- decoding ---------------------------------------------------------- */

static int tbits(const char *t) { return (int)isa_type_size(t) * 8; }
static int tsigned(const char *t) { return t[0] == 's'; }
static int tfloat(const char *t) { return t[0] == 'f'; }

static double as_float(const char *t, uint64_t bits)
{
    return tbits(t) == 32 ? (double)isa_f32((uint32_t)bits) : isa_f64(bits);
}

static __int128 as_int(const char *t, uint64_t bits)
{
    int n = tbits(t);
    uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
    bits &= mask;
    if (tsigned(t) && (bits >> (n - 1)) & 1)
        return (__int128)bits - ((__int128)1 << n);
    return bits;
}

static void int_range(const char *t, __int128 *lo, __int128 *hi)
{
    int n = tbits(t);
    if (tsigned(t)) {
        *hi = ((__int128)1 << (n - 1)) - 1;
        *lo = -((__int128)1 << (n - 1));
    } else {
        *hi = ((__int128)1 << n) - 1;
        *lo = 0;
    }
}

static int fe_of(enum rmode r)
{
    switch (r) {
    case R_Z: return FE_TOWARDZERO;
    case R_M: return FE_DOWNWARD;
    case R_P: return FE_UPWARD;
    default:  return FE_TONEAREST;
    }
}

static double round_int(double v, enum rmode r)
{
    switch (r) {
    case R_Z: return trunc(v);
    case R_M: return floor(v);
    case R_P: return ceil(v);
    default: {
        int saved = fegetround();
        fesetround(FE_TONEAREST);
        volatile double x = v;
        double y = nearbyint(x);   /* ties to even */
        fesetround(saved);
        return y;
    }
    }
}

static double ftz32(double v)
{
    float f = (float)v;
    return (f != 0 && fabsf(f) < FLT_MIN) ? copysign(0.0, v) : v;
}

/* ---- binary16 ------------------------------------------------------------ */

/* Round a double to binary16 in the given mode and return the bits. The
 * value is scaled so that the half quantum at its exponent becomes 1, then
 * rounded to an integer with the host's rounding (exact in double). */
static uint64_t to_half(double v, enum rmode r)
{
    if (isnan(v))
        return 0x7e00;
    uint64_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a))
        return sign | 0x7c00;
    int e;
    frexp(a, &e);                    /* a = m * 2^e, m in [0.5, 1) */
    int qexp = (e - 1 < -14 ? -14 : e - 1) - 10;   /* quantum 2^qexp */
    double scaled = ldexp(v, -qexp); /* keep the sign: directed modes need it */
    int saved = fegetround();
    fesetround(fe_of(r));
    volatile double x = scaled;
    double q = nearbyint(x);
    fesetround(saved);
    double mag = fabs(ldexp(q, qexp));
    if (mag > 65504.0) {
        /* overflow: to inf, except toward zero or away from the sign */
        int to_inf = r == R_N || r == R_NONE || (r == R_P && !sign) || (r == R_M && sign);
        return sign | (to_inf ? 0x7c00 : 0x7bff);
    }
    if (mag == 0)
        return sign;
    if (mag < 0x1p-14)               /* subnormal: multiple of 2^-24 */
        return sign | (uint64_t)ldexp(mag, 24);
    frexp(mag, &e);
    uint64_t mant = (uint64_t)ldexp(mag, 11 - e) - 1024;  /* 11-bit significand */
    return sign | (uint64_t)(e - 1 + 15) << 10 | mant;
}

static double from_half(uint64_t h)
{
    double sign = (h & 0x8000) ? -1.0 : 1.0;
    int e = (int)((h >> 10) & 0x1f);
    unsigned m = (unsigned)(h & 0x3ff);
    if (e == 0x1f)
        return m ? NAN : sign * INFINITY;
    if (e == 0)
        return sign * ldexp(m, -24);
    return sign * ldexp(1024 + m, e - 25);
}

static int half_is_nan(uint64_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/* Returns 1 and the destination bits, or 0 when PTX leaves it unspecified. */
static int cvt_ref(const cvt_case *tc, uint64_t a, uint64_t *d)
{
    const char *dt = tc->dtype, *at = tc->reftype ? tc->reftype : tc->atype;
    int dn = tbits(dt);
    uint64_t dmask = dn == 64 ? ~0ull : (1ull << dn) - 1;
    switch (tc->kind) {
    case I2I: {
        __int128 v = as_int(at, a), lo, hi;
        if (tc->sat) {
            int_range(dt, &lo, &hi);
            v = v < lo ? lo : v > hi ? hi : v;
        }
        *d = (uint64_t)v & dmask;
        return 1;
    }
    case F2I: {
        double v = as_float(at, a);
        if (tc->ftz && tbits(at) == 32)
            v = ftz32(v);
        __int128 lo, hi;
        int_range(dt, &lo, &hi);
        if (isnan(v)) {
            *d = 0;
            return 1;
        }
        double r = round_int(v, tc->rnd);
        __int128 iv;
        if (r <= (double)lo)
            iv = lo;
        else if (r >= (double)hi)   /* (double)hi may round up: still clamp */
            iv = hi;
        else
            iv = (__int128)r;
        *d = (uint64_t)iv & dmask;
        return 1;
    }
    case I2F: {
        __int128 v = as_int(at, a);
        int saved = fegetround();
        fesetround(fe_of(tc->rnd));
        if (dn == 32) {
            volatile float f;
            if (tsigned(at)) { volatile int64_t s = (int64_t)v; f = (float)s; }
            else { volatile uint64_t u = (uint64_t)v; f = (float)u; }
            *d = isa_bits32(f);
        } else {
            volatile double f;
            if (tsigned(at)) { volatile int64_t s = (int64_t)v; f = (double)s; }
            else { volatile uint64_t u = (uint64_t)v; f = (double)u; }
            *d = isa_bits64(f);
        }
        fesetround(saved);
        return 1;
    }
    case F2F: {
        double v = as_float(at, a);
        if (tc->ftz && tbits(at) == 32)
            v = ftz32(v);
        if (dn == 32) {
            int saved = fegetround();
            fesetround(fe_of(tc->rnd));
            volatile double x = v;
            volatile float f = (float)x;
            fesetround(saved);
            double r = f;
            if (tc->ftz)
                r = ftz32(r);
            *d = isa_bits32((float)r);
        } else {
            *d = isa_bits64(v);
        }
        return 1;
    }
    case F2H: {
        double v = as_float(at, a);
        if (tc->ftz && tbits(at) == 32)
            v = ftz32(v);
        *d = to_half(v, tc->rnd);
        return 1;
    }
    case H2F: {
        double v = from_half(a);
        *d = dn == 32 ? isa_bits32((float)v) : isa_bits64(v);
        return 1;
    }
    case HARITH: {
        /* the body uses the half in the low 16 bits of the register as both
         * operands: add -> 2a, mul -> a*a, fma -> a*a + a (all exact in
         * double), rounded once */
        double v = from_half(a & 0xffff), x;
        if (strstr(tc->body, "add"))
            x = v + v;
        else if (strstr(tc->body, "fma"))
            x = v * v + v;
        else
            x = v * v;
        *d = to_half(x, tc->rnd);
        return 1;
    }
    case FRND: {
        double v = as_float(at, a);
        if (tc->ftz && tbits(at) == 32)
            v = ftz32(v);
        double r = isnan(v) ? v : round_int(v, tc->rnd);
        if (r == 0)
            r = copysign(0.0, v);   /* rounding keeps the sign of zero */
        *d = dn == 32 ? isa_bits32((float)r) : isa_bits64(r);
        return 1;
    }
    }
    return 0;
}

/* ---- the table ------------------------------------------------------------ */

#define CVT(op) "\t" op " %xd, %xa;"
static const cvt_case cases[] = {
    /* integer <-> integer */
    { "cvt.s32.s16 (sign-extend)", "s32", "s16", CVT("cvt.s32.s16"), I2I, R_NONE, 0, 0, BS(i16v), NULL },
    { "cvt.u32.u16 (zero-extend)", "u32", "u16", CVT("cvt.u32.u16"), I2I, R_NONE, 0, 0, BS(i16v), NULL },
    { "cvt.u32.s16 (sign-extend by source)", "u32", "s16", CVT("cvt.u32.s16"), I2I, R_NONE, 0, 0, BS(i16v), NULL },
    { "cvt.s64.s32", "s64", "s32", CVT("cvt.s64.s32"), I2I, R_NONE, 0, 0, BS(i32v), NULL },
    { "cvt.u64.u32", "u64", "u32", CVT("cvt.u64.u32"), I2I, R_NONE, 0, 0, BS(i32v), NULL },
    { "cvt.s64.u32", "s64", "u32", CVT("cvt.s64.u32"), I2I, R_NONE, 0, 0, BS(i32v), NULL },
    { "cvt.u16.u32 (truncate)", "u16", "u32", CVT("cvt.u16.u32"), I2I, R_NONE, 0, 0, BS(i32v), NULL },
    { "cvt.s16.s32 (truncate)", "s16", "s32", CVT("cvt.s16.s32"), I2I, R_NONE, 0, 0, BS(i32v), NULL },
    { "cvt.u32.u64 (truncate)", "u32", "u64", CVT("cvt.u32.u64"), I2I, R_NONE, 0, 0, BS(i64v), NULL },
    /* the register holds 16 bits; cvt.s32.s8 must look at the low 8 only */
    { "cvt.s32.s8 (sign-extend byte)", "s32", "u16",
      "\tcvt.s32.s8 %xd, %xa;", I2I, R_NONE, 0, 0, BS(i16v), "s8" },
    { "cvt.u32.u8 (zero-extend byte)", "u32", "u16",
      "\tcvt.u32.u8 %xd, %xa;", I2I, R_NONE, 0, 0, BS(i16v), "u8" },
    { "cvt.sat.s16.s32", "s16", "s32", CVT("cvt.sat.s16.s32"), I2I, R_NONE, 1, 0, BS(i32v), NULL },
    { "cvt.u8.u32 (truncate)", "u8", "u32", CVT("cvt.u8.u32"), I2I, R_NONE, 0, 0, BS(i32v), NULL },
    { "cvt.sat.u8.s32", "u8", "s32", CVT("cvt.sat.u8.s32"), I2I, R_NONE, 1, 0, BS(i32v), NULL },
    { "cvt.sat.s8.s32", "s8", "s32", CVT("cvt.sat.s8.s32"), I2I, R_NONE, 1, 0, BS(i32v), NULL },
    { "cvt.rzi.u8.f32", "u8", "f32", CVT("cvt.rzi.u8.f32"), F2I, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rni.s8.f32", "s8", "f32", CVT("cvt.rni.s8.f32"), F2I, R_N, 0, 0, BS(f32v), NULL },
    { "cvt.sat.u16.s32", "u16", "s32", CVT("cvt.sat.u16.s32"), I2I, R_NONE, 1, 0, BS(i32v), NULL },
    { "cvt.sat.s32.u32", "s32", "u32", CVT("cvt.sat.s32.u32"), I2I, R_NONE, 1, 0, BS(i32v), NULL },
    { "cvt.sat.u32.s32", "u32", "s32", CVT("cvt.sat.u32.s32"), I2I, R_NONE, 1, 0, BS(i32v), NULL },
    { "cvt.sat.s32.s64", "s32", "s64", CVT("cvt.sat.s32.s64"), I2I, R_NONE, 1, 0, BS(i64v), NULL },
    { "cvt.sat.u32.s64", "u32", "s64", CVT("cvt.sat.u32.s64"), I2I, R_NONE, 1, 0, BS(i64v), NULL },
    { "cvt.sat.s64.u64", "s64", "u64", CVT("cvt.sat.s64.u64"), I2I, R_NONE, 1, 0, BS(i64v), NULL },
    /* float -> integer: rounding, saturation, NaN -> 0 */
    { "cvt.rni.s32.f32", "s32", "f32", CVT("cvt.rni.s32.f32"), F2I, R_N, 0, 0, BS(f32v), NULL },
    { "cvt.rzi.s32.f32", "s32", "f32", CVT("cvt.rzi.s32.f32"), F2I, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rmi.s32.f32", "s32", "f32", CVT("cvt.rmi.s32.f32"), F2I, R_M, 0, 0, BS(f32v), NULL },
    { "cvt.rpi.s32.f32", "s32", "f32", CVT("cvt.rpi.s32.f32"), F2I, R_P, 0, 0, BS(f32v), NULL },
    { "cvt.rzi.u32.f32", "u32", "f32", CVT("cvt.rzi.u32.f32"), F2I, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rni.u32.f32", "u32", "f32", CVT("cvt.rni.u32.f32"), F2I, R_N, 0, 0, BS(f32v), NULL },
    { "cvt.rzi.s16.f32", "s16", "f32", CVT("cvt.rzi.s16.f32"), F2I, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rni.u16.f32", "u16", "f32", CVT("cvt.rni.u16.f32"), F2I, R_N, 0, 0, BS(f32v), NULL },
    { "cvt.rzi.s64.f32", "s64", "f32", CVT("cvt.rzi.s64.f32"), F2I, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rpi.u64.f32", "u64", "f32", CVT("cvt.rpi.u64.f32"), F2I, R_P, 0, 0, BS(f32v), NULL },
    { "cvt.rni.s32.f64", "s32", "f64", CVT("cvt.rni.s32.f64"), F2I, R_N, 0, 0, BS(f64v), NULL },
    { "cvt.rzi.s32.f64", "s32", "f64", CVT("cvt.rzi.s32.f64"), F2I, R_Z, 0, 0, BS(f64v), NULL },
    { "cvt.rmi.u32.f64", "u32", "f64", CVT("cvt.rmi.u32.f64"), F2I, R_M, 0, 0, BS(f64v), NULL },
    { "cvt.rzi.s64.f64", "s64", "f64", CVT("cvt.rzi.s64.f64"), F2I, R_Z, 0, 0, BS(f64v), NULL },
    { "cvt.rni.u64.f64", "u64", "f64", CVT("cvt.rni.u64.f64"), F2I, R_N, 0, 0, BS(f64v), NULL },
    { "cvt.rpi.s64.f64", "s64", "f64", CVT("cvt.rpi.s64.f64"), F2I, R_P, 0, 0, BS(f64v), NULL },
    /* integer -> float in every rounding mode */
    { "cvt.rn.f32.s32", "f32", "s32", CVT("cvt.rn.f32.s32"), I2F, R_N, 0, 0, BS(i32v), NULL },
    { "cvt.rz.f32.s32", "f32", "s32", CVT("cvt.rz.f32.s32"), I2F, R_Z, 0, 0, BS(i32v), NULL },
    { "cvt.rm.f32.s32", "f32", "s32", CVT("cvt.rm.f32.s32"), I2F, R_M, 0, 0, BS(i32v), NULL },
    { "cvt.rp.f32.s32", "f32", "s32", CVT("cvt.rp.f32.s32"), I2F, R_P, 0, 0, BS(i32v), NULL },
    { "cvt.rn.f32.u32", "f32", "u32", CVT("cvt.rn.f32.u32"), I2F, R_N, 0, 0, BS(i32v), NULL },
    { "cvt.rz.f32.u32", "f32", "u32", CVT("cvt.rz.f32.u32"), I2F, R_Z, 0, 0, BS(i32v), NULL },
    { "cvt.rn.f32.s64", "f32", "s64", CVT("cvt.rn.f32.s64"), I2F, R_N, 0, 0, BS(i64v), NULL },
    { "cvt.rp.f32.u64", "f32", "u64", CVT("cvt.rp.f32.u64"), I2F, R_P, 0, 0, BS(i64v), NULL },
    { "cvt.rn.f64.s64", "f64", "s64", CVT("cvt.rn.f64.s64"), I2F, R_N, 0, 0, BS(i64v), NULL },
    { "cvt.rz.f64.u64", "f64", "u64", CVT("cvt.rz.f64.u64"), I2F, R_Z, 0, 0, BS(i64v), NULL },
    { "cvt.rm.f64.s64", "f64", "s64", CVT("cvt.rm.f64.s64"), I2F, R_M, 0, 0, BS(i64v), NULL },
    { "cvt.rn.f64.u32", "f64", "u32", CVT("cvt.rn.f64.u32"), I2F, R_N, 0, 0, BS(i32v), NULL },
    /* f32 <-> f64 */
    { "cvt.f64.f32", "f64", "f32", CVT("cvt.f64.f32"), F2F, R_NONE, 0, 0, BS(f32v), NULL },
    { "cvt.rn.f32.f64", "f32", "f64", CVT("cvt.rn.f32.f64"), F2F, R_N, 0, 0, BS(f64v), NULL },
    { "cvt.rz.f32.f64", "f32", "f64", CVT("cvt.rz.f32.f64"), F2F, R_Z, 0, 0, BS(f64v), NULL },
    { "cvt.rm.f32.f64", "f32", "f64", CVT("cvt.rm.f32.f64"), F2F, R_M, 0, 0, BS(f64v), NULL },
    { "cvt.rp.f32.f64", "f32", "f64", CVT("cvt.rp.f32.f64"), F2F, R_P, 0, 0, BS(f64v), NULL },
    { "cvt.rn.ftz.f32.f64", "f32", "f64", CVT("cvt.rn.ftz.f32.f64"), F2F, R_N, 0, 1, BS(f64v), NULL },
    { "cvt.ftz.f64.f32", "f64", "f32", CVT("cvt.ftz.f64.f32"), F2F, R_NONE, 0, 1, BS(f32v), NULL },
    { "cvt.rzi.ftz.s32.f32", "s32", "f32", CVT("cvt.rzi.ftz.s32.f32"), F2I, R_Z, 0, 1, BS(f32v), NULL },
    { "cvt.rpi.ftz.s32.f32", "s32", "f32", CVT("cvt.rpi.ftz.s32.f32"), F2I, R_P, 0, 1, BS(f32v), NULL },
    { "cvt.rni.ftz.f32.f32", "f32", "f32", CVT("cvt.rni.ftz.f32.f32"), FRND, R_N, 0, 1, BS(f32v), NULL },
    /* float -> integral float */
    { "cvt.rni.f32.f32", "f32", "f32", CVT("cvt.rni.f32.f32"), FRND, R_N, 0, 0, BS(f32v), NULL },
    { "cvt.rzi.f32.f32", "f32", "f32", CVT("cvt.rzi.f32.f32"), FRND, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rmi.f32.f32", "f32", "f32", CVT("cvt.rmi.f32.f32"), FRND, R_M, 0, 0, BS(f32v), NULL },
    { "cvt.rpi.f32.f32", "f32", "f32", CVT("cvt.rpi.f32.f32"), FRND, R_P, 0, 0, BS(f32v), NULL },
    { "cvt.rni.f64.f64", "f64", "f64", CVT("cvt.rni.f64.f64"), FRND, R_N, 0, 0, BS(f64v), NULL },
    { "cvt.rmi.f64.f64", "f64", "f64", CVT("cvt.rmi.f64.f64"), FRND, R_M, 0, 0, BS(f64v), NULL },
    /* binary16 */
    { "cvt.rn.f16.f32", "b16", "f32", CVT("cvt.rn.f16.f32"), F2H, R_N, 0, 0, BS(f32v), NULL },
    { "cvt.rz.f16.f32", "b16", "f32", CVT("cvt.rz.f16.f32"), F2H, R_Z, 0, 0, BS(f32v), NULL },
    { "cvt.rm.f16.f32", "b16", "f32", CVT("cvt.rm.f16.f32"), F2H, R_M, 0, 0, BS(f32v), NULL },
    { "cvt.rp.f16.f32", "b16", "f32", CVT("cvt.rp.f16.f32"), F2H, R_P, 0, 0, BS(f32v), NULL },
    { "cvt.rn.f16.f32 (halfway cases)", "b16", "f32", CVT("cvt.rn.f16.f32"), F2H, R_N, 0, 0, BS(h32v), NULL },
    { "cvt.rz.f16.f32 (halfway cases)", "b16", "f32", CVT("cvt.rz.f16.f32"), F2H, R_Z, 0, 0, BS(h32v), NULL },
    { "cvt.rn.f16.f64", "b16", "f64", CVT("cvt.rn.f16.f64"), F2H, R_N, 0, 0, BS(f64v), NULL },
    { "cvt.f32.f16", "f32", "b16", CVT("cvt.f32.f16"), H2F, R_NONE, 0, 0, BS(h16v), NULL },
    { "cvt.f64.f16", "f64", "b16", CVT("cvt.f64.f16"), H2F, R_NONE, 0, 0, BS(h16v), NULL },
    { "add.rn.f16", "b16", "b16", "\tadd.rn.f16 %xd, %xa, %xa;", HARITH, R_N, 0, 0, BS(h16v), NULL },
    { "mul.rn.f16", "b16", "b16", "\tmul.rn.f16 %xd, %xa, %xa;", HARITH, R_N, 0, 0, BS(h16v), NULL },
    { "fma.rn.f16", "b16", "b16", "\tfma.rn.f16 %xd, %xa, %xa, %xa;", HARITH, R_N, 0, 0, BS(h16v), NULL },
};

static void run_cvt_case(void **state)
{
    isa_ctx *c = *state;
    const cvt_case *tc = c->tcase;
    size_t n = tc->vals.n, sa = isa_type_size(tc->atype),
           sd = isa_type_size(tc->dtype);
    unsigned char *a = isa_calloc(c, n, sa), *d = isa_calloc(c, n, sd);
    for (size_t i = 0; i < n; i++)
        memcpy(a + i * sa, &tc->vals.v[i], sa);
    isa_elem_op op = { tc->dtype, tc->atype, NULL, NULL, NULL, tc->body };
    isa_elem_run(c, &op, (unsigned)n, a, NULL, NULL, d);
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t in = 0, got = 0, want = 0;
        memcpy(&in, a + i * sa, sa);
        memcpy(&got, d + i * sd, sd);
        if (!cvt_ref(tc, in, &want))
            continue;
        int ok = got == want;
        if (!ok && strcmp(tc->dtype, "b16") == 0)   /* any half NaN matches */
            ok = half_is_nan(got) && half_is_nan(want);
        if (!ok && tfloat(tc->dtype))   /* any NaN matches any NaN */
            ok = sd == 4 ? isa_same_f32(isa_f32((uint32_t)got), isa_f32((uint32_t)want))
                         : isa_same_f64(isa_f64(got), isa_f64(want));
        if (!ok && bad++ < 8)
            print_error("%s: in=0x%llx: got 0x%llx, want 0x%llx\n", tc->name,
                        (unsigned long long)in, (unsigned long long)got,
                        (unsigned long long)want);
    }
    if (bad)
        fail_msg("%s: %u of %zu lanes wrong", tc->name, bad, n);
}

int main(void)
{
    return isa_run_table("isa_cvt", run_cvt_case, cases, sizeof cases[0],
                         sizeof cases / sizeof cases[0]);
}
