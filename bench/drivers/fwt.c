/* fwt driver: fwt_global_stage and fwt_shared from bench/ptx/fwt.ptx. */
#include "bench.h"
#include "../ref/fwt.h"

int bench_fwt(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "fwt", fwt_presets, fwt_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: general floats; n stays a power of two (the
     * butterflies need it). */
    size_t bytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        fwt_inputs_general(&p, x);
        fwt_reference_exact(&p, x, want);
    } else {
        fwt_inputs(&p, x);
        fwt_reference(&p, x, want);
    }
    uint64_t d = bench_upload(&c, x, bytes);
    int chunk = fwt_chunk(&p), half_n = p.n / 2;
    for (int stride = p.n / 2; stride >= chunk; stride >>= 1)
        BENCH_LAUNCH(&c, "fwt_global_stage", DIM1((half_n + 255) / 256), DIM1(256), 0,
                     BARG(d), BARG(stride), BARG(half_n));
    BENCH_LAUNCH(&c, "fwt_shared", DIM1(p.n / chunk), DIM1(chunk / 2),
                 (uint32_t)(chunk * sizeof(float)), BARG(d), BARG(chunk));
    bench_read(&c, y, d, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("fwt: x", y, want, (size_t)p.n, 0.0, why, sizeof why);
    free(x); free(y); free(want);
    return bench_end(&c, bad, why);
}
