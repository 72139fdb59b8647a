/* histogram driver: histogram256 from bench/ptx/histogram.ptx. */
#include "bench.h"
#include "../ref/histogram.h"

int bench_histogram(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "histogram", histogram_presets, histogram_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: a partial last block, and more data than the grid
     * covers at once so that the grid-stride loop turns. */
    if (bench_general_size(&c, &p,
                           p.n < 2 * HISTOGRAM_MAX_GRID * HISTOGRAM_BLOCK
                               ? 2 * HISTOGRAM_MAX_GRID * HISTOGRAM_BLOCK + 77 : p.n - 3,
                           0, histogram_check))
        return bench_end(&c, 0, NULL);
    unsigned char *data = (unsigned char *)bench_xmalloc((size_t)p.n);
    uint32_t hist[HISTOGRAM_BINS];
    histogram_inputs(&p, data);
    uint64_t dd = bench_upload(&c, data, (size_t)p.n);
    uint64_t dh = bench_alloc(&c, sizeof hist);
    BENCH_LAUNCH(&c, "histogram256", DIM1(histogram_grid(&p)), DIM1(HISTOGRAM_BLOCK), 0,
                 BARG(dd), BARG(p.n), BARG(dh));
    bench_read(&c, hist, dh, sizeof hist);
    if (!bench_failed(&c))
        bad = histogram_verify(&p, data, hist, why, sizeof why);
    free(data);
    return bench_end(&c, bad, why);
}
