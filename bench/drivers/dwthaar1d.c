/* dwthaar1d driver: the kernel of bench/cuda/dwthaar1d.cu from its PTX, one launch per chunk level. */
#include "bench.h"
#include "../ref/dwthaar1d.h"

int bench_dwthaar1d(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "dwthaar1d", dwthaar1d_presets, dwthaar1d_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: full-precision floats (the check is bit-exact either
     * way); n stays a power of two (the decomposition needs it). */
    size_t bytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *out = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        bench_rng r = bench_rng_make(p.seed);
        bench_fill_general(&r, x, (size_t)p.n);
    } else {
        dwthaar1d_inputs(&p, x);
    }
    dwthaar1d_reference(&p, x, want);
    uint64_t src = bench_upload(&c, x, bytes), dout = bench_alloc(&c, bytes);
    size_t tbytes = (size_t)(p.n / 2) * sizeof(float);
    uint64_t dtmp[2] = { bench_alloc(&c, tbytes), bench_alloc(&c, tbytes) };
    for (int m = p.n, level = 0; m > 1 && !bench_failed(&c); level++) {
        int block = dwthaar1d_block(m), grid = m / (2 * block);
        uint64_t approx = grid == 1 ? dout : dtmp[level & 1];
        BENCH_LAUNCH(&c, "dwthaar1d", DIM1(grid), DIM1(block), 0,
                     BARG(dout), BARG(approx), BARG(src), BARG(m));
        src = approx; m = grid;
    }
    bench_read(&c, out, dout, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("dwthaar1d: out", out, want, (size_t)p.n, 0.0, why, sizeof why);
    free(x); free(out); free(want);
    return bench_end(&c, bad, why);
}
