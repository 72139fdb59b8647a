/* backprop driver: bp_layerforward and bp_adjust of bench/cuda/backprop.cu
 * from its PTX, two launches per training step; the partial sums are read
 * back and checked after every forward launch, and the host step between the
 * kernels works on them, as in the CUDA program. */
#include <string.h>
#include "bench.h"
#include "../ref/backprop.h"

int bench_backprop(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "backprop", bp_presets, bp_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: the inputs are full-precision already and the
     * references are exact; blocks of 16 inputs, so the size stays */
    int n = p.n, blocks = n / BP_BLOCK;
    size_t wb = (size_t)(n + 1) * BP_W * sizeof(float), ib = (size_t)(n + 1) * sizeof(float);
    size_t pb = (size_t)blocks * BP_HID * sizeof(float), nw = (size_t)(n + 1) * BP_W;
    float *in = (float *)bench_xmalloc(ib), *w = (float *)bench_xmalloc(wb);
    float *ww = (float *)bench_xmalloc(wb), *oldw = (float *)bench_xmalloc(wb);
    float *wold = (float *)bench_xmalloc(wb), *part = (float *)bench_xmalloc(pb);
    float *wpart = (float *)bench_xmalloc(pb);
    bp_net net, wnet;
    bp_inputs(&p, in, w, &net);
    memcpy(ww, w, wb);
    memset(wold, 0, wb);
    wnet = net;
    uint64_t din = bench_upload(&c, in, ib), dw = bench_upload(&c, w, wb);
    uint64_t doldw = bench_alloc(&c, wb), dpart = bench_alloc(&c, pb);
    uint64_t ddelta = bench_alloc(&c, BP_W * sizeof(float));
    smc_dim3 grid = DIM2(1, blocks), block = DIM2(BP_BLOCK, BP_BLOCK);
    for (int t = 0; t < p.iters && !bad && !bench_failed(&c); t++) {
        BENCH_LAUNCH(&c, "bp_layerforward", grid, block, 0, BARG(din), BARG(dw), BARG(dpart));
        bench_read(&c, part, dpart, pb);
        if (bench_failed(&c))
            break;
        bp_forward_ref(n, in, ww, wpart);
        if ((bad = bench_compare_float("backprop: partial", part, wpart, (size_t)blocks * BP_HID,
                                       0.0, why, sizeof why)))
            break;
        bp_host_step(n, part, ww, &net);
        bp_host_step(n, wpart, ww, &wnet);
        bench_write(&c, ddelta, net.delta, BP_W * sizeof(float));
        BENCH_LAUNCH(&c, "bp_adjust", grid, block, 0, BARG(ddelta), BARG(din), BARG(dw),
                     BARG(doldw));
        bp_adjust_ref(n, wnet.delta, in, ww, wold);
    }
    bench_read(&c, w, dw, wb);
    bench_read(&c, oldw, doldw, wb);
    if (!bad && !bench_failed(&c))
        bad = bench_compare_float("backprop: w", w, ww, nw, 0.0, why, sizeof why) ||
              bench_compare_float("backprop: oldw", oldw, wold, nw, 0.0, why, sizeof why);
    free(in); free(w); free(ww); free(oldw); free(wold); free(part); free(wpart);
    return bench_end(&c, bad, why);
}
