// rt_warpreduce.cu — block reductions written the way CUDA code commonly
// writes them, checked against a CPU sum:
//  - two-stage warp-shuffle reduction whose second stage runs only in the
//    lanes tid < warps with a ballot member mask, so its __shfl_down_sync
//    reads lanes that do not execute it (0 on NVIDIA GPUs, docs/isa-coverage.md,
//    "Shuffle sources that do not execute"); 32 to 1024 threads, and 80
//    (a partial warp);
//  - cooperative_groups::reduce over tiled_partition<64> to <512> (multi-warp
//    tiles: scratch in block_tile_memory, barriers spun on shared memory), and
//    each tile's shfl() from a lane of its last warp;
//  - the two passes chained as reduction programs do: block sums of a
//    tiled_partition<128> pass summed by the ballot reduction in one warp;
//  - cooperative_groups::reduce and shfl_down loops over tiled_partition<16>
//    and <8> (a member mask per tile).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <vector>
#include "rt_check.h"

namespace cg = cooperative_groups;

static __device__ int grid_stride_sum(const int *in, unsigned n)
{
    int v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    return v;
}

// Sum over the lanes of mask, as reduction code usually writes it (warpSize
// is not a compile-time constant, so the loop stays a loop in the PTX).
static __device__ int warp_sum(unsigned mask, int v)
{
    for (int d = warpSize / 2; d > 0; d /= 2)
        v += __shfl_down_sync(mask, v, d);
    return v;
}

// First stage: each warp sums its lanes into partial[warp]. Second stage:
// the first `warps` lanes of warp 0 sum those with a ballot member mask.
__global__ void reduce_ballot(const int *in, int *out, unsigned n)
{
    extern __shared__ int partial[];
    unsigned tid = threadIdx.x;
    unsigned live = __ballot_sync(0xffffffffu, tid < blockDim.x);
    int sum = warp_sum(live, grid_stride_sum(in, n));
    if (tid % warpSize == 0) partial[tid / warpSize] = sum;
    __syncthreads();
    unsigned warps = (blockDim.x + warpSize - 1) / warpSize;
    unsigned b = __ballot_sync(live, tid < warps);
    if (tid < warps) {
        sum = partial[tid];
        sum = warp_sum(b, sum);
    }
    if (tid == 0) out[blockIdx.x] = sum;
}

// Multi-warp tiles of Size threads in blocks of Block threads, scratch sized
// for exactly Block as block_tile_memory's template argument says. tile
// sums go to dynamic shared memory (after the static scratch), the block's
// sum to out[blockIdx.x]. shfl_out gets, for every thread,
// tile.shfl(rank * 3 + 1, Size - 24): a lane of the tile's last warp.
template <unsigned Block, unsigned Size>
__global__ void reduce_multiwarp(const int *in, int *out, int *shfl_out, unsigned n)
{
    extern __shared__ int tile_sum[];
    __shared__ cg::block_tile_memory<Block> scratch;
    cg::thread_block cta = cg::this_thread_block(scratch);
    cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(cta);
    int v = cg::reduce(tile, grid_stride_sum(in, n), cg::plus<int>());
    if (tile.thread_rank() == 0) tile_sum[tile.meta_group_rank()] = v;
    int s = tile.shfl((int)tile.thread_rank() * 3 + 1, Size - 24);
    shfl_out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    cg::sync(cta);
    if (threadIdx.x == 0) {
        int t = 0;
        for (unsigned i = 0; i < tile.meta_group_size(); i++) t += tile_sum[i];
        out[blockIdx.x] = t;
    }
}

// Tiles of Size threads: cg::reduce and a hand-written shfl_down loop;
// per tile, both sums into tile_out[2 * global tile index + 0/1].
template <unsigned Size>
__global__ void reduce_small_tiles(const int *in, int *tile_out)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(cta);
    int x = in[blockIdx.x * blockDim.x + threadIdx.x];
    int r = cg::reduce(tile, x, cg::plus<int>());
    int h = x;
    for (unsigned d = Size / 2; d > 0; d /= 2)
        h += tile.shfl_down(h, d);
    unsigned t = (blockIdx.x * blockDim.x + threadIdx.x) / Size;
    if (tile.thread_rank() == 0) {
        tile_out[2 * t] = r;
        tile_out[2 * t + 1] = h;
    }
}

struct multiwarp_case {
    unsigned block, size;
    void (*kernel)(const int *, int *, int *, unsigned);
};
static const multiwarp_case multiwarp[] = {
    { 64, 64, reduce_multiwarp<64, 64> },       { 128, 64, reduce_multiwarp<128, 64> },
    { 256, 64, reduce_multiwarp<256, 64> },     { 1024, 64, reduce_multiwarp<1024, 64> },
    { 256, 128, reduce_multiwarp<256, 128> },   { 512, 256, reduce_multiwarp<512, 256> },
    { 1024, 512, reduce_multiwarp<1024, 512> },
};

static int failures = 0;

static void expect(const char *what, unsigned threads, unsigned n, long long got, long long want)
{
    if (got != want) {
        std::printf("FAIL %s: %u threads, n %u: got %lld, expected %lld\n", what, threads, n, got, want);
        failures++;
    }
}

int main()
{
    const unsigned max_n = 1u << 16, blocks = 4;
    std::vector<int> h(max_n);
    for (unsigned i = 0; i < max_n; i++) h[i] = (int)((i * 2654435761u) >> 24) % 13 - 3;
    int *d_in, *d_out, *d_shfl;
    CHECK_CUDA(cudaMalloc(&d_in, max_n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_out, max_n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_shfl, max_n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_in, h.data(), max_n * sizeof(int), cudaMemcpyHostToDevice));
    std::vector<int> out(max_n);

    const unsigned ns[] = { 4096, 1000, 37, 1u << 16 };
    // 80: a partial last warp (its lanes 16..31 do not exist)
    const unsigned ballot_threads[] = { 32, 64, 80, 256, 1024 };
    for (unsigned n : ns) {
        long long want = 0;
        for (unsigned i = 0; i < n; i++) want += h[i];
        for (unsigned t : ballot_threads) {
            reduce_ballot<<<blocks, t, (t + 31) / 32 * sizeof(int)>>>(d_in, d_out, n);
            CHECK_CUDA(cudaGetLastError());
            CHECK_CUDA(cudaMemcpy(out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
            long long got = 0;
            for (unsigned b = 0; b < blocks; b++) got += out[b];
            expect("ballot reduction", t, n, got, want);
        }
        for (unsigned k = 0; k < sizeof multiwarp / sizeof multiwarp[0]; k++) {
            const multiwarp_case &c = multiwarp[k];
            c.kernel<<<blocks, c.block, c.block / c.size * sizeof(int)>>>(d_in, d_out, d_shfl, n);
            CHECK_CUDA(cudaGetLastError());
            CHECK_CUDA(cudaMemcpy(out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
            long long got = 0;
            for (unsigned b = 0; b < blocks; b++) got += out[b];
            char what[80];
            std::snprintf(what, sizeof what, "tiled_partition<%u> reduction", c.size);
            expect(what, c.block, n, got, want);
            std::vector<int> s(blocks * c.block);
            CHECK_CUDA(cudaMemcpy(s.data(), d_shfl, s.size() * sizeof(int), cudaMemcpyDeviceToHost));
            unsigned bad = 0;
            for (int x : s) bad += x != (int)(c.size - 24) * 3 + 1;
            std::snprintf(what, sizeof what, "tiled_partition<%u> shfl(v, %u): wrong threads", c.size, c.size - 24);
            expect(what, c.block, n, bad, 0);
        }
    }

    // Two passes as reduction programs chain them: 64 block sums from a
    // tiled_partition<128> pass, then the ballot reduction with one block of
    // 32 threads over those sums (one warp: the second stage's mask is 1).
    {
        const unsigned n = 1u << 16, sums = 64;
        long long want = 0;
        for (unsigned i = 0; i < n; i++) want += h[i];
        reduce_multiwarp<256, 128><<<sums, 256, 2 * sizeof(int)>>>(d_in, d_out, d_shfl, n);
        CHECK_CUDA(cudaGetLastError());
        reduce_ballot<<<1, 32, sizeof(int)>>>(d_out, d_out + sums, sums);
        CHECK_CUDA(cudaGetLastError());
        int got = 0;
        CHECK_CUDA(cudaMemcpy(&got, d_out + sums, sizeof(int), cudaMemcpyDeviceToHost));
        expect("two passes: tiled_partition<128>, then ballot reduction of 64 sums", 32, n, got, want);
    }

    const unsigned tile_threads = 256, tile_blocks = 8, total = tile_threads * tile_blocks;
    for (unsigned size : { 16u, 8u }) {
        if (size == 16) reduce_small_tiles<16><<<tile_blocks, tile_threads>>>(d_in, d_out);
        else reduce_small_tiles<8><<<tile_blocks, tile_threads>>>(d_in, d_out);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaMemcpy(out.data(), d_out, 2 * total / size * sizeof(int), cudaMemcpyDeviceToHost));
        unsigned bad_r = 0, bad_h = 0;
        for (unsigned t = 0; t < total / size; t++) {
            int want = 0;
            for (unsigned i = 0; i < size; i++) want += h[t * size + i];
            bad_r += out[2 * t] != want;
            bad_h += out[2 * t + 1] != want;
        }
        expect(size == 16 ? "tiled_partition<16> cg::reduce: wrong tiles" : "tiled_partition<8> cg::reduce: wrong tiles",
               tile_threads, total, bad_r, 0);
        expect(size == 16 ? "tiled_partition<16> shfl_down: wrong tiles" : "tiled_partition<8> shfl_down: wrong tiles",
               tile_threads, total, bad_h, 0);
    }

    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_shfl));
    CHECK(failures == 0);
    std::printf("rt_warpreduce: all checks passed\n");
    return 0;
}
