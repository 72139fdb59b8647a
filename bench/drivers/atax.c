/* atax driver: atax_kernel1 and atax_kernel2 from bench/ptx/atax.ptx. */
#include "bench.h"
#include "../ref/atax.h"

int bench_atax(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "atax", atax_presets, atax_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, atax_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes), *x = (float *)bench_xmalloc(vbytes);
    float *y = (float *)bench_xmalloc(vbytes), *want = (float *)bench_xmalloc(vbytes);
    if (bench_general(o)) {
        atax_inputs_general(&p, a, x);
        atax_reference_exact(n, a, x, want);
    } else {
        atax_inputs(&p, a, x);
        atax_reference(n, a, x, want);
    }
    uint64_t da = bench_upload(&c, a, abytes), dx = bench_upload(&c, x, vbytes);
    uint64_t dy = bench_alloc(&c, vbytes), dtmp = bench_alloc(&c, vbytes);
    smc_dim3 grid = DIM1(poly_div_up(n, POLY_BLOCK_1D)), block = DIM1(POLY_BLOCK_1D);
    BENCH_LAUNCH(&c, "atax_kernel1", grid, block, 0, BARG(da), BARG(dx), BARG(dtmp), BARG(n));
    BENCH_LAUNCH(&c, "atax_kernel2", grid, block, 0, BARG(da), BARG(dy), BARG(dtmp), BARG(n));
    bench_read(&c, y, dy, vbytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("atax: y", y, want, (size_t)n, bench_general(o) ? 0.0 : 1e-5, why, sizeof why);
    free(a); free(x); free(y); free(want);
    return bench_end(&c, bad, why);
}
