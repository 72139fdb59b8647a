// rt_misc.cu — runtime calls that everyday programs make and no other test
// program called: each checked for what a program relies on. Built twice:
// as usual, and with --default-stream per-thread, which routes the copies
// and memsets through the *_ptds / *_ptsz entry points.
#include "rt_check.h"
#include <cstring>

__device__ int dev_table[4];
__constant__ float const_table[3];

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

int main()
{
    // cudaCreateChannelDesc: a plain value
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
    CHECK(cd.x == 8 && cd.y == 16 && cd.z == 0 && cd.w == 0 && cd.f == cudaChannelFormatKindUnsigned);

    unsigned flags = 0;
    CHECK_CUDA(cudaGetDeviceFlags(&flags));
    CHECK((flags & cudaDeviceMapHost) != 0);
    CHECK_CUDA(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CHECK_ERR(cudaDeviceDisablePeerAccess(1), cudaErrorInvalidDevice);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);

    // cudaMemGetInfo: the free memory shrinks by what a cudaMalloc takes
    size_t free0 = 0, total = 0, free1 = 0;
    CHECK_CUDA(cudaMemGetInfo(&free0, &total));
    cudaDeviceProp p;
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    CHECK(total == p.totalGlobalMem && free0 <= total);
    int *d;
    const int n = 1000;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
    CHECK_CUDA(cudaMemGetInfo(&free1, &total));
    CHECK(free1 + n * sizeof(int) <= free0);

    // streams with priorities and ids
    int lo = 0, hi = 0;
    CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t s1, s2;
    CHECK_CUDA(cudaStreamCreateWithPriority(&s1, cudaStreamNonBlocking, hi));
    CHECK_CUDA(cudaStreamCreateWithPriority(&s2, cudaStreamNonBlocking, lo));
    int pr = -99;
    CHECK_CUDA(cudaStreamGetPriority(s1, &pr));
    CHECK(pr == hi);
    unsigned long long id1 = 0, id2 = 0;
    CHECK_CUDA(cudaStreamGetId(s1, &id1));
    CHECK_CUDA(cudaStreamGetId(s2, &id2));
    CHECK(id1 != id2);

    // async memset / copies / symbols on a stream, then a kernel through
    // cudaLaunchKernelExC
    CHECK_CUDA(cudaMemsetAsync(d, 0, n * sizeof(int), s1));
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK_CUDA(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s1));
    cudaLaunchConfig_t cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3((n + 127) / 128);
    cfg.blockDim = dim3(128);
    cfg.stream = s1;
    int nn = n;
    void *args[] = { &d, &nn };
    CHECK_CUDA(cudaLaunchKernelExC(&cfg, (const void *)add_one, args));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(h[i] == i + 1);

    const int tab[4] = { 7, 8, 9, 10 };
    int back[4] = { 0 };
    CHECK_CUDA(cudaMemcpyToSymbolAsync(dev_table, tab, sizeof tab, 0, cudaMemcpyHostToDevice, s2));
    CHECK_CUDA(cudaMemcpyFromSymbolAsync(back, dev_table, sizeof back, 0, cudaMemcpyDeviceToHost, s2));
    CHECK_CUDA(cudaStreamSynchronize(s2));
    CHECK(std::memcmp(tab, back, sizeof tab) == 0);
    const float ct[3] = { 0.5f, 1.5f, 2.5f };
    float cback[3];
    CHECK_CUDA(cudaMemcpyToSymbol(const_table, ct, sizeof ct));
    CHECK_CUDA(cudaMemcpyFromSymbol(cback, const_table, sizeof cback));
    CHECK(std::memcmp(ct, cback, sizeof ct) == 0);

    // a pitched 2D memset and copy
    size_t pitch = 0;
    char *m2;
    CHECK_CUDA(cudaMallocPitch((void **)&m2, &pitch, 100, 5));
    CHECK(pitch >= 100);
    CHECK_CUDA(cudaMemset2DAsync(m2, pitch, 0x5a, 100, 5, s2));
    char rows[5][100];
    CHECK_CUDA(cudaMemcpy2D(rows, 100, m2, pitch, 100, 5, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 100; c++) CHECK(rows[r][c] == 0x5a);

    // managed memory prefetch (nothing to move; must succeed on a valid range)
    int *m;
    CHECK_CUDA(cudaMallocManaged(&m, 64 * sizeof(int)));
    CHECK_CUDA(cudaMemPrefetchAsync(m, 64 * sizeof(int), cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0));
    CHECK_CUDA(cudaDeviceSynchronize());

    // the occupancy call with flags answers as the plain one
    int b1 = -1, b2 = -2;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b1, add_one, 128, 0));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&b2, add_one, 128, 0, cudaOccupancyDefault));
    CHECK(b1 == b2 && b1 > 0);

    CHECK_CUDA(cudaFree(m)); CHECK_CUDA(cudaFree(m2)); CHECK_CUDA(cudaFree(d));
    CHECK_CUDA(cudaStreamDestroy(s1)); CHECK_CUDA(cudaStreamDestroy(s2));
    std::printf("rt_misc: all checks passed\n");
    return 0;
}
