/* kmeans: assignment + atomic accumulation per iteration (see bench/ref/kmeans.h). */
#define BENCH_NAME "kmeans"
#include "bench_cuda.h"
#include "../ref/kmeans.h"

__constant__ float kmeans_centers[KMEANS_K * KMEANS_F];

extern "C" __global__ void kmeans_assign(const float *features, int *membership, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int best = 0;
    float best_d = 0.0f;
    for (int c = 0; c < KMEANS_K; c++) {
        float d = 0.0f;
        for (int f = 0; f < KMEANS_F; f++) {
            float diff = features[f * n + i] - kmeans_centers[c * KMEANS_F + f];
            d += diff * diff;
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    membership[i] = best;
}

extern "C" __global__ void kmeans_accumulate(const float *features, const int *membership,
                                             int *sums, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int c = membership[i];
    atomicAdd(&counts[c], 1);
    for (int f = 0; f < KMEANS_F; f++)
        atomicAdd(&sums[c * KMEANS_F + f], (int)features[f * n + i]);
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, kmeans_presets, kmeans_check, &p))
        return 2;
    int n = p.n;
    size_t fbytes = (size_t)n * KMEANS_F * sizeof(float), mbytes = (size_t)n * sizeof(int);
    float *features = (float *)bench_xmalloc(fbytes);
    int *membership = (int *)bench_xmalloc(mbytes), *want_m = (int *)bench_xmalloc(mbytes);
    float centers[KMEANS_K * KMEANS_F], want_c[KMEANS_K * KMEANS_F];
    int sums[KMEANS_K * KMEANS_F], counts[KMEANS_K];
    kmeans_inputs(&p, features, centers);
    kmeans_reference(&p, features, centers, want_m, want_c);

    float *dfeat = (float *)bench_to_device(features, fbytes);
    int *dmember, *dsums, *dcounts;
    CK(cudaMalloc(&dmember, mbytes));
    CK(cudaMalloc(&dsums, sizeof sums));
    CK(cudaMalloc(&dcounts, sizeof counts));
    int grid = (n + KMEANS_BLOCK - 1) / KMEANS_BLOCK;
    for (int t = 0; t < p.iters; t++) {
        CK(cudaMemcpyToSymbol(kmeans_centers, centers, sizeof centers));
        kmeans_assign<<<grid, KMEANS_BLOCK>>>(dfeat, dmember, n);
        CK_LAUNCH();
        CK(cudaMemset(dsums, 0, sizeof sums));
        CK(cudaMemset(dcounts, 0, sizeof counts));
        kmeans_accumulate<<<grid, KMEANS_BLOCK>>>(dfeat, dmember, dsums, dcounts, n);
        CK_LAUNCH();
        CK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(counts, dcounts, sizeof counts, cudaMemcpyDeviceToHost));
        kmeans_update_centers(sums, counts, centers);
    }
    CK(cudaMemcpy(membership, dmember, mbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_int("kmeans: membership", membership, want_m, (size_t)n, why, sizeof why) ||
              bench_compare_float("kmeans: centers", centers, want_c, KMEANS_K * KMEANS_F, 0.0,
                                  why, sizeof why);
    CK(cudaFree(dfeat)); CK(cudaFree(dmember)); CK(cudaFree(dsums)); CK(cudaFree(dcounts));
    free(features); free(membership); free(want_m);
    return bench_report(bad, why);
}
