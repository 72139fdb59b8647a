/*
 * vectoradd — C = A + B over n floats (CUDA SDK vectorAdd; seed 000
 * Table 4.2 "VA", 64k-1M elements). Memory-bound: 2 loads, 1 store, 1 add.
 *   n: vector length.
 */
#ifndef BENCH_REF_VECTORADD_H
#define BENCH_REF_VECTORADD_H
#include "common.h"

#define VECTORADD_BLOCK 256

static const bench_params vectoradd_presets[BENCH_SIZE_COUNT] = {
    { 4096, 1, BENCH_DEFAULT_SEED },
    { 1 << 18, 1, BENCH_DEFAULT_SEED },
    { 1 << 22, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (VA, array size 64k - 1M): its largest,
     * 1M elements (the CUDA SDK vectorAdd sample's own default is 50000). */
    { 1 << 20, 1, BENCH_DEFAULT_SEED },
};

static inline int vectoradd_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > (1 << 26)) {
        snprintf(why, len, "n=%d is above 2^26", p->n);
        return 1;
    }
    return 0;
}

static inline void vectoradd_inputs(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_float(&r, a, (size_t)p->n, -1.0f, 1.0f);
    bench_fill_float(&r, b, (size_t)p->n, -1.0f, 1.0f);
}

/* One correctly rounded add per element: the GPU result is bit-exact. */
static inline int vectoradd_verify(const bench_params *p, const float *a,
                                   const float *b, const float *c,
                                   char *why, size_t len)
{
    for (int i = 0; i < p->n; i++) {
        float want = a[i] + b[i];
        if (c[i] != want) {
            snprintf(why, len, "c[%d] = %.9g, expected %.9g", i,
                     (double)c[i], (double)want);
            return 1;
        }
    }
    return 0;
}
/* --inputs general: values with varied exponents (common.h), so that the
 * add rounds (two values in [-1, 1) on the 2^-23 grid add exactly). */
static inline void vectoradd_inputs_general(const bench_params *p, float *a, float *b)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_general(&r, a, (size_t)p->n);
    bench_fill_general(&r, b, (size_t)p->n);
}
#endif
