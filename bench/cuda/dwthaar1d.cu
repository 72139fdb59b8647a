/* dwthaar1d: multi-level 1D Haar wavelet decomposition (see bench/ref/dwthaar1d.h). */
#define BENCH_NAME "dwthaar1d"
#include "bench_cuda.h"
#include "../ref/dwthaar1d.h"

/* One launch on a signal of m values: block b decomposes in[b*2B .. b*2B+2B-1]
 * (B = blockDim.x) over log2(2B) levels in shared memory, writing each level's
 * details to detail[] at the level's offset, and its last approximation to
 * approx[b]. */
extern "C" __global__ void dwthaar1d(float *detail, float *approx, const float *in, int m)
{
    __shared__ float s[2 * DWT_BLOCK];
    int t = threadIdx.x, half = blockDim.x;
    const float *x = in + (size_t)blockIdx.x * 2 * half;
    s[t] = x[t];
    s[t + half] = x[t + half];
    __syncthreads();
    int len = m;   /* length of the whole signal at this level */
    for (int active = half; active > 0; active >>= 1) {
        float a = 0.0f;
        if (t < active) {
            float x0 = s[2 * t], x1 = s[2 * t + 1];
            a = (x0 + x1) * DWT_RSQRT2;
            detail[len / 2 + blockIdx.x * active + t] = (x0 - x1) * DWT_RSQRT2;
        }
        __syncthreads();   /* every pair is read before s[t] is overwritten */
        if (t < active)
            s[t] = a;
        __syncthreads();
        len >>= 1;
    }
    if (t == 0)
        approx[blockIdx.x] = s[0];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, dwthaar1d_presets, dwthaar1d_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *out = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    dwthaar1d_inputs(&p, x);
    dwthaar1d_reference(&p, x, want);
    float *dx = (float *)bench_to_device(x, bytes), *dout, *dtmp[2];
    CK(cudaMalloc(&dout, bytes));
    size_t tbytes = (size_t)(p.n / 2 > 0 ? p.n / 2 : 1) * sizeof(float);
    CK(cudaMalloc(&dtmp[0], tbytes));
    CK(cudaMalloc(&dtmp[1], tbytes));
    const float *src = dx;
    /* One launch per 2*DWT_BLOCK-fold shrink; the last one (one block) writes
     * its approximation, the final one, to out[0]. */
    for (int m = p.n, level = 0; m > 1; level++) {
        int block = dwthaar1d_block(m), grid = m / (2 * block);
        float *approx = grid == 1 ? dout : dtmp[level & 1];
        dwthaar1d<<<grid, block>>>(dout, approx, src, m);
        CK_LAUNCH();
        src = approx; m = grid;
    }
    CK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("dwthaar1d: out", out, want, (size_t)p.n, 0.0, why, sizeof why);
    CK(cudaFree(dx)); CK(cudaFree(dout)); CK(cudaFree(dtmp[0])); CK(cudaFree(dtmp[1]));
    free(x); free(out); free(want);
    return bench_report(bad, why);
}
