/* histogram: 256 bins with shared-memory atomics (see bench/ref/histogram.h). */
#define BENCH_NAME "histogram"
#include "bench_cuda.h"
#include "../ref/histogram.h"

/* block HISTOGRAM_BLOCK (== HISTOGRAM_BINS); hist zeroed by the host. */
extern "C" __global__ void histogram256(const unsigned char *data, int n,
                                        unsigned *hist)
{
    __shared__ unsigned bins[HISTOGRAM_BINS];
    bins[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    if (bins[threadIdx.x])
        atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, histogram_presets,
                         histogram_check, &p))
        return 2;
    unsigned char *data = (unsigned char *)bench_xmalloc((size_t)p.n);
    unsigned hist[HISTOGRAM_BINS];
    histogram_inputs(&p, data);
    unsigned char *dd = (unsigned char *)bench_to_device(data, (size_t)p.n);
    unsigned *dh;
    CK(cudaMalloc(&dh, sizeof hist));
    CK(cudaMemset(dh, 0, sizeof hist));
    histogram256<<<histogram_grid(&p), HISTOGRAM_BLOCK>>>(dd, p.n, dh);
    CK_LAUNCH();
    CK(cudaMemcpy(hist, dh, sizeof hist, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = histogram_verify(&p, data, hist, why, sizeof why);
    CK(cudaFree(dd)); CK(cudaFree(dh));
    free(data);
    return bench_report(bad, why);
}
