// rt_image.cu — which device image the runtime picks. Built twice:
//   rt_multiarch: PTX for compute_80 and compute_75 plus SASS for sm_86;
//                 the runtime must choose the compute_75 PTX and run it.
//   rt_sass:      SASS for sm_75 only; the launch must fail with
//                 cudaErrorNoKernelImageForDevice and the runtime must say
//                 what it found and how to rebuild (checked by
//                 run_cuda_tests.sh), without crashing.
//   rt_rdc:       PTX compiled with -rdc=true (unsupported): the same failure,
//                 with a message saying so.
#include "rt_check.h"
#include <cstring>

__global__ void square(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * p[i];
}

int main(int argc, char **argv)
{
    bool expect_no_image = argc > 1 && std::strcmp(argv[1], "--expect-no-image") == 0;
    const int n = 50;
    int h[n];
    for (int i = 0; i < n; i++)
        h[i] = i - 20;
    int *d;
    CHECK_CUDA(cudaMalloc((void **)&d, sizeof h));
    CHECK_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    square<<<2, 32>>>(d, n);
    if (expect_no_image) {
        CHECK_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
        std::printf("rt_image: no usable image, as expected\n");
        return 0;
    }
    CHECK_CUDA(cudaGetLastError());
    int out[n];
    CHECK_CUDA(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == (i - 20) * (i - 20));
    std::printf("rt_image: all checks passed\n");
    return 0;
}
