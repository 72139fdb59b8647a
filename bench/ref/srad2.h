/*
 * srad2 — speckle reducing anisotropic diffusion, Rodinia srad_v2 style
 * (seed 001 Table 2 "SRAD2", memory-coherent; spec oaws.md C.2), on an
 * n x n image for `iters` iterations. The formulas are in srad.h. Per
 * iteration the host computes q0^2 from the image (the region of interest
 * is the top-left quarter) and launches two kernels on 16x16 blocks:
 *   srad2_coef    loads a 18x18 tile of J (halo rows/columns clamped at the
 *                 border) into shared memory, writes dN, dS, dW, dE and c;
 *   srad2_update  loads a 17x17 tile of c (south and east halos), reads
 *                 dN..dE and J, writes J += lambda/4 * D.
 * Every global access is a coalesced row segment (j across the lanes);
 * barriers between the tile loads and their use. As in Rodinia the image
 * goes back to the host after every iteration (for q0^2).
 *   n: image side (a multiple of 16); iters: iterations.
 */
#ifndef BENCH_REF_SRAD2_H
#define BENCH_REF_SRAD2_H
#include "srad.h"

#define SRAD2_BLOCK 16

static const bench_params srad2_presets[BENCH_SIZE_COUNT] = {
    { 32, 2, BENCH_DEFAULT_SEED },
    { 128, 4, BENCH_DEFAULT_SEED },
    { 512, 10, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x srad_v2 default run (2048 x 2048, rows/cols
     * 0..127, lambda 0.5, 2 iterations). */
    { 2048, 2, BENCH_DEFAULT_SEED },
};

static inline int srad2_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < SRAD2_BLOCK || p->n > SRAD_MAX_N || p->n % SRAD2_BLOCK != 0) {
        snprintf(why, len, "n=%d must be a multiple of %d in [%d, %d]", p->n, SRAD2_BLOCK,
                 SRAD2_BLOCK, SRAD_MAX_N);
        return 1;
    }
    if (p->iters < 1 || p->iters > 1000) {
        snprintf(why, len, "iters=%d must be in [1, 1000]", p->iters);
        return 1;
    }
    return 0;
}

static inline void srad2_inputs(const bench_params *p, float *img)
{
    bench_rng r = bench_rng_make(p->seed);
    srad_fill_image(&r, img, (size_t)p->n * p->n);
}

/* q0^2 of the region of interest (host step before every iteration). */
static inline float srad2_q0sqr(int n, const float *img)
{
    return srad_q0sqr(n, img, n / 2, n / 2);
}

/* All iterations on img in place (float, the kernels' order). */
static inline void srad2_reference(int n, int iters, float *img)
{
    float *c = (float *)bench_xmalloc((size_t)n * n * sizeof(float));
    for (int t = 0; t < iters; t++)
        srad_iteration(n, img, c, srad2_q0sqr(n, img));
    free(c);
}
#endif
