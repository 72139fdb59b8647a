/* jacobi2d driver: jacobi2d_kernel1/2 per time step from bench/ptx/jacobi2d.ptx. */
#include "bench.h"
#include "../ref/jacobi2d.h"

int bench_jacobi2d(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "jacobi2d", jacobi2d_presets, jacobi2d_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: a side that is not a multiple of 32 or 8; the
     * reference already adds in the kernel's order, so it compares exactly. */
    if (bench_general_size(&c, &p, p.n - 3, 0, jacobi2d_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(bytes);
    jacobi2d_inputs(&p, a, b);
    if (bench_general(o)) {
        /* B starts different from A, so a kernel that writes B's border or
         * copies it into A is seen; both arrays are compared. */
        bench_rng r = bench_rng_make(p.seed ^ 0xb0b0u);
        bench_fill_float(&r, b, (size_t)n * n, 0.0f, 1.0f);
    }
    float *bout = (float *)bench_xmalloc(bytes);
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    jacobi2d_reference(&p, a, b);
    smc_dim3 grid = DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    smc_dim3 block = DIM2(POLY_BLOCK_X, POLY_BLOCK_Y);
    for (int t = 0; t < p.iters; t++) {
        BENCH_LAUNCH(&c, "jacobi2d_kernel1", grid, block, 0, BARG(da), BARG(db), BARG(n));
        BENCH_LAUNCH(&c, "jacobi2d_kernel2", grid, block, 0, BARG(da), BARG(db), BARG(n));
    }
    bench_read(&c, out, da, bytes);
    bench_read(&c, bout, db, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("jacobi2d: a", out, a, (size_t)n * n, bench_general(o) ? 0.0 : 1e-5, why, sizeof why) ||
              (bench_general(o) &&
               bench_compare_float("jacobi2d: b", bout, b, (size_t)n * n, 0.0, why, sizeof why));
    free(a); free(b); free(out); free(bout);
    return bench_end(&c, bad, why);
}
