/* fdtd2d driver: fdtd_step1..3 of bench/cuda/fdtd2d.cu from its PTX, three
 * launches per time step. */
#include <string.h>
#include "bench.h"
#include "../ref/fdtd2d.h"

int bench_fdtd2d(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "fdtd2d", fdtd_presets, fdtd_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, fdtd_check))   /* not a multiple of 32 or 8 */
        return bench_end(&c, 0, NULL);
    int n = p.n, steps = p.iters;
    size_t bytes = (size_t)n * n * sizeof(float), fbytes = (size_t)steps * sizeof(float);
    float *ex = (float *)bench_xmalloc(bytes), *ey = (float *)bench_xmalloc(bytes);
    float *hz = (float *)bench_xmalloc(bytes), *fict = (float *)bench_xmalloc(fbytes);
    float *wex = (float *)bench_xmalloc(bytes), *wey = (float *)bench_xmalloc(bytes);
    float *whz = (float *)bench_xmalloc(bytes);
    if (bench_general(o))
        fdtd_inputs_general(&p, fict, ex, ey, hz);
    else
        fdtd_inputs(&p, fict, ex, ey, hz);
    memcpy(wex, ex, bytes); memcpy(wey, ey, bytes); memcpy(whz, hz, bytes);
    if (bench_general(o))
        fdtd_reference_exact(n, steps, fict, wex, wey, whz);
    else
        fdtd_reference(n, steps, fict, wex, wey, whz);
    uint64_t dfict = bench_upload(&c, fict, fbytes);
    uint64_t dex = bench_upload(&c, ex, bytes), dey = bench_upload(&c, ey, bytes);
    uint64_t dhz = bench_upload(&c, hz, bytes);
    smc_dim3 grid = DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    smc_dim3 block = DIM2(POLY_BLOCK_X, POLY_BLOCK_Y);
    for (int t = 0; t < steps; t++) {
        BENCH_LAUNCH(&c, "fdtd_step1", grid, block, 0, BARG(dfict), BARG(dey), BARG(dhz), BARG(n), BARG(t));
        BENCH_LAUNCH(&c, "fdtd_step2", grid, block, 0, BARG(dex), BARG(dhz), BARG(n));
        BENCH_LAUNCH(&c, "fdtd_step3", grid, block, 0, BARG(dex), BARG(dey), BARG(dhz), BARG(n));
    }
    bench_read(&c, ex, dex, bytes);
    bench_read(&c, ey, dey, bytes);
    bench_read(&c, hz, dhz, bytes);
    if (!bench_failed(&c)) {
        double tol = bench_general(o) ? 0.0 : FDTD_TOL;
        size_t nn = (size_t)n * n;
        bad = bench_compare_float("fdtd2d: ex", ex, wex, nn, tol, why, sizeof why) ||
              bench_compare_float("fdtd2d: ey", ey, wey, nn, tol, why, sizeof why) ||
              bench_compare_float("fdtd2d: hz", hz, whz, nn, tol, why, sizeof why);
    }
    free(ex); free(ey); free(hz); free(fict); free(wex); free(wey); free(whz);
    return bench_end(&c, bad, why);
}
