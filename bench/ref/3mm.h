/*
 * 3mm — G = (A*B)*(C*D) as three products (PolyBench/GPU 3mm; seed 001
 * Table 2 "3MM", memory-coherent, and one of the LDST_ICNT-heavy benchmarks
 * of its Fig. 2; spec oaws.md C.2):
 *   mm3_kernel  E = A*B,  F = C*D,  G = E*F   (three launches)
 * n x n matrices, block 32x8. Compute-bound with caches.  n: matrix side.
 * q8 inputs: E and F are multiples of 1/64, G of 1/4096, so G's partial
 * sums are exact in float only while they stay below 2^12; G's spread grows
 * as about 0.14 n^1.5 (E's entries ~ sqrt(n) x 0.375), so q8 is exact up to
 * n of about 300 and not at 512 (measured: g[41103] = 4326.17773 against
 * 4326.18213 at n = 512). Above MM3_Q8_MAX_N the inputs are multiples of
 * 1/2 in [-1, 1] instead (G a multiple of 1/16, exact below 2^20; spread
 * about 0.25 n^1.5, so exact up to n of several thousand): the comparison
 * stays exact at the large and paper sizes, and small/default keep q8.
 */
#ifndef BENCH_REF_3MM_H
#define BENCH_REF_3MM_H
#include "polybench.h"

static const bench_params mm3_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 96, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    /* paper: PolyBench/GPU 1.0 3mm.cu STANDARD_DATASET NI = ... = NM = 512
     * (seed 001 Table 2 3MM; = large). */
    { 512, 1, BENCH_DEFAULT_SEED },
};

static inline int mm3_check(const bench_params *p, char *why, size_t len)
{
    return poly_check_n(p, why, len);
}

#define MM3_Q8_MAX_N 256

/* Multiples of 1/2 in [-1, 1] (see the comment at the top). */
static inline void mm3_fill_halves(bench_rng *r, float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(bench_rand_int(r, 5) - 2) * 0.5f;
}

static inline void mm3_inputs(const bench_params *p, float *a, float *b, float *c, float *d)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    if (p->n <= MM3_Q8_MAX_N) {
        bench_fill_q8(&r, a, nn);
        bench_fill_q8(&r, b, nn);
        bench_fill_q8(&r, c, nn);
        bench_fill_q8(&r, d, nn);
    } else {
        mm3_fill_halves(&r, a, nn);
        mm3_fill_halves(&r, b, nn);
        mm3_fill_halves(&r, c, nn);
        mm3_fill_halves(&r, d, nn);
    }
}

static inline void mm3_product_double(int n, const double *x, const double *y, double *out)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += x[(size_t)i * n + k] * y[(size_t)k * n + j];
            out[(size_t)i * n + j] = s;
        }
}

/* In double: E = A*B, F = C*D, G = E*F; want = (float)G. */
static inline void mm3_reference(int n, const float *a, const float *b, const float *c,
                                 const float *d, float *want)
{
    size_t nn = (size_t)n * n;
    double *m = (double *)bench_xmalloc(7 * nn * sizeof(double));
    double *da = m, *db = m + nn, *dc = m + 2 * nn, *dd = m + 3 * nn;
    double *e = m + 4 * nn, *f = m + 5 * nn, *g = m + 6 * nn;
    for (size_t i = 0; i < nn; i++) {
        da[i] = a[i]; db[i] = b[i]; dc[i] = c[i]; dd[i] = d[i];
    }
    mm3_product_double(n, da, db, e);
    mm3_product_double(n, dc, dd, f);
    mm3_product_double(n, e, f, g);
    for (size_t i = 0; i < nn; i++)
        want[i] = (float)g[i];
    free(m);
}

static inline void mm3_inputs_general(const bench_params *p, float *a, float *b, float *c,
                                      float *d)
{
    bench_rng r = bench_rng_make(p->seed);
    size_t nn = (size_t)p->n * p->n;
    bench_fill_general(&r, a, nn);
    bench_fill_general(&r, b, nn);
    bench_fill_general(&r, c, nn);
    bench_fill_general(&r, d, nn);
}

/* Bit-exact (3mm.ptx): out = fma.rn(x[i][k], y[k][j], out) from 0. */
static inline void mm3_product_exact(int n, const float *x, const float *y, float *out)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s = fmaf(x[(size_t)i * n + k], y[(size_t)k * n + j], s);
            out[(size_t)i * n + j] = s;
        }
}

static inline void mm3_reference_exact(int n, const float *a, const float *b, const float *c,
                                       const float *d, float *want)
{
    size_t nn = (size_t)n * n;
    float *e = (float *)bench_xmalloc(2 * nn * sizeof(float)), *f = e + nn;
    mm3_product_exact(n, a, b, e);
    mm3_product_exact(n, c, d, f);
    mm3_product_exact(n, e, f, want);
    free(e);
}
#endif
