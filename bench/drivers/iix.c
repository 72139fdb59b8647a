/* iix driver: iix_count, iix_map, iix_bitonic and iix_group of
 * bench/cuda/iix.cu from its PTX, in the CUDA program's sequence: the
 * counts are read back and checked, the host's prefix sum of them places
 * each document's pairs, the sort is one launch per (size, stride). */
#include <string.h>
#include "bench.h"
#include "../ref/iix.h"

int bench_iix(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "iix", iix_presets, iix_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: the work is integer and checked exactly already;
     * a partial last block of documents */
    if (bench_general_size(&c, &p, p.n - 3, 0, iix_check))
        return bench_end(&c, 0, NULL);
    int n = p.n, blocks = (n + IIX_BLOCK - 1) / IIX_BLOCK;
    size_t tb = iix_text_bytes(n, p.iters), sb = (size_t)(n + 1) * sizeof(int32_t);
    char *text = (char *)bench_xmalloc(tb);
    int32_t *start = (int32_t *)bench_xmalloc(sb), *count = (int32_t *)bench_xmalloc(sb);
    int32_t *wcount = (int32_t *)bench_xmalloc(sb), *offset = (int32_t *)bench_xmalloc(sb);
    iix_inputs(&p, text, start);
    uint64_t dtext = bench_upload(&c, text, (size_t)start[n] + 1);
    uint64_t dstart = bench_upload(&c, start, sb);
    uint64_t dcount = bench_alloc(&c, sb), doffset = bench_alloc(&c, sb);
    BENCH_LAUNCH(&c, "iix_count", DIM1(blocks), DIM1(IIX_BLOCK), 0, BARG(dtext), BARG(dstart),
                 BARG(n), BARG(dcount));
    bench_read(&c, count, dcount, (size_t)n * sizeof(int32_t));
    if (!bench_failed(&c)) {
        iix_count_ref(n, text, start, wcount);
        bad = bench_compare_int("iix: count", count, wcount, (size_t)n, why, sizeof why);
    }
    if (!bad && !bench_failed(&c)) {
        int m = iix_offsets(n, count, offset), pad = iix_padded(m);
        size_t pb = (size_t)pad * sizeof(uint32_t), mb = (size_t)(m > 0 ? m : 1) * sizeof(uint32_t);
        uint32_t *key = (uint32_t *)bench_xmalloc(mb), *val = (uint32_t *)bench_xmalloc(mb);
        uint32_t *wkey = (uint32_t *)bench_xmalloc(mb), *wval = (uint32_t *)bench_xmalloc(mb);
        int32_t *run = (int32_t *)bench_xmalloc(mb), *wrun = (int32_t *)bench_xmalloc(mb);
        uint64_t dkey = bench_alloc(&c, pb), dval = bench_alloc(&c, pb), drun = bench_alloc(&c, mb);
        bench_memset(&c, dkey, 0xFF, pb);          /* the padding sorts last */
        bench_memset(&c, dval, 0xFF, pb);
        bench_write(&c, doffset, offset, sb);
        BENCH_LAUNCH(&c, "iix_map", DIM1(blocks), DIM1(IIX_BLOCK), 0, BARG(dtext), BARG(dstart),
                     BARG(doffset), BARG(n), BARG(dkey), BARG(dval));
        int threads = pad / 2 < IIX_SORT_BLOCK ? pad / 2 : IIX_SORT_BLOCK;
        for (uint32_t size = 2; size <= (uint32_t)pad; size <<= 1)
            for (uint32_t stride = size / 2; stride > 0; stride >>= 1)
                BENCH_LAUNCH(&c, "iix_bitonic", DIM1(pad / 2 / threads), DIM1(threads), 0,
                             BARG(dkey), BARG(dval), BARG(size), BARG(stride));
        if (m > 0)
            BENCH_LAUNCH(&c, "iix_group", DIM1((m + IIX_SORT_BLOCK - 1) / IIX_SORT_BLOCK),
                         DIM1(IIX_SORT_BLOCK), 0, BARG(dkey), BARG(m), BARG(drun));
        bench_read(&c, key, dkey, (size_t)m * sizeof(uint32_t));
        bench_read(&c, val, dval, (size_t)m * sizeof(uint32_t));
        bench_read(&c, run, drun, (size_t)m * sizeof(int32_t));
        if (!bench_failed(&c)) {
            iix_reference(n, text, start, offset, wkey, wval, wrun);
            bad = bench_compare_u32("iix: key", key, wkey, (size_t)m, why, sizeof why) ||
                  bench_compare_u32("iix: val", val, wval, (size_t)m, why, sizeof why) ||
                  bench_compare_int("iix: run", run, wrun, (size_t)m, why, sizeof why);
        }
        free(key); free(val); free(wkey); free(wval); free(run); free(wrun);
    }
    free(text); free(start); free(count); free(wcount); free(offset);
    return bench_end(&c, bad, why);
}
