/* mvt: x1 += A*y1, x2 += A^T*y2 (see bench/ref/mvt.h). */
#define BENCH_NAME "mvt"
#include "bench_cuda.h"
#include "../ref/mvt.h"

extern "C" __global__ void mvt_kernel1(const float *a, float *x1, const float *y1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y1[j];
}

extern "C" __global__ void mvt_kernel2(const float *a, float *x2, const float *y2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, mvt_presets, mvt_check, &p))
        return 2;
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes);
    float *x1 = (float *)bench_xmalloc(vbytes), *x2 = (float *)bench_xmalloc(vbytes);
    float *y1 = (float *)bench_xmalloc(vbytes), *y2 = (float *)bench_xmalloc(vbytes);
    float *w1 = (float *)bench_xmalloc(vbytes), *w2 = (float *)bench_xmalloc(vbytes);
    mvt_inputs(&p, a, x1, x2, y1, y2);
    mvt_reference(n, a, x1, x2, y1, y2, w1, w2);
    float *da = (float *)bench_to_device(a, abytes);
    float *dx1 = (float *)bench_to_device(x1, vbytes), *dx2 = (float *)bench_to_device(x2, vbytes);
    float *dy1 = (float *)bench_to_device(y1, vbytes), *dy2 = (float *)bench_to_device(y2, vbytes);
    int grid = poly_div_up(n, POLY_BLOCK_1D);
    mvt_kernel1<<<grid, POLY_BLOCK_1D>>>(da, dx1, dy1, n);
    CK_LAUNCH();
    mvt_kernel2<<<grid, POLY_BLOCK_1D>>>(da, dx2, dy2, n);
    CK_LAUNCH();
    CK(cudaMemcpy(x1, dx1, vbytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(x2, dx2, vbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("mvt: x1", x1, w1, (size_t)n, 1e-5, why, sizeof why) ||
              bench_compare_float("mvt: x2", x2, w2, (size_t)n, 1e-5, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(dx1)); CK(cudaFree(dx2)); CK(cudaFree(dy1)); CK(cudaFree(dy2));
    free(a); free(x1); free(x2); free(y1); free(y2); free(w1); free(w2);
    return bench_report(bad, why);
}
