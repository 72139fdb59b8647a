/* scan driver: scan_block (twice) and scan_add from bench/ptx/scan.ptx. */
#include "bench.h"
#include "../ref/scan.h"

int bench_scan(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "scan", scan_presets, scan_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, scan_check))   /* a partial last segment */
        return bench_end(&c, 0, NULL);
    size_t bytes = (size_t)p.n * sizeof(int32_t);
    int32_t *in = (int32_t *)bench_xmalloc(bytes), *out = (int32_t *)bench_xmalloc(bytes);
    scan_inputs(&p, in);
    int blocks = scan_blocks(&p);
    uint64_t din = bench_upload(&c, in, bytes), dout = bench_alloc(&c, bytes);
    uint64_t dsums = bench_alloc(&c, (size_t)blocks * sizeof(int32_t));
    uint64_t dscanned = bench_alloc(&c, (size_t)blocks * sizeof(int32_t));
    uint64_t null_ptr = 0;
    BENCH_LAUNCH(&c, "scan_block", DIM1(blocks), DIM1(SCAN_THREADS), 0,
                 BARG(din), BARG(dout), BARG(dsums), BARG(p.n));
    if (blocks > 1) {
        BENCH_LAUNCH(&c, "scan_block", DIM1(1), DIM1(SCAN_THREADS), 0,
                     BARG(dsums), BARG(dscanned), BARG(null_ptr), BARG(blocks));
        BENCH_LAUNCH(&c, "scan_add", DIM1(blocks), DIM1(SCAN_THREADS), 0,
                     BARG(dout), BARG(dscanned), BARG(p.n));
    }
    bench_read(&c, out, dout, bytes);
    if (!bench_failed(&c))
        bad = scan_verify(&p, in, out, why, sizeof why);
    free(in); free(out);
    return bench_end(&c, bad, why);
}
