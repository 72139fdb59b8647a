/*
 * gesummv — y = alpha*A*x + beta*B*x, n x n (PolyBench/GPU gesummv; seed 001
 * Table 2 "GES", memory-divergent; spec oaws.md C.2). One kernel, one thread
 * per row, block 256: the two row walks a[i][j], b[i][j] are divergent loads
 * (32 rows, n floats apart, per warp instruction) that re-reference the same
 * lines for j .. j+31 (high intra-warp locality, as atax_kernel1). No branch
 * divergence. Memory-bound.  n: matrix side.  alpha = 1.5, beta = 0.5
 * (dyadic: with q8 inputs every sum is exact).
 */
#ifndef BENCH_REF_GESUMMV_H
#define BENCH_REF_GESUMMV_H
#include "polybench.h"

#define GESUMMV_ALPHA 1.5f
#define GESUMMV_BETA 0.5f

static const bench_params gesummv_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 4096, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 gesummv.cu STANDARD_DATASET N = 4096
     * (seed 001 Table 2 GES; = large). */
    { 4096, 1, BENCH_DEFAULT_SEED },
};

static inline int gesummv_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void gesummv_inputs(const bench_params *p, float *a, float *b, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_q8(&r, a, (size_t)p->n * p->n);
    bench_fill_q8(&r, b, (size_t)p->n * p->n);
    bench_fill_q8(&r, x, (size_t)p->n);
}

static inline void gesummv_reference(int n, const float *a, const float *b,
                                     const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0, t = 0;
        for (int j = 0; j < n; j++) {
            s += (double)a[(size_t)i * n + j] * x[j];
            t += (double)b[(size_t)i * n + j] * x[j];
        }
        y[i] = (float)((double)GESUMMV_ALPHA * s + (double)GESUMMV_BETA * t);
    }
}

static inline void gesummv_inputs_general(const bench_params *p, float *a, float *b, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_general(&r, a, (size_t)p->n * p->n);
    bench_fill_general(&r, b, (size_t)p->n * p->n);
    bench_fill_general(&r, x, (size_t)p->n);
}

/* Bit-exact (gesummv.ptx): tmp = fma.rn(a[i][j], x[j], tmp) and
 * y = fma.rn(b[i][j], x[j], y) from 0; then y = fma.rn(alpha, tmp, beta*y)
 * (beta*y a rounded mul.f32). */
static inline void gesummv_reference_exact(int n, const float *a, const float *b,
                                           const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f, t = 0.0f;
        for (int j = 0; j < n; j++) {
            s = fmaf(a[(size_t)i * n + j], x[j], s);
            t = fmaf(b[(size_t)i * n + j], x[j], t);
        }
        y[i] = fmaf(GESUMMV_ALPHA, s, GESUMMV_BETA * t);
    }
}
#endif
