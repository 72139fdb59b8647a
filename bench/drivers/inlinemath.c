/* inlinemath driver: the kernel of bench/cuda/inlinemath.cu from its PTX. */
#include "bench.h"
#include "../ref/inlinemath.h"

int bench_inlinemath(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "inlinemath", inlinemath_presets, inlinemath_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: n not a multiple of the block (the bounds check). */
    if (bench_general_size(&c, &p, p.n - 3, 0, inlinemath_check))
        return bench_end(&c, 0, NULL);
    size_t bytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    inlinemath_inputs(&p, x, y);
    inlinemath_reference(&p, x, y, want);
    uint64_t dx = bench_upload(&c, x, bytes), dy = bench_upload(&c, y, bytes);
    uint64_t dout = bench_alloc(&c, bytes);
    BENCH_LAUNCH(&c, "inlinemath", DIM1((p.n + INLINEMATH_BLOCK - 1) / INLINEMATH_BLOCK),
                 DIM1(INLINEMATH_BLOCK), 0, BARG(dout), BARG(dx), BARG(dy), BARG(p.n));
    bench_read(&c, out, dout, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("inlinemath: out", out, want, (size_t)p.n, INLINEMATH_TOL,
                                  why, sizeof why);
    free(x); free(y); free(out); free(want);
    return bench_end(&c, bad, why);
}
