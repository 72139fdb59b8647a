/*
 * gemm — C = alpha*A*B + beta*C, n x n (PolyBench/GPU gemm; seed 000
 * Table 6.2 "GEMM", type 1; the SGEMM analysis of seed 003 ch. 4). One thread
 * per C element, block 32x8. Compute-bound (memory-bound without caches).
 *   n: matrix side.  alpha = 1.5, beta = 0.5 (dyadic: sums stay exact).
 */
#ifndef BENCH_REF_GEMM_H
#define BENCH_REF_GEMM_H
#include "polybench.h"

#define GEMM_ALPHA 1.5f
#define GEMM_BETA 0.5f

static const bench_params gemm_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 128, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 gemm.cu STANDARD_DATASET NI = NJ = NK = 512
     * (seed 000 Table 6.2 GEMM; = large). */
    { 512, 1, BENCH_DEFAULT_SEED },
};

static inline int gemm_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void gemm_inputs(const bench_params *p, float *a, float *b, float *c)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_q8(&r, a, nn);
    bench_fill_q8(&r, b, nn);
    bench_fill_q8(&r, c, nn);
}

/* c_in is the original C; want receives the result. */
static inline void gemm_reference(int n, const float *a, const float *b,
                                  const float *c_in, float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (double)GEMM_BETA * c_in[(size_t)i * n + j];
            for (int k = 0; k < n; k++)
                s += (double)GEMM_ALPHA * a[(size_t)i * n + k] * b[(size_t)k * n + j];
            want[(size_t)i * n + j] = (float)s;
        }
}
static inline void gemm_inputs_general(const bench_params *p, float *a, float *b, float *c)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, a, nn);
    bench_fill_general(&r, b, nn);
    bench_fill_general(&r, c, nn);
}

/* Bit-exact (gemm.ptx): c = c * beta (mul.f32), then for k = 0..n-1
 * c = fma.rn(alpha * a[i][k] (a rounded mul.f32), b[k][j], c). */
static inline void gemm_reference_exact(int n, const float *a, const float *b,
                                        const float *c_in, float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = c_in[(size_t)i * n + j] * GEMM_BETA;
            for (int k = 0; k < n; k++) {
                float t = GEMM_ALPHA * a[(size_t)i * n + k];
                s = fmaf(t, b[(size_t)k * n + j], s);
            }
            want[(size_t)i * n + j] = s;
        }
}
#endif
