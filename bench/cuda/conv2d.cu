/* conv2d: 3x3 convolution (see bench/ref/conv2d.h). */
#define BENCH_NAME "conv2d"
#include "bench_cuda.h"
#include "../ref/conv2d.h"

extern "C" __global__ void conv2d(const float *a, float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
        b[i * n + j] =
            CONV2D_C11 * a[(i - 1) * n + (j - 1)] + CONV2D_C12 * a[i * n + (j - 1)] +
            CONV2D_C13 * a[(i + 1) * n + (j - 1)] + CONV2D_C21 * a[(i - 1) * n + j] +
            CONV2D_C22 * a[i * n + j] + CONV2D_C23 * a[(i + 1) * n + j] +
            CONV2D_C31 * a[(i - 1) * n + (j + 1)] + CONV2D_C32 * a[i * n + (j + 1)] +
            CONV2D_C33 * a[(i + 1) * n + (j + 1)];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, conv2d_presets, conv2d_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    conv2d_inputs(&p, a);
    conv2d_reference(n, a, want);
    float *da = (float *)bench_to_device(a, bytes);
    float *db;
    CK(cudaMalloc(&db, bytes));
    CK(cudaMemset(db, 0, bytes));
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    conv2d<<<grid, block>>>(da, db, n);
    CK_LAUNCH();
    CK(cudaMemcpy(b, db, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("conv2d: b", b, want, (size_t)n * n, 1e-5, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db));
    free(a); free(b); free(want);
    return bench_report(bad, why);
}
