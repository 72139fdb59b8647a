/*
 * dct — two-dimensional DCT-II of a square float image in 8x8 blocks (AMD
 * APP SDK 2.5 DCT; seed 000 Table 5.1 "DCT", type M). As in the SDK sample,
 * one 8x8 thread block per image block, one output coefficient per thread,
 * Y = C X C^T in two passes with the cosine table C read from global memory
 * inside both loops: pass 1, thread (u, j) computes T[u][j] = sum_k C[u][k]
 * X[k][j] into shared memory; after a barrier, pass 2, thread (u, v) computes
 * Y[u][v] = sum_k T[u][k] C[v][k]. Memory-bound: 16 global loads per output.
 *   n: image side, a multiple of 8.
 * C[u][k] = c(u) cos((2k + 1) u pi / 16), c(0) = sqrt(1/8), c(u > 0) =
 * sqrt(2/8): the orthonormal DCT-II, computed on the host in double and
 * rounded to float (dct_cos_table), the same table for the device and the
 * reference.
 *
 * Each sum runs k = 0..7 as a chain of fma.rn (nvcc contracts acc += a * b;
 * the committed PTX shows it), an order fixed by the program, so the
 * reference repeats it with fmaf and the check is bit-exact (tolerance 0);
 * the test checks the reference against the DCT's definition in double.
 */
#ifndef BENCH_REF_DCT_H
#define BENCH_REF_DCT_H
#include "common.h"

#define DCT_B 8   /* block side: 8x8 coefficients, 8x8 threads */

static const bench_params dct_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    { 1024, 1, BENCH_DEFAULT_SEED },
    /* paper: AMD APP SDK DCT default width = height = 64, 8 x 8 blocks
     * (seed 000 Table 5.1 DCT; = small). */
    { 64, 1, BENCH_DEFAULT_SEED },
};

static inline int dct_check(const bench_params *p, char *why, size_t len)
{
    if (p->n % DCT_B != 0 || p->n > 4096) {
        snprintf(why, len, "n=%d must be a multiple of 8 and at most 4096", p->n);
        return 1;
    }
    return 0;
}

static inline double dct_coef(int u, int k)
{
    const double pi = 3.14159265358979323846;
    double c = u == 0 ? sqrt(1.0 / DCT_B) : sqrt(2.0 / DCT_B);
    return c * cos((2 * k + 1) * u * pi / (2 * DCT_B));
}

/* C[u * 8 + k], row u = frequency. */
static inline void dct_cos_table(float *c)
{
    for (int u = 0; u < DCT_B; u++)
        for (int k = 0; k < DCT_B; k++)
            c[u * DCT_B + k] = (float)dct_coef(u, k);
}

/* Pixel-like values: integers in [-128, 127] scaled by 1/128. */
static inline void dct_inputs(const bench_params *p, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    for (size_t i = 0; i < (size_t)p->n * p->n; i++)
        x[i] = (float)(bench_rand_int(&r, 256) - 128) * (1.0f / 128.0f);
}

/* The kernel's two passes on every block, fmaf in order k = 0..7. */
static inline void dct_reference(const bench_params *p, const float *c,
                                 const float *x, float *y)
{
    int n = p->n;
    float t[DCT_B][DCT_B];
    for (int by = 0; by < n; by += DCT_B)
        for (int bx = 0; bx < n; bx += DCT_B) {
            for (int u = 0; u < DCT_B; u++)
                for (int j = 0; j < DCT_B; j++) {
                    float acc = 0.0f;
                    for (int k = 0; k < DCT_B; k++)
                        acc = fmaf(c[u * DCT_B + k], x[(size_t)(by + k) * n + bx + j], acc);
                    t[u][j] = acc;
                }
            for (int u = 0; u < DCT_B; u++)
                for (int v = 0; v < DCT_B; v++) {
                    float acc = 0.0f;
                    for (int k = 0; k < DCT_B; k++)
                        acc = fmaf(t[u][k], c[v * DCT_B + k], acc);
                    y[(size_t)(by + u) * n + bx + v] = acc;
                }
        }
}
#endif
