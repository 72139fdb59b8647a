/* 3mm: G = (A*B)*(C*D) (see bench/ref/3mm.h). */
#define BENCH_NAME "3mm"
#include "bench_cuda.h"
#include "../ref/3mm.h"

/* out = x * y, n x n, one thread per element (block 32x8): y[k][j] is a
 * coalesced row segment, x[i][k] one broadcast; the sum is kept in
 * out[i][j] in global memory as in PolyBench/GPU. Launched three times
 * (E = A*B, F = C*D, G = E*F); the three launches of PolyBench/GPU's 3mm
 * are the same product, so one kernel serves all three. */
extern "C" __global__ void mm3_kernel(const float *x, const float *y, float *out, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        out[i * n + j] = 0;
        for (int k = 0; k < n; k++)
            out[i * n + j] += x[i * n + k] * y[k * n + j];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, mm3_presets, mm3_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(bytes), *d = (float *)bench_xmalloc(bytes);
    float *g = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    mm3_inputs(&p, a, b, c, d);
    mm3_reference(n, a, b, c, d, want);
    float *da = (float *)bench_to_device(a, bytes), *db = (float *)bench_to_device(b, bytes);
    float *dc = (float *)bench_to_device(c, bytes), *dd = (float *)bench_to_device(d, bytes);
    float *de, *df, *dg;
    CK(cudaMalloc(&de, bytes));
    CK(cudaMalloc(&df, bytes));
    CK(cudaMalloc(&dg, bytes));
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    mm3_kernel<<<grid, block>>>(da, db, de, n);
    CK_LAUNCH();
    mm3_kernel<<<grid, block>>>(dc, dd, df, n);
    CK_LAUNCH();
    mm3_kernel<<<grid, block>>>(de, df, dg, n);
    CK_LAUNCH();
    CK(cudaMemcpy(g, dg, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("3mm: g", g, want, (size_t)n * n, 1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc)); CK(cudaFree(dd));
    CK(cudaFree(de)); CK(cudaFree(df)); CK(cudaFree(dg));
    free(a); free(b); free(c); free(d); free(g); free(want);
    return bench_report(bad, why);
}
