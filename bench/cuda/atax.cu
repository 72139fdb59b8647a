/* atax: y = A^T (A x) (see bench/ref/atax.h). */
#define BENCH_NAME "atax"
#include "bench_cuda.h"
#include "../ref/atax.h"

extern "C" __global__ void atax_kernel1(const float *a, const float *x, float *tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tmp[i] = 0;
        for (int j = 0; j < n; j++)
            tmp[i] += a[i * n + j] * x[j];
    }
}

extern "C" __global__ void atax_kernel2(const float *a, float *y, const float *tmp, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        y[j] = 0;
        for (int i = 0; i < n; i++)
            y[j] += a[i * n + j] * tmp[i];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, atax_presets, atax_check, &p))
        return 2;
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes), *x = (float *)bench_xmalloc(vbytes);
    float *y = (float *)bench_xmalloc(vbytes), *want = (float *)bench_xmalloc(vbytes);
    atax_inputs(&p, a, x);
    atax_reference(n, a, x, want);
    float *da = (float *)bench_to_device(a, abytes), *dx = (float *)bench_to_device(x, vbytes);
    float *dy, *dtmp;
    CK(cudaMalloc(&dy, vbytes));
    CK(cudaMalloc(&dtmp, vbytes));
    int grid = poly_div_up(n, POLY_BLOCK_1D);
    atax_kernel1<<<grid, POLY_BLOCK_1D>>>(da, dx, dtmp, n);
    CK_LAUNCH();
    atax_kernel2<<<grid, POLY_BLOCK_1D>>>(da, dy, dtmp, n);
    CK_LAUNCH();
    CK(cudaMemcpy(y, dy, vbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("atax: y", y, want, (size_t)n, 1e-5, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(dx)); CK(cudaFree(dy)); CK(cudaFree(dtmp));
    free(a); free(x); free(y); free(want);
    return bench_report(bad, why);
}
