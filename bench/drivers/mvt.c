/* mvt driver: mvt_kernel1 and mvt_kernel2 from bench/ptx/mvt.ptx. */
#include "bench.h"
#include "../ref/mvt.h"

int bench_mvt(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "mvt", mvt_presets, mvt_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, mvt_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes);
    float *x1 = (float *)bench_xmalloc(vbytes), *x2 = (float *)bench_xmalloc(vbytes);
    float *y1 = (float *)bench_xmalloc(vbytes), *y2 = (float *)bench_xmalloc(vbytes);
    float *w1 = (float *)bench_xmalloc(vbytes), *w2 = (float *)bench_xmalloc(vbytes);
    if (bench_general(o)) {
        mvt_inputs_general(&p, a, x1, x2, y1, y2);
        mvt_reference_exact(n, a, x1, x2, y1, y2, w1, w2);
    } else {
        mvt_inputs(&p, a, x1, x2, y1, y2);
        mvt_reference(n, a, x1, x2, y1, y2, w1, w2);
    }
    double tol = bench_general(o) ? 0.0 : 1e-5;
    uint64_t da = bench_upload(&c, a, abytes);
    uint64_t dx1 = bench_upload(&c, x1, vbytes), dx2 = bench_upload(&c, x2, vbytes);
    uint64_t dy1 = bench_upload(&c, y1, vbytes), dy2 = bench_upload(&c, y2, vbytes);
    smc_dim3 grid = DIM1(poly_div_up(n, POLY_BLOCK_1D)), block = DIM1(POLY_BLOCK_1D);
    BENCH_LAUNCH(&c, "mvt_kernel1", grid, block, 0, BARG(da), BARG(dx1), BARG(dy1), BARG(n));
    BENCH_LAUNCH(&c, "mvt_kernel2", grid, block, 0, BARG(da), BARG(dx2), BARG(dy2), BARG(n));
    bench_read(&c, x1, dx1, vbytes);
    bench_read(&c, x2, dx2, vbytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("mvt: x1", x1, w1, (size_t)n, tol, why, sizeof why) ||
              bench_compare_float("mvt: x2", x2, w2, (size_t)n, tol, why, sizeof why);
    free(a); free(x1); free(x2); free(y1); free(y2); free(w1); free(w2);
    return bench_end(&c, bad, why);
}
