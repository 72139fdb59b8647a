/* srad1 driver: the six kernels of bench/cuda/srad1.cu from its PTX in the
 * CUDA program's sequence (extract; per iteration prepare, reduce per level,
 * srad, srad2; compress), the two sums read back for the host's q0^2. */
#include <string.h>
#include "bench.h"
#include "../ref/srad1.h"

int bench_srad1(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "srad1", srad1_presets, srad1_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: n*n not a multiple of 256 (partial blocks at every
     * level); the reference is exact for any input */
    if (bench_general_size(&c, &p, p.n - 3, 0, srad1_check))
        return bench_end(&c, 0, NULL);
    int n = p.n, ne = n * n;
    size_t bytes = (size_t)ne * sizeof(float), ib = (size_t)n * sizeof(int32_t);
    float *img = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    int32_t *in = (int32_t *)bench_xmalloc(ib), *is = (int32_t *)bench_xmalloc(ib);
    int32_t *jw = (int32_t *)bench_xmalloc(ib), *je = (int32_t *)bench_xmalloc(ib);
    srad1_inputs(&p, img, in, is, jw, je);
    memcpy(want, img, bytes);
    srad1_reference(n, p.iters, want);
    uint64_t dI = bench_upload(&c, img, bytes);
    uint64_t diN = bench_upload(&c, in, ib), diS = bench_upload(&c, is, ib);
    uint64_t djW = bench_upload(&c, jw, ib), djE = bench_upload(&c, je, ib);
    uint64_t dN = bench_alloc(&c, bytes), dS = bench_alloc(&c, bytes), dW = bench_alloc(&c, bytes);
    uint64_t dE = bench_alloc(&c, bytes), dc = bench_alloc(&c, bytes);
    uint64_t ds = bench_alloc(&c, bytes), ds2 = bench_alloc(&c, bytes);
    smc_dim3 grid = DIM1(srad1_blocks(ne)), block = DIM1(SRAD1_THREADS);
    BENCH_LAUNCH(&c, "srad1_extract", grid, block, 0, BARG(ne), BARG(dI));
    for (int t = 0; t < p.iters && !bench_failed(&c); t++) {
        BENCH_LAUNCH(&c, "srad1_prepare", grid, block, 0, BARG(ne), BARG(dI), BARG(ds), BARG(ds2));
        for (int no = ne, mul = 1;; no = srad1_blocks(no), mul *= SRAD1_THREADS) {
            BENCH_LAUNCH(&c, "srad1_reduce", DIM1(srad1_blocks(no)), block, 0, BARG(no), BARG(mul),
                         BARG(ds), BARG(ds2));
            if (srad1_blocks(no) == 1)
                break;
        }
        float sum = 0, sum2 = 0;
        bench_read(&c, &sum, ds, sizeof sum);
        bench_read(&c, &sum2, ds2, sizeof sum2);
        float q0sqr = srad1_q0sqr(ne, sum, sum2);
        BENCH_LAUNCH(&c, "srad1_srad", grid, block, 0, BARG(n), BARG(diN), BARG(diS), BARG(djW),
                     BARG(djE), BARG(dN), BARG(dS), BARG(dW), BARG(dE), BARG(q0sqr), BARG(dc),
                     BARG(dI));
        BENCH_LAUNCH(&c, "srad1_srad2", grid, block, 0, BARG(n), BARG(diS), BARG(djE), BARG(dN),
                     BARG(dS), BARG(dW), BARG(dE), BARG(dc), BARG(dI));
    }
    BENCH_LAUNCH(&c, "srad1_compress", grid, block, 0, BARG(ne), BARG(dI));
    bench_read(&c, img, dI, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("srad1: I", img, want, (size_t)ne, 0.0, why, sizeof why);
    free(img); free(want); free(in); free(is); free(jw); free(je);
    return bench_end(&c, bad, why);
}
