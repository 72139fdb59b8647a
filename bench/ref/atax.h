/*
 * atax — y = A^T * (A * x) (PolyBench/GPU atax; seed 001 Table 2,
 * memory-divergent, and its L1D set-conflict discussion):
 *   atax_kernel1  tmp[i] = sum_j A[i][j] * x[j]    (row walk: divergent)
 *   atax_kernel2  y[j]   = sum_i A[i][j] * tmp[i]  (column walk: coalesced)
 * One thread per row/column, block 256. Memory-bound.  n: matrix side.
 */
#ifndef BENCH_REF_ATAX_H
#define BENCH_REF_ATAX_H
#include "polybench.h"

static const bench_params atax_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 4096, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 atax.cu STANDARD_DATASET NX = NY = 4096
     * (seed 001 Table 2; = large). */
    { 4096, 1, BENCH_DEFAULT_SEED },
};

static inline int atax_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void atax_inputs(const bench_params *p, float *a, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_q8(&r, a, (size_t)p->n * p->n);
    bench_fill_q8(&r, x, (size_t)p->n);
}

static inline void atax_reference(int n, const float *a, const float *x, float *y)
{
    double *tmp = (double *)bench_xmalloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += (double)a[(size_t)i * n + j] * x[j];
        tmp[i] = s;
    }
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += (double)a[(size_t)i * n + j] * tmp[i];
        y[j] = (float)s;
    }
    free(tmp);
}
static inline void atax_inputs_general(const bench_params *p, float *a, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_general(&r, a, (size_t)p->n * p->n);
    bench_fill_general(&r, x, (size_t)p->n);
}

/* Bit-exact (atax.ptx): tmp[i] = fma.rn(a[i][j], x[j], tmp[i]) from 0, then
 * y[j] = fma.rn(a[i][j], tmp[i], y[j]) from 0. */
static inline void atax_reference_exact(int n, const float *a, const float *x, float *y)
{
    float *tmp = (float *)bench_xmalloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = 0; j < n; j++)
            s = fmaf(a[(size_t)i * n + j], x[j], s);
        tmp[i] = s;
    }
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s = fmaf(a[(size_t)i * n + j], tmp[i], s);
        y[j] = s;
    }
    free(tmp);
}
#endif
