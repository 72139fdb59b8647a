/*
 * 2mm — D = alpha*A*B*C + beta*D as two products (PolyBench/GPU 2mm; seed
 * 000 Table 6.2 "2MM", type 1; seed 001 Table 2, memory-coherent):
 *   mm2_kernel1  tmp = alpha * A * B
 *   mm2_kernel2  D = beta * D + tmp * C
 * n x n matrices, block 32x8. Compute-bound.  alpha = 1.5, beta = 0.5.
 */
#ifndef BENCH_REF_2MM_H
#define BENCH_REF_2MM_H
#include "polybench.h"

#define MM2_ALPHA 1.5f
#define MM2_BETA 0.5f

static const bench_params mm2_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 96, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 2mm.cu STANDARD_DATASET NI = NJ = NK = NL = 2048
     * (seed 000 Table 6.2, seed 001 Table 2) is 1.2e11 thread-instructions, about
     * an hour per timing run here; this preset is the largest power of two that
     * runs in under 10 minutes, 1024 (docs/benchmarks.md, "Paper sizes"). */
    { 1024, 1, BENCH_DEFAULT_SEED },
};

static inline int mm2_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

static inline void mm2_inputs(const bench_params *p, float *a, float *b,
                              float *c, float *d)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_q8(&r, a, nn);
    bench_fill_q8(&r, b, nn);
    bench_fill_q8(&r, c, nn);
    bench_fill_q8(&r, d, nn);
}

static inline void mm2_reference(int n, const float *a, const float *b,
                                 const float *c, const float *d_in, float *want)
{
    size_t nn = (size_t)n * n;
    double *tmp = (double *)bench_xmalloc(nn * sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)MM2_ALPHA * a[(size_t)i * n + k] * b[(size_t)k * n + j];
            tmp[(size_t)i * n + j] = s;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (double)MM2_BETA * d_in[(size_t)i * n + j];
            for (int k = 0; k < n; k++)
                s += tmp[(size_t)i * n + k] * c[(size_t)k * n + j];
            want[(size_t)i * n + j] = (float)s;
        }
    free(tmp);
}
static inline void mm2_inputs_general(const bench_params *p, float *a, float *b,
                                      float *c, float *d)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, a, nn);
    bench_fill_general(&r, b, nn);
    bench_fill_general(&r, c, nn);
    bench_fill_general(&r, d, nn);
}

/* Bit-exact (2mm.ptx): tmp = 0, tmp = fma.rn(alpha * a[i][k] (rounded),
 * b[k][j], tmp); then d = d * beta, d = fma.rn(tmp[i][k], c[k][j], d). */
static inline void mm2_reference_exact(int n, const float *a, const float *b,
                                       const float *c, const float *d_in, float *want)
{
    size_t nn = (size_t)n * n;
    float *tmp = (float *)bench_xmalloc(nn * sizeof(float));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++) {
                float t = MM2_ALPHA * a[(size_t)i * n + k];
                s = fmaf(t, b[(size_t)k * n + j], s);
            }
            tmp[(size_t)i * n + j] = s;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = d_in[(size_t)i * n + j] * MM2_BETA;
            for (int k = 0; k < n; k++)
                s = fmaf(tmp[(size_t)i * n + k], c[(size_t)k * n + j], s);
            want[(size_t)i * n + j] = s;
        }
    free(tmp);
}
#endif
