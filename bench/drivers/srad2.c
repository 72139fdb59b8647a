/* srad2 driver: srad2_coef and srad2_update of bench/cuda/srad2.cu from its
 * PTX, two launches per iteration, the image read back for the host's q0^2
 * between iterations as in the CUDA program. */
#include <string.h>
#include "bench.h"
#include "../ref/srad2.h"

int bench_srad2(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "srad2", srad2_presets, srad2_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: the inputs are full-precision already and the
     * reference is exact; the tiles need n a multiple of 16, so the size stays */
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *img = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    srad2_inputs(&p, img);
    memcpy(want, img, bytes);
    srad2_reference(n, p.iters, want);
    uint64_t dJ = bench_alloc(&c, bytes), dN = bench_alloc(&c, bytes), dS = bench_alloc(&c, bytes);
    uint64_t dW = bench_alloc(&c, bytes), dE = bench_alloc(&c, bytes), dC = bench_alloc(&c, bytes);
    smc_dim3 grid = DIM2(n / SRAD2_BLOCK, n / SRAD2_BLOCK), block = DIM2(SRAD2_BLOCK, SRAD2_BLOCK);
    for (int t = 0; t < p.iters && !bench_failed(&c); t++) {
        float q0sqr = srad2_q0sqr(n, img);
        bench_write(&c, dJ, img, bytes);
        BENCH_LAUNCH(&c, "srad2_coef", grid, block, 0, BARG(dJ), BARG(dN), BARG(dS), BARG(dW),
                     BARG(dE), BARG(dC), BARG(n), BARG(q0sqr));
        BENCH_LAUNCH(&c, "srad2_update", grid, block, 0, BARG(dN), BARG(dS), BARG(dW), BARG(dE),
                     BARG(dC), BARG(dJ), BARG(n));
        bench_read(&c, img, dJ, bytes);
    }
    if (!bench_failed(&c))
        bad = bench_compare_float("srad2: J", img, want, (size_t)n * n, 0.0, why, sizeof why);
    free(img); free(want);
    return bench_end(&c, bad, why);
}
