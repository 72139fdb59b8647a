/* syrk: C = alpha*A*A^T + beta*C (see bench/ref/syrk.h). */
#define BENCH_NAME "syrk"
#include "bench_cuda.h"
#include "../ref/syrk.h"

/* One thread per C element, block 32x8, j = column across the lanes of a
 * warp: a[j][k] is a column walk through rows of A (lane l reads row j + l,
 * n floats apart: divergent), a[i][k] one broadcast, c[i][j] coalesced and
 * updated in global memory at every step as in PolyBench/GPU. All warps of
 * a block row share the same rows j of A: high inter-warp locality. */
extern "C" __global__ void syrk(const float *a, float *c, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= SYRK_BETA;
        for (int k = 0; k < n; k++)
            c[i * n + j] += SYRK_ALPHA * a[i * n + k] * a[j * n + k];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, syrk_presets, syrk_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *c = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    syrk_inputs(&p, a, c);
    syrk_reference(n, a, c, want);
    float *da = (float *)bench_to_device(a, bytes), *dc = (float *)bench_to_device(c, bytes);
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    syrk<<<grid, block>>>(da, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("syrk: c", c, want, (size_t)n * n, 1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(dc));
    free(a); free(c); free(want);
    return bench_report(bad, why);
}
