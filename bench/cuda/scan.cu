/* scan: work-efficient exclusive scan (see bench/ref/scan.h). */
#define BENCH_NAME "scan"
#include "bench_cuda.h"
#include "../ref/scan.h"

/* block SCAN_THREADS; writes the segment total to sums[blockIdx.x] when
 * sums is not null. */
extern "C" __global__ void scan_block(const int *in, int *out, int *sums, int n)
{
    __shared__ int temp[SCAN_SEG];
    int t = threadIdx.x, base = blockIdx.x * SCAN_SEG;
    temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = SCAN_SEG / 2; d > 0; d >>= 1) {         /* up-sweep */
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (sums)
            sums[blockIdx.x] = temp[SCAN_SEG - 1];
        temp[SCAN_SEG - 1] = 0;
    }
    for (int d = 1; d < SCAN_SEG; d *= 2) {               /* down-sweep */
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            int x = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += x;
        }
    }
    __syncthreads();
    if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
    if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}

/* block SCAN_THREADS, one block per segment. */
extern "C" __global__ void scan_add(int *out, const int *scanned_sums, int n)
{
    int base = blockIdx.x * SCAN_SEG, t = threadIdx.x;
    int add = scanned_sums[blockIdx.x];
    if (base + t < n) out[base + t] += add;
    if (base + t + SCAN_THREADS < n) out[base + t + SCAN_THREADS] += add;
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, scan_presets, scan_check, &p))
        return 2;
    size_t bytes = (size_t)p.n * sizeof(int);
    int *in = (int *)bench_xmalloc(bytes), *out = (int *)bench_xmalloc(bytes);
    scan_inputs(&p, in);
    int blocks = scan_blocks(&p);
    int *din = (int *)bench_to_device(in, bytes);
    int *dout, *dsums, *dscanned;
    CK(cudaMalloc(&dout, bytes));
    CK(cudaMalloc(&dsums, blocks * sizeof(int)));
    CK(cudaMalloc(&dscanned, blocks * sizeof(int)));
    scan_block<<<blocks, SCAN_THREADS>>>(din, dout, dsums, p.n);
    CK_LAUNCH();
    if (blocks > 1) {
        scan_block<<<1, SCAN_THREADS>>>(dsums, dscanned, NULL, blocks);
        CK_LAUNCH();
        scan_add<<<blocks, SCAN_THREADS>>>(dout, dscanned, p.n);
        CK_LAUNCH();
    }
    CK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = scan_verify(&p, in, out, why, sizeof why);
    CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(dsums)); CK(cudaFree(dscanned));
    free(in); free(out);
    return bench_report(bad, why);
}
