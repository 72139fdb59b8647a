/*
 * scan — exclusive prefix sum of n int32 (CUDA SDK scan / GPU Gems 3 ch. 39
 * work-efficient Blelloch scan; seed 000 Table 4.2 "SC", 4k-1M, Tables
 * 5.1 "PS"/"SA", 6.2). Three launches:
 *   scan_block   each block scans SCAN_SEG elements in shared memory
 *                (up-sweep, clear, down-sweep) and writes its total;
 *   scan_block   again, one block, over the block totals;
 *   scan_add     adds each block's scanned total to its segment.
 * Memory/barrier-bound.  n: length, at most SCAN_SEG^2.
 */
#ifndef BENCH_REF_SCAN_H
#define BENCH_REF_SCAN_H
#include "common.h"

#define SCAN_SEG 512
#define SCAN_THREADS (SCAN_SEG / 2)

static const bench_params scan_presets[BENCH_SIZE_COUNT] = {
    { 4096, 1, BENCH_DEFAULT_SEED },
    { 65536, 1, BENCH_DEFAULT_SEED },
    { SCAN_SEG * SCAN_SEG, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (SC, array size 4k - 1M) goes to 1M; two
     * scan levels stop at SCAN_SEG^2 = 262144 (= large), the largest array
     * of the CUDA SDK scan sample's large-array test too. */
    { SCAN_SEG * SCAN_SEG, 1, BENCH_DEFAULT_SEED },
};

static inline int scan_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > SCAN_SEG * SCAN_SEG) {
        snprintf(why, len, "n=%d is above %d (two scan levels)", p->n,
                 SCAN_SEG * SCAN_SEG);
        return 1;
    }
    return 0;
}

static inline int scan_blocks(const bench_params *p)
{
    return (p->n + SCAN_SEG - 1) / SCAN_SEG;
}

static inline void scan_inputs(const bench_params *p, int32_t *x)
{
    bench_rng r = bench_rng_make(p->seed);
    for (int i = 0; i < p->n; i++)
        x[i] = bench_rand_int(&r, 16) - 4;
}

static inline int scan_verify(const bench_params *p, const int32_t *in,
                              const int32_t *out, char *why, size_t len)
{
    int32_t *want = (int32_t *)bench_xmalloc((size_t)p->n * sizeof(int32_t));
    int32_t s = 0;
    for (int i = 0; i < p->n; i++) {
        want[i] = s;
        s += in[i];
    }
    int bad = bench_compare_int("scan: out", out, want, (size_t)p->n, why, len);
    free(want);
    return bad;
}
#endif
