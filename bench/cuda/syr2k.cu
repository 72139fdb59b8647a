/* syr2k: C = alpha*A*B^T + alpha*B*A^T + beta*C (see bench/ref/syr2k.h). */
#define BENCH_NAME "syr2k"
#include "bench_cuda.h"
#include "../ref/syr2k.h"

/* As syrk, with two divergent column walks per step (b[j][k] and a[j][k])
 * and two broadcasts (a[i][k], b[i][k]); no branch divergence inside the
 * matrix. */
extern "C" __global__ void syr2k(const float *a, const float *b, float *c, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= SYR2K_BETA;
        for (int k = 0; k < n; k++)
            c[i * n + j] += SYR2K_ALPHA * a[i * n + k] * b[j * n + k] +
                            SYR2K_ALPHA * b[i * n + k] * a[j * n + k];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, syr2k_presets, syr2k_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    syr2k_inputs(&p, a, b, c);
    syr2k_reference(n, a, b, c, want);
    float *da = (float *)bench_to_device(a, bytes), *db = (float *)bench_to_device(b, bytes);
    float *dc = (float *)bench_to_device(c, bytes);
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    syr2k<<<grid, block>>>(da, db, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("syr2k: c", c, want, (size_t)n * n, 1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
    free(a); free(b); free(c); free(want);
    return bench_report(bad, why);
}
