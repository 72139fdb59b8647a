/*
 * particlefilter — the two data-dependent kernels of Rodinia's particle
 * filter (seed 001 Table 2 "PF", memory-divergent; the paper's "PF" is
 * PathFinder or Particle Filter, not resolvable from its text (spec oaws.md
 * A.11); we take Particle Filter, the one with divergent loads). Per round:
 *   pf_likelihood   lik[i] = 0.02 * sum_k ((v - 100)^2 - (v - 228)^2),
 *                   v = img[(py[i] + oy[k]) * w + px[i] + ox[k]]: for every
 *                   particle, PF_NOBJ byte gathers from the image around its
 *                   own position (divergent: lanes are at random positions)
 *   (host)          weights = exp(lik - max) normalised, CDF, as Rodinia's
 *                   normalize_weights on the host
 *   pf_find_index   nx[j], ny[j] = px[x], py[x] for the first x with
 *                   cdf[x] >= u[j] (a linear scan whose length differs per
 *                   lane: branch divergence; px/py gathers)
 *   (host)          a seeded random walk of +-2 pixels, kept inside the
 *                   margin, gives the next round's positions
 * The image is a bright disc on a dark background plus seeded noise, bytes.
 *   n: particles; iters: rounds.  Image 256 x 256, PF_NOBJ = 9 offsets.
 * Exact: the likelihood sums integers and rounds once (the 0.02 mul); the
 * CDF and the u[j] are computed on the host and the kernel only compares.
 */
#ifndef BENCH_REF_PARTICLEFILTER_H
#define BENCH_REF_PARTICLEFILTER_H
#include <math.h>
#include "polybench.h"

#define PF_W 256
#define PF_H 256
#define PF_NOBJ 9
#define PF_MARGIN 8            /* positions stay in [MARGIN, W - MARGIN) */
#define PF_SCALE 0.02f         /* Rodinia's 1/50 */

static const int pf_objx[PF_NOBJ] = { -2, 0, 2, -2, 0, 2, -2, 0, 2 };
static const int pf_objy[PF_NOBJ] = { -2, -2, -2, 0, 0, 0, 2, 2, 2 };

static const bench_params pf_presets[BENCH_SIZE_COUNT] = {
    { 512, 2, BENCH_DEFAULT_SEED },
    { 4096, 3, BENCH_DEFAULT_SEED },
    { 16384, 5, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x particlefilter default run (-x 128 -y 128
     * -z 10 -np 1000): 1000 particles, 9 rounds (frames 1..9); our
     * image stays PF_W x PF_H = 256 x 256 instead of 128 x 128. */
    { 1000, 9, BENCH_DEFAULT_SEED },
};

static inline int pf_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < 1 || p->n > 65536) {
        snprintf(why, len, "n=%d must be in [1, 65536]", p->n);
        return 1;
    }
    if (p->iters < 1 || p->iters > 100) {
        snprintf(why, len, "iters=%d must be in [1, 100]", p->iters);
        return 1;
    }
    return 0;
}

static inline int pf_clamp(int v)
{
    return v < PF_MARGIN ? PF_MARGIN : v >= PF_W - PF_MARGIN ? PF_W - PF_MARGIN - 1 : v;
}

/* Image (disc of radius 40 at the centre, 228 inside, 100 outside, +-15
 * noise) and the first round's particle positions (uniform in the margin). */
static inline void pf_inputs(bench_rng *r, int n, uint8_t *img, int32_t *px, int32_t *py)
{
    for (int y = 0; y < PF_H; y++)
        for (int x = 0; x < PF_W; x++) {
            int dx = x - PF_W / 2, dy = y - PF_H / 2;
            int v = (dx * dx + dy * dy <= 40 * 40 ? 228 : 100) + bench_rand_int(r, 31) - 15;
            img[y * PF_W + x] = (uint8_t)v;
        }
    for (int i = 0; i < n; i++) {
        px[i] = PF_MARGIN + bench_rand_int(r, PF_W - 2 * PF_MARGIN);
        py[i] = PF_MARGIN + bench_rand_int(r, PF_H - 2 * PF_MARGIN);
    }
}

/* The likelihood of every particle, in the kernel's order: an integer sum
 * (exact in float), then one rounded multiply. */
static inline void pf_likelihood_ref(int n, const uint8_t *img, const int32_t *px,
                                     const int32_t *py, float *lik)
{
    for (int i = 0; i < n; i++) {
        int s = 0;
        for (int k = 0; k < PF_NOBJ; k++) {
            int v = img[(py[i] + pf_objy[k]) * PF_W + px[i] + pf_objx[k]];
            s += (v - 100) * (v - 100) - (v - 228) * (v - 228);
        }
        lik[i] = (float)s * PF_SCALE;
    }
}

/* Host step between the kernels (shared by program, driver and reference):
 * normalised weights from the likelihoods, their CDF, and the systematic
 * resampling points u[j] = (u1 + j) / n. */
static inline void pf_cdf(bench_rng *r, int n, const float *lik, float *cdf, float *u)
{
    double m = lik[0], sum = 0, acc = 0;
    for (int i = 1; i < n; i++)
        if (lik[i] > m) m = lik[i];
    for (int i = 0; i < n; i++)
        sum += exp((double)lik[i] - m);
    for (int i = 0; i < n; i++) {
        acc += exp((double)lik[i] - m) / sum;
        cdf[i] = (float)acc;
    }
    double u1 = (double)bench_rand_u32(r) / 4294967296.0;
    for (int j = 0; j < n; j++)
        u[j] = (float)((u1 + j) / n);
}

/* pf_find_index: the first x with cdf[x] >= u[j] (n - 1 if none). */
static inline void pf_find_index_ref(int n, const float *cdf, const float *u, const int32_t *px,
                                     const int32_t *py, int32_t *nx, int32_t *ny)
{
    for (int j = 0; j < n; j++) {
        int x = n - 1;
        for (int k = 0; k < n; k++)
            if (cdf[k] >= u[j]) {
                x = k;
                break;
            }
        nx[j] = px[x];
        ny[j] = py[x];
    }
}

/* Host: the random walk to the next round's positions. */
static inline void pf_move(bench_rng *r, int n, const int32_t *nx, const int32_t *ny,
                           int32_t *px, int32_t *py)
{
    for (int i = 0; i < n; i++) {
        px[i] = pf_clamp(nx[i] + bench_rand_int(r, 5) - 2);
        py[i] = pf_clamp(ny[i] + bench_rand_int(r, 5) - 2);
    }
}
#endif
