/*
 * mvt — matrix-vector product and transpose (PolyBench/GPU mvt; seed 000
 * Table 6.2 "MVT", type 3; seed 001 Table 2, memory-divergent):
 *   mvt_kernel1  x1[i] += sum_j A[i][j] * y1[j]   (row walk: divergent loads)
 *   mvt_kernel2  x2[i] += sum_j A[j][i] * y2[j]   (column walk: coalesced)
 * One thread per i, block 256. Memory-bound.  n: matrix side.
 */
#ifndef BENCH_REF_MVT_H
#define BENCH_REF_MVT_H
#include "polybench.h"

static const bench_params mvt_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 4096, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 mvt.cu STANDARD_DATASET N = 4096
     * (seed 000 Table 6.2, seed 001 Table 2; = large). */
    { 4096, 1, BENCH_DEFAULT_SEED },
};

static inline int mvt_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void mvt_inputs(const bench_params *p, float *a, float *x1,
                              float *x2, float *y1, float *y2)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_q8(&r, a, (size_t)p->n * p->n);
    bench_fill_q8(&r, x1, (size_t)p->n);
    bench_fill_q8(&r, x2, (size_t)p->n);
    bench_fill_q8(&r, y1, (size_t)p->n);
    bench_fill_q8(&r, y2, (size_t)p->n);
}

static inline void mvt_reference(int n, const float *a, const float *x1,
                                 const float *x2, const float *y1,
                                 const float *y2, float *w1, float *w2)
{
    for (int i = 0; i < n; i++) {
        double s1 = x1[i], s2 = x2[i];
        for (int j = 0; j < n; j++) {
            s1 += (double)a[(size_t)i * n + j] * y1[j];
            s2 += (double)a[(size_t)j * n + i] * y2[j];
        }
        w1[i] = (float)s1;
        w2[i] = (float)s2;
    }
}
static inline void mvt_inputs_general(const bench_params *p, float *a, float *x1,
                                      float *x2, float *y1, float *y2)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_general(&r, a, (size_t)p->n * p->n);
    bench_fill_general(&r, x1, (size_t)p->n);
    bench_fill_general(&r, x2, (size_t)p->n);
    bench_fill_general(&r, y1, (size_t)p->n);
    bench_fill_general(&r, y2, (size_t)p->n);
}

/* Bit-exact (mvt.ptx): x1[i] = fma.rn(a[i][j], y1[j], x1[i]) and
 * x2[i] = fma.rn(a[j][i], y2[j], x2[i]) for j = 0..n-1. */
static inline void mvt_reference_exact(int n, const float *a, const float *x1,
                                       const float *x2, const float *y1,
                                       const float *y2, float *w1, float *w2)
{
    for (int i = 0; i < n; i++) {
        float s1 = x1[i], s2 = x2[i];
        for (int j = 0; j < n; j++) {
            s1 = fmaf(a[(size_t)i * n + j], y1[j], s1);
            s2 = fmaf(a[(size_t)j * n + i], y2[j], s2);
        }
        w1[i] = s1;
        w2[i] = s2;
    }
}
#endif
