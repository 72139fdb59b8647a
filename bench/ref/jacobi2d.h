/*
 * jacobi2d — 5-point Jacobi stencil on an n x n grid for `iters` time steps
 * (PolyBench/GPU jacobi-2d-imper; seed 000 Table 6.2 "JS", type 2). Per step:
 *   jacobi2d_kernel1  B[i][j] = 0.2*(A[i][j] + A[i][j-1] + A[i][j+1]
 *                                    + A[i+1][j] + A[i-1][j])  (interior)
 *   jacobi2d_kernel2  A[i][j] = B[i][j]                         (interior)
 * Block 32x8. Memory-bound.  n: grid side; iters: time steps.
 */
#ifndef BENCH_REF_JACOBI2D_H
#define BENCH_REF_JACOBI2D_H
#include "polybench.h"

static const bench_params jacobi2d_presets[BENCH_SIZE_COUNT] = {
    { 32, 4, BENCH_DEFAULT_SEED },
    { 192, 8, BENCH_DEFAULT_SEED },
    { 1024, 20, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 jacobi2D.cu N = 1000, TSTEPS = 20
     * (seed 000 Table 6.2 JS). */
    { 1000, 20, BENCH_DEFAULT_SEED },
};

static inline int jacobi2d_check(const bench_params *p, char *why, size_t len)
{
    if (poly_check_n(p, why, len))
        return 1;
    if (p->iters > 10000) {
        snprintf(why, len, "iters=%d is above 10000", p->iters);
        return 1;
    }
    return 0;
}

static inline void jacobi2d_inputs(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_float(&r, a, nn, 0.0f, 1.0f);
    memcpy(b, a, nn * sizeof(float));
}

/* Float reference with the kernel's order of operations; compared with a
 * small tolerance all the same (it is a stencil, not an exact algorithm). */
static inline void jacobi2d_reference(const bench_params *p, float *a, float *b)
{
    int n = p->n;
    for (int t = 0; t < p->iters; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] +
                                       a[i * n + j + 1] + a[(i + 1) * n + j] +
                                       a[(i - 1) * n + j]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                a[i * n + j] = b[i * n + j];
    }
}
#endif
