/*
 * fwt — fast Walsh-Hadamard transform of n = 2^k floats (CUDA SDK
 * fastWalshTransform; seed 000 Table 4.2 "FW", 1k-512k, Tables 5.1, 6.2).
 * The log2(n) butterfly stages commute, so strides >= FWT_CHUNK run as
 * global-memory radix-2 stages (fwt_global_stage, one launch per stride,
 * largest first) and the remaining strides in one shared-memory launch per
 * chunk (fwt_shared). Memory-bound.  n: length, a power of two.
 * Inputs are small integers, so every butterfly is exact in float.
 */
#ifndef BENCH_REF_FWT_H
#define BENCH_REF_FWT_H
#include "common.h"

#define FWT_CHUNK 1024   /* elements per fwt_shared block (2 per thread) */

static const bench_params fwt_presets[BENCH_SIZE_COUNT] = {
    { 2048, 1, BENCH_DEFAULT_SEED },
    { 65536, 1, BENCH_DEFAULT_SEED },
    { 524288, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (FW, array size 1k - 512k): its largest,
     * 2^19 (= large; the CUDA SDK fastWalshTransform sample's default is
     * 2^23 data with a 2^7 kernel). */
    { 524288, 1, BENCH_DEFAULT_SEED },
};

static inline int fwt_check(const bench_params *p, char *why, size_t len)
{
    if (!bench_is_pow2(p->n) || p->n < 2 || p->n > (1 << 22)) {
        snprintf(why, len, "n=%d must be a power of two in [2, 2^22]", p->n);
        return 1;
    }
    return 0;
}

static inline int fwt_chunk(const bench_params *p)
{
    return p->n < FWT_CHUNK ? p->n : FWT_CHUNK;
}

static inline void fwt_inputs(const bench_params *p, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    for (int i = 0; i < p->n; i++)
        x[i] = (float)(bench_rand_int(&r, 17) - 8);
}

static inline void fwt_reference(const bench_params *p, const float *in, float *out)
{
    int n = p->n;
    double *x = (double *)bench_xmalloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        x[i] = in[i];
    for (int stride = 1; stride < n; stride <<= 1)
        for (int base = 0; base < n; base += 2 * stride)
            for (int i = base; i < base + stride; i++) {
                double a = x[i], b = x[i + stride];
                x[i] = a + b;
                x[i + stride] = a - b;
            }
    for (int i = 0; i < n; i++)
        out[i] = (float)x[i];
    free(x);
}
static inline void fwt_inputs_general(const bench_params *p, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_general(&r, x, (size_t)p->n);
}

/* Bit-exact in float: the kernels run the strides largest first (global
 * stages, then the shared pass), each butterfly a + b, a - b rounded once;
 * the stages commute only in exact arithmetic, so the order is kept. */
static inline void fwt_reference_exact(const bench_params *p, const float *in, float *out)
{
    int n = p->n;
    memcpy(out, in, (size_t)n * sizeof(float));
    for (int stride = n / 2; stride >= 1; stride >>= 1)
        for (int base = 0; base < n; base += 2 * stride)
            for (int i = base; i < base + stride; i++) {
                float a = out[i], b = out[i + stride];
                out[i] = a + b;
                out[i + stride] = a - b;
            }
}
#endif
