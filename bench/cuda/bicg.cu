/* bicg: s = A^T r, q = A p (see bench/ref/bicg.h). */
#define BENCH_NAME "bicg"
#include "bench_cuda.h"
#include "../ref/bicg.h"

extern "C" __global__ void bicg_kernel1(const float *a, const float *r, float *s, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        s[j] = 0.0f;
        for (int i = 0; i < n; i++)
            s[j] += r[i] * a[i * n + j];
    }
}

extern "C" __global__ void bicg_kernel2(const float *a, const float *p, float *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = 0.0f;
        for (int j = 0; j < n; j++)
            q[i] += a[i * n + j] * p[j];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, bicg_presets, bicg_check, &p))
        return 2;
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes), *r = (float *)bench_xmalloc(vbytes);
    float *pv = (float *)bench_xmalloc(vbytes);
    float *s = (float *)bench_xmalloc(vbytes), *q = (float *)bench_xmalloc(vbytes);
    float *ws = (float *)bench_xmalloc(vbytes), *wq = (float *)bench_xmalloc(vbytes);
    bicg_inputs(&p, a, r, pv);
    bicg_reference(n, a, r, pv, ws, wq);
    float *da = (float *)bench_to_device(a, abytes), *dr = (float *)bench_to_device(r, vbytes);
    float *dp = (float *)bench_to_device(pv, vbytes);
    float *ds, *dq;
    CK(cudaMalloc(&ds, vbytes));
    CK(cudaMalloc(&dq, vbytes));
    int grid = poly_div_up(n, POLY_BLOCK_1D);
    bicg_kernel1<<<grid, POLY_BLOCK_1D>>>(da, dr, ds, n);
    CK_LAUNCH();
    bicg_kernel2<<<grid, POLY_BLOCK_1D>>>(da, dp, dq, n);
    CK_LAUNCH();
    CK(cudaMemcpy(s, ds, vbytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(q, dq, vbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("bicg: s", s, ws, (size_t)n, 1e-5, why, sizeof why) ||
              bench_compare_float("bicg: q", q, wq, (size_t)n, 1e-5, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(dr)); CK(cudaFree(dp)); CK(cudaFree(ds)); CK(cudaFree(dq));
    free(a); free(r); free(pv); free(s); free(q); free(ws); free(wq);
    return bench_report(bad, why);
}
