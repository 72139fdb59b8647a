// rt_thrust.cu — Thrust and CUB as everyday programs use them (both ship
// with the CUDA toolkit): device_vector, sort, reduce, inclusive_scan,
// transform, and CUB's block reduce/scan and warp reduce in a kernel of our
// own. Every expected value is computed on the CPU here.
#include "rt_check.h"
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <algorithm>
#include <vector>

constexpr int kBlock = 128;

// Per block: the block's sum (BlockReduce), each thread's inclusive prefix
// (BlockScan) and each warp's sum (WarpReduce, written by lane 0).
__global__ void cub_kernel(const int *in, int *block_sum, int *prefix, int *warp_sum)
{
    using BlockReduce = cub::BlockReduce<int, kBlock>;
    using BlockScan = cub::BlockScan<int, kBlock>;
    using WarpReduce = cub::WarpReduce<int>;
    __shared__ typename BlockReduce::TempStorage reduce_tmp;
    __shared__ typename BlockScan::TempStorage scan_tmp;
    __shared__ typename WarpReduce::TempStorage warp_tmp[kBlock / 32];
    int i = blockIdx.x * kBlock + threadIdx.x;
    int x = in[i];
    int s = BlockReduce(reduce_tmp).Sum(x);
    if (threadIdx.x == 0)
        block_sum[blockIdx.x] = s;
    int p;
    BlockScan(scan_tmp).InclusiveSum(x, p);
    prefix[i] = p;
    int w = WarpReduce(warp_tmp[threadIdx.x / 32]).Sum(x);
    if (threadIdx.x % 32 == 0)
        warp_sum[i / 32] = w;
}

struct square_plus_one {
    __host__ __device__ long long operator()(int v) const { return (long long)v * v + 1; }
};

int main()
{
    const int n = 1000;   // not a multiple of any block size Thrust picks
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 7919u + 13u) % 2003u) - 1000;

    thrust::device_vector<int> d(h.begin(), h.end());
    thrust::sort(d.begin(), d.end());
    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    thrust::host_vector<int> got = d;
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i]);

    long long sum = 0;
    for (int v : h) sum += v;
    CHECK(thrust::reduce(d.begin(), d.end(), 0LL) == sum);
    CHECK(thrust::reduce(d.begin(), d.end(), -2000000, thrust::maximum<int>()) == want[n - 1]);

    thrust::device_vector<int> scanned(n);
    thrust::inclusive_scan(d.begin(), d.end(), scanned.begin());
    thrust::host_vector<int> hs = scanned;
    long long run = 0;
    for (int i = 0; i < n; i++) { run += want[i]; CHECK(hs[i] == (int)run); }

    thrust::device_vector<long long> sq(n);
    thrust::transform(d.begin(), d.end(), sq.begin(), square_plus_one());
    thrust::host_vector<long long> hq = sq;
    for (int i = 0; i < n; i++)
        CHECK(hq[i] == (long long)want[i] * want[i] + 1);

    // CUB in a kernel of our own: 4 blocks of 128.
    const int blocks = 4, m = blocks * kBlock;
    int *din, *dsum, *dpre, *dwarp;
    CHECK_CUDA(cudaMalloc(&din, m * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dsum, blocks * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dpre, m * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dwarp, m / 32 * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(din, h.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    cub_kernel<<<blocks, kBlock>>>(din, dsum, dpre, dwarp);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> bs(blocks), pre(m), ws(m / 32);
    CHECK_CUDA(cudaMemcpy(bs.data(), dsum, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(pre.data(), dpre, m * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ws.data(), dwarp, m / 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int s = 0;
        for (int t = 0; t < kBlock; t++) {
            s += h[b * kBlock + t];
            CHECK(pre[b * kBlock + t] == s);
        }
        CHECK(bs[b] == s);
    }
    for (int w = 0; w < m / 32; w++) {
        int s = 0;
        for (int t = 0; t < 32; t++) s += h[w * 32 + t];
        CHECK(ws[w] == s);
    }
    CHECK_CUDA(cudaFree(din)); CHECK_CUDA(cudaFree(dsum));
    CHECK_CUDA(cudaFree(dpre)); CHECK_CUDA(cudaFree(dwarp));
    std::printf("rt_thrust: all checks passed\n");
    return 0;
}
