/* dct driver: the kernel of bench/cuda/dct.cu from its PTX. */
#include "bench.h"
#include "../ref/dct.h"

int bench_dct(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "dct", dct_presets, dct_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: full-precision floats (the check is bit-exact either
     * way); n stays a multiple of 8 (whole blocks). */
    size_t bytes = (size_t)p.n * p.n * sizeof(float), cbytes = DCT_B * DCT_B * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes), *ct = (float *)bench_xmalloc(cbytes);
    dct_cos_table(ct);
    if (bench_general(o)) {
        bench_rng r = bench_rng_make(p.seed);
        bench_fill_general(&r, x, (size_t)p.n * p.n);
    } else {
        dct_inputs(&p, x);
    }
    dct_reference(&p, ct, x, want);
    uint64_t dx = bench_upload(&c, x, bytes), dc = bench_upload(&c, ct, cbytes);
    uint64_t dy = bench_alloc(&c, bytes);
    BENCH_LAUNCH(&c, "dct8x8", DIM2(p.n / DCT_B, p.n / DCT_B), DIM2(DCT_B, DCT_B), 0,
                 BARG(dy), BARG(dx), BARG(dc), BARG(p.n));
    bench_read(&c, y, dy, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("dct: out", y, want, (size_t)p.n * p.n, 0.0, why, sizeof why);
    free(x); free(y); free(want); free(ct);
    return bench_end(&c, bad, why);
}
