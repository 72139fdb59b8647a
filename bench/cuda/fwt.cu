/* fwt: fast Walsh-Hadamard transform (see bench/ref/fwt.h). */
#define BENCH_NAME "fwt"
#include "bench_cuda.h"
#include "../ref/fwt.h"

/* One radix-2 butterfly per thread for one stride; n/2 threads in all. */
extern "C" __global__ void fwt_global_stage(float *d, int stride, int half_n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= half_n)
        return;
    int lo = (i / stride) * 2 * stride + (i % stride);
    float a = d[lo], b = d[lo + stride];
    d[lo] = a + b;
    d[lo + stride] = a - b;
}

/* All strides below `chunk` for one chunk of d; block = chunk/2 threads,
 * dynamic shared memory = chunk floats. */
extern "C" __global__ void fwt_shared(float *d, int chunk)
{
    extern __shared__ float s[];
    int t = threadIdx.x, half = chunk / 2;
    d += blockIdx.x * chunk;
    s[t] = d[t];
    s[t + half] = d[t + half];
    for (int stride = half; stride > 0; stride >>= 1) {
        __syncthreads();
        int lo = (t / stride) * 2 * stride + (t % stride);
        float a = s[lo], b = s[lo + stride];
        s[lo] = a + b;
        s[lo + stride] = a - b;
    }
    __syncthreads();
    d[t] = s[t];
    d[t + half] = s[t + half];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, fwt_presets, fwt_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *want = (float *)bench_xmalloc(bytes);
    fwt_inputs(&p, x);
    fwt_reference(&p, x, want);
    float *d = (float *)bench_to_device(x, bytes);
    int chunk = fwt_chunk(&p), half_n = p.n / 2;
    for (int stride = p.n / 2; stride >= chunk; stride >>= 1) {
        fwt_global_stage<<<(half_n + 255) / 256, 256>>>(d, stride, half_n);
        CK_LAUNCH();
    }
    fwt_shared<<<p.n / chunk, chunk / 2, chunk * sizeof(float)>>>(d, chunk);
    CK_LAUNCH();
    CK(cudaMemcpy(y, d, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("fwt: x", y, want, (size_t)p.n, 0.0, why, sizeof why);
    CK(cudaFree(d));
    free(x); free(y); free(want);
    return bench_report(bad, why);
}
