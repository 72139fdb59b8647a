/*
 * streamcluster — the pgain step of Rodinia's StreamCluster (seed 001 Table 2
 * "SC", memory-divergent; §5.2: "Divergent loads in SC are references to
 * arrays of structs"; spec oaws.md C.2 #3). For a candidate centre x, every
 * point i computes the cost of moving to x,
 *     x_cost = |coord_i - coord_x|^2 * weight_i,
 * and if that is below its current cost it marks itself in switch_membership
 * and adds x_cost - cost_i to lower_i[k]; otherwise it adds cost_i - x_cost to
 * lower_i[center_table[assign_i]], where lower_i is point i's own row of k + 1
 * floats in work_mem (zeroed before each launch). One launch per candidate.
 *
 * The memory shape is Rodinia's: the coordinates are stored transposed
 * (coord[d * num + i], coalesced; the candidate's coord[d * num + x] is a
 * broadcast), the points are an array of 32-byte structs (weight, assign and
 * cost are 32 bytes apart: a warp's load touches 8 lines, divergent),
 * center_table[assign_i] is a gather and the work_mem rows are k + 1 floats
 * apart (divergent read-modify-write); the if/else on x_cost diverges.
 *   n: points; iters: candidates (launches).  dim = 16, k = 16 centres.
 * q8 coordinates, integer weights, costs in multiples of 1/8: exact.
 */
#ifndef BENCH_REF_STREAMCLUSTER_H
#define BENCH_REF_STREAMCLUSTER_H
#include "polybench.h"

#define SC_DIM 16
#define SC_K 16

/* Rodinia's Point on a 64-bit host: weight, coordinate pointer (unused on the
 * device), assignment, cost; 32 bytes. */
typedef struct sc_point {
    float    weight;
    int32_t  pad0;
    uint64_t coord;
    int64_t  assign;
    float    cost;
    int32_t  pad1;
} sc_point;

static const bench_params sc_presets[BENCH_SIZE_COUNT] = {
    { 1024, 2, BENCH_DEFAULT_SEED },
    { 16384, 4, BENCH_DEFAULT_SEED },
    { 65536, 8, BENCH_DEFAULT_SEED },
    /* paper: Rodinia 2.x streamcluster default run (k1 10, k2 20, d 256,
     * n 65536, chunk 65536, clustersize 1000): 65536 points, SC_DIM = 16
     * dimensions instead of 256, 16 candidate launches of pgain. */
    { 65536, 16, BENCH_DEFAULT_SEED },
};

static inline int sc_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < 1 || p->n > (1 << 20)) {
        snprintf(why, len, "n=%d must be in [1, %d]", p->n, 1 << 20);
        return 1;
    }
    if (p->iters < 1 || p->iters > 1000) {
        snprintf(why, len, "iters=%d must be in [1, 1000]", p->iters);
        return 1;
    }
    return 0;
}

/* Points, transposed coordinates (SC_DIM x n), the centre table (a
 * permutation of 0..k-1) and the iters candidate indices. general: coordinates
 * and costs with full mantissas instead of q8 / eighths. */
static inline void sc_inputs_mode(const bench_params *p, int general, sc_point *pts, float *coord,
                                  int32_t *center_table, int32_t *cand)
{
    bench_rng r = bench_rng_make(p->seed);
    int n = p->n;
    if (general)
        bench_fill_general(&r, coord, (size_t)SC_DIM * n);
    else
        bench_fill_q8(&r, coord, (size_t)SC_DIM * n);
    for (int i = 0; i < n; i++) {
        memset(&pts[i], 0, sizeof pts[i]);
        pts[i].weight = (float)(1 + bench_rand_int(&r, 4));
        pts[i].assign = bench_rand_int(&r, SC_K);
        /* typical distances are around 2 * SC_DIM * 0.4 (q8); costs 0..64 */
        pts[i].cost = general ? bench_rand_float(&r, 0.0f, 64.0f)
                              : (float)bench_rand_int(&r, 513) * 0.125f;
    }
    for (int c = 0; c < SC_K; c++)
        center_table[c] = c;
    for (int c = SC_K - 1; c > 0; c--) {       /* Fisher-Yates */
        int j = bench_rand_int(&r, c + 1);
        int32_t t = center_table[c];
        center_table[c] = center_table[j];
        center_table[j] = t;
    }
    for (int t = 0; t < p->iters; t++)
        cand[t] = bench_rand_int(&r, n);
}

/* One launch for candidate x: work (n x (k+1), zeroed here) and sw (n bytes,
 * zeroed here) as the kernel leaves them. Double precision; with q8 inputs
 * every value is exact. */
static inline void sc_reference(int n, const sc_point *pts, const float *coord,
                                const int32_t *center_table, int x, float *work, uint8_t *sw)
{
    memset(work, 0, (size_t)n * (SC_K + 1) * sizeof(float));
    memset(sw, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        double d = 0;
        for (int j = 0; j < SC_DIM; j++) {
            double t = (double)coord[(size_t)j * n + i] - coord[(size_t)j * n + x];
            d += t * t;
        }
        double x_cost = d * pts[i].weight, cur = pts[i].cost;
        float *lower = work + (size_t)i * (SC_K + 1);
        if (x_cost < cur) {
            sw[i] = 1;
            lower[SC_K] = (float)(x_cost - cur);
        } else {
            lower[center_table[pts[i].assign]] = (float)(cur - x_cost);
        }
    }
}

/* switch_membership against the reference: the first differing point. */
static inline int sc_compare_switch(const uint8_t *got, const uint8_t *want, int n,
                                    char *why, size_t whylen)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(why, whylen, "streamcluster: switch_membership[%d] = %d, expected %d",
                     i, got[i], want[i]);
            return 1;
        }
    return 0;
}

/* Bit-exact (streamcluster.ptx): t = sub.f32, d = fma.rn(t, t, d) from 0,
 * x_cost = d * weight (mul.f32); lower += (x_cost - cost) (sub, add from 0). */
static inline void sc_reference_exact(int n, const sc_point *pts, const float *coord,
                                      const int32_t *center_table, int x, float *work,
                                      uint8_t *sw)
{
    memset(work, 0, (size_t)n * (SC_K + 1) * sizeof(float));
    memset(sw, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        float d = 0.0f;
        for (int j = 0; j < SC_DIM; j++) {
            float t = coord[(size_t)j * n + i] - coord[(size_t)j * n + x];
            d = fmaf(t, t, d);
        }
        float x_cost = d * pts[i].weight, cur = pts[i].cost;
        float *lower = work + (size_t)i * (SC_K + 1);
        if (x_cost < cur) {
            sw[i] = 1;
            lower[SC_K] = 0.0f + (x_cost - cur);
        } else {
            int c = center_table[pts[i].assign];
            lower[c] = 0.0f + (cur - x_cost);
        }
    }
}
#endif
