// rt_attrs.cu — device queries as everyday CUDA programs make them: the
// device-picking helper of the CUDA samples (compute mode, SM count, clock,
// compute capability), deviceQuery's listing of cudaDeviceProp, and every
// cudaDeviceAttr. The list of attributes is generated from the installed
// driver_types.h (csrc/runtime/module.mk), not from the runtime under test.
#include "rt_check.h"
#include <cstring>

struct attr_def { const char *name; int value; };
static const attr_def attrs[] = {
#define RT_ATTR(name, value) { #name, value },
#include "cuda_device_attrs.inc"
#undef RT_ATTR
};

// What the samples' gpuGetMaxGflopsDeviceId() asks before it picks a device.
static int pick_device()
{
    int count = 0, best = -1;
    unsigned long long best_perf = 0;
    CHECK_CUDA(cudaGetDeviceCount(&count));
    for (int d = 0; d < count; d++) {
        int mode = -1, sms = 0, clock = 0, major = 0, minor = 0;
        CHECK_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
        CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
        if (mode == cudaComputeModeProhibited)
            continue;
        unsigned long long perf = (unsigned long long)sms * 64 * (unsigned long long)clock;
        if (perf > best_perf) { best_perf = perf; best = d; }
    }
    return best;
}

static int get(cudaDeviceAttr a)
{
    int v = -12345;
    CHECK_CUDA(cudaDeviceGetAttribute(&v, a, 0));
    return v;
}

int main()
{
    int dev = pick_device();
    CHECK(dev == 0);
    CHECK_CUDA(cudaSetDevice(dev));

    // Every attribute of the header answers.
    int n = 0;
    for (const attr_def &a : attrs) {
        int v = -12345;
        cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a.value, 0);
        if (e != cudaSuccess) {
            std::fprintf(stderr, "%s (%d): %s\n", a.name, a.value, cudaGetErrorName(e));
            return 1;
        }
        std::printf("attr %s %d\n", a.name, v);
        n++;
    }
    CHECK(n > 100);

    // Numbers that are not attributes are errors, and the error is cleared
    // by cudaGetLastError like any other.
    const int invalid[] = { 0, 44, 92, 102, 200, -1, 1 << 20 };
    for (int bad : invalid) {
        bool listed = false;
        for (const attr_def &a : attrs) listed |= a.value == bad;
        if (listed) continue;
        int v = 7;
        CHECK_ERR(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)bad, 0), cudaErrorInvalidValue);
        CHECK(v == 7);
        CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
        CHECK_CUDA(cudaGetLastError());
    }

    // cudaDeviceProp agrees with the attributes (deviceQuery prints both).
    cudaDeviceProp p;
    std::memset(&p, 0xab, sizeof p);
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    CHECK(std::strlen(p.name) > 0);
    CHECK(p.totalGlobalMem > 0);
    CHECK(p.warpSize == get(cudaDevAttrWarpSize) && p.warpSize == 32);
    CHECK(p.multiProcessorCount == get(cudaDevAttrMultiProcessorCount));
    CHECK(p.major == get(cudaDevAttrComputeCapabilityMajor));
    CHECK(p.minor == get(cudaDevAttrComputeCapabilityMinor));
    CHECK(p.maxThreadsPerBlock == get(cudaDevAttrMaxThreadsPerBlock));
    CHECK((int)p.sharedMemPerBlock == get(cudaDevAttrMaxSharedMemoryPerBlock));
    CHECK((int)p.sharedMemPerMultiprocessor == get(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    CHECK(p.regsPerMultiprocessor == get(cudaDevAttrMaxRegistersPerMultiprocessor));
    CHECK(p.l2CacheSize == get(cudaDevAttrL2CacheSize));
    CHECK(p.maxBlocksPerMultiProcessor == get(cudaDevAttrMaxBlocksPerMultiprocessor));
    CHECK(p.memoryBusWidth == get(cudaDevAttrGlobalMemoryBusWidth) && p.memoryBusWidth > 0);
    CHECK(p.maxTexture2D[0] == get(cudaDevAttrMaxTexture2DWidth) && p.maxTexture2D[0] > 0);
    CHECK(p.asyncEngineCount == get(cudaDevAttrAsyncEngineCount));
    CHECK(p.concurrentKernels == get(cudaDevAttrConcurrentKernels));
    CHECK(p.cooperativeLaunch == get(cudaDevAttrCooperativeLaunch));
    CHECK(p.memoryPoolsSupported == get(cudaDevAttrMemoryPoolsSupported));
    CHECK(p.unifiedAddressing == 1 && p.managedMemory == 1);
    // The samples compute cores per SM from the compute capability.
    CHECK(p.major * 10 + p.minor >= 75);
    std::printf("rt_attrs: %d attributes; all checks passed\n", n);
    return 0;
}
