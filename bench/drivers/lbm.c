/* lbm driver: lbm_stream_collide of bench/cuda/lbm.cu from its PTX, one
 * launch per time step, the two grids swapped between steps. */
#include <string.h>
#include "bench.h"
#include "../ref/lbm.h"

int bench_lbm(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "lbm", lbm_presets, lbm_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: the inputs are full-precision already and the
     * reference is exact; a block is an x row, so the size stays */
    int n = p.n, nz = n / 4;
    size_t cells = lbm_cells(n), fb = cells * LBM_Q * sizeof(float), flb = cells * sizeof(int32_t);
    int32_t *flags = (int32_t *)bench_xmalloc(flb);
    float *f = (float *)bench_xmalloc(fb), *want = (float *)bench_xmalloc(fb);
    lbm_inputs(&p, flags, f);
    memcpy(want, f, fb);
    lbm_reference(n, p.iters, flags, want);
    uint64_t da = bench_upload(&c, f, fb), db = bench_alloc(&c, fb);
    uint64_t dflags = bench_upload(&c, flags, flb);
    for (int t = 0; t < p.iters; t++) {
        BENCH_LAUNCH(&c, "lbm_stream_collide", DIM2(n, nz), DIM1(n), 0, BARG(da), BARG(db),
                     BARG(dflags), BARG(n), BARG(n), BARG(nz));
        uint64_t s = da; da = db; db = s;
    }
    bench_read(&c, f, da, fb);
    if (!bench_failed(&c))
        bad = bench_compare_float("lbm: f", f, want, cells * LBM_Q, 0.0, why, sizeof why);
    free(flags); free(f); free(want);
    return bench_end(&c, bad, why);
}
