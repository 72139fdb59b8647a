/* 2mm: D = alpha*A*B*C + beta*D (see bench/ref/2mm.h). */
#define BENCH_NAME "2mm"
#include "bench_cuda.h"
#include "../ref/2mm.h"

extern "C" __global__ void mm2_kernel1(const float *a, const float *b,
                                       float *tmp, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        tmp[i * n + j] = 0;
        for (int k = 0; k < n; k++)
            tmp[i * n + j] += MM2_ALPHA * a[i * n + k] * b[k * n + j];
    }
}

extern "C" __global__ void mm2_kernel2(const float *tmp, const float *c,
                                       float *d, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        d[i * n + j] *= MM2_BETA;
        for (int k = 0; k < n; k++)
            d[i * n + j] += tmp[i * n + k] * c[k * n + j];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, mm2_presets, mm2_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(bytes), *d = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    mm2_inputs(&p, a, b, c, d);
    mm2_reference(n, a, b, c, d, want);
    float *da = (float *)bench_to_device(a, bytes);
    float *db = (float *)bench_to_device(b, bytes);
    float *dc = (float *)bench_to_device(c, bytes);
    float *dd = (float *)bench_to_device(d, bytes);
    float *dtmp;
    CK(cudaMalloc(&dtmp, bytes));
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    mm2_kernel1<<<grid, block>>>(da, db, dtmp, n);
    CK_LAUNCH();
    mm2_kernel2<<<grid, block>>>(dtmp, dc, dd, n);
    CK_LAUNCH();
    CK(cudaMemcpy(d, dd, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("2mm: d", d, want, (size_t)n * n, 1e-5, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc)); CK(cudaFree(dd));
    CK(cudaFree(dtmp));
    free(a); free(b); free(c); free(d); free(want);
    return bench_report(bad, why);
}
