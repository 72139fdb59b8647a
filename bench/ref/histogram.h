/*
 * histogram — 256-bin histogram of n bytes (CUDA SDK histogram256 style;
 * seed 000 Table 4.2 "HM", 8k-1M, Table 6.2 "HS"). Each block counts into a
 * shared-memory histogram with shared atomics (grid-stride over the data),
 * then adds it to the global histogram with global atomics. The data is
 * skewed (a third of the bytes fall in 8 bins) so that atomics contend.
 * Memory/atomic-bound.  n: number of bytes.
 */
#ifndef BENCH_REF_HISTOGRAM_H
#define BENCH_REF_HISTOGRAM_H
#include "common.h"

#define HISTOGRAM_BINS 256
#define HISTOGRAM_BLOCK 256      /* == HISTOGRAM_BINS: one bin per thread */
#define HISTOGRAM_MAX_GRID 64

static const bench_params histogram_presets[BENCH_SIZE_COUNT] = {
    { 8192, 1, BENCH_DEFAULT_SEED },
    { 1 << 20, 1, BENCH_DEFAULT_SEED },
    { 1 << 24, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (HM, array size 8k - 1M): its largest,
     * 1 MiB (= default; the CUDA SDK histogram sample's default is
     * 64 MiB). */
    { 1 << 20, 1, BENCH_DEFAULT_SEED },
};

static inline int histogram_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > (1 << 28)) {
        snprintf(why, len, "n=%d is above 2^28", p->n);
        return 1;
    }
    return 0;
}

static inline int histogram_grid(const bench_params *p)
{
    int g = (p->n + HISTOGRAM_BLOCK - 1) / HISTOGRAM_BLOCK;
    return g < HISTOGRAM_MAX_GRID ? g : HISTOGRAM_MAX_GRID;
}

static inline void histogram_inputs(const bench_params *p, unsigned char *data)
{
    bench_rng r = bench_rng_make(p->seed);
    for (int i = 0; i < p->n; i++) {
        uint32_t v = bench_rand_u32(&r);
        data[i] = (v % 3 == 0) ? (unsigned char)(64 + (v >> 8) % 8)
                               : (unsigned char)(v >> 24);
    }
}

static inline int histogram_verify(const bench_params *p, const unsigned char *data,
                                   const uint32_t *hist, char *why, size_t len)
{
    uint32_t want[HISTOGRAM_BINS];
    memset(want, 0, sizeof want);
    for (int i = 0; i < p->n; i++)
        want[data[i]]++;
    return bench_compare_u32("histogram: bin", hist, want, HISTOGRAM_BINS, why, len);
}
#endif
