/* inlinemath: a chain of fast math intrinsics per element (see bench/ref/inlinemath.h). */
#define BENCH_NAME "inlinemath"
#include "bench_cuda.h"
#include "../ref/inlinemath.h"

extern "C" __global__ void inlinemath(float *out, const float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = x[i], b = y[i];
        float s = __sinf(a), c = __cosf(b);
        float e = __expf(0.5f * a);
        float r = rsqrtf(1.0f + a * a);
        float l = __logf(1.0f + b * b);
        float q = sqrtf(2.0f + c);
        float d = __fdividef(s, 1.0f + e);
        out[i] = s * c + e * r - l * q + d;
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, inlinemath_presets, inlinemath_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * sizeof(float);
    float *x = (float *)bench_xmalloc(bytes), *y = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    inlinemath_inputs(&p, x, y);
    inlinemath_reference(&p, x, y, want);
    float *dx = (float *)bench_to_device(x, bytes), *dy = (float *)bench_to_device(y, bytes);
    float *dout;
    CK(cudaMalloc(&dout, bytes));
    inlinemath<<<(p.n + INLINEMATH_BLOCK - 1) / INLINEMATH_BLOCK, INLINEMATH_BLOCK>>>(dout, dx, dy, p.n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("inlinemath: out", out, want, (size_t)p.n, INLINEMATH_TOL,
                                  why, sizeof why);
    CK(cudaFree(dx)); CK(cudaFree(dy)); CK(cudaFree(dout));
    free(x); free(y); free(out); free(want);
    return bench_report(bad, why);
}
