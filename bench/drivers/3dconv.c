/* 3dconv driver: conv3d of bench/cuda/3dconv.cu from its PTX
 * (bench_threedconv: identifiers cannot start with a digit). */
#include "bench.h"
#include "../ref/3dconv.h"

int bench_threedconv(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "3dconv", conv3d_presets, conv3d_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, conv3d_check))   /* partial blocks */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    if (bench_general(o)) {
        conv3d_inputs_general(&p, a);
        conv3d_reference_exact(n, a, want);
    } else {
        conv3d_inputs(&p, a);
        conv3d_reference(n, a, want);
    }
    uint64_t da = bench_upload(&c, a, bytes), db = bench_alloc(&c, bytes);
    smc_dim3 grid = bench_dim((uint32_t)poly_div_up(n, POLY_BLOCK_X),
                              (uint32_t)poly_div_up(n, POLY_BLOCK_Y), (uint32_t)n);
    BENCH_LAUNCH(&c, "conv3d", grid, DIM2(POLY_BLOCK_X, POLY_BLOCK_Y), 0,
                 BARG(da), BARG(db), BARG(n));
    bench_read(&c, b, db, bytes);
    if (!bench_failed(&c))
        bad = bench_compare_float("3dconv: b", b, want, (size_t)n * n * n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(a); free(b); free(want);
    return bench_end(&c, bad, why);
}
