/* binarysearch driver: the kernel of bench/cuda/binarysearch.cu from its PTX. */
#include "bench.h"
#include "../ref/binarysearch.h"

int bench_binarysearch(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "binarysearch", binarysearch_presets, binarysearch_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: a key count that is not a multiple of the block (the
     * grid-stride bound), an array length that is not a power of two. */
    if (bench_general_size(&c, &p, p.n - 5, p.iters - 3, binarysearch_check))
        return bench_end(&c, 0, NULL);
    size_t abytes = (size_t)p.n * sizeof(int32_t), kbytes = (size_t)p.iters * sizeof(int32_t);
    int32_t *a = (int32_t *)bench_xmalloc(abytes), *keys = (int32_t *)bench_xmalloc(kbytes);
    int32_t *pos = (int32_t *)bench_xmalloc(kbytes), *want = (int32_t *)bench_xmalloc(kbytes);
    binarysearch_inputs(&p, a, keys);
    binarysearch_reference(&p, a, keys, want);
    uint64_t da = bench_upload(&c, a, abytes), dk = bench_upload(&c, keys, kbytes);
    uint64_t dpos = bench_alloc(&c, kbytes);
    BENCH_LAUNCH(&c, "binarysearch", DIM1(binarysearch_grid(&p)), DIM1(BINSEARCH_BLOCK), 0,
                 BARG(dpos), BARG(da), BARG(dk), BARG(p.n), BARG(p.iters));
    bench_read(&c, pos, dpos, kbytes);
    if (!bench_failed(&c))
        bad = bench_compare_int("binarysearch: pos", pos, want, (size_t)p.iters, why, sizeof why);
    free(a); free(keys); free(pos); free(want);
    return bench_end(&c, bad, why);
}
