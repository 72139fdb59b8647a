// cudaEventElapsedTime in timing mode: the events around two launches must
// measure the launches' simulated cycles at the configured clock. Prints
// "elapsed_ms <ms>" and "clock_khz <kHz>"; tests/timing/event-time.sh
// compares them with the cycles in the statistics JSON.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    const int n = 8192;
    float *x, *y;
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMemset(x, 0, n * sizeof(float)));
    CK(cudaMemset(y, 0, n * sizeof(float)));
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventRecord(start));
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    CK(cudaGetLastError());
    saxpy<<<(n + 127) / 128, 128>>>(n, 3.0f, x, y);
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, start, stop));
    int khz = 0;
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    printf("elapsed_ms %.9g\nclock_khz %d\n", ms, khz);
    return 0;
}
