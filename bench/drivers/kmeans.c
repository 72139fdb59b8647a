/* kmeans driver: kmeans_assign and kmeans_accumulate per iteration from
 * bench/ptx/kmeans.ptx; the centres go to the __constant__ kmeans_centers. */
#include "bench.h"
#include "../ref/kmeans.h"

int bench_kmeans(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "kmeans", kmeans_presets, kmeans_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, kmeans_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t fbytes = (size_t)n * KMEANS_F * sizeof(float), mbytes = (size_t)n * sizeof(int32_t);
    float *features = (float *)bench_xmalloc(fbytes);
    int32_t *membership = (int32_t *)bench_xmalloc(mbytes), *want_m = (int32_t *)bench_xmalloc(mbytes);
    float centers[KMEANS_K * KMEANS_F], want_c[KMEANS_K * KMEANS_F];
    int32_t sums[KMEANS_K * KMEANS_F], counts[KMEANS_K];
    if (bench_general(o)) {
        kmeans_inputs_general(&p, features, centers);
        kmeans_reference_exact(&p, features, centers, want_m, want_c);
    } else {
        kmeans_inputs(&p, features, centers);
        kmeans_reference(&p, features, centers, want_m, want_c);
    }
    uint64_t dfeat = bench_upload(&c, features, fbytes), dmember = bench_alloc(&c, mbytes);
    uint64_t dsums = bench_alloc(&c, sizeof sums), dcounts = bench_alloc(&c, sizeof counts);
    smc_dim3 grid = DIM1((n + KMEANS_BLOCK - 1) / KMEANS_BLOCK), block = DIM1(KMEANS_BLOCK);
    for (int t = 0; t < p.iters && !bench_failed(&c); t++) {
        bench_write_symbol(&c, "kmeans_centers", centers, sizeof centers);
        BENCH_LAUNCH(&c, "kmeans_assign", grid, block, 0, BARG(dfeat), BARG(dmember), BARG(n));
        bench_memset(&c, dsums, 0, sizeof sums);
        bench_memset(&c, dcounts, 0, sizeof counts);
        BENCH_LAUNCH(&c, "kmeans_accumulate", grid, block, 0, BARG(dfeat), BARG(dmember),
                     BARG(dsums), BARG(dcounts), BARG(n));
        bench_read(&c, sums, dsums, sizeof sums);
        bench_read(&c, counts, dcounts, sizeof counts);
        if (!bench_failed(&c))
            kmeans_update_centers(sums, counts, centers);
    }
    bench_read(&c, membership, dmember, mbytes);
    if (!bench_failed(&c))
        bad = bench_compare_int("kmeans: membership", membership, want_m, (size_t)n, why, sizeof why) ||
              bench_compare_float("kmeans: centers", centers, want_c, KMEANS_K * KMEANS_F, 0.0,
                                  why, sizeof why);
    free(features); free(membership); free(want_m);
    return bench_end(&c, bad, why);
}
