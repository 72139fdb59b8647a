/*
 * spmv — y = A x for a sparse n x n matrix in CSR form, scalar kernel: one
 * thread per row (Bell & Garland "CSR scalar"; the SpMV of seed 001 Table 2,
 * memory-divergent). Rows have 0..2*SPMV_AVG_NNZ-1 random non-zeros, so
 * warps diverge on loop trip counts and gather x irregularly. Memory-bound.
 *   n: rows (= columns).
 */
#ifndef BENCH_REF_SPMV_H
#define BENCH_REF_SPMV_H
#include "common.h"

#define SPMV_AVG_NNZ 8
#define SPMV_BLOCK 256

static const bench_params spmv_presets[BENCH_SIZE_COUNT] = {
    { 1024, 1, BENCH_DEFAULT_SEED },
    { 65536, 1, BENCH_DEFAULT_SEED },
    { 1 << 20, 1, BENCH_DEFAULT_SEED },
    /* paper: SHOC Spmv default (-s 1): 1024 rows, 1 % non-zeros (about 10
     * per row; ours 0..15, mean 7.5), one launch (SHOC repeats the kernel
     * per pass and format). */
    { 1024, 1, BENCH_DEFAULT_SEED },
};

static inline int spmv_check(const bench_params *p, char *why, size_t len)
{
    if (p->n > (1 << 22)) {
        snprintf(why, len, "n=%d is above 2^22", p->n);
        return 1;
    }
    return 0;
}

/* cols/vals must hold n * 2 * SPMV_AVG_NNZ entries; returns nnz. */
static inline int spmv_inputs(const bench_params *p, int32_t *row_ptr,
                              int32_t *cols, float *vals, float *x)
{
    bench_rng r = bench_rng_make(p->seed);
    int nnz = 0;
    for (int i = 0; i < p->n; i++) {
        int k = bench_rand_int(&r, 2 * SPMV_AVG_NNZ);
        row_ptr[i] = nnz;
        for (int j = 0; j < k; j++) {
            cols[nnz] = bench_rand_int(&r, p->n);
            vals[nnz] = bench_rand_q8(&r);
            nnz++;
        }
    }
    row_ptr[p->n] = nnz;
    bench_fill_q8(&r, x, (size_t)p->n);
    return nnz;
}

static inline void spmv_reference(int n, const int32_t *row_ptr, const int32_t *cols,
                                  const float *vals, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)
            s += (double)vals[k] * x[cols[k]];
        y[i] = (float)s;
    }
}
/* --inputs general: the same matrix structure, full-precision values. */
static inline void spmv_values_general(const bench_params *p, int nnz, float *vals, float *x)
{
    bench_rng r = bench_rng_make(p->seed ^ 0x5eed5eedu);
    bench_fill_general(&r, vals, (size_t)nnz);
    bench_fill_general(&r, x, (size_t)p->n);
}

/* Bit-exact (spmv.ptx): sum = fma.rn(vals[k], x[cols[k]], sum) from 0 in
 * k order. */
static inline void spmv_reference_exact(int n, const int32_t *row_ptr, const int32_t *cols,
                                        const float *vals, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)
            s = fmaf(vals[k], x[cols[k]], s);
        y[i] = s;
    }
}
#endif
