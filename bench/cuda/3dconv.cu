/* 3dconv: 3x3x3 stencil with fixed coefficients (see bench/ref/3dconv.h). */
#define BENCH_NAME "3dconv"
#include "bench_cuda.h"
#include "../ref/3dconv.h"

/* One thread per interior point of an n^3 grid, k (the contiguous index)
 * across the lanes: every load is a coalesced row segment. A 3D grid
 * (blockIdx.z = plane i) does in one launch what PolyBench/GPU's host loop
 * does with one launch per plane. */
extern "C" __global__ void conv3d(const float *a, float *b, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int i = blockIdx.z;
    if (i > 0 && j > 0 && k > 0 && i < n - 1 && j < n - 1 && k < n - 1) {
        int nn = n * n;
        const float *p = a + i * nn + j * n + k;
        b[i * nn + j * n + k] =
            CONV3D_C0 * p[0] +
            CONV3D_C1 * (p[-1] + p[1]) +
            CONV3D_C2 * (p[-n] + p[n]) +
            CONV3D_C3 * (p[-nn] + p[nn]) +
            CONV3D_C4 * (p[-nn - n - 1] + p[nn + n + 1]) +
            CONV3D_C5 * (p[-nn + n + 1] + p[nn - n - 1]);
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, conv3d_presets, conv3d_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    conv3d_inputs(&p, a);
    conv3d_reference(n, a, want);
    float *da = (float *)bench_to_device(a, bytes), *db;
    CK(cudaMalloc(&db, bytes));
    CK(cudaMemset(db, 0, bytes));
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y), n);
    conv3d<<<grid, block>>>(da, db, n);
    CK_LAUNCH();
    CK(cudaMemcpy(b, db, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("3dconv: b", b, want, (size_t)n * n * n, 1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db));
    free(a); free(b); free(want);
    return bench_report(bad, why);
}
