/* binarysearch: lower bound of many keys in a sorted array (see bench/ref/binarysearch.h). */
#define BENCH_NAME "binarysearch"
#include "bench_cuda.h"
#include "../ref/binarysearch.h"

/* pos[k] = first i with a[i] >= keys[k] (n if none), keys by grid stride. */
extern "C" __global__ void binarysearch(int *pos, const int *a, const int *keys,
                                        int n, int nkeys)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nkeys;
         k += gridDim.x * blockDim.x) {
        int key = keys[k];
        int lo = 0, hi = n;
        while (lo < hi) {   /* every step loads a[mid], which the next step needs */
            int mid = lo + ((hi - lo) >> 1);
            if (a[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        pos[k] = lo;
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, binarysearch_presets, binarysearch_check, &p))
        return 2;
    size_t abytes = (size_t)p.n * sizeof(int32_t), kbytes = (size_t)p.iters * sizeof(int32_t);
    int32_t *a = (int32_t *)bench_xmalloc(abytes), *keys = (int32_t *)bench_xmalloc(kbytes);
    int32_t *pos = (int32_t *)bench_xmalloc(kbytes), *want = (int32_t *)bench_xmalloc(kbytes);
    binarysearch_inputs(&p, a, keys);
    binarysearch_reference(&p, a, keys, want);
    int *da = (int *)bench_to_device(a, abytes), *dk = (int *)bench_to_device(keys, kbytes);
    int *dpos;
    CK(cudaMalloc(&dpos, kbytes));
    binarysearch<<<binarysearch_grid(&p), BINSEARCH_BLOCK>>>(dpos, da, dk, p.n, p.iters);
    CK_LAUNCH();
    CK(cudaMemcpy(pos, dpos, kbytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_int("binarysearch: pos", pos, want, (size_t)p.iters, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(dk)); CK(cudaFree(dpos));
    free(a); free(keys); free(pos); free(want);
    return bench_report(bad, why);
}
