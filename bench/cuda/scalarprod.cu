/* scalarprod: batched dot products (see bench/ref/scalarprod.h). */
#define BENCH_NAME "scalarprod"
#include "bench_cuda.h"
#include "../ref/scalarprod.h"

extern "C" __global__ void scalarprod(float *c, const float *a, const float *b,
                                      int vectors, int elements)
{
    __shared__ float partial[SCALARPROD_BLOCK];
    for (int v = blockIdx.x; v < vectors; v += gridDim.x) {
        const float *va = a + (size_t)v * elements;
        const float *vb = b + (size_t)v * elements;
        float sum = 0.0f;
        for (int i = threadIdx.x; i < elements; i += blockDim.x)
            sum += va[i] * vb[i];
        partial[threadIdx.x] = sum;
        for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            if (threadIdx.x < stride)
                partial[threadIdx.x] += partial[threadIdx.x + stride];
        }
        if (threadIdx.x == 0)
            c[v] = partial[0];
        __syncthreads();   /* partial[0] is read before the next pair */
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, scalarprod_presets,
                         scalarprod_check, &p))
        return 2;
    size_t total = (size_t)p.n * p.iters, bytes = total * sizeof(float);
    size_t cbytes = (size_t)p.iters * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(cbytes), *want = (float *)bench_xmalloc(cbytes);
    scalarprod_inputs(&p, a, b);
    scalarprod_reference(&p, a, b, want);
    float *da = (float *)bench_to_device(a, bytes);
    float *db = (float *)bench_to_device(b, bytes);
    float *dc;
    CK(cudaMalloc(&dc, cbytes));
    scalarprod<<<scalarprod_grid(&p), SCALARPROD_BLOCK>>>(dc, da, db, p.iters, p.n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, cbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("scalarprod: c", c, want, (size_t)p.iters,
                                  1e-6, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
    free(a); free(b); free(c); free(want);
    return bench_report(bad, why);
}
