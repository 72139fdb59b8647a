// rt_coop.cu — cooperative launches: cudaLaunchCooperativeKernel with
// cooperative_groups::this_grid().sync() (nvcc's grid barrier in a
// driver-provided workspace, %envreg1/%envreg2), checked against the CPU;
// cudaLaunchKernelExC with cudaLaunchAttributeCooperative; a grid larger
// than fits co-resident is refused with cudaErrorCooperativeLaunchTooLarge.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>
#include "rt_check.h"

namespace cg = cooperative_groups;

// Two phases per round: every block sums its slice into partial[blockIdx],
// grid.sync(), block 0..n-1 each read ALL partials (so a missing barrier
// shows) and scale their slice by the grand total modulo 7 plus 1,
// grid.sync() again, repeated `rounds` times.
__global__ void grid_reduce(int *data, long long *partial, long long *totals,
                            int n, int rounds)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ long long s[256];
    for (int r = 0; r < rounds; r++) {
        long long acc = 0;
        for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size())
            acc += data[i];
        s[threadIdx.x] = acc;
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w /= 2) {
            if ((int)threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
        grid.sync();
        long long total = 0;
        for (unsigned b = 0; b < gridDim.x; b++) total += partial[b];
        if (blockIdx.x == 0 && threadIdx.x == 0) totals[r] = total;
        int scale = (int)(total % 7) + 1;
        for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size())
            data[i] = (data[i] * scale) % 1000;
        grid.sync();
    }
}

static void cpu_ref(std::vector<int> &d, std::vector<long long> &totals, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        long long t = 0;
        for (int v : d) t += v;
        totals[r] = t;
        int scale = (int)(t % 7) + 1;
        for (int &v : d) v = (v * scale) % 1000;
    }
}

int main()
{
    int dev = 0, coop = 0, sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CHECK(coop == 1);
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int threads = 256, n = 5000, rounds = 3;
    int per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_reduce, threads, 0));
    CHECK(per_sm > 0);
    int blocks = 6;
    if (blocks > per_sm * sms) blocks = per_sm * sms;

    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (i * 37 + 11) % 1000;
    std::vector<int> ref = h;
    std::vector<long long> ref_tot(rounds);
    cpu_ref(ref, ref_tot, rounds);

    int *d_data; long long *d_part, *d_tot;
    CHECK_CUDA(cudaMalloc(&d_data, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_part, 1024 * sizeof(long long)));
    CHECK_CUDA(cudaMalloc(&d_tot, rounds * sizeof(long long)));

    // 1. cudaLaunchCooperativeKernel
    CHECK_CUDA(cudaMemcpy(d_data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n, rr = rounds;
    void *args[] = { &d_data, &d_part, &d_tot, &nn, &rr };
    CHECK_CUDA(cudaLaunchCooperativeKernel((const void *)grid_reduce, dim3(blocks), dim3(threads), args, 0, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> out(n);
    std::vector<long long> tot(rounds);
    CHECK_CUDA(cudaMemcpy(out.data(), d_data, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(tot.data(), d_tot, rounds * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rounds; r++) CHECK(tot[r] == ref_tot[r]);
    for (int i = 0; i < n; i++) CHECK(out[i] == ref[i]);
    std::printf("rt_coop: %d blocks x %d threads, %d rounds, totals %lld %lld %lld\n",
                blocks, threads, rounds, tot[0], tot[1], tot[2]);

    // 2. the same through cudaLaunchKernelExC with the cooperative attribute
    CHECK_CUDA(cudaMemcpy(d_data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d_tot, 0, rounds * sizeof(long long)));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.gridDim = dim3(blocks); cfg.blockDim = dim3(threads);
    cfg.attrs = attr; cfg.numAttrs = 1;
    CHECK_CUDA(cudaLaunchKernelExC(&cfg, (const void *)grid_reduce, args));
    CHECK_CUDA(cudaMemcpy(out.data(), d_data, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(tot.data(), d_tot, rounds * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rounds; r++) CHECK(tot[r] == ref_tot[r]);
    for (int i = 0; i < n; i++) CHECK(out[i] == ref[i]);

    // 3. one block more than fits co-resident: refused, nothing sticky
    int too_many = per_sm * sms + 1;
    CHECK_ERR(cudaLaunchCooperativeKernel((const void *)grid_reduce, dim3(too_many), dim3(threads), args, 0, 0),
              cudaErrorCooperativeLaunchTooLarge);
    CHECK_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    CHECK_CUDA(cudaGetLastError());
    // and the largest grid that fits runs (one round)
    int full = per_sm * sms;
    if (full <= 1024) {
        CHECK_CUDA(cudaMemcpy(d_data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        int one = 1;
        void *args1[] = { &d_data, &d_part, &d_tot, &nn, &one };
        CHECK_CUDA(cudaLaunchCooperativeKernel((const void *)grid_reduce, dim3(full), dim3(threads), args1, 0, 0));
        CHECK_CUDA(cudaMemcpy(tot.data(), d_tot, sizeof(long long), cudaMemcpyDeviceToHost));
        CHECK(tot[0] == ref_tot[0]);
        std::printf("rt_coop: full grid of %d blocks (%d per SM x %d SMs) ran, %d refused\n",
                    full, per_sm, sms, too_many);
    }

    CHECK_CUDA(cudaFree(d_data));
    CHECK_CUDA(cudaFree(d_part));
    CHECK_CUDA(cudaFree(d_tot));
    std::printf("rt_coop: all checks passed\n");
    return 0;
}
