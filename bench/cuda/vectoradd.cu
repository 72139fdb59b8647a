/* vectoradd: C = A + B (see bench/ref/vectoradd.h). */
#define BENCH_NAME "vectoradd"
#include "bench_cuda.h"
#include "../ref/vectoradd.h"

extern "C" __global__ void vectoradd(const float *a, const float *b, float *c,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, vectoradd_presets,
                         vectoradd_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *c = (float *)bench_xmalloc(bytes);
    vectoradd_inputs(&p, a, b);

    float *da = (float *)bench_to_device(a, bytes);
    float *db = (float *)bench_to_device(b, bytes);
    float *dc;
    CK(cudaMalloc(&dc, bytes));
    int blocks = (p.n + VECTORADD_BLOCK - 1) / VECTORADD_BLOCK;
    vectoradd<<<blocks, VECTORADD_BLOCK>>>(da, db, dc, p.n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

    char why[256];
    int bad = vectoradd_verify(&p, a, b, c, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
    free(a); free(b); free(c);
    return bench_report(bad, why);
}
