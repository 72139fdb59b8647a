/*
 * conv2d — 3x3 convolution of an n x n image with PolyBench's fixed
 * coefficients (PolyBench/GPU 2DCONV; seed 000 Table 6.2 "CONV", type 2;
 * Table 5.1 "SimpleConvolution"). One thread per interior pixel, block
 * 32x8. Memory-bound.  n: image side.
 */
#ifndef BENCH_REF_CONV2D_H
#define BENCH_REF_CONV2D_H
#include "polybench.h"

#define CONV2D_C11 (+0.2f)
#define CONV2D_C21 (+0.5f)
#define CONV2D_C31 (-0.8f)
#define CONV2D_C12 (-0.3f)
#define CONV2D_C22 (+0.6f)
#define CONV2D_C32 (-0.9f)
#define CONV2D_C13 (+0.4f)
#define CONV2D_C23 (+0.7f)
#define CONV2D_C33 (+0.10f)

static const bench_params conv2d_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    { 2048, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 2DConvolution.cu STANDARD_DATASET
     * NI = NJ = 4096 (seed 000 Table 6.2 CONV). */
    { 4096, 1, BENCH_DEFAULT_SEED },
};

static inline int conv2d_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void conv2d_inputs(const bench_params *p, float *a)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_float(&r, a, (size_t)p->n * p->n, 0.0f, 1.0f);
}

/* Reference in double; the border of B stays 0 (the host zeroes it). */
static inline void conv2d_reference(int n, const float *a, float *b)
{
    memset(b, 0, (size_t)n * n * sizeof(float));
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++) {
            double s =
                (double)CONV2D_C11 * a[(i - 1) * n + (j - 1)] + (double)CONV2D_C12 * a[i * n + (j - 1)] +
                (double)CONV2D_C13 * a[(i + 1) * n + (j - 1)] + (double)CONV2D_C21 * a[(i - 1) * n + j] +
                (double)CONV2D_C22 * a[i * n + j] + (double)CONV2D_C23 * a[(i + 1) * n + j] +
                (double)CONV2D_C31 * a[(i - 1) * n + (j + 1)] + (double)CONV2D_C32 * a[i * n + (j + 1)] +
                (double)CONV2D_C33 * a[(i + 1) * n + (j + 1)];
            b[i * n + j] = (float)s;
        }
}
/* Bit-exact (conv2d.ptx: nvcc starts with the C12 product and folds the
 * other eight terms in with fma.rn, column by column). */
static inline void conv2d_reference_exact(int n, const float *a, float *b)
{
    memset(b, 0, (size_t)n * n * sizeof(float));
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++) {
            const float *up = a + (size_t)(i - 1) * n, *mid = a + (size_t)i * n,
                        *dn = a + (size_t)(i + 1) * n;
            float s = mid[j - 1] * CONV2D_C12;
            s = fmaf(up[j - 1], CONV2D_C11, s);
            s = fmaf(dn[j - 1], CONV2D_C13, s);
            s = fmaf(up[j], CONV2D_C21, s);
            s = fmaf(mid[j], CONV2D_C22, s);
            s = fmaf(dn[j], CONV2D_C23, s);
            s = fmaf(up[j + 1], CONV2D_C31, s);
            s = fmaf(mid[j + 1], CONV2D_C32, s);
            s = fmaf(dn[j + 1], CONV2D_C33, s);
            b[(size_t)i * n + j] = s;
        }
}
#endif
