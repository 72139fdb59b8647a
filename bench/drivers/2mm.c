/* 2mm driver: mm2_kernel1 and mm2_kernel2 from bench/ptx/2mm.ptx.
 * (The C function is bench_twomm: an identifier cannot start with a digit.) */
#include "bench.h"
#include "../ref/2mm.h"

int bench_twomm(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "2mm", mm2_presets, mm2_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, mm2_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *cm = (float *)bench_xmalloc(bytes), *d = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        mm2_inputs_general(&p, a, b, cm, d);
        mm2_reference_exact(n, a, b, cm, d, want);
    } else {
        mm2_inputs(&p, a, b, cm, d);
        mm2_reference(n, a, b, cm, d, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_upload(&c, cm, bytes), dd = bench_upload(&c, d, bytes);
    uint64_t dtmp = bench_alloc(&c, bytes);
    smc_dim3 grid = DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    smc_dim3 block = DIM2(POLY_BLOCK_X, POLY_BLOCK_Y);
    BENCH_LAUNCH(&c, "mm2_kernel1", grid, block, 0, BARG(da), BARG(db), BARG(dtmp), BARG(n));
    BENCH_LAUNCH(&c, "mm2_kernel2", grid, block, 0, BARG(dtmp), BARG(dc), BARG(dd), BARG(n));
    bench_read(&c, d, dd, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("2mm: d", d, want, (size_t)n * n, bench_general(o) ? 0.0 : 1e-5, why, sizeof why);
    free(a); free(b); free(cm); free(d); free(want);
    return bench_end(&c, bad, why);
}
