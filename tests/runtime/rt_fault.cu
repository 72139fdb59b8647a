// rt_fault.cu — a guest fault (out-of-bounds store) must not hurt the host:
// the faulting launch makes the following calls return
// cudaErrorIllegalAddress (sticky, as on a GPU), the runtime prints the
// fault report on stderr (checked by run_cuda_tests.sh), and after
// cudaDeviceReset the program carries on and computes correct results.
#include "rt_check.h"
#include <cassert>

__global__ void store_past_end(int *p, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i * stride] = i;          // with stride > 1 most lanes run off the end
    (void)n;
}

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 7 * i;
}

// Device printf from one thread, then assert(p[i] >= 0) in every thread.
__global__ void check_non_negative(const int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0)
        printf("rt_fault: device says %d\n", p[0]);
    if (i < n)
        assert(p[i] >= 0);
}

int main()
{
    int *d;
    CHECK_CUDA(cudaMalloc((void **)&d, 64 * sizeof(int)));
    // 64 threads * stride 1<<20 ints: far beyond the 256-byte allocation
    store_past_end<<<2, 32>>>(d, 64, 1 << 20);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    int h[4];
    CHECK_ERR(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost),
              cudaErrorIllegalAddress);
    CHECK_ERR(cudaPeekAtLastError(), cudaErrorIllegalAddress);   // sticky
    fill<<<1, 64>>>(d, 64);                                      // not run
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    std::printf("rt_fault: fault reported as %s\n",
                cudaGetErrorName(cudaGetLastError()));

    // The host continues: a reset clears the device and it works again.
    CHECK_CUDA(cudaDeviceReset());
    CHECK_CUDA(cudaGetLastError());
    const int n = 100;
    CHECK_CUDA(cudaMalloc((void **)&d, n * sizeof(int)));
    fill<<<(n + 31) / 32, 32>>>(d, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    int out[n];
    CHECK_CUDA(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == 7 * i);

    // Device printf reaches stdout; a failed device assert is a sticky
    // cudaErrorAssert that another reset clears.
    check_non_negative<<<4, 32>>>(d, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    int neg = -5;
    CHECK_CUDA(cudaMemcpy(d + 77, &neg, sizeof neg, cudaMemcpyHostToDevice));
    check_non_negative<<<4, 32>>>(d, n);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
    CHECK_ERR(cudaGetLastError(), cudaErrorAssert);
    CHECK_CUDA(cudaDeviceReset());
    CHECK_CUDA(cudaMalloc((void **)&d, n * sizeof(int)));
    CHECK_CUDA(cudaFree(d));
    std::printf("rt_fault: all checks passed\n");
    return 0;
}
