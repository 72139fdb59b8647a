// rt_unsupported.cu — a program that imports runtime functions the simulator
// cannot honour (IPC, external memory) loads, gets cudaErrorNotSupported from
// each call, and carries on: the error is not sticky and later work runs.
#include "rt_check.h"

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main()
{
    int *d;
    CHECK_CUDA(cudaMalloc(&d, 32 * sizeof(int)));
    CHECK_CUDA(cudaMemset(d, 0, 32 * sizeof(int)));

    cudaIpcMemHandle_t h;
    CHECK_ERR(cudaIpcGetMemHandle(&h, d), cudaErrorNotSupported);
    CHECK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    CHECK_ERR(cudaIpcGetMemHandle(&h, d), cudaErrorNotSupported);   // said once only
    cudaExternalMemory_t em;
    cudaExternalMemoryHandleDesc desc = {};
    CHECK_ERR(cudaImportExternalMemory(&em, &desc), cudaErrorNotSupported);
    CHECK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    CHECK_CUDA(cudaGetLastError());

    inc<<<1, 32>>>(d);
    CHECK_CUDA(cudaGetLastError());
    int h_out[32];
    CHECK_CUDA(cudaMemcpy(h_out, d, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        CHECK(h_out[i] == 1);
    std::printf("rt_unsupported: all checks passed\n");
    return 0;
}
