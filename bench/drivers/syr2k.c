/* syr2k driver: the kernel of bench/cuda/syr2k.cu from its PTX. */
#include "bench.h"
#include "../ref/syr2k.h"

int bench_syr2k(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "syr2k", syr2k_presets, syr2k_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, syr2k_check))   /* not a multiple of 32 or 8 */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *cm = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        syr2k_inputs_general(&p, a, b, cm);
        syr2k_reference_exact(n, a, b, cm, want);
    } else {
        syr2k_inputs(&p, a, b, cm);
        syr2k_reference(n, a, b, cm, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_upload(&c, cm, bytes);
    BENCH_LAUNCH(&c, "syr2k", DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y)),
                 DIM2(POLY_BLOCK_X, POLY_BLOCK_Y), 0, BARG(da), BARG(db), BARG(dc), BARG(n));
    bench_read(&c, cm, dc, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("syr2k: c", cm, want, (size_t)n * n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(a); free(b); free(cm); free(want);
    return bench_end(&c, bad, why);
}
