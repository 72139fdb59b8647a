/* fdtd2d: 2D finite-difference time domain, Yee grid (see bench/ref/fdtd2d.h). */
#define BENCH_NAME "fdtd2d"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/fdtd2d.h"

/* Three kernels per time step, one thread per grid point (block 32x8, j
 * across the lanes, so every load is a coalesced row segment), as the three
 * loop nests of PolyBench/GPU's fdtd-2d. */
extern "C" __global__ void fdtd_step1(const float *fict, float *ey, const float *hz,
                                      int n, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        if (i == 0)
            ey[j] = fict[t];          /* the source row */
        else
            ey[i * n + j] -= FDTD_CE * (hz[i * n + j] - hz[(i - 1) * n + j]);
    }
}

extern "C" __global__ void fdtd_step2(float *ex, const float *hz, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j > 0 && j < n)
        ex[i * n + j] -= FDTD_CE * (hz[i * n + j] - hz[i * n + j - 1]);
}

extern "C" __global__ void fdtd_step3(const float *ex, const float *ey, float *hz, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n - 1 && j < n - 1)
        hz[i * n + j] -= FDTD_CH * (ex[i * n + j + 1] - ex[i * n + j] +
                                    ey[(i + 1) * n + j] - ey[i * n + j]);
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, fdtd_presets, fdtd_check, &p))
        return 2;
    int n = p.n, steps = p.iters;
    size_t bytes = (size_t)n * n * sizeof(float), fbytes = (size_t)steps * sizeof(float);
    float *ex = (float *)bench_xmalloc(bytes), *ey = (float *)bench_xmalloc(bytes);
    float *hz = (float *)bench_xmalloc(bytes), *fict = (float *)bench_xmalloc(fbytes);
    float *wex = (float *)bench_xmalloc(bytes), *wey = (float *)bench_xmalloc(bytes);
    float *whz = (float *)bench_xmalloc(bytes);
    fdtd_inputs(&p, fict, ex, ey, hz);
    memcpy(wex, ex, bytes); memcpy(wey, ey, bytes); memcpy(whz, hz, bytes);
    fdtd_reference(n, steps, fict, wex, wey, whz);
    float *dfict = (float *)bench_to_device(fict, fbytes);
    float *dex = (float *)bench_to_device(ex, bytes), *dey = (float *)bench_to_device(ey, bytes);
    float *dhz = (float *)bench_to_device(hz, bytes);
    dim3 block(POLY_BLOCK_X, POLY_BLOCK_Y);
    dim3 grid(poly_div_up(n, POLY_BLOCK_X), poly_div_up(n, POLY_BLOCK_Y));
    for (int t = 0; t < steps; t++) {
        fdtd_step1<<<grid, block>>>(dfict, dey, dhz, n, t);
        CK_LAUNCH();
        fdtd_step2<<<grid, block>>>(dex, dhz, n);
        CK_LAUNCH();
        fdtd_step3<<<grid, block>>>(dex, dey, dhz, n);
        CK_LAUNCH();
    }
    CK(cudaMemcpy(ex, dex, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ey, dey, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hz, dhz, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    size_t nn = (size_t)n * n;
    int bad = bench_compare_float("fdtd2d: ex", ex, wex, nn, FDTD_TOL, why, sizeof why) ||
              bench_compare_float("fdtd2d: ey", ey, wey, nn, FDTD_TOL, why, sizeof why) ||
              bench_compare_float("fdtd2d: hz", hz, whz, nn, FDTD_TOL, why, sizeof why);
    CK(cudaFree(dfict)); CK(cudaFree(dex)); CK(cudaFree(dey)); CK(cudaFree(dhz));
    free(ex); free(ey); free(hz); free(fict); free(wex); free(wey); free(whz);
    return bench_report(bad, why);
}
