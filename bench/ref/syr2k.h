/*
 * syr2k — symmetric rank-2k update C = alpha*A*B^T + alpha*B*A^T + beta*C,
 * n x n (PolyBench/GPU syr2k with M = N; seed 001 Table 2 "SYR2K",
 * memory-divergent; §5.1: "no branch divergences and very high inter-warp
 * locality", one of the two benchmarks where SWL-Best beats OAWS-Dyn; spec
 * oaws.md C.2). One thread per C element, block 32x8: b[j][k] and a[j][k]
 * are divergent column walks, a[i][k] and b[i][k] broadcasts.
 *   n: matrix side.  alpha = 1.5, beta = 0.5 (dyadic: sums stay exact).
 */
#ifndef BENCH_REF_SYR2K_H
#define BENCH_REF_SYR2K_H
#include "polybench.h"

#define SYR2K_ALPHA 1.5f
#define SYR2K_BETA 0.5f

static const bench_params syr2k_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 128, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 syr2k.cu STANDARD_DATASET N = M = 2048
     * (seed 001 Table 2 SYR2K) is 1.1e11 thread-instructions, hours per timing
     * run here; this preset is the largest power of two that runs in under
     * 10 minutes, 512 (docs/benchmarks.md, "Paper sizes"). */
    { 512, 1, BENCH_DEFAULT_SEED },
};

static inline int syr2k_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void syr2k_inputs(const bench_params *p, float *a, float *b, float *c)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_q8(&r, a, nn);
    bench_fill_q8(&r, b, nn);
    bench_fill_q8(&r, c, nn);
}

static inline void syr2k_reference(int n, const float *a, const float *b,
                                   const float *c_in, float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (double)SYR2K_BETA * c_in[(size_t)i * n + j];
            for (int k = 0; k < n; k++)
                s += (double)SYR2K_ALPHA * a[(size_t)i * n + k] * b[(size_t)j * n + k] +
                     (double)SYR2K_ALPHA * b[(size_t)i * n + k] * a[(size_t)j * n + k];
            want[(size_t)i * n + j] = (float)s;
        }
}

static inline void syr2k_inputs_general(const bench_params *p, float *a, float *b, float *c)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, a, nn);
    bench_fill_general(&r, b, nn);
    bench_fill_general(&r, c, nn);
}

/* Bit-exact (syr2k.ptx): c = c * beta; per k: u = alpha*b[i][k] * a[j][k]
 * (two rounded mul.f32: nvcc rounds the second product), v =
 * fma.rn(alpha*a[i][k], b[j][k], u), c = c + v (add.f32). */
static inline void syr2k_reference_exact(int n, const float *a, const float *b,
                                         const float *c_in, float *want)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = c_in[(size_t)i * n + j] * SYR2K_BETA;
            for (int k = 0; k < n; k++) {
                float u = (SYR2K_ALPHA * b[(size_t)i * n + k]) * a[(size_t)j * n + k];
                float v = fmaf(SYR2K_ALPHA * a[(size_t)i * n + k], b[(size_t)j * n + k], u);
                s = s + v;
            }
            want[(size_t)i * n + j] = s;
        }
}
#endif
