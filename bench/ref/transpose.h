/*
 * transpose — out = in^T for an n x n float matrix, two kernels (CUDA SDK
 * transpose; seed 000 Table 4.2 "MT", 128x128-1kx1k; Tables 5.3, 6.2):
 *   transpose_naive   reads rows, writes columns (uncoalesced stores);
 *   transpose_shared  32x32 tile in shared memory padded to 33 columns to
 *                     avoid bank conflicts, block 32x8 (each thread 4 rows).
 * Memory-bound.  n: matrix side, a multiple of TRANSPOSE_TILE.
 */
#ifndef BENCH_REF_TRANSPOSE_H
#define BENCH_REF_TRANSPOSE_H
#include "common.h"

#define TRANSPOSE_TILE 32
#define TRANSPOSE_ROWS 8   /* blockDim.y: each thread moves TILE/ROWS elements */

static const bench_params transpose_presets[BENCH_SIZE_COUNT] = {
    { 64, 1, BENCH_DEFAULT_SEED },
    { 512, 1, BENCH_DEFAULT_SEED },
    { 2048, 1, BENCH_DEFAULT_SEED },
    /* paper: seed 000 Table 4.2 (MT, 128 x 128 - 1k x 1k): its largest,
     * 1024 x 1024. */
    { 1024, 1, BENCH_DEFAULT_SEED },
};

static inline int transpose_check(const bench_params *p, char *why, size_t len)
{
    if (p->n % TRANSPOSE_TILE || p->n > 8192) {
        snprintf(why, len, "n=%d must be a multiple of %d and at most 8192",
                 p->n, TRANSPOSE_TILE);
        return 1;
    }
    return 0;
}

static inline void transpose_inputs(const bench_params *p, float *in)
{
    bench_rng r = bench_rng_make(p->seed);
    bench_fill_float(&r, in, (size_t)p->n * p->n, -100.0f, 100.0f);
}

static inline int transpose_verify(const char *kernel, int n, const float *in,
                                   const float *out, char *why, size_t len)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (out[(size_t)j * n + i] != in[(size_t)i * n + j]) {
                snprintf(why, len, "%s: out[%d][%d] = %.9g, expected %.9g",
                         kernel, j, i, (double)out[(size_t)j * n + i],
                         (double)in[(size_t)i * n + j]);
                return 1;
            }
    return 0;
}
#endif
