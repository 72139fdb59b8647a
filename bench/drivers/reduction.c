/* reduction driver: the kernel of bench/cuda/reduction.cu from its PTX, one launch per level. */
#include "bench.h"
#include "../ref/reduction.h"

int bench_reduction(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "reduction", reduction_presets, reduction_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: n not a multiple of the vector or the block, so the
     * zero padding and the bounds check matter. */
    if (bench_general_size(&c, &p, p.n - 3, 0, reduction_check))
        return bench_end(&c, 0, NULL);
    int g1 = reduction_blocks(p.n);
    size_t bytes = (size_t)reduction_padded(p.n) * sizeof(int32_t);
    size_t pbytes = (size_t)reduction_padded(g1) * sizeof(int32_t);
    int32_t *x = (int32_t *)bench_xmalloc(bytes);
    int32_t *part = (int32_t *)bench_xmalloc(pbytes), *want = (int32_t *)bench_xmalloc(pbytes);
    int32_t total = 0, want_total = 0;
    memset(x, 0, bytes);
    reduction_inputs(&p, x);
    reduction_reference(&p, x, want, &want_total);
    uint64_t src = bench_upload(&c, x, bytes);
    uint64_t dp[2] = { bench_alloc(&c, pbytes), bench_alloc(&c, pbytes) };   /* zeroed */
    int m = p.n, level = 0;
    do {
        int g = reduction_blocks(m), nvec = reduction_padded(m) / REDUCTION_VEC;
        uint64_t dst = dp[level & 1];
        BENCH_LAUNCH(&c, "reduction", DIM1(g), DIM1(REDUCTION_BLOCK), 0,
                     BARG(dst), BARG(src), BARG(nvec));
        if (level == 0)
            bench_read(&c, part, dst, (size_t)g1 * sizeof(int32_t));
        src = dst; m = g; level++;
    } while (m > 1 && !bench_failed(&c));
    bench_read(&c, &total, src, sizeof total);
    if (!bench_failed(&c)) {
        bad = bench_compare_int("reduction: partial", part, want, (size_t)g1, why, sizeof why);
        if (!bad)
            bad = bench_compare_int("reduction: total", &total, &want_total, 1, why, sizeof why);
    }
    free(x); free(part); free(want);
    return bench_end(&c, bad, why);
}
