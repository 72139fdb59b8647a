/* fft driver: the kernel of bench/cuda/fft.cu from its PTX. */
#include "bench.h"
#include "../ref/fft.h"

int bench_fft(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "fft", fft_presets, fft_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: full-precision floats (the check is bit-exact either
     * way); n stays a power of two. */
    size_t total = (size_t)p.n * p.iters * 2, bytes = total * sizeof(float);
    size_t wbytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes), *w = (float *)bench_xmalloc(wbytes);
    fft_twiddles(p.n, w);
    if (bench_general(o)) {
        bench_rng r = bench_rng_make(p.seed);
        bench_fill_general(&r, x, total);
    } else {
        fft_inputs(&p, x);
    }
    fft_reference(&p, w, x, want);
    uint64_t dx = bench_upload(&c, x, bytes), dw = bench_upload(&c, w, wbytes);
    int logn = fft_log2(p.n);
    BENCH_LAUNCH(&c, "fft_radix2", DIM1(p.iters), DIM1(p.n / 2), fft_smem(&p),
                 BARG(dx), BARG(dw), BARG(p.n), BARG(logn));
    bench_read(&c, y, dx, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("fft: x", y, want, total, 0.0, why, sizeof why);
    free(x); free(y); free(want); free(w);
    return bench_end(&c, bad, why);
}
