/* transpose driver: transpose_naive and transpose_shared from bench/ptx/transpose.ptx. */
#include "bench.h"
#include "../ref/transpose.h"

int bench_transpose(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "transpose", transpose_presets, transpose_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: nothing changes (the inputs are general floats and
     * the kernels have no bounds checks: n is a multiple of the tile). */
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *in = (float *)bench_xmalloc(bytes), *out = (float *)bench_xmalloc(bytes);
    transpose_inputs(&p, in);
    uint64_t din = bench_upload(&c, in, bytes), dout = bench_alloc(&c, bytes);
    smc_dim3 grid = DIM2(n / TRANSPOSE_TILE, n / TRANSPOSE_TILE);
    smc_dim3 block = DIM2(TRANSPOSE_TILE, TRANSPOSE_ROWS);

    BENCH_LAUNCH(&c, "transpose_naive", grid, block, 0, BARG(dout), BARG(din), BARG(n));
    bench_read(&c, out, dout, bytes);
    if (!bench_failed(&c))
        bad = transpose_verify("transpose_naive", n, in, out, why, sizeof why);
    if (!bad) {
        bench_memset(&c, dout, 0, bytes);
        BENCH_LAUNCH(&c, "transpose_shared", grid, block, 0, BARG(dout), BARG(din), BARG(n));
        bench_read(&c, out, dout, bytes);
        if (!bench_failed(&c))
            bad = transpose_verify("transpose_shared", n, in, out, why, sizeof why);
    }
    free(in); free(out);
    return bench_end(&c, bad, why);
}
