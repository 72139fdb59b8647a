/*
 * 3dconv — 3D stencil on an n^3 grid (the PolyBench/GPU 3DCONV kind; seed
 * 001 Table 2 "3DC", memory-coherent; spec oaws.md C.2): every interior point
 * b[i][j][k] is a fixed-coefficient sum of itself, its six face neighbours
 * and four of its corner neighbours (the stencil is this project's, not
 * PolyBench's); border points of b stay 0. One thread per point, k (the
 * contiguous index) across the lanes, block 32x8, grid z = plane i: every
 * load is a coalesced row segment, neighbouring planes are re-read by other
 * blocks. Memory-bound.  n: grid side (n^3 floats).
 * Coefficients are dyadic and the inputs q8, so the sums are exact.
 */
#ifndef BENCH_REF_3DCONV_H
#define BENCH_REF_3DCONV_H
#include "polybench.h"

#define CONV3D_C0 0.5f      /* centre */
#define CONV3D_C1 0.25f     /* k - 1, k + 1 */
#define CONV3D_C2 (-0.125f) /* j - 1, j + 1 */
#define CONV3D_C3 0.375f    /* i - 1, i + 1 */
#define CONV3D_C4 (-0.25f)  /* (i-1, j-1, k-1), (i+1, j+1, k+1) */
#define CONV3D_C5 0.125f    /* (i-1, j+1, k+1), (i+1, j-1, k-1) */

static const bench_params conv3d_presets[BENCH_SIZE_COUNT] = {
    { 16, 1, BENCH_DEFAULT_SEED },
    { 64, 1, BENCH_DEFAULT_SEED },
    { 128, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 3DConvolution.cu STANDARD_DATASET
     * NI = NJ = NK = 256 (seed 001 Table 2 3DC; our stencil, see above). */
    { 256, 1, BENCH_DEFAULT_SEED },
};

#define CONV3D_MAX_N 256

static inline int conv3d_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < 3 || p->n > CONV3D_MAX_N) {
        snprintf(why, len, "n=%d must be in [3, %d]", p->n, CONV3D_MAX_N);
        return 1;
    }
    return 0;
}

static inline void conv3d_inputs(const bench_params *p, float *a)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_q8(&r, a, (size_t)p->n * p->n * p->n);
}

/* b = the stencil of a in double at interior points, 0 on the border. */
static inline void conv3d_reference(int n, const float *a, float *b)
{
    size_t nn = (size_t)n * n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                size_t o = i * nn + (size_t)j * n + k;
                if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1) {
                    b[o] = 0.0f;
                    continue;
                }
                const float *q = a + o;
                double s = (double)CONV3D_C0 * q[0] +
                           (double)CONV3D_C1 * ((double)q[-1] + q[1]) +
                           (double)CONV3D_C2 * ((double)q[-n] + q[n]) +
                           (double)CONV3D_C3 * ((double)q[-(long)nn] + q[nn]) +
                           (double)CONV3D_C4 * ((double)q[-(long)nn - n - 1] + q[nn + n + 1]) +
                           (double)CONV3D_C5 * ((double)q[-(long)nn + n + 1] + q[nn - n - 1]);
                b[o] = (float)s;
            }
}

static inline void conv3d_inputs_general(const bench_params *p, float *a)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_general(&r, a, (size_t)p->n * p->n * p->n);
}

/* Bit-exact (3dconv.ptx): each pair sum is a rounded add.f32; nvcc starts
 * with the first pair's product (mul.f32), fuses the centre in with fma.rn,
 * then folds the pairs in source order: fma.rn for the positive
 * coefficients, a rounded mul.f32 by |c| and a sub.f32 for the negative
 * ones. */
static inline void conv3d_reference_exact(int n, const float *a, float *b)
{
    size_t nn = (size_t)n * n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                size_t o = i * nn + (size_t)j * n + k;
                if (i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1) {
                    b[o] = 0.0f;
                    continue;
                }
                const float *q = a + o;
                float s = fmaf(q[0], CONV3D_C0, CONV3D_C1 * (q[-1] + q[1]));
                s = s - (-CONV3D_C2) * (q[-n] + q[n]);
                s = fmaf(q[-(long)nn] + q[nn], CONV3D_C3, s);
                s = s - (-CONV3D_C4) * (q[-(long)nn - n - 1] + q[nn + n + 1]);
                s = fmaf(q[-(long)nn + n + 1] + q[nn - n - 1], CONV3D_C5, s);
                b[o] = s;
            }
}
#endif
