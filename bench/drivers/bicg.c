/* bicg driver: bicg_kernel1 and bicg_kernel2 from bench/ptx/bicg.ptx. */
#include "bench.h"
#include "../ref/bicg.h"

int bench_bicg(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "bicg", bicg_presets, bicg_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, bicg_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes), *r = (float *)bench_xmalloc(vbytes);
    float *pv = (float *)bench_xmalloc(vbytes);
    float *s = (float *)bench_xmalloc(vbytes), *q = (float *)bench_xmalloc(vbytes);
    float *ws = (float *)bench_xmalloc(vbytes), *wq = (float *)bench_xmalloc(vbytes);
    if (bench_general(o)) {
        bicg_inputs_general(&p, a, r, pv);
        bicg_reference_exact(n, a, r, pv, ws, wq);
    } else {
        bicg_inputs(&p, a, r, pv);
        bicg_reference(n, a, r, pv, ws, wq);
    }
    double tol = bench_general(o) ? 0.0 : 1e-5;
    uint64_t da = bench_upload(&c, a, abytes), dr = bench_upload(&c, r, vbytes);
    uint64_t dp = bench_upload(&c, pv, vbytes);
    uint64_t ds = bench_alloc(&c, vbytes), dq = bench_alloc(&c, vbytes);
    smc_dim3 grid = DIM1(poly_div_up(n, POLY_BLOCK_1D)), block = DIM1(POLY_BLOCK_1D);
    BENCH_LAUNCH(&c, "bicg_kernel1", grid, block, 0, BARG(da), BARG(dr), BARG(ds), BARG(n));
    BENCH_LAUNCH(&c, "bicg_kernel2", grid, block, 0, BARG(da), BARG(dp), BARG(dq), BARG(n));
    bench_read(&c, s, ds, vbytes);
    bench_read(&c, q, dq, vbytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("bicg: s", s, ws, (size_t)n, tol, why, sizeof why) ||
              bench_compare_float("bicg: q", q, wq, (size_t)n, tol, why, sizeof why);
    free(a); free(r); free(pv); free(s); free(q); free(ws); free(wq);
    return bench_end(&c, bad, why);
}
