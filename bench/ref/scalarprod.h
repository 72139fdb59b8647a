/*
 * scalarprod — dot products of `iters` vector pairs of n floats each (CUDA
 * SDK scalarProd; seed 000 Table 4.2 "SP", 32k-1M elements in total, and
 * Table 5.3). One block per vector pair (grid-stride over pairs): each
 * thread accumulates a strided partial sum, then a shared-memory tree
 * reduction. Memory-bound.
 *   n: elements per vector; iters: number of vector pairs.
 * Inputs are multiples of 1/8, so the sums are exact in float.
 */
#ifndef BENCH_REF_SCALARPROD_H
#define BENCH_REF_SCALARPROD_H
#include "common.h"

#define SCALARPROD_BLOCK 256   /* a power of two: the tree halves it */
#define SCALARPROD_MAX_GRID 128

static const bench_params scalarprod_presets[BENCH_SIZE_COUNT] = {
    { 1024, 16, BENCH_DEFAULT_SEED },
    { 4096, 64, BENCH_DEFAULT_SEED },
    { 16384, 256, BENCH_DEFAULT_SEED },
    /* paper: CUDA SDK scalarProd default, VECTOR_N = 256 vectors of
     * ELEMENT_N = 4096 (1M elements, the top of seed 000 Table 4.2's
     * SP range 32k - 1M). */
    { 4096, 256, BENCH_DEFAULT_SEED },
};

static inline int scalarprod_check(const bench_params *p, char *why, size_t len)
{
    if ((size_t)p->n * p->iters > ((size_t)1 << 26) || p->n > (1 << 20)) {
        snprintf(why, len, "n=%d x iters=%d is too large (2^26 elements, n <= 2^20)",
                 p->n, p->iters);
        return 1;
    }
    return 0;
}

static inline void scalarprod_inputs(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t total = (size_t)p->n * p->iters;
    bench_fill_q8(&r, a, total);
    bench_fill_q8(&r, b, total);
}

static inline void scalarprod_reference(const bench_params *p, const float *a,
                                        const float *b, float *c)
{
    for (int v = 0; v < p->iters; v++) {
        double s = 0;
        for (int i = 0; i < p->n; i++)
            s += (double)a[(size_t)v * p->n + i] * b[(size_t)v * p->n + i];
        c[v] = (float)s;
    }
}

static inline int scalarprod_grid(const bench_params *p)
{
    return p->iters < SCALARPROD_MAX_GRID ? p->iters : SCALARPROD_MAX_GRID;
}
static inline void scalarprod_inputs_general(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t total = (size_t)p->n * p->iters;
    bench_fill_general(&r, a, total);
    bench_fill_general(&r, b, total);
}

/* Bit-exact (scalarprod.ptx, block of SCALARPROD_BLOCK threads): thread t
 * sums fma.rn(a[i], b[i], sum) over i = t, t + block, ... from 0, then the
 * shared-memory tree adds partial[t + stride] to partial[t] for stride =
 * block/2 .. 1. The order is fixed by the algorithm, not by scheduling. */
static inline void scalarprod_reference_exact(const bench_params *p, const float *a,
                                              const float *b, float *c)
{
    float partial[SCALARPROD_BLOCK];
    for (int v = 0; v < p->iters; v++) {
        const float *va = a + (size_t)v * p->n, *vb = b + (size_t)v * p->n;
        for (int t = 0; t < SCALARPROD_BLOCK; t++) {
            float s = 0.0f;
            for (int i = t; i < p->n; i += SCALARPROD_BLOCK)
                s = fmaf(va[i], vb[i], s);
            partial[t] = s;
        }
        for (int stride = SCALARPROD_BLOCK / 2; stride > 0; stride >>= 1)
            for (int t = 0; t < stride; t++)
                partial[t] = partial[t + stride] + partial[t];
        c[v] = partial[0];
    }
}
#endif
