// rt_stream.cu — host functions and callbacks in streams, registered host
// memory, peer access on a one-device system, stream attributes, the default
// memory pool and cudaLaunchKernelEx, each checked against values computed
// here on the CPU.
#include "rt_check.h"

#include <cstring>
#include <vector>

__global__ void scale_add(float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

// ---- host functions and callbacks -------------------------------------------

struct Trace {
    std::vector<int> order;     // ids of the host functions, in call order
    const float *pinned;        // what the host functions look at
    float seen_b;               // pinned[5] when function 'B' ran
    cudaError_t cb_status;
    cudaStream_t cb_stream;
};
static Trace trace;

static void CUDART_CB fn_a(void *) { trace.order.push_back(1); }
static void CUDART_CB fn_b(void *) { trace.order.push_back(2); trace.seen_b = trace.pinned[5]; }
static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *data)
{
    trace.order.push_back(*(int *)data);
    trace.cb_status = status;
    trace.cb_stream = s;
}

static void test_host_functions()
{
    const int n = 256;
    float *h;
    CHECK_CUDA(cudaMallocHost(&h, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    trace.pinned = h;
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    CHECK_CUDA(cudaLaunchHostFunc(s, fn_a, nullptr));
    scale_add<<<(n + 127) / 128, 128, 0, s>>>(h, 3.0f, 1.0f, n);
    CHECK_CUDA(cudaLaunchHostFunc(s, fn_b, nullptr));
    int id = 3;
    CHECK_CUDA(cudaStreamAddCallback(s, callback, &id, 0));
    CHECK_CUDA(cudaStreamSynchronize(s));
    // The functions ran once each, in issue order, after the kernel.
    CHECK(trace.order.size() == 3);
    CHECK(trace.order[0] == 1 && trace.order[1] == 2 && trace.order[2] == 3);
    CHECK(trace.seen_b == 3.0f * 5 + 1.0f);
    CHECK(trace.cb_status == cudaSuccess);
    CHECK(trace.cb_stream == s);
    // Default stream too; bad arguments.
    CHECK_CUDA(cudaLaunchHostFunc(0, fn_a, nullptr));
    CHECK(trace.order.size() == 4 && trace.order[3] == 1);
    CHECK_ERR(cudaStreamAddCallback(s, callback, &id, 1), cudaErrorInvalidValue);
    CHECK_ERR(cudaLaunchHostFunc(s, nullptr, nullptr), cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFreeHost(h));
}

// ---- registered host memory --------------------------------------------------

static void test_host_register()
{
    const int n = 1000;
    std::vector<float> ref(n);
    float *buf = (float *)std::malloc(n * sizeof(float));   // the program's own memory
    for (int i = 0; i < n; i++)
        buf[i] = ref[i] = 0.5f * i;
    unsigned flags = 0;
    CHECK_ERR(cudaHostGetFlags(&flags, buf), cudaErrorInvalidValue);
    CHECK_CUDA(cudaHostRegister(buf, n * sizeof(float), cudaHostRegisterMapped));
    CHECK_ERR(cudaHostRegister(buf + 10, 8, 0), cudaErrorHostMemoryAlreadyRegistered);
    CHECK_CUDA(cudaHostGetFlags(&flags, buf + 3));
    CHECK(flags & cudaHostRegisterMapped);

    // Through the device pointer ...
    float *d = nullptr;
    CHECK_CUDA(cudaHostGetDevicePointer((void **)&d, buf, 0));
    CHECK(d != nullptr);
    scale_add<<<(n + 255) / 256, 256>>>(d, 2.0f, 1.0f, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        ref[i] = 2.0f * ref[i] + 1.0f;
    for (int i = 0; i < n; i++)
        CHECK(buf[i] == ref[i]);
    // ... and through the host pointer itself (unified addressing).
    buf[7] = 100.0f;
    ref[7] = 100.0f;
    scale_add<<<(n + 255) / 256, 256>>>(buf, -1.0f, 0.25f, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        ref[i] = -ref[i] + 0.25f;
    for (int i = 0; i < n; i++)
        CHECK(buf[i] == ref[i]);
    // Copies name either side.
    float *dev;
    CHECK_CUDA(cudaMalloc(&dev, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dev, buf, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(d, 0, 16 * sizeof(float)));        // through the device pointer
    for (int i = 0; i < 16; i++)
        CHECK(buf[i] == 0.0f);
    CHECK_CUDA(cudaMemcpy(d, dev, 16 * sizeof(float), cudaMemcpyDeviceToDevice));
    for (int i = 0; i < 16; i++)
        CHECK(buf[i] == ref[i]);
    CHECK_CUDA(cudaFree(dev));

    CHECK_CUDA(cudaHostUnregister(buf));
    CHECK_ERR(cudaHostUnregister(buf), cudaErrorHostMemoryNotRegistered);
    CHECK_ERR(cudaHostGetFlags(&flags, buf), cudaErrorInvalidValue);
    std::free(buf);

    // cudaHostAlloc's flags come back; every pinned allocation is mapped.
    void *p;
    CHECK_CUDA(cudaHostAlloc(&p, 4096, cudaHostAllocWriteCombined | cudaHostAllocPortable));
    CHECK_CUDA(cudaHostGetFlags(&flags, (char *)p + 100));
    CHECK(flags == (cudaHostAllocWriteCombined | cudaHostAllocPortable | cudaHostAllocMapped));
    CHECK_CUDA(cudaFreeHost(p));
    cudaGetLastError();
}

// ---- peer access, persisting L2 --------------------------------------------------

static void test_peer()
{
    int can = -1;
    CHECK_CUDA(cudaDeviceCanAccessPeer(&can, 0, 0));
    CHECK(can == 0);
    CHECK_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorInvalidDevice);
    CHECK_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    CHECK_CUDA(cudaCtxResetPersistingL2Cache());
}

// ---- stream attributes ----------------------------------------------------------

static void test_stream_attributes()
{
    cudaStream_t a, b;
    CHECK_CUDA(cudaStreamCreate(&a));
    CHECK_CUDA(cudaStreamCreate(&b));
    static char window[1 << 16];
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = window;
    v.accessPolicyWindow.num_bytes = sizeof window;
    v.accessPolicyWindow.hitRatio = 0.625f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK_CUDA(cudaStreamSetAttribute(a, cudaStreamAttributeAccessPolicyWindow, &v));
    cudaStreamAttrValue sync = {};
    sync.syncPolicy = cudaSyncPolicyYield;
    CHECK_CUDA(cudaStreamSetAttribute(a, cudaStreamAttributeSynchronizationPolicy, &sync));

    cudaStreamAttrValue got = {};
    CHECK_CUDA(cudaStreamGetAttribute(a, cudaStreamAttributeAccessPolicyWindow, &got));
    CHECK(got.accessPolicyWindow.base_ptr == window);
    CHECK(got.accessPolicyWindow.num_bytes == sizeof window);
    CHECK(got.accessPolicyWindow.hitRatio == 0.625f);
    CHECK(got.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
    CHECK(got.accessPolicyWindow.missProp == cudaAccessPropertyStreaming);

    // Unset on b until copied.
    CHECK_CUDA(cudaStreamGetAttribute(b, cudaStreamAttributeAccessPolicyWindow, &got));
    CHECK(got.accessPolicyWindow.num_bytes == 0);
    CHECK_CUDA(cudaStreamCopyAttributes(b, a));
    CHECK_CUDA(cudaStreamGetAttribute(b, cudaStreamAttributeAccessPolicyWindow, &got));
    CHECK(got.accessPolicyWindow.base_ptr == window && got.accessPolicyWindow.hitRatio == 0.625f);
    CHECK_CUDA(cudaStreamGetAttribute(b, cudaStreamAttributeSynchronizationPolicy, &got));
    CHECK(got.syncPolicy == cudaSyncPolicyYield);
    // Not a stream attribute.
    CHECK_ERR(cudaStreamSetAttribute(a, cudaLaunchAttributeCooperative, &v), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK_CUDA(cudaStreamDestroy(a));
    CHECK_CUDA(cudaStreamDestroy(b));
}

// ---- the default memory pool ------------------------------------------------------

static unsigned long long pool_attr(cudaMemPool_t pool, cudaMemPoolAttr attr)
{
    unsigned long long v = ~0ull;
    CHECK_CUDA(cudaMemPoolGetAttribute(pool, attr, &v));
    return v;
}

static void test_mem_pool()
{
    int supported = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    CHECK(supported == 1);
    cudaMemPool_t pool, cur;
    CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
    CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
    CHECK(pool == cur);
    CHECK_CUDA(cudaDeviceSetMemPool(0, pool));

    unsigned long long threshold = 64ull << 20;
    CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(pool_attr(pool, cudaMemPoolAttrReleaseThreshold) == threshold);
    int follow = 0;
    CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &follow));
    int got = -1;
    CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &got));
    CHECK(got == 0);

    const unsigned long long base = pool_attr(pool, cudaMemPoolAttrUsedMemCurrent);
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    const int n = 1 << 16;
    float *a, *b;
    CHECK_CUDA(cudaMallocAsync(&a, n * sizeof(float), s));
    CHECK_CUDA(cudaMallocFromPoolAsync(&b, 3 * n * sizeof(float), pool, s));
    CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) == base + 4ull * n * sizeof(float));
    CHECK(pool_attr(pool, cudaMemPoolAttrReservedMemCurrent) >= base + 4ull * n * sizeof(float));
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 97);
    CHECK_CUDA(cudaMemcpyAsync(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
    scale_add<<<n / 256, 256, 0, s>>>(a, 0.5f, 2.0f, n);
    std::vector<float> out(n);
    CHECK_CUDA(cudaMemcpyAsync(out.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaFreeAsync(a, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        CHECK(out[i] == 0.5f * (float)(i % 97) + 2.0f);
    CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) == base + 3ull * n * sizeof(float));
    CHECK_CUDA(cudaFree(b));   // cudaFree of pool memory is allowed
    CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemCurrent) == base);
    CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemHigh) >= base + 4ull * n * sizeof(float));
    unsigned long long zero = 0;
    CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    CHECK(pool_attr(pool, cudaMemPoolAttrUsedMemHigh) == base);
    CHECK_CUDA(cudaMemPoolTrimTo(pool, 0));
    CHECK_CUDA(cudaStreamDestroy(s));
}

// ---- cudaLaunchKernelEx ------------------------------------------------------------

static void test_launch_ex()
{
    const int n = 300;
    float *x;
    CHECK_CUDA(cudaMallocManaged(&x, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    cudaLaunchAttribute attrs[2];
    attrs[0].id = cudaLaunchAttributePriority;
    attrs[0].val.priority = 0;
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = 1;
    attrs[1].val.clusterDim.y = 1;
    attrs[1].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 63) / 64);
    cfg.blockDim = dim3(64);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = s;
    cfg.attrs = attrs;
    cfg.numAttrs = 2;
    CHECK_CUDA(cudaLaunchKernelEx(&cfg, scale_add, x, 4.0f, -1.0f, n));
    CHECK_CUDA(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        CHECK(x[i] == 4.0f * i - 1.0f);
    // Clusters of more than one block are refused and nothing runs.
    attrs[1].val.clusterDim.x = 2;
    CHECK_ERR(cudaLaunchKernelEx(&cfg, scale_add, x, 0.0f, 0.0f, n), cudaErrorNotSupported);
    CHECK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    for (int i = 0; i < n; i++)
        CHECK(x[i] == 4.0f * i - 1.0f);
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(x));
}

int main()
{
    test_host_functions();
    test_host_register();
    test_peer();
    test_stream_attributes();
    test_mem_pool();
    test_launch_ex();
    CHECK_CUDA(cudaGetLastError());
    std::printf("rt_stream: all checks passed\n");
    return 0;
}
