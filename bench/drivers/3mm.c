/* 3mm driver: mm3_kernel of bench/cuda/3mm.cu from its PTX, three launches
 * (bench_threemm: identifiers cannot start with a digit). */
#include "bench.h"
#include "../ref/3mm.h"

int bench_threemm(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "3mm", mm3_presets, mm3_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, mm3_check))   /* not a multiple of 32 or 8 */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *cm = (float *)bench_xmalloc(bytes), *d = (float *)bench_xmalloc(bytes);
    float *g = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        mm3_inputs_general(&p, a, b, cm, d);
        mm3_reference_exact(n, a, b, cm, d, want);
    } else {
        mm3_inputs(&p, a, b, cm, d);
        mm3_reference(n, a, b, cm, d, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_upload(&c, cm, bytes), dd = bench_upload(&c, d, bytes);
    uint64_t de = bench_alloc(&c, bytes), df = bench_alloc(&c, bytes), dg = bench_alloc(&c, bytes);
    smc_dim3 grid = DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    smc_dim3 block = DIM2(POLY_BLOCK_X, POLY_BLOCK_Y);
    BENCH_LAUNCH(&c, "mm3_kernel", grid, block, 0, BARG(da), BARG(db), BARG(de), BARG(n));
    BENCH_LAUNCH(&c, "mm3_kernel", grid, block, 0, BARG(dc), BARG(dd), BARG(df), BARG(n));
    BENCH_LAUNCH(&c, "mm3_kernel", grid, block, 0, BARG(de), BARG(df), BARG(dg), BARG(n));
    bench_read(&c, g, dg, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("3mm: g", g, want, (size_t)n * n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(a); free(b); free(cm); free(d); free(g); free(want);
    return bench_end(&c, bad, why);
}
