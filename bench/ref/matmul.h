/*
 * matmul — C = A * B for n x n float matrices, two kernels (CUDA SDK
 * matrixMul style; seed 000 Table 4.2 "MM", 64x64-512x512, and Table 5.3):
 *   matmul_naive  one thread per C element, A and B read from global memory;
 *   matmul_tiled  16x16 tiles staged in shared memory with __syncthreads.
 * Compute-bound once tiled.  n: matrix side, a multiple of MATMUL_TILE.
 * Inputs are multiples of 1/8 so every sum is exact in float.
 */
#ifndef BENCH_REF_MATMUL_H
#define BENCH_REF_MATMUL_H
#include "common.h"

#define MATMUL_TILE 16

static const bench_params matmul_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 128, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (MM, 64 x 64 - 512 x 512): its largest,
     * 512 x 512 (= large; the CUDA SDK matrixMul sample multiplies
     * 320 x 320 by 640 x 320, not square). */
    { 512, 1, BENCH_DEFAULT_SEED },
};

static inline int matmul_check(const bench_params *p, char *why, size_t len)
{
    if (p->n % MATMUL_TILE || p->n > 4096) {
        snprintf(why, len, "n=%d must be a multiple of %d and at most 4096",
                 p->n, MATMUL_TILE);
        return 1;
    }
    return 0;
}

static inline void matmul_inputs(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_q8(&r, a, nn);
    bench_fill_q8(&r, b, nn);
}

/* Reference product in double (exact for these inputs). */
static inline void matmul_reference(int n, const float *a, const float *b,
                                    float *c)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)a[(size_t)i * n + k] * b[(size_t)k * n + j];
            c[(size_t)i * n + j] = (float)s;
        }
}
/* --inputs general: full-precision floats (common.h). */
static inline void matmul_inputs_general(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, a, nn);
    bench_fill_general(&r, b, nn);
}

/* Bit-exact for any inputs: both kernels compute sum = fma.rn(a[row][k],
 * b[k][col], sum) from 0 for k = 0..n-1 (matmul.ptx; the tiled kernel walks
 * the same k order, tile by tile). */
static inline void matmul_reference_exact(int n, const float *a, const float *b,
                                          float *c)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s = fmaf(a[(size_t)i * n + k], b[(size_t)k * n + j], s);
            c[(size_t)i * n + j] = s;
        }
}
#endif
