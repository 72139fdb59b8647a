/*
 * kmeans — Lloyd's k-means on n points with KMEANS_F features and
 * KMEANS_K clusters, `iters` iterations (Rodinia kmeans; seed 001 Table 2
 * "KMN", memory-divergent). Per iteration:
 *   kmeans_assign      each point finds its nearest centre (squared
 *                      Euclidean distance, lowest index on ties); centres
 *                      live in __constant__ memory (kmeans_centers), copied
 *                      there by the host as Rodinia does; features are
 *                      stored feature-major (features[f*n + p]) for coalescing;
 *   kmeans_accumulate  global atomics add each point's features and a count
 *                      into per-cluster integer sums;
 * and the host sets each centre to sum / count (integer division; an empty
 * cluster keeps its centre). Features are integers in [0, 100), so distances
 * and sums are exact and the memberships must match the reference exactly.
 *   n: points; iters: iterations.
 */
#ifndef BENCH_REF_KMEANS_H
#define BENCH_REF_KMEANS_H
#include "common.h"

#define KMEANS_F 8
#define KMEANS_K 8
#define KMEANS_BLOCK 256

static const bench_params kmeans_presets[BENCH_SIZE_COUNT] = {
    { 1024, 2, BENCH_DEFAULT_SEED },
    { 16384, 4, BENCH_DEFAULT_SEED },
    { 262144, 10, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x kmeans default input kdd_cup, 494020 points, from
     * our generator (KMEANS_F = 8 integer features and KMEANS_K = 8 clusters
     * instead of 34 features and 5 clusters), 5 iterations (Rodinia stops
     * at convergence, at most 500). */
    { 494020, 5, BENCH_DEFAULT_SEED },
};

static inline int kmeans_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < KMEANS_K || p->n > (1 << 22) || p->iters > 1000) {
        snprintf(why, len, "n=%d must be in [%d, 2^22] and iters=%d at most 1000",
                 p->n, KMEANS_K, p->iters);
        return 1;
    }
    return 0;
}

/* Points scattered around KMEANS_K random centres; the initial centres are
 * the first KMEANS_K points (as Rodinia does). */
static inline void kmeans_inputs(const bench_params *p, float *features,
                                 float *centers)
{
    bench_rng r = bench_rng_make(p->seed);
    int truth[KMEANS_K][KMEANS_F];
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_F; f++)
            truth[c][f] = 15 + bench_rand_int(&r, 70);
    for (int i = 0; i < p->n; i++) {
        int c = bench_rand_int(&r, KMEANS_K);
        for (int f = 0; f < KMEANS_F; f++) {
            int v = truth[c][f] + bench_rand_int(&r, 31) - 15;
            features[(size_t)f * p->n + i] = (float)v;
        }
    }
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_F; f++)
            centers[c * KMEANS_F + f] = features[(size_t)f * p->n + c];
}

/* The host step shared by the programs and the reference. */
static inline void kmeans_update_centers(const int32_t *sums, const int32_t *counts,
                                         float *centers)
{
    for (int c = 0; c < KMEANS_K; c++)
        if (counts[c] > 0)
            for (int f = 0; f < KMEANS_F; f++)
                centers[c * KMEANS_F + f] = (float)(sums[c * KMEANS_F + f] / counts[c]);
}

static inline int kmeans_nearest(const bench_params *p, const float *features,
                                 const float *centers, int i)
{
    int best = 0;
    float best_d = 0;
    for (int c = 0; c < KMEANS_K; c++) {
        float d = 0;
        for (int f = 0; f < KMEANS_F; f++) {
            float diff = features[(size_t)f * p->n + i] - centers[c * KMEANS_F + f];
            d += diff * diff;
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

/* Runs all iterations on the CPU: final membership and centres. */
static inline void kmeans_reference(const bench_params *p, const float *features,
                                    const float *centers_in, int32_t *membership,
                                    float *centers)
{
    int32_t sums[KMEANS_K * KMEANS_F], counts[KMEANS_K];
    memcpy(centers, centers_in, sizeof(float) * KMEANS_K * KMEANS_F);
    for (int t = 0; t < p->iters; t++) {
        memset(sums, 0, sizeof sums);
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < p->n; i++) {
            int c = kmeans_nearest(p, features, centers, i);
            membership[i] = c;
            counts[c]++;
            for (int f = 0; f < KMEANS_F; f++)
                sums[c * KMEANS_F + f] += (int32_t)features[(size_t)f * p->n + i];
        }
        kmeans_update_centers(sums, counts, centers);
    }
}
/* --inputs general: the same clusters, features with a random fraction
 * (kmeans_accumulate truncates them with cvt.rzi, like the C cast). */
static inline void kmeans_inputs_general(const bench_params *p, float *features,
                                         float *centers)
{
    bench_rng r;
    kmeans_inputs(p, features, centers);
    r = bench_rng_make(p->seed ^ 0x6b6du);
    for (size_t i = 0; i < (size_t)p->n * KMEANS_F; i++)
        features[i] += bench_rand_float(&r, 0.0f, 1.0f);
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_F; f++)
            centers[c * KMEANS_F + f] = features[(size_t)f * p->n + c];
}

/* Bit-exact distance (kmeans.ptx): d = fma.rn(diff, diff, d) from 0, diff =
 * feature - centre rounded (sub.f32). */
static inline int kmeans_nearest_exact(const bench_params *p, const float *features,
                                       const float *centers, int i)
{
    int best = 0;
    float best_d = 0;
    for (int c = 0; c < KMEANS_K; c++) {
        float d = 0;
        for (int f = 0; f < KMEANS_F; f++) {
            float diff = features[(size_t)f * p->n + i] - centers[c * KMEANS_F + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

static inline void kmeans_reference_exact(const bench_params *p, const float *features,
                                          const float *centers_in, int32_t *membership,
                                          float *centers)
{
    int32_t sums[KMEANS_K * KMEANS_F], counts[KMEANS_K];
    memcpy(centers, centers_in, sizeof(float) * KMEANS_K * KMEANS_F);
    for (int t = 0; t < p->iters; t++) {
        memset(sums, 0, sizeof sums);
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < p->n; i++) {
            int c = kmeans_nearest_exact(p, features, centers, i);
            membership[i] = c;
            counts[c]++;
            for (int f = 0; f < KMEANS_F; f++)
                sums[c * KMEANS_F + f] += (int32_t)features[(size_t)f * p->n + i];
        }
        kmeans_update_centers(sums, counts, centers);
    }
}
#endif
