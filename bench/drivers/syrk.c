/* syrk driver: the kernel of bench/cuda/syrk.cu from its PTX. */
#include "bench.h"
#include "../ref/syrk.h"

int bench_syrk(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "syrk", syrk_presets, syrk_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, syrk_check))   /* not a multiple of 32 or 8 */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *cm = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        syrk_inputs_general(&p, a, cm);
        syrk_reference_exact(n, a, cm, want);
    } else {
        syrk_inputs(&p, a, cm);
        syrk_reference(n, a, cm, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), dc = bench_upload(&c, cm, bytes);
    BENCH_LAUNCH(&c, "syrk", DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y)),
                 DIM2(POLY_BLOCK_X, POLY_BLOCK_Y), 0, BARG(da), BARG(dc), BARG(n));
    bench_read(&c, cm, dc, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("syrk: c", cm, want, (size_t)n * n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(a); free(cm); free(want);
    return bench_end(&c, bad, why);
}
