/*
 * syrk — symmetric rank-k update C = alpha*A*A^T + beta*C, n x n
 * (PolyBench/GPU syrk with M = N; seed 001 Table 2 "SYRK", memory-divergent,
 * "no branch divergence", SWL-Best's best limit 2 (Table 3); spec oaws.md
 * C.2). One thread per C element, block 32x8: a[j][k] walks a column of
 * rows across the lanes (divergent), a[i][k] is a broadcast. Every warp of a
 * block row reads the same 32 rows of A: high inter-warp locality.
 *   n: matrix side.  alpha = 1.5, beta = 0.5 (dyadic: sums stay exact).
 */
#ifndef BENCH_REF_SYRK_H
#define BENCH_REF_SYRK_H
#include "polybench.h"

#define SYRK_ALPHA 1.5f
#define SYRK_BETA 0.5f

static const bench_params syrk_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 128, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 syrk.cu STANDARD_DATASET N = M = 1024
     * (seed 001 Table 2 SYRK) is 7.3e9 thread-instructions, about half an hour
     * per timing run here; this preset is the largest power of two that runs
     * in under 10 minutes, 512 (docs/benchmarks.md, "Paper sizes"). */
    { 512, 1, BENCH_DEFAULT_SEED },
};

static inline int syrk_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void syrk_inputs(const bench_params *p, float *a, float *c)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_q8(&r, a, nn);
    bench_fill_q8(&r, c, nn);
}

/* c_in is the original C; want receives the result. */
static inline void syrk_reference(int n, const float *a, const float *c_in, float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (double)SYRK_BETA * c_in[(size_t)i * n + j];
            for (int k = 0; k < n; k++)
                s += (double)SYRK_ALPHA * a[(size_t)i * n + k] * a[(size_t)j * n + k];
            want[(size_t)i * n + j] = (float)s;
        }
}

static inline void syrk_inputs_general(const bench_params *p, float *a, float *c)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, a, nn);
    bench_fill_general(&r, c, nn);
}

/* Bit-exact (syrk.ptx): c = c * beta, then for k = 0..n-1
 * c = fma.rn(alpha * a[i][k] (a rounded mul.f32), a[j][k], c). */
static inline void syrk_reference_exact(int n, const float *a, const float *c_in, float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = c_in[(size_t)i * n + j] * SYRK_BETA;
            for (int k = 0; k < n; k++)
                s = fmaf(SYRK_ALPHA * a[(size_t)i * n + k], a[(size_t)j * n + k], s);
            want[(size_t)i * n + j] = s;
        }
}
#endif
