/* transpose: naive and shared-memory tiled (see bench/ref/transpose.h). */
#define BENCH_NAME "transpose"
#include "bench_cuda.h"
#include "../ref/transpose.h"

/* grid (n/32, n/32), block (32, 8). */
extern "C" __global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int y = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

extern "C" __global__ void transpose_shared(float *out, const float *in, int n)
{
    __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
    int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
    int y = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
    for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;   /* swapped block */
    y = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
    for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, transpose_presets,
                         transpose_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *in = (float *)bench_xmalloc(bytes), *out = (float *)bench_xmalloc(bytes);
    transpose_inputs(&p, in);
    float *din = (float *)bench_to_device(in, bytes);
    float *dout;
    CK(cudaMalloc(&dout, bytes));
    dim3 grid(n / TRANSPOSE_TILE, n / TRANSPOSE_TILE), block(TRANSPOSE_TILE, TRANSPOSE_ROWS);
    char why[256];

    transpose_naive<<<grid, block>>>(dout, din, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    int bad = transpose_verify("transpose_naive", n, in, out, why, sizeof why);
    if (!bad) {
        CK(cudaMemset(dout, 0, bytes));
        transpose_shared<<<grid, block>>>(dout, din, n);
        CK_LAUNCH();
        CK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
        bad = transpose_verify("transpose_shared", n, in, out, why, sizeof why);
    }
    CK(cudaFree(din)); CK(cudaFree(dout));
    free(in); free(out);
    return bench_report(bad, why);
}
