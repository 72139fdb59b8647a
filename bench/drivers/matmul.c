/* matmul driver: matmul_naive and matmul_tiled from bench/ptx/matmul.ptx. */
#include "bench.h"
#include "../ref/matmul.h"

int bench_matmul(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "matmul", matmul_presets, matmul_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: general floats; n stays a multiple of the tile
     * (matmul_tiled has no bounds checks: its grid is exactly n/TILE blocks
     * square), but matmul_naive, which checks row/col against n, gets one
     * extra block row and column whose threads must all do nothing. */
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        matmul_inputs_general(&p, a, b);
        matmul_reference_exact(n, a, b, want);
    } else {
        matmul_inputs(&p, a, b);
        matmul_reference(n, a, b, want);
    }
    double tol = bench_general(o) ? 0.0 : 1e-6;
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_alloc(&c, bytes);
    smc_dim3 grid = DIM2(n / MATMUL_TILE, n / MATMUL_TILE);
    smc_dim3 block = DIM2(MATMUL_TILE, MATMUL_TILE);

    smc_dim3 grid_naive = bench_general(o) ? DIM2(n / MATMUL_TILE + 1, n / MATMUL_TILE + 1) : grid;
    BENCH_LAUNCH(&c, "matmul_naive", grid_naive, block, 0, BARG(da), BARG(db), BARG(dc), BARG(n));
    bench_read(&c, out, dc, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("matmul_naive: c", out, want, (size_t)n * n, tol,
                                  why, sizeof why);
    if (!bad) {
        bench_memset(&c, dc, 0, bytes);
        BENCH_LAUNCH(&c, "matmul_tiled", grid, block, 0, BARG(da), BARG(db), BARG(dc), BARG(n));
        bench_read(&c, out, dc, bytes);
        if (!bench_failed(&c))
            bad = bench_compare_float("matmul_tiled: c", out, want, (size_t)n * n, tol,
                                      why, sizeof why);
    }
    free(a); free(b); free(out); free(want);
    return bench_end(&c, bad, why);
}
