/*
 * binarysearch — lower-bound binary search of many keys in one sorted array
 * (AMD APP SDK 2.5 BinarySearch; seed 000 Table 5.1 "BS", type M). The SDK
 * sample finds one key by repeated subdivision, one launch per pass; here
 * every thread searches several keys (a grid-stride loop over the keys), each
 * by a classic binary search whose every step is a global load that depends
 * on the previous one: log2(n) dependent, scattered loads per key. Memory-
 * (latency-) bound.
 *   n:     length of the sorted array (strictly increasing int32);
 *   iters: number of keys.
 * The result for key k is the lower bound: the first index i with
 * a[i] >= key, or n when every element is smaller. Integers: exact.
 */
#ifndef BENCH_REF_BINARYSEARCH_H
#define BENCH_REF_BINARYSEARCH_H
#include "common.h"

#define BINSEARCH_BLOCK 256
#define BINSEARCH_KEYS_PER_THREAD 4   /* keys each thread searches (grid stride) */
#define BINSEARCH_MAX (1 << 24)

static const bench_params binarysearch_presets[BENCH_SIZE_COUNT] = {
    { 4096, 4096, BENCH_DEFAULT_SEED },
    { 65536, 65536, BENCH_DEFAULT_SEED },
    { 1 << 20, 1 << 20, BENCH_DEFAULT_SEED },
    /* paper: AMD APP SDK BinarySearch default length = 512 (seed 000
     * Table 5.1 BS); the sample looks for one key by 8-ary subdivision,
     * ours looks up 512 keys in it (128 threads of 4 keys). */
    { 512, 512, BENCH_DEFAULT_SEED },
};

static inline int binarysearch_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > BINSEARCH_MAX || p->iters > BINSEARCH_MAX) {
        snprintf(why, len, "n=%d, iters=%d: at most 2^24 elements and 2^24 keys",
                 p->n, p->iters);
        return 1;
    }
    return 0;
}

/* Blocks so that each thread gets BINSEARCH_KEYS_PER_THREAD keys. */
static inline int binarysearch_grid(const bench_params *p)
{
    int per_block = BINSEARCH_BLOCK * BINSEARCH_KEYS_PER_THREAD;
    return (p->iters + per_block - 1) / per_block;
}

/* a: strictly increasing, gaps of 1..4 from a start in [0, 4) (so values
 * stay below 5 * 2^24); keys: even k a present element, odd k any value in
 * [-2, a[n-1] + 3), present or not, including below a[0] and above a[n-1]. */
static inline void binarysearch_inputs(const bench_params *p, int32_t *a, int32_t *keys)
{
    bench_rng r = bench_rng_make(p->seed);
    int32_t v = bench_rand_int(&r, 4);
    for (int i = 0; i < p->n; i++) {
        a[i] = v;
        v += 1 + bench_rand_int(&r, 4);
    }
    for (int k = 0; k < p->iters; k++)
        keys[k] = (k & 1) ? bench_rand_int(&r, a[p->n - 1] + 5) - 2
                          : a[bench_rand_int(&r, p->n)];
}

/* Lower bound by halving [lo, hi). */
static inline int32_t binarysearch_lower_bound(const int32_t *a, int n, int32_t key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static inline void binarysearch_reference(const bench_params *p, const int32_t *a,
                                          const int32_t *keys, int32_t *pos)
{
    for (int k = 0; k < p->iters; k++)
        pos[k] = binarysearch_lower_bound(a, p->n, keys[k]);
}
#endif
