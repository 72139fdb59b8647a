/*
 * dwthaar1d — multi-level 1D Haar wavelet decomposition of a signal of n =
 * 2^k floats (AMD APP SDK 2.5 DwtHaar1D; seed 000 Table 5.1 "DH", type M).
 * As in the SDK sample, a block loads a chunk of 2 * blockDim elements into
 * shared memory and runs every level it can inside it: at each level the
 * active threads take the pair (s[2t], s[2t+1]), write the detail
 * coefficient (s[2t] - s[2t+1]) / sqrt(2) to global memory and keep the
 * approximation (s[2t] + s[2t+1]) / sqrt(2) in shared memory for the next
 * level; the block's last approximation goes to a global array, on which the
 * host launches the kernel again (fewer, smaller blocks) until one value is
 * left. Memory-bound: one load and about one store per element, and
 * barriers between levels.
 *   n: signal length, a power of two in [2, 2^24].
 * Output layout (the usual one): out[0] = the final approximation, then the
 * details from the coarsest level to the finest: the level whose input has
 * m values writes its m/2 details to out[m/2 .. m-1].
 *
 * Every coefficient is computed from its two children by one float add or
 * sub and one float multiply by DWT_RSQRT2, whatever the block split, so the
 * reference in the same float operations is bit-exact (tolerance 0); the
 * test checks it against the transform's definition in double.
 */
#ifndef BENCH_REF_DWTHAAR1D_H
#define BENCH_REF_DWTHAAR1D_H
#include "common.h"

#define DWT_BLOCK 256                    /* threads: a chunk of 512 elements */
#define DWT_RSQRT2 0.70710678118654752f  /* 1/sqrt(2), rounded to float */

static const bench_params dwthaar1d_presets[BENCH_SIZE_COUNT] = {
    { 4096, 1, BENCH_DEFAULT_SEED },
    { 262144, 1, BENCH_DEFAULT_SEED },
    { 1 << 21, 1, BENCH_DEFAULT_SEED },
    /* paper: AMD APP SDK DwtHaar1D default SIGNAL_LENGTH = 1 << 10
     * (seed 000 Table 5.1 DH). */
    { 1024, 1, BENCH_DEFAULT_SEED },
};

static inline int dwthaar1d_check(const bench_params *p, char *why, size_t len)
{
    if (!bench_is_pow2(p->n) || p->n < 2 || p->n > (1 << 24)) {
        snprintf(why, len, "n=%d must be a power of two in [2, 2^24]", p->n);
        return 1;
    }
    return 0;
}

/* Threads per block of the launch whose input has m values (m/2 while the
 * whole input fits one chunk). */
static inline int dwthaar1d_block(int m)
{
    return m / 2 < DWT_BLOCK ? m / 2 : DWT_BLOCK;
}

static inline void dwthaar1d_inputs(const bench_params *p, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_float(&r, x, (size_t)p->n, -1.0f, 1.0f);
}

/* Level by level on the whole signal, in the kernel's float operations. */
static inline void dwthaar1d_reference(const bench_params *p, const float *in, float *out)
{
    float *a = (float *)bench_xmalloc((size_t)p->n * sizeof(float));
    memcpy(a, in, (size_t)p->n * sizeof(float));
    for (int m = p->n; m > 1; m /= 2) {
        for (int i = 0; i < m / 2; i++) {
            float x0 = a[2 * i], x1 = a[2 * i + 1];
            out[m / 2 + i] = (x0 - x1) * DWT_RSQRT2;
            a[i] = (x0 + x1) * DWT_RSQRT2;   /* i < 2i: not read again */
        }
    }
    out[0] = a[0];
    free(a);
}
#endif
