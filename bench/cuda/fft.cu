/* fft: batched radix-2 complex FFT in shared memory (see bench/ref/fft.h). */
#define BENCH_NAME "fft"
#include "bench_cuda.h"
#include "../ref/fft.h"

/* Block b transforms data[b*n .. b*n+n-1] in place; n/2 threads, dynamic
 * shared memory fft_smem(): the signal (n float2), then the twiddles (n/2). */
extern "C" __global__ void fft_radix2(float2 *data, const float2 *twiddles, int n, int logn)
{
    extern __shared__ float2 smem[];
    float2 *s = smem, *w = smem + n;
    int t = threadIdx.x, half = blockDim.x;   /* half = n/2 */
    float2 *x = data + (size_t)blockIdx.x * n;
    s[__brev(t) >> (32 - logn)] = x[t];
    s[__brev(t + half) >> (32 - logn)] = x[t + half];
    w[t] = twiddles[t];
    __syncthreads();
    for (int span = 1, tstride = half; span < n; span <<= 1, tstride >>= 1) {
        int j = t & (span - 1);
        int i0 = 2 * (t - j) + j, i1 = i0 + span;
        float2 wj = w[j * tstride], a = s[i0], b = s[i1];
        /* t = w * b with the roundings spelled out, then a +- t */
        float tr = __fmaf_rn(wj.x, b.x, -__fmul_rn(wj.y, b.y));
        float ti = __fmaf_rn(wj.x, b.y, __fmul_rn(wj.y, b.x));
        s[i0] = make_float2(__fadd_rn(a.x, tr), __fadd_rn(a.y, ti));
        s[i1] = make_float2(__fsub_rn(a.x, tr), __fsub_rn(a.y, ti));
        __syncthreads();
    }
    x[t] = s[t];
    x[t + half] = s[t + half];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, fft_presets, fft_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * p.iters * 2 * sizeof(float), wbytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes), *w = (float *)bench_xmalloc(wbytes);
    fft_twiddles(p.n, w);
    fft_inputs(&p, x);
    fft_reference(&p, w, x, want);
    float2 *dx = (float2 *)bench_to_device(x, bytes), *dw = (float2 *)bench_to_device(w, wbytes);
    fft_radix2<<<p.iters, p.n / 2, fft_smem(&p)>>>(dx, dw, p.n, fft_log2(p.n));
    CK_LAUNCH();
    CK(cudaMemcpy(y, dx, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("fft: x", y, want, (size_t)p.n * p.iters * 2, 0.0, why, sizeof why);
    CK(cudaFree(dx)); CK(cudaFree(dw));
    free(x); free(y); free(want); free(w);
    return bench_report(bad, why);
}
