/* conv2d driver: the kernel of bench/cuda/conv2d.cu from its PTX. */
#include "bench.h"
#include "../ref/conv2d.h"

int bench_conv2d(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "conv2d", conv2d_presets, conv2d_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, conv2d_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    conv2d_inputs(&p, a);
    if (bench_general(o))
        conv2d_reference_exact(n, a, want);
    else
        conv2d_reference(n, a, want);
    uint64_t da = bench_upload(&c, a, bytes), db = bench_alloc(&c, bytes);
    BENCH_LAUNCH(&c, "conv2d", DIM2(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y)),
                 DIM2(POLY_BLOCK_X, POLY_BLOCK_Y), 0, BARG(da), BARG(db), BARG(n));
    bench_read(&c, b, db, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("conv2d: b", b, want, (size_t)n * n, bench_general(o) ? 0.0 : 1e-5, why, sizeof why);
    free(a); free(b); free(want);
    return bench_end(&c, bad, why);
}
