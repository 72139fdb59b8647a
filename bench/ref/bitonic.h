/*
 * bitonic — bitonic sort of n key/value pairs, n a power of two (CUDA SDK
 * sortingNetworks; seed 000 Table 4.2 "BS", 256-16k, Tables 5.1, 5.3, 6.2).
 * Three kernels, as in the SDK:
 *   bitonic_sort_shared   each block sorts a BITONIC_SEG segment in shared
 *                         memory (512 threads, two keys each), neighbouring
 *                         segments in opposite directions;
 *   bitonic_merge_global  one compare-exchange per thread for a merge stride
 *                         >= BITONIC_SEG (one launch per stride);
 *   bitonic_merge_shared  the strides < BITONIC_SEG of one merge size, in
 *                         shared memory.
 * Values carry the original index. Compute/barrier-bound.
 *   n: number of keys, a power of two >= BITONIC_SEG.
 */
#ifndef BENCH_REF_BITONIC_H
#define BENCH_REF_BITONIC_H
#include "common.h"

#define BITONIC_SEG 1024
#define BITONIC_THREADS (BITONIC_SEG / 2)

static const bench_params bitonic_presets[BENCH_SIZE_COUNT] = {
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 16384, 1, BENCH_DEFAULT_SEED },
    { 262144, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (BS, vector size 256 - 16k): its largest,
     * 16384 keys (= default; the CUDA SDK sortingNetworks sample sorts
     * 2^20 keys in batches). */
    { 16384, 1, BENCH_DEFAULT_SEED },
};

static inline int bitonic_check(const bench_params *p, char *why, size_t len)
{
    if (!bench_is_pow2(p->n) || p->n < BITONIC_SEG || p->n > (1 << 24)) {
        snprintf(why, len, "n=%d must be a power of two in [%d, 2^24]",
                 p->n, BITONIC_SEG);
        return 1;
    }
    return 0;
}

/* Keys: random, with some duplicates (upper bits only from a small range in
 * every 8th key) so that equal keys are exercised. Values: 0..n-1. */
static inline void bitonic_inputs(const bench_params *p, uint32_t *keys,
                                  uint32_t *vals)
{
    bench_rng r = bench_rng_make(p->seed);
    for (int i = 0; i < p->n; i++) {
        keys[i] = (i % 8 == 7) ? (uint32_t)bench_rand_int(&r, 16) : bench_rand_u32(&r);
        vals[i] = (uint32_t)i;
    }
}

static inline int bitonic_cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* keys must equal the input sorted ascending; vals must be a permutation of
 * 0..n-1 with keys_in[val] == key (the sort is not stable, so equal keys may
 * carry their values in any order). */
static inline int bitonic_verify(const bench_params *p, const uint32_t *keys_in,
                                 const uint32_t *keys, const uint32_t *vals,
                                 char *why, size_t len)
{
    uint32_t *want = (uint32_t *)bench_xmalloc((size_t)p->n * sizeof(uint32_t));
    unsigned char *seen = (unsigned char *)bench_xmalloc((size_t)p->n);
    int bad = 0;
    memcpy(want, keys_in, (size_t)p->n * sizeof(uint32_t));
    memset(seen, 0, (size_t)p->n);
    qsort(want, (size_t)p->n, sizeof(uint32_t), bitonic_cmp_u32);
    bad = bench_compare_u32("bitonic: keys", keys, want, (size_t)p->n, why, len);
    for (int i = 0; i < p->n && !bad; i++) {
        uint32_t v = vals[i];
        if (v >= (uint32_t)p->n || seen[v] || keys_in[v] != keys[i]) {
            snprintf(why, len, "bitonic: vals[%d] = %lu does not carry key %lu",
                     i, (unsigned long)v, (unsigned long)keys[i]);
            bad = 1;
        } else {
            seen[v] = 1;
        }
    }
    free(want);
    free(seen);
    return bad;
}
#endif
