/*
 * srad1 — speckle reducing anisotropic diffusion, Rodinia srad_v1 style
 * (seed 001 Table 2 "SRAD1", memory-coherent, many launches: the paper's
 * run has 502 kernel invocations, §3.2; spec oaws.md C.2), on an n x n
 * image for `iters` iterations. The formulas are in srad.h. One thread per
 * pixel (ei = row * n + col), blocks of 256, kernels:
 *   srad1_extract   once: I = I / 255 + 1 (Rodinia takes exp(I / 255); an
 *                   affine map keeps the reference exact)
 *   per iteration:
 *   srad1_prepare   sums[ei] = I, sums2[ei] = I * I
 *   srad1_reduce    a shared-memory tree per block of 256 values read
 *                   `mul` apart (1, 256, ... : the later levels' loads are
 *                   divergent), the block's sum written back in place;
 *                   launched level by level until one block remains
 *   (host: q0^2 = var / mean^2 from sums[0], sums2[0], as Rodinia)
 *   srad1_srad      dN, dS, dW, dE and c through the neighbour index
 *                   arrays iN, iS (per row) and jW, jE (per column)
 *   srad1_srad2     J += lambda/4 * D
 *   srad1_compress  once: I = (I - 1) * 255
 * so 2 + iters * (3 + levels) launches (levels = srad1_levels(n * n): 2 for
 * 256 < n * n <= 65536). Input: integer grey levels 0..255, as Rodinia's
 * image.
 *   n: image side; iters: iterations.
 */
#ifndef BENCH_REF_SRAD1_H
#define BENCH_REF_SRAD1_H
#include "srad.h"

#define SRAD1_THREADS 256
#define SRAD1_SCALE (1.0f / 255.0f)

static const bench_params srad1_presets[BENCH_SIZE_COUNT] = {
    { 32, 2, BENCH_DEFAULT_SEED },
    { 64, 8, BENCH_DEFAULT_SEED },
    { 256, 100, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x srad_v1 default run (100 iterations, lambda 0.5,
     * 502 x 458 image): 100 iterations on 480 x 480, the square with
     * about the same pixel count (230400 against 229916). */
    { 480, 100, BENCH_DEFAULT_SEED },
};

static inline int srad1_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < 3 || p->n > SRAD_MAX_N) {
        snprintf(why, len, "n=%d must be in [3, %d]", p->n, SRAD_MAX_N);
        return 1;
    }
    if (p->iters < 1 || p->iters > 1000) {
        snprintf(why, len, "iters=%d must be in [1, 1000]", p->iters);
        return 1;
    }
    return 0;
}

/* Grey levels 0..255 and the clamped neighbour indices (host arrays, as
 * Rodinia's iN, iS, jW, jE). */
static inline void srad1_inputs(const bench_params *p, float *img, int32_t *in, int32_t *is,
                                int32_t *jw, int32_t *je)
{
    bench_rng r = bench_rng_make(p->seed);
    int n = p->n;
    for (size_t k = 0; k < (size_t)n * n; k++)
        img[k] = (float)bench_rand_int(&r, 256);
    for (int i = 0; i < n; i++) {
        in[i] = i > 0 ? i - 1 : 0;
        is[i] = i < n - 1 ? i + 1 : n - 1;
        jw[i] = i > 0 ? i - 1 : 0;
        je[i] = i < n - 1 ? i + 1 : n - 1;
    }
}

/* The reduction launches: level l reads `no` values `mul` apart with
 * blocks(no) blocks; returns the number of levels (launches). */
static inline int srad1_blocks(int no) { return (no + SRAD1_THREADS - 1) / SRAD1_THREADS; }
static inline int srad1_levels(int ne)
{
    int l = 1;
    for (int no = ne; srad1_blocks(no) > 1; no = srad1_blocks(no))
        l++;
    return l;
}

/* srad1_reduce's tree on a host array, in place, all levels (the kernel's
 * order: per block, s = 128, 64, ..., 1: v[t] += v[t + s]). */
static inline void srad1_reduce_ref(int ne, float *a)
{
    float ps[SRAD1_THREADS];
    size_t mul = 1;
    for (int no = ne;; no = srad1_blocks(no), mul *= SRAD1_THREADS) {
        int blocks = srad1_blocks(no);
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < SRAD1_THREADS; t++) {
                int ei = b * SRAD1_THREADS + t;
                ps[t] = ei < no ? a[(size_t)ei * mul] : 0.0f;
            }
            for (int s = SRAD1_THREADS / 2; s > 0; s >>= 1)
                for (int t = 0; t < s; t++)
                    ps[t] = ps[t] + ps[t + s];
            a[(size_t)b * SRAD1_THREADS * mul] = ps[0];
        }
        if (blocks == 1)
            break;
    }
}

/* Host step: q0^2 from the reduced sums (float, as Rodinia's main). */
static inline float srad1_q0sqr(int ne, float sum, float sum2)
{
    float mean = sum / (float)ne;
    float var = sum2 / (float)ne - mean * mean;
    return var / (mean * mean);
}

/* The whole program on img in place (float, the kernels' order). */
static inline void srad1_reference(int n, int iters, float *img)
{
    size_t ne = (size_t)n * n;
    float *s = (float *)bench_xmalloc(ne * sizeof(float));
    float *s2 = (float *)bench_xmalloc(ne * sizeof(float));
    float *c = (float *)bench_xmalloc(ne * sizeof(float));
    for (size_t k = 0; k < ne; k++) {
        float t = img[k] * SRAD1_SCALE;
        img[k] = t + 1.0f;
    }
    for (int it = 0; it < iters; it++) {
        for (size_t k = 0; k < ne; k++) {
            s[k] = img[k];
            s2[k] = img[k] * img[k];
        }
        srad1_reduce_ref((int)ne, s);
        srad1_reduce_ref((int)ne, s2);
        srad_iteration(n, img, c, srad1_q0sqr((int)ne, s[0], s2[0]));
    }
    for (size_t k = 0; k < ne; k++) {
        float t = img[k] - 1.0f;
        img[k] = t * 255.0f;
    }
    free(s); free(s2); free(c);
}
#endif
