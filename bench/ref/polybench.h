/*
 * polybench.h — what the PolyBench/GPU-style benchmarks share (gemm, 2mm,
 * jacobi2d, conv2d, mvt, atax, bicg): the thread-block shape of the
 * PolyBench/GPU CUDA kernels (32 x 8 for 2D kernels, 256 for 1D ones) and
 * the grid arithmetic.
 */
#ifndef BENCH_REF_POLYBENCH_H
#define BENCH_REF_POLYBENCH_H
#include "common.h"

#define POLY_BLOCK_X 32
#define POLY_BLOCK_Y 8
#define POLY_BLOCK_1D 256

static inline int poly_div_up(int a, int b) { return (a + b - 1) / b; }

/* Square problems up to this side (n*n floats must stay well inside memory). */
#define POLY_MAX_N 8192

static inline int poly_check_n(const bench_params *p, char *why, size_t len)
{
    if (p->n < 3 || p->n > POLY_MAX_N) {
        snprintf(why, len, "n=%d must be in [3, %d]", p->n, POLY_MAX_N);
        return 1;
    }
    return 0;
}
#endif
