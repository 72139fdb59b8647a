/* streamcluster driver: sc_pgain of bench/cuda/streamcluster.cu from its PTX,
 * one launch per candidate centre, each checked. */
#include "bench.h"
#include "../ref/streamcluster.h"

int bench_streamcluster(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "streamcluster", sc_presets, sc_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, sc_check))   /* a partial block */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t pbytes = (size_t)n * sizeof(sc_point), cbytes = (size_t)SC_DIM * n * sizeof(float);
    size_t wbytes = (size_t)n * (SC_K + 1) * sizeof(float);
    sc_point *pts = (sc_point *)bench_xmalloc(pbytes);
    float *coord = (float *)bench_xmalloc(cbytes);
    int32_t table[SC_K], *cand = (int32_t *)bench_xmalloc((size_t)p.iters * sizeof(int32_t));
    float *work = (float *)bench_xmalloc(wbytes), *want = (float *)bench_xmalloc(wbytes);
    uint8_t *sw = (uint8_t *)bench_xmalloc((size_t)n), *swant = (uint8_t *)bench_xmalloc((size_t)n);
    sc_inputs_mode(&p, bench_general(o), pts, coord, table, cand);
    uint64_t dp = bench_upload(&c, pts, pbytes), dcoord = bench_upload(&c, coord, cbytes);
    uint64_t dtable = bench_upload(&c, table, sizeof table);
    uint64_t dwork = bench_alloc(&c, wbytes), dsw = bench_alloc(&c, (size_t)n);
    for (int t = 0; t < p.iters && !bad && !bench_failed(&c); t++) {
        int x = cand[t];
        bench_memset(&c, dwork, 0, wbytes);
        bench_memset(&c, dsw, 0, (size_t)n);
        BENCH_LAUNCH(&c, "sc_pgain", DIM1(poly_div_up(n, POLY_BLOCK_1D)), DIM1(POLY_BLOCK_1D), 0,
                     BARG(dp), BARG(dcoord), BARG(dtable), BARG(dwork), BARG(dsw), BARG(n), BARG(x));
        bench_read(&c, work, dwork, wbytes);
        bench_read(&c, sw, dsw, (size_t)n);
        if (bench_failed(&c))
            break;
        if (bench_general(o))
            sc_reference_exact(n, pts, coord, table, x, want, swant);
        else
            sc_reference(n, pts, coord, table, x, want, swant);
        bad = bench_compare_float("streamcluster: work_mem", work, want, (size_t)n * (SC_K + 1),
                                  0.0, why, sizeof why) ||
              sc_compare_switch(sw, swant, n, why, sizeof why);
    }
    free(pts); free(coord); free(cand); free(work); free(want); free(sw); free(swant);
    return bench_end(&c, bad, why);
}
