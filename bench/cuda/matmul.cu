/* matmul: naive and shared-memory tiled C = A * B (see bench/ref/matmul.h). */
#define BENCH_NAME "matmul"
#include "bench_cuda.h"
#include "../ref/matmul.h"

extern "C" __global__ void matmul_naive(const float *a, const float *b,
                                        float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
        sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

/* n is a multiple of MATMUL_TILE; block = MATMUL_TILE x MATMUL_TILE. */
extern "C" __global__ void matmul_tiled(const float *a, const float *b,
                                        float *c, int n)
{
    __shared__ float as[MATMUL_TILE][MATMUL_TILE];
    __shared__ float bs[MATMUL_TILE][MATMUL_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * MATMUL_TILE + ty;
    int col = blockIdx.x * MATMUL_TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n; t += MATMUL_TILE) {
        as[ty][tx] = a[row * n + t + tx];
        bs[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < MATMUL_TILE; k++)
            sum += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, matmul_presets, matmul_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    matmul_inputs(&p, a, b);
    matmul_reference(n, a, b, want);

    float *da = (float *)bench_to_device(a, bytes);
    float *db = (float *)bench_to_device(b, bytes);
    float *dc;
    CK(cudaMalloc(&dc, bytes));
    dim3 block(MATMUL_TILE, MATMUL_TILE), grid(n / MATMUL_TILE, n / MATMUL_TILE);
    char why[256];
    int bad;

    matmul_naive<<<grid, block>>>(da, db, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    bad = bench_compare_float("matmul_naive: c", c, want, (size_t)n * n, 1e-6,
                              why, sizeof why);
    if (!bad) {
        CK(cudaMemset(dc, 0, bytes));
        matmul_tiled<<<grid, block>>>(da, db, dc, n);
        CK_LAUNCH();
        CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
        bad = bench_compare_float("matmul_tiled: c", c, want, (size_t)n * n,
                                  1e-6, why, sizeof why);
    }
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
    free(a); free(b); free(c); free(want);
    return bench_report(bad, why);
}
