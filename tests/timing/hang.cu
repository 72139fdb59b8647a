// hang.cu — issue 24: kernels that never finish, under `smcosim run`
// (tests/timing/hang-check.sh runs it in functional and timing mode, under
// --sched c|rtl|lockstep). `hang spin`: every thread waits for a flag no one
// sets; `hang mutual`: two blocks, each waits for the other's flag. The
// watchdog stops the launch with cudaErrorLaunchTimeout; the host program
// carries on, its next calls see the error (sticky), and after
// cudaDeviceReset it computes correct results again.
#include <cstdio>
#include <cstring>

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) {
    }
}

__global__ void mutual(volatile int *flags)
{
    int b = blockIdx.x;
    while (flags[b ^ 1] == 0) {
    }
    flags[b] = 1;
}

__global__ void fill(int *p) { p[threadIdx.x] = 3 * threadIdx.x; }

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "spin";
    int *d = nullptr;
    if (cudaMalloc((void **)&d, 64 * sizeof(int)) != cudaSuccess ||
        cudaMemset(d, 0, 64 * sizeof(int)) != cudaSuccess) {
        std::printf("setup failed\n");
        return 1;
    }
    if (!std::strcmp(which, "mutual"))
        mutual<<<2, 32>>>(d);
    else
        spin<<<1, 64>>>(d);
    cudaError_t sync = cudaDeviceSynchronize();
    int h = -1;
    cudaError_t next = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("sync %s\n", cudaGetErrorName(sync));
    std::printf("next %s\n", cudaGetErrorName(next));
    // the host goes on: a reset clears the device and it works again
    cudaError_t r = cudaDeviceReset();
    int out[32] = { 0 };
    if (r == cudaSuccess && cudaMalloc((void **)&d, sizeof out) == cudaSuccess) {
        fill<<<1, 32>>>(d);
        r = cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    }
    int ok = r == cudaSuccess;
    for (int i = 0; i < 32; i++)
        ok = ok && out[i] == 3 * i;
    std::printf("after reset %s\n", ok ? "ok" : "FAILED");
    return 0;
}
