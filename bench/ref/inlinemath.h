/*
 * inlinemath — per element, a chain of the fast math intrinsics (CUDA SDK
 * era "Inline Math"; seed 000 Table 4.2 "IM", grid 32k-1280k, and Table 5.3,
 * type M): two loads, sine, cosine, exponential, logarithm, reciprocal
 * square root, square root, a fast divide and a handful of multiply-adds,
 * one store. The intrinsics map to single PTX instructions (sin.approx,
 * cos.approx, ex2.approx, lg2.approx, rsqrt.approx, sqrt.rn, div.approx),
 * one thread per element.
 *   n: number of elements.
 *
 *   out = sin(x) cos(y) + e^(x/2) / sqrt(1 + x^2) - ln(1 + y^2) sqrt(2 + cos(y))
 *         + sin(x) / (1 + e^(x/2)),          x, y uniform in [-pi, pi)
 *
 * The reference is the formula in double with the C library. Tolerance
 * INLINEMATH_TOL on max(1, |want|) (bench_close), from the worst-case errors
 * of the intrinsics that the CUDA C++ Programming Guide states (appendix
 * "Mathematical Functions", intrinsic functions) over these ranges:
 *   __sinf, __cosf on [-pi, pi]: absolute 2^-21.41 and 2^-21.19 (<= 4.2e-7);
 *   __expf(a), |a| <= pi/2: 2 + floor(1.173 |a|) = 3 ulp of a value <= 4.82
 *     (<= 1.5e-6);
 *   __logf on [1, 10.9]: 3 ulp of a value <= 2.39 (<= 7.2e-7);
 *   rsqrtf 2 ulp, __fdividef 2 ulp, sqrtf correctly rounded (<= 1.2e-7 here).
 * Propagated through the products (factors <= 1, 4.82, 1.74, 1/1.2) and the
 * seven roundings of the sums and products (|out| <= 10.8, half an ulp each
 * <= 4.8e-7) the absolute error is below 1e-5; 2e-5 leaves a factor of two.
 * A wrong operation (sin for cos, a dropped term) moves out by far more.
 */
#ifndef BENCH_REF_INLINEMATH_H
#define BENCH_REF_INLINEMATH_H
#include "common.h"

#define INLINEMATH_BLOCK 256
#define INLINEMATH_TOL 2e-5
#define INLINEMATH_PI_F 3.14159265f

static const bench_params inlinemath_presets[BENCH_SIZE_COUNT] = {
    { 32768, 1, BENCH_DEFAULT_SEED },
    { 262144, 1, BENCH_DEFAULT_SEED },
    { 1310720, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (IM, grid size 32k - 1280k): its
     * largest, 1280k = 1310720 (= large). */
    { 1310720, 1, BENCH_DEFAULT_SEED },
};

static inline int inlinemath_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > (1 << 24)) {
        snprintf(why, len, "n=%d is too large (at most 2^24 elements)", p->n);
        return 1;
    }
    return 0;
}

static inline void inlinemath_inputs(const bench_params *p, float *x, float *y)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_float(&r, x, (size_t)p->n, -INLINEMATH_PI_F, INLINEMATH_PI_F);
    bench_fill_float(&r, y, (size_t)p->n, -INLINEMATH_PI_F, INLINEMATH_PI_F);
}

/* The formula above for one element, in double. */
static inline double inlinemath_formula(double x, double y)
{
    double e = exp(0.5 * x);
    return sin(x) * cos(y) + e / sqrt(1.0 + x * x)
         - log(1.0 + y * y) * sqrt(2.0 + cos(y)) + sin(x) / (1.0 + e);
}

static inline void inlinemath_reference(const bench_params *p, const float *x,
                                        const float *y, float *out)
{
    for (int i = 0; i < p->n; i++)
        out[i] = (float)inlinemath_formula(x[i], y[i]);
}
#endif
