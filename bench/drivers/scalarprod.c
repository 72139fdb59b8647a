/* scalarprod driver: the kernel of bench/cuda/scalarprod.cu from its PTX. */
#include "bench.h"
#include "../ref/scalarprod.h"

int bench_scalarprod(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "scalarprod", scalarprod_presets, scalarprod_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: vectors that are not a multiple of the block, and
     * more vectors than blocks so that the grid-stride loop turns. */
    if (bench_general_size(&c, &p, p.n - 3,
                           p.iters < SCALARPROD_MAX_GRID + 2 ? SCALARPROD_MAX_GRID + 2 : p.iters + 3,
                           scalarprod_check))
        return bench_end(&c, 0, NULL);
    size_t total = (size_t)p.n * p.iters, bytes = total * sizeof(float);
    size_t cbytes = (size_t)p.iters * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(cbytes), *want = (float *)bench_xmalloc(cbytes);
    if (bench_general(o)) {
        scalarprod_inputs_general(&p, a, b);
        scalarprod_reference_exact(&p, a, b, want);
    } else {
        scalarprod_inputs(&p, a, b);
        scalarprod_reference(&p, a, b, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_alloc(&c, cbytes);
    BENCH_LAUNCH(&c, "scalarprod", DIM1(scalarprod_grid(&p)), DIM1(SCALARPROD_BLOCK), 0,
                 BARG(dc), BARG(da), BARG(db), BARG(p.iters), BARG(p.n));
    bench_read(&c, out, dc, cbytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("scalarprod: c", out, want, (size_t)p.iters, bench_general(o) ? 0.0 : 1e-6,
                                  why, sizeof why);
    free(a); free(b); free(out); free(want);
    return bench_end(&c, bad, why);
}
