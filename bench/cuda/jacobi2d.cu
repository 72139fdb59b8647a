/* jacobi2d: 5-point Jacobi stencil (see bench/ref/jacobi2d.h). */
#define BENCH_NAME "jacobi2d"
#include "bench_cuda.h"
#include "../ref/jacobi2d.h"

extern "C" __global__ void jacobi2d_kernel1(const float *a, float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (j + 1)] +
                               a[(i + 1) * n + j] + a[(i - 1) * n + j]);
}

extern "C" __global__ void jacobi2d_kernel2(float *a, const float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        a[i * n + j] = b[i * n + j];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, jacobi2d_presets, jacobi2d_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(bytes);
    jacobi2d_inputs(&p, a, b);
    float *da = (float *)bench_to_device(a, bytes);
    float *db = (float *)bench_to_device(b, bytes);
    jacobi2d_reference(&p, a, b);
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    for (int t = 0; t < p.iters; t++) {
        jacobi2d_kernel1<<<grid, block>>>(da, db, n);
        CK_LAUNCH();
        jacobi2d_kernel2<<<grid, block>>>(da, db, n);
        CK_LAUNCH();
    }
    CK(cudaMemcpy(out, da, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("jacobi2d: a", out, a, (size_t)n * n, 1e-5, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db));
    free(a); free(b); free(out);
    return bench_report(bad, why);
}
