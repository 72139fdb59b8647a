/* particlefilter driver: pf_likelihood and pf_find_index of
 * bench/cuda/particlefilter.cu from its PTX, two launches per round, each
 * checked; the host steps between them as in the CUDA program. */
#include "bench.h"
#include "../ref/particlefilter.h"

int bench_particlefilter(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "particlefilter", pf_presets, pf_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, pf_check))   /* a partial block */
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t ib = (size_t)n * sizeof(int32_t), fb = (size_t)n * sizeof(float);
    bench_rng r = bench_rng_make(p.seed);
    uint8_t *img = (uint8_t *)bench_xmalloc(PF_W * PF_H);
    int32_t *px = (int32_t *)bench_xmalloc(ib), *py = (int32_t *)bench_xmalloc(ib);
    int32_t *nx = (int32_t *)bench_xmalloc(ib), *ny = (int32_t *)bench_xmalloc(ib);
    int32_t *wx = (int32_t *)bench_xmalloc(ib), *wy = (int32_t *)bench_xmalloc(ib);
    float *lik = (float *)bench_xmalloc(fb), *want = (float *)bench_xmalloc(fb);
    float *cdf = (float *)bench_xmalloc(fb), *u = (float *)bench_xmalloc(fb);
    pf_inputs(&r, n, img, px, py);
    uint64_t dimg = bench_upload(&c, img, PF_W * PF_H);
    uint64_t dox = bench_upload(&c, pf_objx, sizeof pf_objx), doy = bench_upload(&c, pf_objy, sizeof pf_objy);
    uint64_t dpx = bench_alloc(&c, ib), dpy = bench_alloc(&c, ib);
    uint64_t dnx = bench_alloc(&c, ib), dny = bench_alloc(&c, ib);
    uint64_t dlik = bench_alloc(&c, fb), dcdf = bench_alloc(&c, fb), du = bench_alloc(&c, fb);
    smc_dim3 grid = DIM1(poly_div_up(n, POLY_BLOCK_1D)), block = DIM1(POLY_BLOCK_1D);
    for (int t = 0; t < p.iters && !bad && !bench_failed(&c); t++) {
        bench_write(&c, dpx, px, ib);
        bench_write(&c, dpy, py, ib);
        BENCH_LAUNCH(&c, "pf_likelihood", grid, block, 0, BARG(dimg), BARG(dpx), BARG(dpy),
                     BARG(dox), BARG(doy), BARG(dlik), BARG(n));
        bench_read(&c, lik, dlik, fb);
        if (bench_failed(&c))
            break;
        pf_likelihood_ref(n, img, px, py, want);
        if ((bad = bench_compare_float("particlefilter: lik", lik, want, (size_t)n, 0.0, why,
                                       sizeof why)))
            break;
        pf_cdf(&r, n, want, cdf, u);
        bench_write(&c, dcdf, cdf, fb);
        bench_write(&c, du, u, fb);
        BENCH_LAUNCH(&c, "pf_find_index", grid, block, 0, BARG(dcdf), BARG(du), BARG(dpx),
                     BARG(dpy), BARG(dnx), BARG(dny), BARG(n));
        bench_read(&c, nx, dnx, ib);
        bench_read(&c, ny, dny, ib);
        if (bench_failed(&c))
            break;
        pf_find_index_ref(n, cdf, u, px, py, wx, wy);
        bad = bench_compare_int("particlefilter: x", nx, wx, (size_t)n, why, sizeof why) ||
              bench_compare_int("particlefilter: y", ny, wy, (size_t)n, why, sizeof why);
        pf_move(&r, n, wx, wy, px, py);
    }
    free(img); free(px); free(py); free(nx); free(ny); free(wx); free(wy);
    free(lik); free(want); free(cdf); free(u);
    return bench_end(&c, bad, why);
}
