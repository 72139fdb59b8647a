/*
 * fft — batched one-dimensional complex FFT, radix 2, in shared memory (AMD
 * APP SDK 2.5 FFT; seed 000 Table 5.1 "FFT", type N = compute-intensive).
 * One block per transform of n points with n/2 threads: the block loads its
 * signal into shared memory in bit-reversed order and the twiddle table
 * beside it, runs the log2(n) decimation-in-time stages (one butterfly per
 * thread per stage, a barrier between stages) in shared memory, and stores
 * the result. Apart from the loads at the start and the store at the end it
 * touches only shared memory: compute-bound.
 *   n:     transform length, a power of two in [2, 2048];
 *   iters: number of transforms (the batch).
 * Data are interleaved complex floats (re, im), transform b at b * 2n.
 * Twiddles w[k] = exp(-2 pi i k / n), k < n/2, computed on the host in
 * double and rounded to float (fft_twiddles), the same table for the device
 * and the reference.
 *
 * The kernel writes each butterfly with explicit roundings (__fmul_rn,
 * __fmaf_rn, __fadd_rn, __fsub_rn), so its operation order is fixed, and the
 * reference repeats it in C (fmaf): bit-exact, tolerance 0. The test checks
 * the reference against the DFT's definition in double.
 */
#ifndef BENCH_REF_FFT_H
#define BENCH_REF_FFT_H
#include "common.h"

#define FFT_MAX_N 2048   /* n/2 threads per block: at most 1024 */

static const bench_params fft_presets[BENCH_SIZE_COUNT] = {
    { 256, 8, BENCH_DEFAULT_SEED },
    { 1024, 64, BENCH_DEFAULT_SEED },
    { 2048, 256, BENCH_DEFAULT_SEED },
    /* paper: AMD APP SDK FFT default length = 1024, one transform
     * (seed 000 Table 5.1 FFT). */
    { 1024, 1, BENCH_DEFAULT_SEED },
};

static inline int fft_check(const bench_params *p, char *why, size_t len)
{
    if (!bench_is_pow2(p->n) || p->n < 2 || p->n > FFT_MAX_N) {
        snprintf(why, len, "n=%d must be a power of two in [2, %d]", p->n, FFT_MAX_N);
        return 1;
    }
    if ((size_t)p->n * p->iters > ((size_t)1 << 24)) {
        snprintf(why, len, "n=%d x iters=%d is too large (2^24 points)", p->n, p->iters);
        return 1;
    }
    return 0;
}

static inline int fft_log2(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

/* Dynamic shared memory of one block: the signal and the twiddles. */
static inline unsigned fft_smem(const bench_params *p)
{
    return (unsigned)((size_t)p->n * 2 * sizeof(float) + (size_t)(p->n / 2) * 2 * sizeof(float));
}

/* w[2k] = cos(2 pi k / n), w[2k+1] = -sin(2 pi k / n), k < n/2; the values
 * at multiples of pi/2 are made exactly 0 (cos(pi/2) in double is 6e-17). */
static inline void fft_twiddles(int n, float *w)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n / 2; k++) {
        double c = cos(2.0 * pi * k / n), s = -sin(2.0 * pi * k / n);
        w[2 * k] = fabs(c) < 1e-12 ? 0.0f : (float)c;
        w[2 * k + 1] = fabs(s) < 1e-12 ? 0.0f : (float)s;
    }
}

static inline void fft_inputs(const bench_params *p, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_float(&r, x, (size_t)p->n * p->iters * 2, -1.0f, 1.0f);
}

static inline unsigned fft_bitrev(unsigned i, int logn)
{
    unsigned r = 0;
    for (int b = 0; b < logn; b++)
        r |= ((i >> b) & 1u) << (logn - 1 - b);
    return r;
}

/* The kernel's stages on every transform, in its float operations. */
static inline void fft_reference(const bench_params *p, const float *w,
                                 const float *in, float *out)
{
    int n = p->n, logn = fft_log2(n);
    for (int b = 0; b < p->iters; b++) {
        const float *xi = in + (size_t)b * 2 * n;
        float *x = out + (size_t)b * 2 * n;
        for (int i = 0; i < n; i++) {
            unsigned j = fft_bitrev((unsigned)i, logn);
            x[2 * j] = xi[2 * i];
            x[2 * j + 1] = xi[2 * i + 1];
        }
        for (int span = 1, tstride = n / 2; span < n; span *= 2, tstride /= 2)
            for (int t = 0; t < n / 2; t++) {
                int j = t & (span - 1);
                int i0 = 2 * (t - j) + j, i1 = i0 + span;
                float wr = w[2 * j * tstride], wi = w[2 * j * tstride + 1];
                float br = x[2 * i1], bi = x[2 * i1 + 1];
                float ar = x[2 * i0], ai = x[2 * i0 + 1];
                float tr = fmaf(wr, br, -(wi * bi));
                float ti = fmaf(wr, bi, wi * br);
                x[2 * i0] = ar + tr;
                x[2 * i0 + 1] = ai + ti;
                x[2 * i1] = ar - tr;
                x[2 * i1 + 1] = ai - ti;
            }
    }
}
#endif
