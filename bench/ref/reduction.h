/*
 * reduction — the sum of n 32-bit integers (AMD APP SDK 2.5 Reduction; seed
 * 000 Table 5.1 "RD", type M). As in the SDK sample, each thread loads one
 * four-element vector (one 16-byte load), adds its four elements, and the
 * block adds its threads' values with a shared-memory tree; block b writes
 * its partial sum to partial[b]. The SDK adds the partial sums on the host;
 * here the same kernel runs again on the partial sums until one value is
 * left, so the device computes the whole sum. Memory-bound: one vector load
 * per thread against a handful of adds.
 *   n: number of elements (the device buffers are padded with zeros to a
 *      multiple of 4 elements, so any n works).
 * Integers in [-64, 64] and n <= 2^24, so every partial sum fits in int32
 * and the result does not depend on the order of the additions.
 */
#ifndef BENCH_REF_REDUCTION_H
#define BENCH_REF_REDUCTION_H
#include "common.h"

#define REDUCTION_BLOCK 256   /* a power of two: the tree halves it */
#define REDUCTION_VEC 4       /* elements per thread (one int4 load) */
#define REDUCTION_SPAN (REDUCTION_BLOCK * REDUCTION_VEC)   /* elements per block */
#define REDUCTION_MAX_N (1 << 24)

static const bench_params reduction_presets[BENCH_SIZE_COUNT] = {
    { 16384, 1, BENCH_DEFAULT_SEED },
    { 1 << 20, 1, BENCH_DEFAULT_SEED },
    { 1 << 22, 1, BENCH_DEFAULT_SEED },
    /* paper: AMD APP SDK Reduction default length = 64, which the sample
     * rounds up to GROUP_SIZE x VECTOR_SIZE x MULTIPLY = 256 x 4 x 2 = 2048
     * (seed 000 Table 5.1 RD). */
    { 2048, 1, BENCH_DEFAULT_SEED },
};

static inline int reduction_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > REDUCTION_MAX_N) {
        snprintf(why, len, "n=%d is too large (at most 2^24 elements)", p->n);
        return 1;
    }
    return 0;
}

/* Elements rounded up to whole vectors: what a level's buffer holds. */
static inline int reduction_padded(int m)
{
    return (m + REDUCTION_VEC - 1) / REDUCTION_VEC * REDUCTION_VEC;
}

/* Blocks of the launch that reduces m values (ceil(m / SPAN)). */
static inline int reduction_blocks(int m)
{
    return (m + REDUCTION_SPAN - 1) / REDUCTION_SPAN;
}

static inline void reduction_inputs(const bench_params *p, int32_t *x)
{
    bench_rng r = bench_rng_make(p->seed);
    for (int i = 0; i < p->n; i++)
        x[i] = bench_rand_int(&r, 129) - 64;
}

/* The first launch's partial sums (element block b*SPAN .. b*SPAN+SPAN-1,
 * reduction_blocks(n) of them) and the total, added in int64 one by one. */
static inline void reduction_reference(const bench_params *p, const int32_t *x,
                                       int32_t *partial, int32_t *total)
{
    int64_t all = 0;
    for (int b = 0; b < reduction_blocks(p->n); b++) {
        int64_t s = 0;
        for (int i = b * REDUCTION_SPAN; i < p->n && i < (b + 1) * REDUCTION_SPAN; i++)
            s += x[i];
        partial[b] = (int32_t)s;
        all += s;
    }
    *total = (int32_t)all;
}
#endif
