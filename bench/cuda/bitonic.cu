/* bitonic: bitonic sort, shared-memory segments + global/shared merges (see bench/ref/bitonic.h). */
#define BENCH_NAME "bitonic"
#include "bench_cuda.h"
#include "../ref/bitonic.h"

__device__ static inline void bitonic_exchange(unsigned *ka, unsigned *va,
                                               unsigned *kb, unsigned *vb,
                                               unsigned ascending)
{
    if ((*ka > *kb) == (ascending != 0)) {
        unsigned t = *ka; *ka = *kb; *kb = t;
        t = *va; *va = *vb; *vb = t;
    }
}

/* grid n/BITONIC_SEG, block BITONIC_THREADS. Sorts each segment; even
 * segments ascending, odd ones descending, so that pairs form bitonic
 * sequences for the merges (a single segment, n == SEG, ends ascending). */
extern "C" __global__ void bitonic_sort_shared(unsigned *keys, unsigned *vals)
{
    __shared__ unsigned sk[BITONIC_SEG];
    __shared__ unsigned sv[BITONIC_SEG];
    unsigned t = threadIdx.x;
    keys += blockIdx.x * BITONIC_SEG;
    vals += blockIdx.x * BITONIC_SEG;
    sk[t] = keys[t];
    sv[t] = vals[t];
    sk[t + BITONIC_THREADS] = keys[t + BITONIC_THREADS];
    sv[t + BITONIC_THREADS] = vals[t + BITONIC_THREADS];

    for (unsigned size = 2; size <= BITONIC_SEG; size <<= 1) {
        /* Halves of each bitonic sequence alternate direction; the last
         * merge (size == SEG) goes the segment's way. */
        unsigned ascending = size < BITONIC_SEG ? (t & (size / 2)) == 0
                                                : (blockIdx.x & 1) == 0;
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * t - (t & (stride - 1));
            bitonic_exchange(&sk[pos], &sv[pos], &sk[pos + stride],
                             &sv[pos + stride], ascending);
        }
    }
    __syncthreads();
    keys[t] = sk[t];
    vals[t] = sv[t];
    keys[t + BITONIC_THREADS] = sk[t + BITONIC_THREADS];
    vals[t + BITONIC_THREADS] = sv[t + BITONIC_THREADS];
}

/* One compare-exchange per thread (n/2 threads) of merge `size` at a
 * `stride` >= BITONIC_SEG. The size-block k of a comparator runs ascending
 * when k is even; the final merge (size == n) is ascending. */
extern "C" __global__ void bitonic_merge_global(unsigned *keys, unsigned *vals,
                                                unsigned size, unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ascending = (i & (size / 2)) == 0;
    unsigned pos = 2 * i - (i & (stride - 1));
    unsigned ka = keys[pos], kb = keys[pos + stride];
    unsigned va = vals[pos], vb = vals[pos + stride];
    bitonic_exchange(&ka, &va, &kb, &vb, ascending);
    keys[pos] = ka;
    keys[pos + stride] = kb;
    vals[pos] = va;
    vals[pos + stride] = vb;
}

/* The strides SEG/2 .. 1 of merge `size` for one segment per block
 * (grid n/BITONIC_SEG, block BITONIC_THREADS). */
extern "C" __global__ void bitonic_merge_shared(unsigned *keys, unsigned *vals,
                                                unsigned size)
{
    __shared__ unsigned sk[BITONIC_SEG];
    __shared__ unsigned sv[BITONIC_SEG];
    unsigned t = threadIdx.x;
    unsigned ascending = ((blockIdx.x * BITONIC_THREADS + t) & (size / 2)) == 0;
    keys += blockIdx.x * BITONIC_SEG;
    vals += blockIdx.x * BITONIC_SEG;
    sk[t] = keys[t];
    sv[t] = vals[t];
    sk[t + BITONIC_THREADS] = keys[t + BITONIC_THREADS];
    sv[t + BITONIC_THREADS] = vals[t + BITONIC_THREADS];
    for (unsigned stride = BITONIC_SEG / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned pos = 2 * t - (t & (stride - 1));
        bitonic_exchange(&sk[pos], &sv[pos], &sk[pos + stride], &sv[pos + stride],
                         ascending);
    }
    __syncthreads();
    keys[t] = sk[t];
    vals[t] = sv[t];
    keys[t + BITONIC_THREADS] = sk[t + BITONIC_THREADS];
    vals[t + BITONIC_THREADS] = sv[t + BITONIC_THREADS];
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, bitonic_presets, bitonic_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * sizeof(unsigned);
    unsigned *keys_in = (unsigned *)bench_xmalloc(bytes);
    unsigned *vals_in = (unsigned *)bench_xmalloc(bytes);
    unsigned *keys = (unsigned *)bench_xmalloc(bytes), *vals = (unsigned *)bench_xmalloc(bytes);
    bitonic_inputs(&p, keys_in, vals_in);
    unsigned *dk = (unsigned *)bench_to_device(keys_in, bytes);
    unsigned *dv = (unsigned *)bench_to_device(vals_in, bytes);
    bitonic_sort_shared<<<p.n / BITONIC_SEG, BITONIC_THREADS>>>(dk, dv);
    CK_LAUNCH();
    for (unsigned size = 2 * BITONIC_SEG; size <= (unsigned)p.n; size <<= 1) {
        for (unsigned stride = size / 2; stride >= BITONIC_SEG; stride >>= 1) {
            bitonic_merge_global<<<p.n / 2 / 256, 256>>>(dk, dv, size, stride);
            CK_LAUNCH();
        }
        bitonic_merge_shared<<<p.n / BITONIC_SEG, BITONIC_THREADS>>>(dk, dv, size);
        CK_LAUNCH();
    }
    CK(cudaMemcpy(keys, dk, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vals, dv, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bitonic_verify(&p, keys_in, keys, vals, why, sizeof why);
    CK(cudaFree(dk)); CK(cudaFree(dv));
    free(keys_in); free(vals_in); free(keys); free(vals);
    return bench_report(bad, why);
}
