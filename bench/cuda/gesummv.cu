/* gesummv: y = alpha*A*x + beta*B*x (see bench/ref/gesummv.h). */
#define BENCH_NAME "gesummv"
#include "bench_cuda.h"
#include "../ref/gesummv.h"

/* One thread per row i: both row walks are divergent (lane l reads row
 * i + l, n floats apart), x[j] is one broadcast per warp. The sums are kept
 * in global memory as PolyBench/GPU does, so every step reloads and stores
 * tmp[i] and y[i] (coalesced). */
extern "C" __global__ void gesummv(const float *a, const float *b, const float *x,
                                   float *y, float *tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tmp[i] = 0;
        y[i] = 0;
        for (int j = 0; j < n; j++) {
            tmp[i] += a[i * n + j] * x[j];
            y[i] += b[i * n + j] * x[j];
        }
        y[i] = GESUMMV_ALPHA * tmp[i] + GESUMMV_BETA * y[i];
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, gesummv_presets, gesummv_check, &p))
        return 2;
    int n = p.n;
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(abytes), *b = (float *)bench_xmalloc(abytes);
    float *x = (float *)bench_xmalloc(vbytes), *y = (float *)bench_xmalloc(vbytes);
    float *want = (float *)bench_xmalloc(vbytes);
    gesummv_inputs(&p, a, b, x);
    gesummv_reference(n, a, b, x, want);
    float *da = (float *)bench_to_device(a, abytes), *db = (float *)bench_to_device(b, abytes);
    float *dx = (float *)bench_to_device(x, vbytes);
    float *dy, *dtmp;
    CK(cudaMalloc(&dy, vbytes));
    CK(cudaMalloc(&dtmp, vbytes));
    gesummv<<<poly_div_up(n, POLY_BLOCK_1D), POLY_BLOCK_1D>>>(da, db, dx, dy, dtmp, n);
    CK_LAUNCH();
    CK(cudaMemcpy(y, dy, vbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("gesummv: y", y, want, (size_t)n, 1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dx)); CK(cudaFree(dy)); CK(cudaFree(dtmp));
    free(a); free(b); free(x); free(y); free(want);
    return bench_report(bad, why);
}
