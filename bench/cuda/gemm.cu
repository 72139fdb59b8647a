/* gemm: C = alpha*A*B + beta*C (see bench/ref/gemm.h). */
#define BENCH_NAME "gemm"
#include "bench_cuda.h"
#include "../ref/gemm.h"

extern "C" __global__ void gemm(const float *a, const float *b, float *c, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= GEMM_BETA;
        for (int k = 0; k < n; k++)
            c[i * n + j] += GEMM_ALPHA * a[i * n + k] * b[k * n + j];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, gemm_presets, gemm_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    gemm_inputs(&p, a, b, c);
    gemm_reference(n, a, b, c, want);
    float *da = (float *)bench_to_device(a, bytes);
    float *db = (float *)bench_to_device(b, bytes);
    float *dc = (float *)bench_to_device(c, bytes);
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    gemm<<<grid, block>>>(da, db, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("gemm: c", c, want, (size_t)n * n, 1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
    free(a); free(b); free(c); free(want);
    return bench_report(bad, why);
}
