/* dct: 8x8 block DCT-II of an image, cosine table in global memory (see bench/ref/dct.h). */
#define BENCH_NAME "dct"
#include "bench_cuda.h"
#include "../ref/dct.h"

/* Block (bx, by) of 8x8 threads transforms the image block at (8bx, 8by):
 * out = C X C^T, C = cos_table (row u = frequency u). */
extern "C" __global__ void dct8x8(float *out, const float *in, const float *cos_table, int width)
{
    __shared__ float t[DCT_B][DCT_B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * DCT_B + tx, row0 = blockIdx.y * DCT_B;
    float acc = 0.0f;
    for (int k = 0; k < DCT_B; k++)   /* T[ty][tx] = sum_k C[ty][k] X[k][tx] */
        acc += cos_table[ty * DCT_B + k] * in[(size_t)(row0 + k) * width + col];
    t[ty][tx] = acc;
    __syncthreads();
    acc = 0.0f;
    for (int k = 0; k < DCT_B; k++)   /* Y[ty][tx] = sum_k T[ty][k] C[tx][k] */
        acc += t[ty][k] * cos_table[tx * DCT_B + k];
    out[(size_t)(row0 + ty) * width + col] = acc;
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, dct_presets, dct_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * p.n * sizeof(float), cbytes = DCT_B * DCT_B * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes), *c = (float *)bench_xmalloc(cbytes);
    dct_cos_table(c);
    dct_inputs(&p, x);
    dct_reference(&p, c, x, want);
    float *dx = (float *)bench_to_device(x, bytes), *dc = (float *)bench_to_device(c, cbytes);
    float *dy;
    CK(cudaMalloc(&dy, bytes));
    dct8x8<<<dim3(p.n / DCT_B, p.n / DCT_B), dim3(DCT_B, DCT_B)>>>(dy, dx, dc, p.n);
    CK_LAUNCH();
    CK(cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("dct: out", y, want, (size_t)p.n * p.n, 0.0, why, sizeof why);
    CK(cudaFree(dx)); CK(cudaFree(dc)); CK(cudaFree(dy));
    free(x); free(y); free(want); free(c);
    return bench_report(bad, why);
}
