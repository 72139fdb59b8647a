/* particlefilter: Rodinia particle filter's likelihood and find-index kernels
 * (see bench/ref/particlefilter.h). */
#define BENCH_NAME "particlefilter"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/particlefilter.h"

extern "C" __global__ void pf_likelihood(const unsigned char *img, const int *px, const int *py,
                                         const int *ox, const int *oy, float *lik, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int s = 0;
        for (int k = 0; k < PF_NOBJ; k++) {
            int v = img[(py[i] + oy[k]) * PF_W + px[i] + ox[k]];
            s += (v - 100) * (v - 100) - (v - 228) * (v - 228);
        }
        lik[i] = (float)s * PF_SCALE;
    }
}

extern "C" __global__ void pf_find_index(const float *cdf, const float *u, const int *px,
                                         const int *py, int *nx, int *ny, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        int x = n - 1;
        for (int k = 0; k < n; k++)
            if (cdf[k] >= u[j]) {
                x = k;
                break;
            }
        nx[j] = px[x];
        ny[j] = py[x];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, pf_presets, pf_check, &p))
        return 2;
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
    unsigned char *dimg = (unsigned char *)bench_to_device(img, PF_W * PF_H);
    int *dox = (int *)bench_to_device(pf_objx, sizeof pf_objx);
    int *doy = (int *)bench_to_device(pf_objy, sizeof pf_objy);
    int *dpx, *dpy, *dnx, *dny;
    float *dlik, *dcdf, *du;
    CK(cudaMalloc(&dpx, ib)); CK(cudaMalloc(&dpy, ib));
    CK(cudaMalloc(&dnx, ib)); CK(cudaMalloc(&dny, ib));
    CK(cudaMalloc(&dlik, fb)); CK(cudaMalloc(&dcdf, fb)); CK(cudaMalloc(&du, fb));
    int grid = poly_div_up(n, POLY_BLOCK_1D);
    char why[256];
    int bad = 0;
    for (int t = 0; t < p.iters && !bad; t++) {
        CK(cudaMemcpy(dpx, px, ib, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dpy, py, ib, cudaMemcpyHostToDevice));
        pf_likelihood<<<grid, POLY_BLOCK_1D>>>(dimg, dpx, dpy, dox, doy, dlik, n);
        CK_LAUNCH();
        CK(cudaMemcpy(lik, dlik, fb, cudaMemcpyDeviceToHost));
        pf_likelihood_ref(n, img, px, py, want);
        if ((bad = bench_compare_float("particlefilter: lik", lik, want, (size_t)n, 0.0, why,
                                       sizeof why)))
            break;
        pf_cdf(&r, n, want, cdf, u);
        CK(cudaMemcpy(dcdf, cdf, fb, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(du, u, fb, cudaMemcpyHostToDevice));
        pf_find_index<<<grid, POLY_BLOCK_1D>>>(dcdf, du, dpx, dpy, dnx, dny, n);
        CK_LAUNCH();
        CK(cudaMemcpy(nx, dnx, ib, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ny, dny, ib, cudaMemcpyDeviceToHost));
        pf_find_index_ref(n, cdf, u, px, py, wx, wy);
        bad = bench_compare_int("particlefilter: x", nx, wx, (size_t)n, why, sizeof why) ||
              bench_compare_int("particlefilter: y", ny, wy, (size_t)n, why, sizeof why);
        pf_move(&r, n, wx, wy, px, py);
    }
    CK(cudaFree(dimg)); CK(cudaFree(dox)); CK(cudaFree(doy)); CK(cudaFree(dpx)); CK(cudaFree(dpy));
    CK(cudaFree(dnx)); CK(cudaFree(dny)); CK(cudaFree(dlik)); CK(cudaFree(dcdf)); CK(cudaFree(du));
    free(img); free(px); free(py); free(nx); free(ny); free(wx); free(wy);
    free(lik); free(want); free(cdf); free(u);
    return bench_report(bad, why);
}
