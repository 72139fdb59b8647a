/*
 * fdtd2d — 2D finite-difference time domain on an n x n Yee grid for
 * `iters` time steps (PolyBench/GPU fdtd-2d; seed 001 Table 2 "FD",
 * memory-coherent; spec oaws.md C.2). Per step three kernels:
 *   fdtd_step1  ey[0][j] = fict[t];  ey[i][j] -= ce*(hz[i][j] - hz[i-1][j])
 *   fdtd_step2  ex[i][j] -= ce*(hz[i][j] - hz[i][j-1])            (j > 0)
 *   fdtd_step3  hz[i][j] -= ch*(ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
 * One thread per point, block 32x8, coalesced. Memory-bound.
 *   n: grid side; iters: time steps.  ce = 0.5, ch = 0.75 (PolyBench's 0.7
 * made dyadic, so that with q8 inputs the double reference stays close to
 * exact; compared at 1e-5 relative).
 */
#ifndef BENCH_REF_FDTD2D_H
#define BENCH_REF_FDTD2D_H
#include "polybench.h"

#define FDTD_CE 0.5f
#define FDTD_CH 0.75f
#define FDTD_TOL 1e-5

static const bench_params fdtd_presets[BENCH_SIZE_COUNT] = {
    { 32, 2, BENCH_DEFAULT_SEED },
    { 256, 4, BENCH_DEFAULT_SEED },
    { 1024, 20, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 fdtd2d.cu STANDARD_DATASET NX = NY = 2048,
     * tmax = 500 (seed 001 Table 2 FD) is 2.2e11 thread-instructions, about two
     * hours per timing run here; this preset keeps the 2048 x 2048 grid and
     * runs 32 of the 500 steps, what fits in under 10 minutes (docs/benchmarks.md). */
    { 2048, 32, BENCH_DEFAULT_SEED },
};

static inline int fdtd_check(const bench_params *p, char *why, size_t len)
{
    if (poly_check_n(p, why, len))
        return 1;
    if (p->iters < 1 || p->iters > 10000) {
        snprintf(why, len, "iters=%d must be in [1, 10000]", p->iters);
        return 1;
    }
    return 0;
}

static inline void fdtd_inputs(const bench_params *p, float *fict, float *ex, float *ey,
                               float *hz)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_q8(&r, fict, (size_t)p->iters);
    bench_fill_q8(&r, ex, nn);
    bench_fill_q8(&r, ey, nn);
    bench_fill_q8(&r, hz, nn);
}

/* The time steps in double, on ex, ey, hz in place (rounded to float after
 * every step, as the GPU stores them). */
static inline void fdtd_reference(int n, int steps, const float *fict, float *ex,
                                  float *ey, float *hz)
{
    for (int t = 0; t < steps; t++) {
        for (int j = 0; j < n; j++)
            ey[j] = fict[t];
        for (int i = 1; i < n; i++)
            for (int j = 0; j < n; j++)
                ey[(size_t)i * n + j] = (float)((double)ey[(size_t)i * n + j] -
                    (double)FDTD_CE * ((double)hz[(size_t)i * n + j] - hz[(size_t)(i - 1) * n + j]));
        for (int i = 0; i < n; i++)
            for (int j = 1; j < n; j++)
                ex[(size_t)i * n + j] = (float)((double)ex[(size_t)i * n + j] -
                    (double)FDTD_CE * ((double)hz[(size_t)i * n + j] - hz[(size_t)i * n + j - 1]));
        for (int i = 0; i < n - 1; i++)
            for (int j = 0; j < n - 1; j++)
                hz[(size_t)i * n + j] = (float)((double)hz[(size_t)i * n + j] -
                    (double)FDTD_CH * ((double)ex[(size_t)i * n + j + 1] - ex[(size_t)i * n + j] +
                                       ey[(size_t)(i + 1) * n + j] - ey[(size_t)i * n + j]));
    }
}

static inline void fdtd_inputs_general(const bench_params *p, float *fict, float *ex,
                                       float *ey, float *hz)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, fict, (size_t)p->iters);
    bench_fill_general(&r, ex, nn);
    bench_fill_general(&r, ey, nn);
    bench_fill_general(&r, hz, nn);
}

/* Bit-exact (fdtd2d.ptx): d = a - b (sub.f32), x = fma.rn(-ce, d, x);
 * step 3: d = ((ex[j+1] - ex[j]) + ey[i+1]) - ey[i], hz = fma.rn(-ch, d, hz). */
static inline void fdtd_reference_exact(int n, int steps, const float *fict, float *ex,
                                        float *ey, float *hz)
{
    for (int t = 0; t < steps; t++) {
        for (int j = 0; j < n; j++)
            ey[j] = fict[t];
        for (int i = 1; i < n; i++)
            for (int j = 0; j < n; j++) {
                float d = hz[(size_t)i * n + j] - hz[(size_t)(i - 1) * n + j];
                ey[(size_t)i * n + j] = fmaf(-FDTD_CE, d, ey[(size_t)i * n + j]);
            }
        for (int i = 0; i < n; i++)
            for (int j = 1; j < n; j++) {
                float d = hz[(size_t)i * n + j] - hz[(size_t)i * n + j - 1];
                ex[(size_t)i * n + j] = fmaf(-FDTD_CE, d, ex[(size_t)i * n + j]);
            }
        for (int i = 0; i < n - 1; i++)
            for (int j = 0; j < n - 1; j++) {
                float d = ((ex[(size_t)i * n + j + 1] - ex[(size_t)i * n + j]) +
                           ey[(size_t)(i + 1) * n + j]) - ey[(size_t)i * n + j];
                hz[(size_t)i * n + j] = fmaf(-FDTD_CH, d, hz[(size_t)i * n + j]);
            }
    }
}
#endif
