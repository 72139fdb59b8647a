// rt_locality.cu -- the locality hint from CUDA source (smcosim_cuda.h,
// docs/locality.md): smcosimSetNextLaunchHint(h) gives the calling thread's
// next launch hint h. Three launches: `rows` with hint 2, `cols` right after
// it without a call (the hint was consumed), `rows` again after a rejected
// value 7 (no hint). The script (run_cuda_tests.sh) checks the JSON
// statistics: launch 0 "locality_hint": 2, launches 1 and 2 none.
#include "rt_check.h"
#include "smcosim_cuda.h"

__global__ void rows(int *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = y;
}

__global__ void cols(int *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = x;
}

int main()
{
    const int w = 64, h = 64, n = w * h;
    int *d, host[n];
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
    dim3 grid(w / 32, h / 8), block(32, 8);

    // under smcosim the call exists (smcosim's libcudart.so.13 exports it)
    CHECK(smcosimSetNextLaunchHint != nullptr);
    CHECK(smcosimSetNextLaunchHint(2) == cudaSuccess);
    rows<<<grid, block>>>(d, w);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(host[i] == i / w);

    cols<<<grid, block>>>(d, w);                    // no hint: it was consumed
    CHECK_CUDA(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(host[i] == i % w);

    CHECK(smcosimTrySetNextLaunchHint(7) == cudaErrorInvalidValue);   // rejected, cleared
    rows<<<grid, block>>>(d, w);
    CHECK_CUDA(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(host[i] == i / w);

    CHECK_CUDA(cudaFree(d));
    std::printf("rt_locality: all checks passed\n");
    return 0;
}
