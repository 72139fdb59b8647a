// rt_occupancy.cu — the occupancy API answers what the simulator does: for a
// block whose dynamic shared memory (9800 bytes) is not a multiple of the
// allocation unit, cudaOccupancyMaxActiveBlocksPerMultiprocessor must count
// the rounded-up allocation, as the timing model's dispatcher does. Prints
// the answer; tests/runtime/run_cuda_tests.sh compares it with the launch's
// "blocks_per_sm" in the statistics JSON and with the configuration's keys.
#include "rt_check.h"

__global__ void uses_dynamic_smem(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

int main()
{
    const int block = 64;
    const size_t dyn = 9800;
    int blocks = -1;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, uses_dynamic_smem, block, dyn));
    CHECK(blocks >= 1);
    int sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int grid = sms * blocks;
    float *d;
    CHECK_CUDA(cudaMalloc(&d, grid * block * sizeof(float)));
    uses_dynamic_smem<<<grid, block, dyn>>>(d);
    CHECK_CUDA(cudaGetLastError());
    float h[block];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < block; t++)
        CHECK(h[t] == (float)(block - 1 - t));
    std::printf("rt_occupancy: %d blocks per SM; all checks passed\n", blocks);
    return 0;
}
