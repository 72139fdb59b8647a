/*
 * bicg — the BiCG sub-kernel: s = A^T r and q = A p (PolyBench/GPU bicg;
 * seed 001 Table 2, memory-divergent):
 *   bicg_kernel1  s[j] = sum_i r[i] * A[i][j]   (column walk: coalesced)
 *   bicg_kernel2  q[i] = sum_j A[i][j] * p[j]   (row walk: divergent)
 * One thread per row/column, block 256. Memory-bound.  n: matrix side.
 */
#ifndef BENCH_REF_BICG_H
#define BENCH_REF_BICG_H
#include "polybench.h"

static const bench_params bicg_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 4096, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 bicg.cu STANDARD_DATASET NX = NY = 4096
     * (seed 001 Table 2; = large). */
    { 4096, 1, BENCH_DEFAULT_SEED },
};

static inline int bicg_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void bicg_inputs(const bench_params *p, float *a, float *r, float *pv)
{
    bench_rng g = bench_rng_make(p->seed);
    bench_fill_q8(&g, a, (size_t)p->n * p->n);
    bench_fill_q8(&g, r, (size_t)p->n);
    bench_fill_q8(&g, pv, (size_t)p->n);
}

static inline void bicg_reference(int n, const float *a, const float *r,
                                  const float *pv, float *s, float *q)
{
    for (int j = 0; j < n; j++) {
        double acc = 0;
        for (int i = 0; i < n; i++)
            acc += (double)r[i] * a[(size_t)i * n + j];
        s[j] = (float)acc;
    }
    for (int i = 0; i < n; i++) {
        double acc = 0;
        for (int j = 0; j < n; j++)
            acc += (double)a[(size_t)i * n + j] * pv[j];
        q[i] = (float)acc;
    }
}
static inline void bicg_inputs_general(const bench_params *p, float *a, float *r, float *pv)
{
    bench_rng g = bench_rng_make(p->seed);
    bench_fill_general(&g, a, (size_t)p->n * p->n);
    bench_fill_general(&g, r, (size_t)p->n);
    bench_fill_general(&g, pv, (size_t)p->n);
}

/* Bit-exact (bicg.ptx): s[j] = fma.rn(r[i], a[i][j], s[j]) and
 * q[i] = fma.rn(a[i][j], p[j], q[i]), both from 0. */
static inline void bicg_reference_exact(int n, const float *a, const float *r,
                                        const float *pv, float *s, float *q)
{
    for (int j = 0; j < n; j++) {
        float acc = 0.0f;
        for (int i = 0; i < n; i++)
            acc = fmaf(r[i], a[(size_t)i * n + j], acc);
        s[j] = acc;
    }
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++)
            acc = fmaf(a[(size_t)i * n + j], pv[j], acc);
        q[i] = acc;
    }
}
#endif
