/* bitonic driver: bitonic_sort_shared, bitonic_merge_global/shared from bench/ptx/bitonic.ptx. */
#include "bench.h"
#include "../ref/bitonic.h"

int bench_bitonic(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "bitonic", bitonic_presets, bitonic_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: n stays a power of two (the network needs it), at
     * least 4 segments so that both merge kernels run. */
    if (bench_general_size(&c, &p, p.n < 4 * BITONIC_SEG ? 4 * BITONIC_SEG : 0, 0,
                           bitonic_check))
        return bench_end(&c, 0, NULL);
    size_t bytes = (size_t)p.n * sizeof(uint32_t);
    uint32_t *keys_in = (uint32_t *)bench_xmalloc(bytes), *vals_in = (uint32_t *)bench_xmalloc(bytes);
    uint32_t *keys = (uint32_t *)bench_xmalloc(bytes), *vals = (uint32_t *)bench_xmalloc(bytes);
    bitonic_inputs(&p, keys_in, vals_in);
    uint64_t dk = bench_upload(&c, keys_in, bytes), dv = bench_upload(&c, vals_in, bytes);
    BENCH_LAUNCH(&c, "bitonic_sort_shared", DIM1(p.n / BITONIC_SEG), DIM1(BITONIC_THREADS), 0,
                 BARG(dk), BARG(dv));
    for (uint32_t size = 2 * BITONIC_SEG; size <= (uint32_t)p.n; size <<= 1) {
        for (uint32_t stride = size / 2; stride >= BITONIC_SEG; stride >>= 1)
            BENCH_LAUNCH(&c, "bitonic_merge_global", DIM1(p.n / 2 / 256), DIM1(256), 0,
                         BARG(dk), BARG(dv), BARG(size), BARG(stride));
        BENCH_LAUNCH(&c, "bitonic_merge_shared", DIM1(p.n / BITONIC_SEG), DIM1(BITONIC_THREADS), 0,
                     BARG(dk), BARG(dv), BARG(size));
    }
    bench_read(&c, keys, dk, bytes);
    bench_read(&c, vals, dv, bytes);
    if (!bench_failed(&c))
        bad = bitonic_verify(&p, keys_in, keys, vals, why, sizeof why);
    free(keys_in); free(vals_in); free(keys); free(vals);
    return bench_end(&c, bad, why);
}
