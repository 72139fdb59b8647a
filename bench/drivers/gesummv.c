/* gesummv driver: the kernel of bench/cuda/gesummv.cu from its PTX. */
#include "bench.h"
#include "../ref/gesummv.h"

int bench_gesummv(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "gesummv", gesummv_presets, gesummv_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, gesummv_check))   /* a partial block */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes), *b = (float *)bench_xmalloc(abytes);
    float *x = (float *)bench_xmalloc(vbytes), *y = (float *)bench_xmalloc(vbytes);
    float *want = (float *)bench_xmalloc(vbytes);
    if (bench_general(o)) {
        gesummv_inputs_general(&p, a, b, x);
        gesummv_reference_exact(n, a, b, x, want);
    } else {
        gesummv_inputs(&p, a, b, x);
        gesummv_reference(n, a, b, x, want);
    }
    uint64_t da = bench_upload(&c, a, abytes), db = bench_upload(&c, b, abytes);
    uint64_t dx = bench_upload(&c, x, vbytes);
    uint64_t dy = bench_alloc(&c, vbytes), dtmp = bench_alloc(&c, vbytes);
    BENCH_LAUNCH(&c, "gesummv", DIM1(poly_div_up(n, POLY_BLOCK_1D)), DIM1(POLY_BLOCK_1D), 0,
                 BARG(da), BARG(db), BARG(dx), BARG(dy), BARG(dtmp), BARG(n));
    bench_read(&c, y, dy, vbytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("gesummv: y", y, want, (size_t)n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(a); free(b); free(x); free(y); free(want);
    return bench_end(&c, bad, why);
}
