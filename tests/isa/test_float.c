/*
 * test_float.c — floating-point instruction family.
 *
 * Correctly rounded instructions (add sub mul fma mad div.rn/rz/rm/rp
 * sqrt.rn rcp.rn, f32 and f64, each rounding mode) are compared bit for bit
 * with the host's IEEE arithmetic under fesetround() (this file is built with
 * -frounding-math). .ftz flushes subnormal inputs and results to a zero of
 * the same sign; .sat clamps to [0, 1] with NaN -> +0. Any NaN matches any
 * NaN (PTX does not fix payloads).
 *
 * Approximate instructions are checked against the bounds the PTX ISA states
 * (see docs/isa-coverage.md for the list and their sources): rcp.approx
 * 1 ulp, div.full 2 ulp, div.approx 2 ulp for |b| in [2^-126, 2^126],
 * sqrt.approx relative 2^-23, rsqrt.approx relative 2^-22.9 (f64: 2^-22),
 * rcp.approx.ftz.f64 relative 2^-18 (it works on the upper word only),
 * ex2.approx 2 ulp, lg2.approx absolute 2^-22 (relative 2^-22 away from 1),
 * sin/cos.approx absolute 2^-20.5 on [-2pi, 2pi], tanh.approx relative
 * 2^-10.9. Special inputs (0, inf, NaN) must give the exact IEEE
 * special result.
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



typedef int (*fref)(double a, double b, double c, double *d);
typedef struct fset { const double *v; size_t n; } fset;

enum { F_FTZ = 1, F_SAT = 2, F_ZERO_ANYSIGN = 4, F_INT_OUT = 8 };
enum tol_kind { T_EXACT, T_ULP, T_REL, T_ABS, T_LG2 };

typedef struct float_case {
    const char *name;                 /* isa_case_head */
    const char *dtype, *atype, *btype, *ctype;
    const char *body;
    fref        ref;                  /* exact value (computed in the type) */
    int         rnd;                  /* FE_* for the reference */
    unsigned    flags;
    enum tol_kind tol;
    double      tolv;                 /* ulps, or relative/absolute bound */
    fset        va, vb, vc;
} float_case;

/* ---- value sets ----------------------------------------------------------- */

#define FS(arr) { arr, sizeof(arr) / sizeof(arr[0]) }
static const double f32v[] = {
    0.0, -0.0, 1.0, -1.0, 1.5, 0.1f, 3.0, -2.5, 1.0f / 3.0f, 7.0, 1e-20f,
    1.0 + 0x1p-23, 0x1.fffffep-1, 1e30f, -1e30f, FLT_MAX, -FLT_MAX, FLT_MIN,
    0x1p-140 /* subnormal */, -0x1.8p-135 /* subnormal */, 0x1p-149,
    INFINITY, -INFINITY, NAN,
};
static const double f32s[] = {  /* third operand */
    0.0, -0.0, 1.0, -1e-7f, 0x1p-130, FLT_MAX, INFINITY, NAN,
};
static const double f64v[] = {
    0.0, -0.0, 1.0, -1.0, 1.5, 0.1, 3.0, -2.5, 1.0 / 3.0, 7.0, 1e-200,
    1.0 + 0x1p-52, 0x1.fffffffffffffp-1, 1e300, -1e300, DBL_MAX, -DBL_MAX,
    DBL_MIN, 0x1p-1060 /* subnormal */, -0x1.8p-1040, 0x1p-1074,
    INFINITY, -INFINITY, NAN,
};
static const double f64s[] = {
    0.0, -0.0, 1.0, -1e-16, 0x1p-1030, DBL_MAX, INFINITY, NAN,
};
/* Positive normal values for approximate instructions, plus specials. */
static const double apv[] = {
    1.0, 2.0, 0.5, 3.0, 10.0, 0.1f, 1e-30f, 1e30f, 123.456f, 0x1.fffffep-1,
    1.0 + 0x1p-23, 7e-5f, 65504.0, 0x1p-125, 0x1p125, 0.0, INFINITY, NAN,
};
static const double apsigned[] = {
    1.0, -1.0, 2.0, -0.5, 3.0, 10.0, -10.0, 0.1f, -7.25f, 1e-3f, -1e-3f, 20.0,
    -20.0, 100.0, -126.5f, 127.5f, 0.0, -0.0, INFINITY, -INFINITY, NAN,
};
static const double trigv[] = {
    0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5707963f, 3.1415926f, -3.1415926f,
    2.0, -2.75f, 0.001f, 1e-6f, 3.0, -3.0,
};
static const double divb[] = {  /* divisors for div.approx: |b| in range */
    1.0, -1.0, 3.0, 0.1f, -7.0, 1e-30f, 1e30f, 0x1p-126, 0x1p126,
};
static const double none[] = { 0.0 };
#define NONE FS(none)

/* ---- reference models ---------------------------------------------------- */

#define FR(name) static int name(double a, double b, double c, double *d)
#define UNUSED3 (void)a; (void)b; (void)c

/* volatile keeps the operations after fesetround() and in single precision */
FR(add32) { UNUSED3; volatile float x = (float)a, y = (float)b; *d = x + y; return 1; }
FR(sub32) { UNUSED3; volatile float x = (float)a, y = (float)b; *d = x - y; return 1; }
FR(mul32) { UNUSED3; volatile float x = (float)a, y = (float)b; *d = x * y; return 1; }
FR(div32) { UNUSED3; volatile float x = (float)a, y = (float)b; *d = x / y; return 1; }
FR(fma32) { volatile float x = (float)a, y = (float)b, z = (float)c; *d = fmaf(x, y, z); return 1; }
FR(sqrt32) { UNUSED3; volatile float x = (float)a; *d = sqrtf(x); return 1; }
FR(rcp32) { UNUSED3; volatile float x = (float)a; *d = 1.0f / x; return 1; }
FR(add64) { UNUSED3; volatile double x = a, y = b; *d = x + y; return 1; }
FR(sub64) { UNUSED3; volatile double x = a, y = b; *d = x - y; return 1; }
FR(mul64) { UNUSED3; volatile double x = a, y = b; *d = x * y; return 1; }
FR(div64) { UNUSED3; volatile double x = a, y = b; *d = x / y; return 1; }
FR(fma64) { volatile double x = a, y = b, z = c; *d = fma(x, y, z); return 1; }
FR(sqrt64) { UNUSED3; volatile double x = a; *d = sqrt(x); return 1; }
FR(rcp64) { UNUSED3; volatile double x = a; *d = 1.0 / x; return 1; }
/* Approximations: the exact value in double. */
FR(x_rcp) { UNUSED3; *d = 1.0 / a; return 1; }
FR(x_div) { UNUSED3; *d = a / b; return 1; }
FR(x_sqrt) { UNUSED3; *d = sqrt(a); return 1; }
FR(x_rsqrt) { UNUSED3; *d = 1.0 / sqrt(a); return 1; }
FR(x_ex2) { UNUSED3; *d = exp2(a); return 1; }
FR(x_lg2) { UNUSED3; *d = log2(a); return 1; }
FR(x_sin) { UNUSED3; *d = sin(a); return 1; }
FR(x_cos) { UNUSED3; *d = cos(a); return 1; }
FR(x_tanh) { UNUSED3; *d = tanh(a); return 1; }
/* min/max: a NaN operand yields the other one; both NaN -> NaN. */
FR(fmin_) { UNUSED3; *d = isnan(a) ? b : isnan(b) ? a : (a < b ? a : b); return 1; }
FR(fmax_) { UNUSED3; *d = isnan(a) ? b : isnan(b) ? a : (a > b ? a : b); return 1; }
FR(fabs_) { UNUSED3; *d = fabs(a); return 1; }
FR(fneg_) { UNUSED3; *d = -a; return 1; }
/* copysign.f32 d, a, b: b's magnitude with a's sign. */
FR(fcopysign) { UNUSED3; *d = copysign(b, a); return 1; }

/* testp classes (as 0/1) */
FR(t_finite)   { UNUSED3; *d = isfinite(a); return 1; }
FR(t_infinite) { UNUSED3; *d = isinf(a) != 0; return 1; }
FR(t_number)   { UNUSED3; *d = !isnan(a); return 1; }
FR(t_nan)      { UNUSED3; *d = isnan(a) != 0; return 1; }
FR(t_normal)   { UNUSED3; *d = isnormal((float)a); return 1; }
FR(t_subnorm)  { UNUSED3; *d = fpclassify((float)a) == FP_SUBNORMAL; return 1; }
FR(t_subnorm64) { UNUSED3; *d = fpclassify(a) == FP_SUBNORMAL; return 1; }
FR(t_normal64) { UNUSED3; *d = isnormal(a) != 0; return 1; }

/* setp comparisons (as 0/1); `u` = unordered */
#define UN (isnan(a) || isnan(b))
FR(c_eq)  { UNUSED3; *d = !UN && a == b; return 1; }
FR(c_ne)  { UNUSED3; *d = !UN && a != b; return 1; }
FR(c_lt)  { UNUSED3; *d = !UN && a < b; return 1; }
FR(c_le)  { UNUSED3; *d = !UN && a <= b; return 1; }
FR(c_gt)  { UNUSED3; *d = !UN && a > b; return 1; }
FR(c_ge)  { UNUSED3; *d = !UN && a >= b; return 1; }
FR(c_equ) { UNUSED3; *d = UN || a == b; return 1; }
FR(c_neu) { UNUSED3; *d = UN || a != b; return 1; }
FR(c_ltu) { UNUSED3; *d = UN || a < b; return 1; }
FR(c_leu) { UNUSED3; *d = UN || a <= b; return 1; }
FR(c_gtu) { UNUSED3; *d = UN || a > b; return 1; }
FR(c_geu) { UNUSED3; *d = UN || a >= b; return 1; }
FR(c_num) { UNUSED3; *d = !UN; return 1; }
FR(c_nan) { UNUSED3; *d = UN; return 1; }
/* combined: c becomes the predicate `setp.ne c, 0` (false for NaN) */
#define CP (!isnan(c) && c != 0)
FR(c_lt_and)  { *d = (!UN && a < b) && CP; return 1; }
FR(c_lt_or_not) { *d = (!UN && a < b) || !CP; return 1; }
FR(c_gtu_xor) { *d = (UN || a > b) ^ CP; return 1; }
/* two destinations: p | q, d = p + 2q with q = !p */
FR(c_le_pair) { UNUSED3; int p = !UN && a <= b; *d = p + 2 * !p; return 1; }
/* selp / slct / set */
FR(r_selp)    { *d = CP ? a : b; return 1; }
FR(r_slct_f32) { if (isnan(c)) return 0; *d = c >= 0.0 ? a : b; return 1; }
FR(r_set_u32) { UNUSED3; *d = (!UN && a < b) ? 4294967295.0 : 0.0; return 1; }
FR(r_set_f32) { UNUSED3; *d = (!UN && a >= b) ? 1.0 : 0.0; return 1; }
FR(r_setu_f32) { UNUSED3; *d = (UN || a >= b) ? 1.0 : 0.0; return 1; }

/* ---- the table ------------------------------------------------------------ */

#define B1(op) "\t" op " %xd, %xa;"
#define B2(op) "\t" op " %xd, %xa, %xb;"
#define B3(op) "\t" op " %xd, %xa, %xb, %xc;"
#define TESTP(cls) "\ttestp." cls ".f32 %p1, %xa;\n\tselp.u32 %xd, 1, 0, %p1;"
#define SETP(cmp, t) "\tsetp." cmp "." t " %p1, %xa, %xb;\n\tselp.u32 %xd, 1, 0, %p1;"
#define RN FE_TONEAREST
#define RZ FE_TOWARDZERO
#define RM FE_DOWNWARD
#define RP FE_UPWARD
#define F32_2 "f32", "f32", "f32", NULL
#define F32_3 "f32", "f32", "f32", "f32"
#define F32_1 "f32", "f32", NULL, NULL
#define F64_2 "f64", "f64", "f64", NULL
#define F64_3 "f64", "f64", "f64", "f64"
#define F64_1 "f64", "f64", NULL, NULL
#define V32 FS(f32v)
#define V64 FS(f64v)
#define EX T_EXACT, 0

static const float_case cases[] = {
    /* f32 arithmetic, every rounding mode */
    { "add.rn.f32", F32_2, B2("add.rn.f32"), add32, RN, 0, EX, V32, V32, NONE },
    { "add.rz.f32", F32_2, B2("add.rz.f32"), add32, RZ, 0, EX, V32, V32, NONE },
    { "add.rm.f32", F32_2, B2("add.rm.f32"), add32, RM, 0, EX, V32, V32, NONE },
    { "add.rp.f32", F32_2, B2("add.rp.f32"), add32, RP, 0, EX, V32, V32, NONE },
    { "add.f32 (default rn)", F32_2, B2("add.f32"), add32, RN, 0, EX, V32, V32, NONE },
    { "add.rn.ftz.f32", F32_2, B2("add.rn.ftz.f32"), add32, RN, F_FTZ, EX, V32, V32, NONE },
    { "add.rn.sat.f32", F32_2, B2("add.rn.sat.f32"), add32, RN, F_SAT | F_ZERO_ANYSIGN, EX, V32, V32, NONE },
    { "sub.rn.f32", F32_2, B2("sub.rn.f32"), sub32, RN, 0, EX, V32, V32, NONE },
    { "sub.rm.f32", F32_2, B2("sub.rm.f32"), sub32, RM, 0, EX, V32, V32, NONE },
    { "sub.rp.ftz.f32", F32_2, B2("sub.rp.ftz.f32"), sub32, RP, F_FTZ, EX, V32, V32, NONE },
    { "mul.rn.f32", F32_2, B2("mul.rn.f32"), mul32, RN, 0, EX, V32, V32, NONE },
    { "mul.rz.f32", F32_2, B2("mul.rz.f32"), mul32, RZ, 0, EX, V32, V32, NONE },
    { "mul.rm.f32", F32_2, B2("mul.rm.f32"), mul32, RM, 0, EX, V32, V32, NONE },
    { "mul.rp.f32", F32_2, B2("mul.rp.f32"), mul32, RP, 0, EX, V32, V32, NONE },
    { "mul.rn.ftz.f32", F32_2, B2("mul.rn.ftz.f32"), mul32, RN, F_FTZ, EX, V32, V32, NONE },
    { "mul.rn.sat.f32", F32_2, B2("mul.rn.sat.f32"), mul32, RN, F_SAT | F_ZERO_ANYSIGN, EX, V32, V32, NONE },
    { "fma.rn.f32", F32_3, B3("fma.rn.f32"), fma32, RN, 0, EX, V32, V32, FS(f32s) },
    { "fma.rz.f32", F32_3, B3("fma.rz.f32"), fma32, RZ, 0, EX, V32, V32, FS(f32s) },
    { "fma.rm.f32", F32_3, B3("fma.rm.f32"), fma32, RM, 0, EX, V32, V32, FS(f32s) },
    { "fma.rp.f32", F32_3, B3("fma.rp.f32"), fma32, RP, 0, EX, V32, V32, FS(f32s) },
    { "fma.rn.ftz.f32", F32_3, B3("fma.rn.ftz.f32"), fma32, RN, F_FTZ, EX, V32, V32, FS(f32s) },
    { "fma.rn.sat.f32", F32_3, B3("fma.rn.sat.f32"), fma32, RN, F_SAT | F_ZERO_ANYSIGN, EX, V32, V32, FS(f32s) },
    { "mad.rn.f32 (fused)", F32_3, B3("mad.rn.f32"), fma32, RN, 0, EX, V32, V32, FS(f32s) },
    { "mad.rz.f32 (fused)", F32_3, B3("mad.rz.f32"), fma32, RZ, 0, EX, V32, V32, FS(f32s) },
    { "mad.rm.f32 (fused)", F32_3, B3("mad.rm.f32"), fma32, RM, 0, EX, V32, V32, FS(f32s) },
    { "mad.rp.ftz.f32 (fused)", F32_3, B3("mad.rp.ftz.f32"), fma32, RP, F_FTZ, EX, V32, V32, FS(f32s) },
    { "sub.rz.f32", F32_2, B2("sub.rz.f32"), sub32, RZ, 0, EX, V32, V32, NONE },
    { "mad.rz.f64", F64_3, B3("mad.rz.f64"), fma64, RZ, 0, EX, V64, V64, FS(f64s) },
    { "div.rn.f32", F32_2, B2("div.rn.f32"), div32, RN, 0, EX, V32, V32, NONE },
    { "div.rz.f32", F32_2, B2("div.rz.f32"), div32, RZ, 0, EX, V32, V32, NONE },
    { "div.rm.f32", F32_2, B2("div.rm.f32"), div32, RM, 0, EX, V32, V32, NONE },
    { "div.rp.f32", F32_2, B2("div.rp.f32"), div32, RP, 0, EX, V32, V32, NONE },
    { "div.rn.ftz.f32", F32_2, B2("div.rn.ftz.f32"), div32, RN, F_FTZ, EX, V32, V32, NONE },
    { "sqrt.rn.f32", F32_1, B1("sqrt.rn.f32"), sqrt32, RN, 0, EX, V32, NONE, NONE },
    { "sqrt.rp.f32", F32_1, B1("sqrt.rp.f32"), sqrt32, RP, 0, EX, V32, NONE, NONE },
    { "rcp.rn.f32", F32_1, B1("rcp.rn.f32"), rcp32, RN, 0, EX, V32, NONE, NONE },
    { "rcp.rz.f32", F32_1, B1("rcp.rz.f32"), rcp32, RZ, 0, EX, V32, NONE, NONE },
    { "rcp.rn.ftz.f32", F32_1, B1("rcp.rn.ftz.f32"), rcp32, RN, F_FTZ, EX, V32, NONE, NONE },
    { "sqrt.rn.ftz.f32", F32_1, B1("sqrt.rn.ftz.f32"), sqrt32, RN, F_FTZ, EX, V32, NONE, NONE },
    { "div.full.ftz.f32", F32_2, B2("div.full.ftz.f32"), x_div, RN, F_FTZ, T_ULP, 2, FS(apsigned), FS(divb), NONE },
    /* f64 arithmetic */
    { "add.rn.f64", F64_2, B2("add.rn.f64"), add64, RN, 0, EX, V64, V64, NONE },
    { "add.rz.f64", F64_2, B2("add.rz.f64"), add64, RZ, 0, EX, V64, V64, NONE },
    { "add.rm.f64", F64_2, B2("add.rm.f64"), add64, RM, 0, EX, V64, V64, NONE },
    { "add.rp.f64", F64_2, B2("add.rp.f64"), add64, RP, 0, EX, V64, V64, NONE },
    { "sub.rz.f64", F64_2, B2("sub.rz.f64"), sub64, RZ, 0, EX, V64, V64, NONE },
    { "mul.rn.f64", F64_2, B2("mul.rn.f64"), mul64, RN, 0, EX, V64, V64, NONE },
    { "mul.rz.f64", F64_2, B2("mul.rz.f64"), mul64, RZ, 0, EX, V64, V64, NONE },
    { "mul.rm.f64", F64_2, B2("mul.rm.f64"), mul64, RM, 0, EX, V64, V64, NONE },
    { "mul.rp.f64", F64_2, B2("mul.rp.f64"), mul64, RP, 0, EX, V64, V64, NONE },
    { "fma.rn.f64", F64_3, B3("fma.rn.f64"), fma64, RN, 0, EX, V64, V64, FS(f64s) },
    { "fma.rz.f64", F64_3, B3("fma.rz.f64"), fma64, RZ, 0, EX, V64, V64, FS(f64s) },
    { "fma.rm.f64", F64_3, B3("fma.rm.f64"), fma64, RM, 0, EX, V64, V64, FS(f64s) },
    { "fma.rp.f64", F64_3, B3("fma.rp.f64"), fma64, RP, 0, EX, V64, V64, FS(f64s) },
    { "mad.rn.f64", F64_3, B3("mad.rn.f64"), fma64, RN, 0, EX, V64, V64, FS(f64s) },
    { "div.rn.f64", F64_2, B2("div.rn.f64"), div64, RN, 0, EX, V64, V64, NONE },
    { "div.rz.f64", F64_2, B2("div.rz.f64"), div64, RZ, 0, EX, V64, V64, NONE },
    { "div.rm.f64", F64_2, B2("div.rm.f64"), div64, RM, 0, EX, V64, V64, NONE },
    { "div.rp.f64", F64_2, B2("div.rp.f64"), div64, RP, 0, EX, V64, V64, NONE },
    { "sqrt.rn.f64", F64_1, B1("sqrt.rn.f64"), sqrt64, RN, 0, EX, V64, NONE, NONE },
    { "sqrt.rm.f64", F64_1, B1("sqrt.rm.f64"), sqrt64, RM, 0, EX, V64, NONE, NONE },
    { "rcp.rn.f64", F64_1, B1("rcp.rn.f64"), rcp64, RN, 0, EX, V64, NONE, NONE },
    /* approximations, within the PTX ISA bounds */
    { "rcp.approx.f32", F32_1, B1("rcp.approx.f32"), x_rcp, RN, 0, T_ULP, 1, FS(apsigned), NONE, NONE },
    { "rcp.approx.ftz.f64", F64_1, B1("rcp.approx.ftz.f64"), x_rcp, RN, 0, T_REL, 0x1p-18, FS(apsigned), NONE, NONE },
    { "div.full.f32", F32_2, B2("div.full.f32"), x_div, RN, 0, T_ULP, 2, FS(apsigned), FS(divb), NONE },
    { "div.approx.f32", F32_2, B2("div.approx.f32"), x_div, RN, 0, T_ULP, 2, FS(apsigned), FS(divb), NONE },
    { "sqrt.approx.f32", F32_1, B1("sqrt.approx.f32"), x_sqrt, RN, 0, T_REL, 0x1p-23, FS(apv), NONE, NONE },
    { "rsqrt.approx.f32", F32_1, B1("rsqrt.approx.f32"), x_rsqrt, RN, 0, T_REL, 0x1.125fbee250669p-23 /* 2^-22.9 */, FS(apv), NONE, NONE },
    { "rsqrt.approx.f64", F64_1, B1("rsqrt.approx.f64"), x_rsqrt, RN, 0, T_REL, 0x1p-22, FS(apv), NONE, NONE },
    { "ex2.approx.f32", F32_1, B1("ex2.approx.f32"), x_ex2, RN, 0, T_ULP, 2, FS(apsigned), NONE, NONE },
    { "ex2.approx.ftz.f32", F32_1, B1("ex2.approx.ftz.f32"), x_ex2, RN, F_FTZ, T_ULP, 2, FS(apsigned), NONE, NONE },
    { "lg2.approx.f32", F32_1, B1("lg2.approx.f32"), x_lg2, RN, 0, T_LG2, 0x1p-22, FS(apv), NONE, NONE },
    { "sin.approx.f32", F32_1, B1("sin.approx.f32"), x_sin, RN, 0, T_ABS, 0x1.6a09e667f3bcdp-21 /* 2^-20.5 */, FS(trigv), NONE, NONE },
    { "cos.approx.f32", F32_1, B1("cos.approx.f32"), x_cos, RN, 0, T_ABS, 0x1.6a09e667f3bcdp-21, FS(trigv), NONE, NONE },
    { "tanh.approx.f32", F32_1, B1("tanh.approx.f32"), x_tanh, RN, 0, T_REL, 0x1.125fbee250663p-11 /* 2^-10.9 */, FS(apsigned), NONE, NONE },
    /* min/max (NaN handling), abs/neg, copysign */
    { "min.f32", F32_2, B2("min.f32"), fmin_, RN, F_ZERO_ANYSIGN, EX, V32, V32, NONE },
    { "max.f32", F32_2, B2("max.f32"), fmax_, RN, F_ZERO_ANYSIGN, EX, V32, V32, NONE },
    { "min.ftz.f32", F32_2, B2("min.ftz.f32"), fmin_, RN, F_FTZ | F_ZERO_ANYSIGN, EX, V32, V32, NONE },
    { "min.f64", F64_2, B2("min.f64"), fmin_, RN, F_ZERO_ANYSIGN, EX, V64, V64, NONE },
    { "max.f64", F64_2, B2("max.f64"), fmax_, RN, F_ZERO_ANYSIGN, EX, V64, V64, NONE },
    { "abs.f32", F32_1, B1("abs.f32"), fabs_, RN, 0, EX, V32, NONE, NONE },
    { "abs.ftz.f32", F32_1, B1("abs.ftz.f32"), fabs_, RN, F_FTZ, EX, V32, NONE, NONE },
    { "neg.f32", F32_1, B1("neg.f32"), fneg_, RN, 0, EX, V32, NONE, NONE },
    { "abs.f64", F64_1, B1("abs.f64"), fabs_, RN, 0, EX, V64, NONE, NONE },
    { "neg.f64", F64_1, B1("neg.f64"), fneg_, RN, 0, EX, V64, NONE, NONE },
    { "copysign.f32", F32_2, B2("copysign.f32"), fcopysign, RN, 0, EX, V32, V32, NONE },
    { "copysign.f64", F64_2, B2("copysign.f64"), fcopysign, RN, 0, EX, V64, V64, NONE },
    /* testp */
    { "testp.finite.f32", "u32", "f32", NULL, NULL, TESTP("finite"), t_finite, RN, F_INT_OUT, EX, V32, NONE, NONE },
    { "testp.infinite.f32", "u32", "f32", NULL, NULL, TESTP("infinite"), t_infinite, RN, F_INT_OUT, EX, V32, NONE, NONE },
    { "testp.number.f32", "u32", "f32", NULL, NULL, TESTP("number"), t_number, RN, F_INT_OUT, EX, V32, NONE, NONE },
    { "testp.notanumber.f32", "u32", "f32", NULL, NULL, TESTP("notanumber"), t_nan, RN, F_INT_OUT, EX, V32, NONE, NONE },
    { "testp.normal.f32", "u32", "f32", NULL, NULL, TESTP("normal"), t_normal, RN, F_INT_OUT, EX, V32, NONE, NONE },
    { "testp.subnormal.f32", "u32", "f32", NULL, NULL, TESTP("subnormal"), t_subnorm, RN, F_INT_OUT, EX, V32, NONE, NONE },
    /* setp, every comparison incl. unordered; f32 and f64 */
    { "setp.eq.f32", "u32", "f32", "f32", NULL, SETP("eq", "f32"), c_eq, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.ne.f32", "u32", "f32", "f32", NULL, SETP("ne", "f32"), c_ne, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.lt.f32", "u32", "f32", "f32", NULL, SETP("lt", "f32"), c_lt, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.le.f32", "u32", "f32", "f32", NULL, SETP("le", "f32"), c_le, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.gt.f32", "u32", "f32", "f32", NULL, SETP("gt", "f32"), c_gt, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.ge.f32", "u32", "f32", "f32", NULL, SETP("ge", "f32"), c_ge, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.equ.f32", "u32", "f32", "f32", NULL, SETP("equ", "f32"), c_equ, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.neu.f32", "u32", "f32", "f32", NULL, SETP("neu", "f32"), c_neu, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.ltu.f32", "u32", "f32", "f32", NULL, SETP("ltu", "f32"), c_ltu, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.leu.f32", "u32", "f32", "f32", NULL, SETP("leu", "f32"), c_leu, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.gtu.f32", "u32", "f32", "f32", NULL, SETP("gtu", "f32"), c_gtu, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.geu.f32", "u32", "f32", "f32", NULL, SETP("geu", "f32"), c_geu, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.num.f32", "u32", "f32", "f32", NULL, SETP("num", "f32"), c_num, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.nan.f32", "u32", "f32", "f32", NULL, SETP("nan", "f32"), c_nan, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.lt.f64", "u32", "f64", "f64", NULL, SETP("lt", "f64"), c_lt, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.neu.f64", "u32", "f64", "f64", NULL, SETP("neu", "f64"), c_neu, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.geu.f64", "u32", "f64", "f64", NULL, SETP("geu", "f64"), c_geu, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.nan.f64", "u32", "f64", "f64", NULL, SETP("nan", "f64"), c_nan, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.eq.f64", "u32", "f64", "f64", NULL, SETP("eq", "f64"), c_eq, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.ne.f64", "u32", "f64", "f64", NULL, SETP("ne", "f64"), c_ne, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.le.f64", "u32", "f64", "f64", NULL, SETP("le", "f64"), c_le, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.gt.f64", "u32", "f64", "f64", NULL, SETP("gt", "f64"), c_gt, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.ge.f64", "u32", "f64", "f64", NULL, SETP("ge", "f64"), c_ge, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.equ.f64", "u32", "f64", "f64", NULL, SETP("equ", "f64"), c_equ, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.ltu.f64", "u32", "f64", "f64", NULL, SETP("ltu", "f64"), c_ltu, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.leu.f64", "u32", "f64", "f64", NULL, SETP("leu", "f64"), c_leu, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.gtu.f64", "u32", "f64", "f64", NULL, SETP("gtu", "f64"), c_gtu, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.num.f64", "u32", "f64", "f64", NULL, SETP("num", "f64"), c_num, RN, F_INT_OUT, EX, V64, V64, NONE },
    { "setp.lt.and.f32", "u32", "f32", "f32", "f32",
      "\tsetp.ne.f32 %p2, %xc, 0f00000000;\n\tsetp.lt.and.f32 %p1, %xa, %xb, %p2;\n"
      "\tselp.u32 %xd, 1, 0, %p1;", c_lt_and, RN, F_INT_OUT, EX, V32, V32, FS(f32s) },
    { "setp.lt.or.f32 !p", "u32", "f32", "f32", "f32",
      "\tsetp.ne.f32 %p2, %xc, 0f00000000;\n\tsetp.lt.or.f32 %p1, %xa, %xb, !%p2;\n"
      "\tselp.u32 %xd, 1, 0, %p1;", c_lt_or_not, RN, F_INT_OUT, EX, V32, V32, FS(f32s) },
    { "setp.gtu.xor.f32", "u32", "f32", "f32", "f32",
      "\tsetp.ne.f32 %p2, %xc, 0f00000000;\n\tsetp.gtu.xor.f32 %p1, %xa, %xb, %p2;\n"
      "\tselp.u32 %xd, 1, 0, %p1;", c_gtu_xor, RN, F_INT_OUT, EX, V32, V32, FS(f32s) },
    { "setp.le.f32 p|q", "u32", "f32", "f32", NULL,
      "\tsetp.le.f32 %p1|%p2, %xa, %xb;\n\tselp.u32 %t32_0, 1, 0, %p1;\n"
      "\tselp.u32 %t32_1, 2, 0, %p2;\n\tadd.u32 %xd, %t32_0, %t32_1;",
      c_le_pair, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "setp.eq.ftz.f32", "u32", "f32", "f32", NULL, SETP("eq.ftz", "f32"), c_eq, RN, F_INT_OUT | F_FTZ, EX, V32, V32, NONE },
    { "setp.lt.ftz.f32", "u32", "f32", "f32", NULL, SETP("lt.ftz", "f32"), c_lt, RN, F_INT_OUT | F_FTZ, EX, V32, V32, NONE },
    { "testp.subnormal.f64", "u32", "f64", NULL, NULL, "\ttestp.subnormal.f64 %p1, %xa;\n\tselp.u32 %xd, 1, 0, %p1;", t_subnorm64, RN, F_INT_OUT, EX, V64, NONE, NONE },
    { "testp.normal.f64", "u32", "f64", NULL, NULL, "\ttestp.normal.f64 %p1, %xa;\n\tselp.u32 %xd, 1, 0, %p1;", t_normal64, RN, F_INT_OUT, EX, V64, NONE, NONE },
    { "sqrt.approx.ftz.f32", F32_1, B1("sqrt.approx.ftz.f32"), x_sqrt, RN, F_FTZ, T_REL, 0x1p-23, FS(apv), NONE, NONE },
    { "rcp.approx.ftz.f32", F32_1, B1("rcp.approx.ftz.f32"), x_rcp, RN, F_FTZ, T_ULP, 1, FS(apsigned), NONE, NONE },
    /* selp, slct, set */
    { "selp.f32", F32_3,
      "\tsetp.ne.f32 %p2, %xc, 0f00000000;\n\tselp.f32 %xd, %xa, %xb, %p2;",
      r_selp, RN, 0, EX, V32, V32, FS(f32s) },
    { "selp.f64", F64_3,
      "\tsetp.ne.f64 %p2, %xc, 0d0000000000000000;\n\tselp.f64 %xd, %xa, %xb, %p2;",
      r_selp, RN, 0, EX, V64, V64, FS(f64s) },
    { "slct.f32.f32", F32_3, B3("slct.f32.f32"), r_slct_f32, RN, 0, EX, V32, V32, FS(f32s) },
    { "set.lt.u32.f32", "u32", "f32", "f32", NULL, B2("set.lt.u32.f32"), r_set_u32, RN, F_INT_OUT, EX, V32, V32, NONE },
    { "set.ge.f32.f32", F32_2, B2("set.ge.f32.f32"), r_set_f32, RN, 0, EX, V32, V32, NONE },
    { "set.geu.f32.f32", F32_2, B2("set.geu.f32.f32"), r_setu_f32, RN, 0, EX, V32, V32, NONE },
};

/* ---- the runner ------------------------------------------------------------ */

static int is_sub32(double v) { float f = (float)v; return f != 0 && fabsf(f) < FLT_MIN; }

static double ftz32(double v) { return is_sub32(v) ? copysign(0.0, v) : v; }

static double ulps_of(const float_case *tc, double got, double want)
{
    if (strcmp(tc->dtype, "f32") == 0)
        return (double)isa_ulp_diff_f32((float)got, (float)want);
    return (double)isa_ulp_diff_f64(got, want);
}

/* Does `got` satisfy the case's tolerance around `want`? */
static int accept(const float_case *tc, double got, double want)
{
    if (tc->flags & F_INT_OUT)
        return got == want;
    if ((tc->flags & F_ZERO_ANYSIGN) && got == 0 && want == 0)
        return 1;
    int is32 = strcmp(tc->dtype, "f32") == 0;
    if (tc->tol == T_EXACT)
        return is32 ? isa_same_f32((float)got, (float)want)
                    : isa_same_f64(got, want);
    /* approximations: a result beyond the type's range is infinite; the
     * specials must be exact */
    if (is32 && isinf((float)want))
        want = (double)(float)want;
    if (isnan(want) || isinf(want) || want == 0) {
        if (isnan(want))
            return isnan(got);
        return got == want && signbit(got) == signbit(want);
    }
    if (isnan(got) || isinf(got))
        return 0;
    double err = fabs(got - want);
    switch (tc->tol) {
    case T_ULP: {
        /* distance from the correctly rounded result of the exact value */
        double rounded = is32 ? (double)(float)want : want;
        return ulps_of(tc, got, rounded) <= tc->tolv;
    }
    case T_REL: return err <= tc->tolv * fabs(want);
    case T_ABS: return err <= tc->tolv;
    case T_LG2: return err <= tc->tolv * (fabs(want) > 1 ? fabs(want) : 1);
    default: return 0;
    }
}

static void put(void *arr, const char *type, size_t i, double v)
{
    if (strcmp(type, "f32") == 0) {
        float f = (float)v;
        memcpy((char *)arr + 4 * i, &f, 4);
    } else {
        memcpy((char *)arr + 8 * i, &v, 8);
    }
}

static double get(const void *arr, const char *type, size_t i)
{
    if (strcmp(type, "u32") == 0) {
        uint32_t u;
        memcpy(&u, (const char *)arr + 4 * i, 4);
        return (double)u;
    }
    if (strcmp(type, "f32") == 0) {
        float f;
        memcpy(&f, (const char *)arr + 4 * i, 4);
        return f;
    }
    double d;
    memcpy(&d, (const char *)arr + 8 * i, 8);
    return d;
}

static void run_float_case(void **state)
{
    isa_ctx *c = *state;
    const float_case *tc = c->tcase;
    size_t na = tc->va.n, nb = tc->btype ? tc->vb.n : 1,
           nc = tc->ctype ? tc->vc.n : 1, n = na * nb * nc;
    const char *ta = tc->atype, *tb = tc->btype ? tc->btype : "f64",
               *tcc = tc->ctype ? tc->ctype : "f64";
    void *a = isa_calloc(c, n, 8), *b = isa_calloc(c, n, 8),
         *cc = isa_calloc(c, n, 8), *d = isa_calloc(c, n, 8);
    size_t i = 0;
    for (size_t x = 0; x < na; x++)
        for (size_t y = 0; y < nb; y++)
            for (size_t z = 0; z < nc; z++, i++) {
                put(a, ta, i, tc->va.v[x]);
                put(b, tb, i, tc->vb.v[y % tc->vb.n]);
                put(cc, tcc, i, tc->vc.v[z % tc->vc.n]);
            }
    isa_elem_op op = { tc->dtype, tc->atype, tc->btype, tc->ctype, NULL,
                       tc->body };
    isa_elem_run(c, &op, (unsigned)n, a, tc->btype ? b : NULL,
                 tc->ctype ? cc : NULL, d);
    int ftz = (tc->flags & F_FTZ) && strcmp(tc->atype, "f32") == 0;
    unsigned bad = 0;
    for (i = 0; i < n; i++) {
        double va = get(a, ta, i), vb = get(b, tb, i), vc = get(cc, tcc, i);
        double got = get(d, tc->dtype, i), want = 0;
        double ia = ftz ? ftz32(va) : va, ib = ftz ? ftz32(vb) : vb,
               ic = ftz ? ftz32(vc) : vc;
        int saved = fegetround();
        fesetround(tc->rnd);
        int ok = tc->ref(ia, ib, ic, &want);
        fesetround(saved);
        if (!ok)
            continue;
        if (ftz && strcmp(tc->dtype, "f32") == 0)
            want = ftz32(want);
        if (tc->flags & F_SAT)
            want = isnan(want) ? 0.0 : want < 0 ? 0.0 : want > 1 ? 1.0 : want;
        if (!accept(tc, got, want) && bad++ < 8)
            print_error("%s: a=%a b=%a c=%a: got %a, want %a\n", tc->name,
                        va, vb, vc, got, want);
    }
    if (bad)
        fail_msg("%s: %u of %zu lanes wrong", tc->name, bad, n);
}

/* ---- hand-checked special ranges ------------------------------------------ */

/* div.approx.f32 is a * (1/b) with a flushing reciprocal: for
 * 2^126 < |b| < 2^128 (where 1/b would be subnormal) the result is a zero
 * with the product's sign (CUDA math API, __fdividef; FLT_MAX/FLT_MAX is 0)
 * and inf/b is NaN. */
static void test_div_approx_huge_divisor(void **state)
{
    isa_ctx *c = *state;
    static const float a[] = { 1.0f, -3.0f, FLT_MAX, 1e30f, -FLT_MAX, INFINITY, 0x1p126f };
    static const float b[] = { 0x1.8p126f, -0x1p127f, FLT_MAX, 0x1.000002p126f, FLT_MAX, 0x1p127f, 0x1p126f };
    static const uint32_t want[] = {
        0x00000000, 0x00000000 /* -3 / -2^127: +0 */, 0x00000000, 0x00000000,
        0x80000000, 0x7fc00000 /* NaN */, 0x3f800000 /* 2^126 itself is in range: 1 */,
    };
    enum { N = sizeof a / sizeof a[0] };
    static const char *const body[] = { "\tdiv.approx.f32 %xd, %xa, %xb;", "\tdiv.approx.ftz.f32 %xd, %xa, %xb;" };
    for (unsigned v = 0; v < 2; v++) {
        float d[N];
        isa_elem_op op = { "f32", "f32", "f32", NULL, NULL, body[v] };
        isa_elem_run(c, &op, N, a, b, NULL, d);
        for (unsigned i = 0; i < N; i++)
            if (!isa_same_f32(d[i], isa_f32(want[i])))
                fail_msg("%s a=%a b=%a: got 0x%08x, want 0x%08x", body[v] + 1, (double)a[i], (double)b[i],
                         isa_bits32(d[i]), want[i]);
    }
}

/* min/max with a signalling NaN operand: the other operand (PTX ISA: a NaN
 * operand gives the other one; both NaN give NaN). The host's fmin may turn
 * a signalling NaN into a NaN result, so this is checked by hand. */
static void test_minmax_snan(void **state)
{
    isa_ctx *c = *state;
    static const uint32_t a32[] = { 0x00000000, 0x7f800001, 0xff800001, 0x7f800001, 0x3f800000 };
    static const uint32_t b32[] = { 0x7f800001, 0xbf800000, 0x40000000, 0x7fc00000, 0xffa00000 };
    /* min and max of (0, sNaN), (sNaN, -1), (-sNaN, 2), (sNaN, qNaN), (1, -sNaN) */
    static const uint32_t min32[] = { 0x00000000, 0xbf800000, 0x40000000, 0x7fc00000, 0x3f800000 };
    static const uint32_t max32[] = { 0x00000000, 0xbf800000, 0x40000000, 0x7fc00000, 0x3f800000 };
    static const char *const b32body[] = {
        "\tmin.f32 %xd, %xa, %xb;", "\tmax.f32 %xd, %xa, %xb;",
        "\tmin.ftz.f32 %xd, %xa, %xb;", "\tmax.ftz.f32 %xd, %xa, %xb;",
    };
    enum { N = sizeof a32 / sizeof a32[0] };
    for (unsigned v = 0; v < 4; v++) {
        uint32_t d[N];
        isa_elem_op op = { "f32", "f32", "f32", NULL, NULL, b32body[v] };
        isa_elem_run(c, &op, N, a32, b32, NULL, d);
        const uint32_t *want = v & 1 ? max32 : min32;
        for (unsigned i = 0; i < N; i++)
            if (!isa_same_f32(isa_f32(d[i]), isa_f32(want[i])))
                fail_msg("%s a=0x%08x b=0x%08x: got 0x%08x, want 0x%08x", b32body[v] + 1, a32[i], b32[i],
                         d[i], want[i]);
    }
    static const uint64_t a64[] = { 0, 0x7ff0000000000001ull, 0x7ff0000000000001ull };
    static const uint64_t b64[] = { 0x7ff0000000000001ull, 0xbff0000000000000ull, 0x7ff8000000000000ull };
    static const uint64_t w64[] = { 0, 0xbff0000000000000ull, 0x7ff8000000000000ull };
    static const char *const b64body[] = { "\tmin.f64 %xd, %xa, %xb;", "\tmax.f64 %xd, %xa, %xb;" };
    for (unsigned v = 0; v < 2; v++) {
        uint64_t d[3];
        isa_elem_op op = { "f64", "f64", "f64", NULL, NULL, b64body[v] };
        isa_elem_run(c, &op, 3, a64, b64, NULL, d);
        for (unsigned i = 0; i < 3; i++)
            if (!isa_same_f64(isa_f64(d[i]), isa_f64(w64[i])))
                fail_msg("%s a=0x%016llx: got 0x%016llx, want 0x%016llx", b64body[v] + 1,
                         (unsigned long long)a64[i], (unsigned long long)d[i], (unsigned long long)w64[i]);
    }
}

/* rcp.approx.ftz.f64 (and rsqrt.approx.ftz.f64) flush subnormal inputs and
 * results to a zero of the same sign: 1/2^-1023 is 1/(+0) = +inf, and
 * 1/2^1023 = 2^-1023 is subnormal, so +0. */
static void test_rcp_ftz_f64(void **state)
{
    isa_ctx *c = *state;
    static const uint64_t a[] = {
        0x0008000000000000ull /* 2^-1023 */, 0x8008000000000000ull, 0x7fe0000000000000ull /* 2^1023 */,
        0xffe0000000000000ull, 0x0000000000000001ull /* 2^-1074 */,
    };
    static const uint64_t rcp[] = {
        0x7ff0000000000000ull, 0xfff0000000000000ull, 0, 0x8000000000000000ull, 0x7ff0000000000000ull,
    };
    uint64_t d[5];
    isa_elem_op op = { "f64", "f64", NULL, NULL, NULL, "\trcp.approx.ftz.f64 %xd, %xa;" };
    isa_elem_run(c, &op, 5, a, NULL, NULL, d);
    for (unsigned i = 0; i < 5; i++)
        if (d[i] != rcp[i])
            fail_msg("rcp.approx.ftz.f64 of 0x%016llx: got 0x%016llx, want 0x%016llx",
                     (unsigned long long)a[i], (unsigned long long)d[i], (unsigned long long)rcp[i]);
    /* rsqrt of a flushed positive subnormal: 1/sqrt(+0) = +inf */
    isa_elem_op rs = { "f64", "f64", NULL, NULL, NULL, "\trsqrt.approx.ftz.f64 %xd, %xa;" };
    isa_elem_run(c, &rs, 1, &a[4], NULL, NULL, d);
    assert_int_equal(d[0], 0x7ff0000000000000ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_div_approx_huge_divisor, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_minmax_snan, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_rcp_ftz_f64, isa_setup, isa_teardown),
    };
    int rc = isa_run_group("isa_float_special", tests, sizeof tests / sizeof tests[0]);
    rc |= isa_run_table("isa_float", run_float_case, cases, sizeof cases[0],
                        sizeof cases / sizeof cases[0]);
    return rc;
}
