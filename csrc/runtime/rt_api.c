/*
 * rt_api.c — the CUDA runtime API calls that programs make directly:
 * memory, copies, symbols, device properties and attributes, streams,
 * events, occupancy, function attributes, versions.
 *
 * The simulated device executes every launch and copy to completion before
 * the call returns, so the asynchronous variants are the synchronous ones
 * and streams only name an order (docs/runtime.md).
 */
#include "rt_internal.h"

#include <cuda_profiler_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Row pitch that cudaMallocPitch returns: rows start on 256-byte boundaries
 * (a multiple of every access size and of the 128-byte coalescing unit). */
#define RT_PITCH_ALIGN 256u

static cudaError_t smc_ret(const char *call, smc_status s)
{
    if (s == SMC_OK)
        return cudaSuccess;
    if (s != SMC_ERR_INVALID_DEVICE_PTR && s != SMC_ERR_INVALID_VALUE)
        rt_report(call, s);
    return rt_ret(rt_from_smc(s));
}

/* ---- allocation -------------------------------------------------------- */

static cudaError_t alloc_kind(void **p, size_t size, smc_mem_kind kind,
                              const char *call)
{
    if (!p)
        return rt_ret(cudaErrorInvalidValue);
    *p = NULL;
    if (size == 0)
        return cudaSuccess;
    uint64_t d;
    smc_status s = smc_malloc(rt_dev(), size, kind, &d);
    if (s != SMC_OK)
        return smc_ret(call, s);
    if (kind == SMC_MEM_DEVICE) {
        *p = (void *)(uintptr_t)d;
    } else {
        /* Managed and pinned memory: the program dereferences what we
         * return, so it gets the host view; kernel arguments that point
         * into it are translated back at launch (rt_launch). */
        *p = smc_host_ptr(rt_dev(), d, size);
        if (!*p) {
            smc_free(rt_dev(), d);
            return rt_ret(cudaErrorMemoryAllocation);
        }
    }
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    RT_API();
    RT_ENTER();
    return alloc_kind(devPtr, size, SMC_MEM_DEVICE, "cudaMalloc");
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    RT_API();
    RT_ENTER();
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return rt_ret(cudaErrorInvalidValue);
    return alloc_kind(devPtr, size, SMC_MEM_MANAGED, "cudaMallocManaged");
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    RT_API();
    RT_ENTER();
    cudaError_t e = alloc_kind(ptr, size, SMC_MEM_HOST, "cudaMallocHost");
    if (e == cudaSuccess && *ptr)
        rt_hostalloc_note(*ptr, size, cudaHostAllocDefault);
    return e;
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    RT_API();
    RT_ENTER();
    /* Portable, mapped and write-combined memory are all the same here
     * (every pinned allocation is device-mapped); the flags are kept for
     * cudaHostGetFlags. */
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped |
                            cudaHostAllocWriteCombined))
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = alloc_kind(pHost, size, SMC_MEM_HOST, "cudaHostAlloc");
    if (e == cudaSuccess && *pHost)
        rt_hostalloc_note(*pHost, size, flags);
    return e;
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                     unsigned int flags)
{
    RT_API();
    RT_ENTER();
    if (!pDevice || flags != 0)
        return rt_ret(cudaErrorInvalidValue);
    uint64_t d = smc_device_addr_of(rt_dev(), pHost);
    if (!d)   /* registered host memory: its device shadow (rt_stream.c) */
        d = rt_hostreg_dev(pHost);
    if (!d)
        return rt_ret(cudaErrorInvalidValue);
    *pDevice = (void *)(uintptr_t)d;
    return cudaSuccess;
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                            size_t height)
{
    RT_API();
    RT_ENTER();
    if (!pitch)
        return rt_ret(cudaErrorInvalidValue);
    size_t p = (width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
    if (height && p > SIZE_MAX / height)
        return rt_ret(cudaErrorMemoryAllocation);
    *pitch = p;
    return alloc_kind(devPtr, p * height, SMC_MEM_DEVICE, "cudaMallocPitch");
}

static cudaError_t free_any(void *p, const char *call)
{
    if (!p)
        return cudaSuccess;
    RT_ENTER();
    rt_alloc_forget(p);
    return smc_ret(call, smc_free(rt_dev(), rt_dev_addr(p)));
}

cudaError_t cudaFree(void *devPtr)
{
    RT_API();
    return free_any(devPtr, "cudaFree");
}
cudaError_t cudaFreeHost(void *ptr)
{
    RT_API();
    return free_any(ptr, "cudaFreeHost");
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    RT_API();
    RT_ENTER();
    smc_device_props pr;
    smc_device_get_props(rt_dev(), &pr);
    /* free = the configured size less what is allocated now */
    uint64_t used = smc_device_bytes_in_use(rt_dev());
    if (free_bytes)
        *free_bytes = used < pr.global_mem_bytes ? pr.global_mem_bytes - used : 0;
    if (total)
        *total = pr.global_mem_bytes;
    return cudaSuccess;
}

/* ---- copies -------------------------------------------------------------- */

/* Does p point into simulated memory (device, managed or pinned, or the host
 * view of managed/pinned memory)? Such pointers are copied through the
 * device API, which checks the whole range against the allocation. */
static int is_device_memory(const void *p)
{
    return smc_device_addr_of(rt_dev(), p) != 0 ||
           smc_host_ptr(rt_dev(), (uint64_t)(uintptr_t)p, 1) != NULL;
}

cudaError_t rt_copy(void *dst, const void *src, size_t n,
                    enum cudaMemcpyKind kind, const char *call)
{
    if (n == 0)
        return cudaSuccess;
    /* The device shadow of registered host memory is copied through the
     * host copy, which holds the data between launches (rt_stream.c). */
    void *hdst = rt_hostreg_host((uint64_t)(uintptr_t)dst, n);
    void *hsrc = rt_hostreg_host((uint64_t)(uintptr_t)src, n);
    if (hdst || hsrc) {
        if (hdst)
            dst = hdst;
        if (hsrc)
            src = hsrc;
        kind = cudaMemcpyDefault;
    }
    int dst_dev, src_dev;
    switch (kind) {
    case cudaMemcpyHostToHost:     dst_dev = 0; src_dev = 0; break;
    case cudaMemcpyHostToDevice:   dst_dev = 1; src_dev = 0; break;
    case cudaMemcpyDeviceToHost:   dst_dev = 0; src_dev = 1; break;
    case cudaMemcpyDeviceToDevice: dst_dev = 1; src_dev = 1; break;
    case cudaMemcpyDefault:
        dst_dev = is_device_memory(dst);
        src_dev = is_device_memory(src);
        break;
    default:
        return rt_ret(cudaErrorInvalidMemcpyDirection);
    }
    /* A host view of managed/pinned memory named as the device side is
     * copied through its device address, which checks its bounds. */
    smc_device *dev = rt_dev();
    if (dst_dev && src_dev)
        return smc_ret(call, smc_memcpy_dtod(dev, rt_dev_addr(dst),
                                             rt_dev_addr(src), n));
    if (dst_dev)
        return smc_ret(call, smc_memcpy_htod(dev, rt_dev_addr(dst), src, n));
    if (src_dev)
        return smc_ret(call, smc_memcpy_dtoh(dev, dst, rt_dev_addr(src), n));
    if (!dst || !src)
        return rt_ret(cudaErrorInvalidValue);
    memmove(dst, src, n);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind)
{
    RT_API();
    RT_ENTER();
    return rt_copy(dst, src, count, kind, "cudaMemcpy");
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_API();
    RT_ENTER();
    if (rt_capturing(stream))
        return rt_capture_copy(stream, dst, src, count, count, count, 1, kind);
    return rt_copy(dst, src, count, kind, "cudaMemcpyAsync");
}

static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src,
                           size_t spitch, size_t width, size_t height,
                           enum cudaMemcpyKind kind, const char *call)
{
    if (width > dpitch || width > spitch)
        return rt_ret(cudaErrorInvalidPitchValue);
    for (size_t row = 0; row < height; row++) {
        cudaError_t e = rt_copy((char *)dst + row * dpitch,
                             (const char *)src + row * spitch, width, kind, call);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    RT_API();
    RT_ENTER();
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D");
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_API();
    RT_ENTER();
    if (rt_capturing(stream)) {
        if (width > dpitch || width > spitch)
            return rt_ret(cudaErrorInvalidPitchValue);
        return rt_capture_copy(stream, dst, src, dpitch, spitch, width,
                               height, kind);
    }
    return copy_2d(dst, dpitch, src, spitch, width, height, kind,
                   "cudaMemcpy2DAsync");
}

cudaError_t rt_memset(void *p, int value, size_t n, const char *call)
{
    if (n == 0)
        return cudaSuccess;
    /* The device shadow of registered host memory: the host copy is the
     * one that holds the data between launches (rt_stream.c). */
    void *h = rt_hostreg_host((uint64_t)(uintptr_t)p, n);
    if (h) {
        memset(h, value, n);
        return cudaSuccess;
    }
    return smc_ret(call, smc_memset(rt_dev(), rt_dev_addr(p), value, n));
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    RT_API();
    RT_ENTER();
    return rt_memset(devPtr, value, count, "cudaMemset");
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream)
{
    RT_API();
    RT_ENTER();
    if (rt_capturing(stream))
        return rt_capture_memset(stream, devPtr, count, value, count, 1);
    return rt_memset(devPtr, value, count, "cudaMemsetAsync");
}

static cudaError_t set_2d(void *p, size_t pitch, int value, size_t width,
                          size_t height, const char *call)
{
    if (width > pitch)
        return rt_ret(cudaErrorInvalidPitchValue);
    for (size_t row = 0; row < height; row++) {
        cudaError_t e = rt_memset((char *)p + row * pitch, value, width, call);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                         size_t height)
{
    RT_API();
    RT_ENTER();
    return set_2d(devPtr, pitch, value, width, height, "cudaMemset2D");
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                              size_t width, size_t height, cudaStream_t stream)
{
    RT_API();
    RT_ENTER();
    if (rt_capturing(stream)) {
        if (width > pitch)
            return rt_ret(cudaErrorInvalidPitchValue);
        return rt_capture_memset(stream, devPtr, pitch, value, width, height);
    }
    return set_2d(devPtr, pitch, value, width, height, "cudaMemset2DAsync");
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                 struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    RT_API();
    /* Managed memory has one copy shared by host and device: prefetching
     * has nothing to move. The range is still checked. */
    (void)location; (void)flags; (void)stream;
    RT_ENTER();
    if (!smc_host_ptr(rt_dev(), rt_dev_addr(devPtr), count ? count : 1))
        return rt_ret(cudaErrorInvalidValue);
    return cudaSuccess;
}

/* ---- symbols --------------------------------------------------------------- */

static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset,
                                uint64_t *dptr)
{
    rt_var *v = rt_var_by_host(symbol);
    if (!v)
        return rt_ret(cudaErrorInvalidSymbol);
    cudaError_t e = rt_var_resolve(v);
    if (e != cudaSuccess)
        return rt_ret(e);
    if (offset > v->size || count > v->size - offset)
        return rt_ret(cudaErrorInvalidValue);
    *dptr = v->dptr + offset;
    return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                               size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    RT_API();
    RT_ENTER();
    uint64_t d;
    cudaError_t e = symbol_range(symbol, count, offset, &d);
    if (e != cudaSuccess)
        return e;
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return rt_ret(cudaErrorInvalidMemcpyDirection);
    return rt_copy((void *)(uintptr_t)d, src, count,
                kind == cudaMemcpyDefault ? cudaMemcpyDefault
                : kind == cudaMemcpyHostToDevice ? cudaMemcpyHostToDevice
                : cudaMemcpyDeviceToDevice, "cudaMemcpyToSymbol");
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset, enum cudaMemcpyKind kind)
{
    RT_API();
    RT_ENTER();
    uint64_t d;
    cudaError_t e = symbol_range(symbol, count, offset, &d);
    if (e != cudaSuccess)
        return e;
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return rt_ret(cudaErrorInvalidMemcpyDirection);
    return rt_copy(dst, (const void *)(uintptr_t)d, count, kind,
                "cudaMemcpyFromSymbol");
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
                                    size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_API();
    if (rt_capturing(stream)) {
        RT_ENTER();
        uint64_t d;
        cudaError_t e = symbol_range(symbol, count, offset, &d);
        if (e != cudaSuccess)
            return e;
        return rt_capture_copy(stream, (void *)(uintptr_t)d, src, count, count,
                               count, 1, cudaMemcpyDefault);
    }
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                      size_t count, size_t offset,
                                      enum cudaMemcpyKind kind,
                                      cudaStream_t stream)
{
    RT_API();
    if (rt_capturing(stream)) {
        RT_ENTER();
        uint64_t d;
        cudaError_t e = symbol_range(symbol, count, offset, &d);
        if (e != cudaSuccess)
            return e;
        return rt_capture_copy(stream, dst, (const void *)(uintptr_t)d, count,
                               count, count, 1, cudaMemcpyDefault);
    }
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    RT_API();
    RT_ENTER();
    uint64_t d;
    cudaError_t e = symbol_range(symbol, 0, 0, &d);
    if (e != cudaSuccess)
        return e;
    if (!devPtr)
        return rt_ret(cudaErrorInvalidValue);
    *devPtr = (void *)(uintptr_t)d;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    RT_API();
    RT_ENTER();
    rt_var *v = rt_var_by_host(symbol);
    if (!v)
        return rt_ret(cudaErrorInvalidSymbol);
    if (!size)
        return rt_ret(cudaErrorInvalidValue);
    *size = v->size;
    return cudaSuccess;
}

/* ---- devices ------------------------------------------------------------------ */

cudaError_t cudaGetDeviceCount(int *count)
{
    RT_API();
    if (!count)
        return rt_ret(cudaErrorInvalidValue);
    cudaError_t e = rt_ready();
    *count = e == cudaSuccess ? 1 : 0;
    return e == cudaSuccess ? cudaSuccess : rt_ret(cudaErrorNoDevice);
}

cudaError_t cudaGetDevice(int *device)
{
    RT_API();
    if (!device)
        return rt_ret(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    RT_API();
    if (device != 0)
        return rt_ret(cudaErrorInvalidDevice);
    return rt_ret(rt_ready());
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    RT_API();
    (void)flags;   /* scheduling/mapping flags do not change a simulation */
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    RT_API();
    if (!flags)
        return rt_ret(cudaErrorInvalidValue);
    *flags = cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    RT_API();
    if (!prop)
        return rt_ret(cudaErrorInvalidValue);
    if (device != 0)
        return rt_ret(cudaErrorInvalidDevice);
    cudaError_t e = rt_ready();
    if (e != cudaSuccess)
        return rt_ret(e);
    smc_device_props p;
    smc_device_get_props(rt_dev(), &p);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", p.name);
    prop->totalGlobalMem = p.global_mem_bytes;
    rt_attr_fill_props(prop, &p);
    return cudaSuccess;
}

/* A channel format is a plain value: the one function of the texture API that
 * the simulator can answer (textures themselves are not supported). */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                   int device)
{
    RT_API();
    if (!value)
        return rt_ret(cudaErrorInvalidValue);
    if (device != 0)
        return rt_ret(cudaErrorInvalidDevice);
    cudaError_t e = rt_ready();
    if (e != cudaSuccess)
        return rt_ret(e);
    smc_device_props p;
    smc_device_get_props(rt_dev(), &p);
    long long v;
    if (rt_attr(attr, &p, &v) == RT_ATTR_INVALID) {
        fprintf(stderr, "smcosim runtime: cudaDeviceGetAttribute: %d is not a "
                "cudaDeviceAttr\n", (int)attr);
        return rt_ret(cudaErrorInvalidValue);
    }
    *value = (int)v;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    RT_API();
    if (!runtimeVersion)
        return rt_ret(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    RT_API();
    if (!driverVersion)
        return rt_ret(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    RT_API();
    (void)cacheConfig;   /* accepted; the L1/shared split comes from config */
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    RT_API();
    (void)cacheConfig;   /* accepted; the L1/shared split comes from config */
    return rt_kernel_by_host(func) ? cudaSuccess
                                   : rt_ret(cudaErrorInvalidDeviceFunction);
}

/* ---- streams and events --------------------------------------------------------- */

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    RT_API();
    static uint32_t next_id = 1;
    if (!pStream)
        return rt_ret(cudaErrorInvalidValue);
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return rt_ret(cudaErrorMemoryAllocation);
    s->id = next_id++;
    s->flags = flags;
    *pStream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    RT_API();
    return cudaStreamCreateWithFlags(pStream, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                         unsigned int flags, int priority)
{
    RT_API();
    /* One priority level (cudaDeviceGetStreamPriorityRange): clamped to 0,
     * as CUDA clamps a priority outside the range. */
    (void)priority;
    return cudaStreamCreateWithFlags(pStream, flags);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    RT_API();
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return rt_ret(cudaErrorInvalidResourceHandle);
    if (stream->cap)
        return rt_ret(cudaErrorStreamCaptureUnsupported);
    free(stream->deps);
    free(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    RT_API();
    if (rt_capturing(stream))
        return rt_ret(cudaErrorStreamCaptureUnsupported);
    if (rt_sticky() != cudaSuccess)
        return rt_ret(rt_sticky());
    return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    RT_API();
    return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags)
{
    RT_API();
    (void)flags;
    if (!event)
        return rt_ret(cudaErrorInvalidResourceHandle);
    if (event->cap_id || rt_capturing(stream))
        return rt_capture_event_wait(stream, event);
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    RT_API();
    (void)flags;
    if (!event)
        return rt_ret(cudaErrorInvalidValue);
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return rt_ret(cudaErrorMemoryAllocation);
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    RT_API();
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    RT_API();
    if (!event)
        return rt_ret(cudaErrorInvalidResourceHandle);
    free(event->deps);
    free(event);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    RT_API();
    if (!event)
        return rt_ret(cudaErrorInvalidResourceHandle);
    if (rt_capturing(stream))
        return rt_capture_event_record(event, stream);
    if (rt_sticky() != cudaSuccess)
        return rt_ret(rt_sticky());
    /* Recorded outside a capture: no longer a capture event. */
    event->cap_id = 0;
    event->ndeps = 0;
    event->recorded = 1;
    event->cycle = rt_sim_cycles();
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    RT_API();
    if (!event)
        return rt_ret(cudaErrorInvalidResourceHandle);
    if (rt_sticky() != cudaSuccess)
        return rt_ret(rt_sticky());
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    RT_API();
    return cudaEventSynchronize(event);
}

/* Milliseconds of simulated time between two recorded events: device cycles
 * (advanced by launches, rt_sim_cycles) divided by the configured clock. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_API();
    if (!ms)
        return rt_ret(cudaErrorInvalidValue);
    if (!start || !end || !start->recorded || !end->recorded)
        return rt_ret(cudaErrorInvalidResourceHandle);
    cudaError_t e = rt_ready();
    if (e != cudaSuccess)
        return rt_ret(e);
    smc_device_props p;
    smc_device_get_props(rt_dev(), &p);
    double khz = p.clock_khz ? p.clock_khz : 1;
    *ms = (float)(((double)end->cycle - (double)start->cycle) / khz);
    return cudaSuccess;
}

/* ---- kernels: attributes and occupancy ---------------------------------------- */

/* The kernel registered for host stub `func`, loaded, with its resource use
 * and the device properties: what the attribute and occupancy queries need. */
static cudaError_t rt_kernel_query(const void *func, smc_kernel_info *ki,
                                   smc_device_props *p)
{
    rt_kernel *k = rt_kernel_by_host(func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e = rt_kernel_resolve(k);
    if (e != cudaSuccess)
        return e;
    smc_kernel_get_info(k->k, ki);
    smc_device_get_props(rt_dev(), p);
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                  const void *func)
{
    RT_API();
    if (!attr)
        return rt_ret(cudaErrorInvalidValue);
    RT_ENTER();
    smc_kernel_info ki;
    smc_device_props p;
    cudaError_t e = rt_kernel_query(func, &ki, &p);
    if (e != cudaSuccess)
        return rt_ret(e);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = ki.static_smem_bytes;
    attr->constSizeBytes = ki.const_bytes;
    attr->localSizeBytes = ki.local_bytes;
    attr->maxThreadsPerBlock = (int)(ki.max_threads_per_block &&
                                     ki.max_threads_per_block < p.max_threads_per_block
                                     ? ki.max_threads_per_block
                                     : p.max_threads_per_block);
    attr->numRegs = (int)ki.regs_per_thread;
    attr->ptxVersion = (int)(p.cc_major * 10 + p.cc_minor);
    attr->binaryVersion = attr->ptxVersion;
    attr->maxDynamicSharedSizeBytes = (int)(p.smem_per_block > ki.static_smem_bytes
                                            ? p.smem_per_block - ki.static_smem_bytes
                                            : 0);
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags)
{
    RT_API();
    (void)flags;
    if (!numBlocks)
        return rt_ret(cudaErrorInvalidValue);
    RT_ENTER();
    rt_kernel *k = rt_kernel_by_host(func);
    if (!k)
        return rt_ret(cudaErrorInvalidDeviceFunction);
    cudaError_t e = rt_kernel_resolve(k);
    if (e != cudaSuccess)
        return rt_ret(e);
    /* the simulator's own answer: what its dispatcher will do (allocation
     * units of registers and shared memory included) */
    *numBlocks = blockSize <= 0 || dynamicSMemSize > UINT32_MAX ? 0 :
        (int)smc_kernel_occupancy(rt_dev(), k->k, (uint32_t)blockSize, (uint32_t)dynamicSMemSize);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize)
{
    RT_API();
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

/* The dynamic shared memory a launch may ask for is checked against the
 * device limit at launch anyway; raising the per-kernel cap is accepted up
 * to that limit, and the carveout preference has no effect (the split comes
 * from the configuration). */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                 int value)
{
    RT_API();
    RT_ENTER();
    rt_kernel *k = rt_kernel_by_host(func);
    if (!k)
        return rt_ret(cudaErrorInvalidDeviceFunction);
    smc_device_props p;
    smc_device_get_props(rt_dev(), &p);
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || (uint32_t)value > p.smem_per_block)
            return rt_ret(cudaErrorInvalidValue);
        return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        if (value < -1 || value > 100)
            return rt_ret(cudaErrorInvalidValue);
        return cudaSuccess;
    default:
        fprintf(stderr, "smcosim runtime: cudaFuncSetAttribute: attribute %d "
                "is not modelled\n", (int)attr);
        return rt_ret(cudaErrorNotSupported);
    }
}

/* ---- smaller calls used by real programs ------------------------------------ */

/* Limits are remembered and reported back. The heap size is honoured (the
 * device heap of malloc()/new in kernels); the emulator sizes stacks and the
 * printf buffer itself, so those two have no effect. */
static size_t rt_limits[] = {
    [cudaLimitStackSize] = 1024,
    [cudaLimitPrintfFifoSize] = 1u << 20,
    [cudaLimitMallocHeapSize] = 8u << 20,
};

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    RT_API();
    if ((unsigned)limit >= sizeof rt_limits / sizeof rt_limits[0] ||
        rt_limits[limit] == 0)
        return rt_ret(cudaErrorUnsupportedLimit);
    if (limit == cudaLimitMallocHeapSize) {
        cudaError_t e = rt_ready();
        if (e != cudaSuccess)
            return rt_ret(e);
        smc_device_set_heap_limit(rt_dev(), value);
    }
    rt_limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    RT_API();
    if (!pValue)
        return rt_ret(cudaErrorInvalidValue);
    if ((unsigned)limit >= sizeof rt_limits / sizeof rt_limits[0] ||
        rt_limits[limit] == 0)
        return rt_ret(cudaErrorUnsupportedLimit);
    *pValue = rt_limits[limit];
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    RT_API();
    if (!device || !prop)
        return rt_ret(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags,
                           unsigned int flags)
{
    RT_API();
    (void)deviceFlags; (void)flags;
    if (device != 0)
        return rt_ret(cudaErrorInvalidDevice);
    return rt_ret(rt_ready());
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                     unsigned int flags)
{
    RT_API();
    (void)flags;
    return cudaEventRecord(event, stream);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                             int *greatestPriority)
{
    RT_API();
    /* One priority level: streams are executed in order anyway. */
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    RT_API();
    if (!flags)
        return rt_ret(cudaErrorInvalidValue);
    *flags = rt_stream(hStream)->flags;
    return cudaSuccess;
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    RT_API();
    if (!name)
        return rt_ret(cudaErrorInvalidValue);
    rt_kernel *k = rt_kernel_by_host(func);
    if (!k)
        return rt_ret(cudaErrorInvalidDeviceFunction);
    *name = k->name;
    return cudaSuccess;
}

/* There is no profiler to start; statistics come from `smcosim run`. */
cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
