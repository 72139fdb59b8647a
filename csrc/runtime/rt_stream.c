/*
 * rt_stream.c — stream-related calls beyond the basic ones of rt_api.c:
 * host functions and callbacks in streams, stream attributes, registered
 * host memory, the default memory pool (stream-ordered allocation), peer
 * access on a one-device system, and cudaLaunchKernelExC.
 *
 * Every launch and copy completes before its call returns (docs/runtime.md),
 * so "all earlier work of the stream is done" holds at every call: a host
 * function or callback runs at the call itself, in issue order, on the
 * runtime's callback thread (rt_thread.c), and the call returns when it has.
 */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    return q;
}

/* The legacy and per-thread default streams: one object (streams are
 * synchronous, so the two default streams behave alike). */
static struct CUstream_st default_stream;

struct CUstream_st *rt_stream(cudaStream_t s)
{
    if (!s || s == cudaStreamLegacy || s == cudaStreamPerThread)
        return &default_stream;
    return s;
}

/* ---- host functions and callbacks ---------------------------------------- */

/* Runs now: every earlier operation of the stream has completed. Like CUDA,
 * the function is not called when the context has an error (a guest fault),
 * which is returned instead. In a capturing stream it becomes a host node. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                               void *userData)
{
    RT_API();
    if (!fn)
        return rt_ret(cudaErrorInvalidValue);
    if (rt_capturing(stream))
        return rt_capture_host(stream, fn, userData);
    RT_ENTER();
    rt_run_host_fn(fn, userData);
    return cudaSuccess;
}

/* cudaStreamAddCallback's function, its arguments, on the callback thread. */
typedef struct stream_callback {
    cudaStreamCallback_t fn;
    cudaStream_t stream;
    cudaError_t status;
    void *data;
} stream_callback;

static void call_stream_callback(void *p)
{
    const stream_callback *c = p;
    c->fn(c->stream, c->status, c->data);
}

/* Runs now with the stream's status: cudaSuccess, or the sticky error of a
 * guest fault (the callback is called in that case too, as in CUDA, and
 * the call returns the error). Not capturable, as in CUDA. */
cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                  cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags)
{
    RT_API();
    if (!callback || flags != 0)
        return rt_ret(cudaErrorInvalidValue);
    if (rt_capturing(stream))
        return rt_ret(cudaErrorStreamCaptureUnsupported);
    cudaError_t status = rt_sticky();
    stream_callback c = { callback, stream, status, userData };
    rt_run_host_fn(call_stream_callback, &c);
    return status == cudaSuccess ? cudaSuccess : rt_ret(status);
}

/* ---- stream attributes and priority ---------------------------------------- */

/* Attributes valid for streams (CUDA 13 driver_types.h). They are hints
 * about scheduling and caching that a serialised, simulated stream has no
 * use for: remembered and reported back. */
static int stream_attr_ok(cudaStreamAttrID a)
{
    switch (a) {
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
        return 1;
    default:
        return 0;
    }
}

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                   const cudaStreamAttrValue *value)
{
    RT_API();
    if (!value || !stream_attr_ok(attr) || (unsigned)attr >= RT_STREAM_ATTRS)
        return rt_ret(cudaErrorInvalidValue);
    struct CUstream_st *s = rt_stream(hStream);
    s->attr[attr] = *value;
    if (attr == cudaLaunchAttributePriority)
        s->priority = 0;   /* one priority level: clamped as CUDA clamps */
    return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                   cudaStreamAttrValue *value_out)
{
    RT_API();
    if (!value_out || !stream_attr_ok(attr) || (unsigned)attr >= RT_STREAM_ATTRS)
        return rt_ret(cudaErrorInvalidValue);
    *value_out = rt_stream(hStream)->attr[attr];
    if (attr == cudaLaunchAttributePriority)
        value_out->priority = rt_stream(hStream)->priority;
    return cudaSuccess;
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    RT_API();
    struct CUstream_st *d = rt_stream(dst), *s = rt_stream(src);
    memcpy(d->attr, s->attr, sizeof d->attr);
    d->priority = s->priority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    RT_API();
    if (!priority)
        return rt_ret(cudaErrorInvalidValue);
    *priority = rt_stream(hStream)->priority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    RT_API();
    if (!streamId)
        return rt_ret(cudaErrorInvalidValue);
    *streamId = rt_stream(hStream)->id;
    return cudaSuccess;
}

/* ---- registered host memory ------------------------------------------------ */

/*
 * Memory the program allocated itself (malloc, a stack or static array) is
 * not simulated memory, which kernels cannot reach. cudaHostRegister gives
 * each registered range a device *shadow* of the same size:
 *   - the host copy holds the data between device operations;
 *   - before every launch the runtime copies each range into its shadow, and
 *     after it copies the shadows back (launches are synchronous, so the host
 *     cannot see the difference);
 *   - copies and memsets that name a shadow address use the host copy;
 *   - the device address is the shadow's (cudaHostGetDevicePointer), and a
 *     kernel argument holding the host pointer is translated to it, as on a
 *     device with cudaDevAttrCanUseHostPointerForRegisteredMem.
 * The cost is two copies of every registered range per launch.
 */
typedef struct hostreg {
    char    *host;
    size_t   size;
    unsigned flags;
    uint64_t shadow;
} hostreg;

static hostreg *regs;
static size_t nregs;

static hostreg *reg_of_host(const void *p, size_t n)
{
    const char *c = p;
    for (size_t i = 0; i < nregs; i++)
        if (c >= regs[i].host && n <= regs[i].size &&
            (size_t)(c - regs[i].host) <= regs[i].size - n)
            return &regs[i];
    return NULL;
}

static int overlaps_reg(const char *p, size_t n)
{
    for (size_t i = 0; i < nregs; i++)
        if (p < regs[i].host + regs[i].size && regs[i].host < p + n)
            return 1;
    return 0;
}

uint64_t rt_hostreg_dev(const void *host)
{
    hostreg *r = nregs ? reg_of_host(host, 1) : NULL;
    return r ? r->shadow + (uint64_t)((const char *)host - r->host) : 0;
}

void *rt_hostreg_host(uint64_t dptr, size_t n)
{
    for (size_t i = 0; i < nregs; i++)
        if (dptr >= regs[i].shadow && n <= regs[i].size &&
            dptr - regs[i].shadow <= regs[i].size - n)
            return regs[i].host + (dptr - regs[i].shadow);
    return NULL;
}

void rt_hostreg_push(void)
{
    for (size_t i = 0; i < nregs; i++)
        smc_memcpy_htod(rt_dev(), regs[i].shadow, regs[i].host, regs[i].size);
}

void rt_hostreg_pull(void)
{
    for (size_t i = 0; i < nregs; i++)
        smc_memcpy_dtoh(rt_dev(), regs[i].host, regs[i].shadow, regs[i].size);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    RT_API();
    RT_ENTER();
    if (!ptr || size == 0 ||
        (flags & ~(unsigned)(cudaHostRegisterPortable | cudaHostRegisterMapped |
                             cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)))
        return rt_ret(cudaErrorInvalidValue);
    if (flags & cudaHostRegisterIoMemory) {
        fprintf(stderr, "smcosim runtime: cudaHostRegister: I/O memory "
                "(cudaHostRegisterIoMemory) is not supported\n");
        return rt_ret(cudaErrorNotSupported);
    }
    /* Already pinned (cudaHostAlloc, managed) or registered. */
    if (smc_device_addr_of(rt_dev(), ptr) || overlaps_reg(ptr, size))
        return rt_ret(cudaErrorHostMemoryAlreadyRegistered);
    uint64_t shadow;
    smc_status s = smc_malloc(rt_dev(), size, SMC_MEM_DEVICE, &shadow);
    if (s != SMC_OK)
        return rt_ret(cudaErrorMemoryAllocation);
    regs = xrealloc(regs, (nregs + 1) * sizeof *regs);
    regs[nregs++] = (hostreg){ ptr, size, flags, shadow };
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
    RT_API();
    for (size_t i = 0; i < nregs; i++) {
        if (regs[i].host != ptr)
            continue;
        if (rt_dev())
            smc_free(rt_dev(), regs[i].shadow);
        regs[i] = regs[--nregs];
        return cudaSuccess;
    }
    return rt_ret(cudaErrorHostMemoryNotRegistered);
}

/* Pinned allocations and their cudaHostAlloc flags. */
typedef struct hostalloc { char *p; size_t size; unsigned flags; } hostalloc;
static hostalloc *hallocs;
static size_t nhallocs;

void rt_hostalloc_note(void *p, size_t size, unsigned flags)
{
    hallocs = xrealloc(hallocs, (nhallocs + 1) * sizeof *hallocs);
    hallocs[nhallocs++] = (hostalloc){ p, size, flags };
}

/* Every pinned allocation is device-mapped here (cudaHostGetDevicePointer
 * works on all of them), so cudaHostAllocMapped is always reported, as is
 * cudaHostRegisterMapped for registered memory (it has a shadow). */
cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    RT_API();
    if (!pFlags || !pHost)
        return rt_ret(cudaErrorInvalidValue);
    hostreg *r = nregs ? reg_of_host(pHost, 1) : NULL;
    if (r) {
        *pFlags = r->flags | cudaHostRegisterMapped;
        return cudaSuccess;
    }
    const char *c = pHost;
    for (size_t i = 0; i < nhallocs; i++)
        if (c >= hallocs[i].p && c < hallocs[i].p + hallocs[i].size) {
            *pFlags = hallocs[i].flags | cudaHostAllocMapped;
            return cudaSuccess;
        }
    return rt_ret(cudaErrorInvalidValue);
}

/* ---- the default memory pool ------------------------------------------------ */

/*
 * One pool per device, as the default pool of CUDA: cudaMallocAsync and
 * cudaMallocFromPoolAsync allocate device memory at the call (stream order is
 * call order here) and cudaFreeAsync frees it at the call. The pool keeps
 * nothing cached, so reserved memory equals used memory and trimming has
 * nothing to release; the reuse policies and the release threshold are
 * remembered and reported back.
 */
struct CUmemPoolHandle_st {
    uint64_t threshold;
    int reuse_follow, reuse_opportunistic, reuse_internal;
    uint64_t used, used_high, reserved_high;
};
static struct CUmemPoolHandle_st default_pool = { 0, 1, 1, 1, 0, 0, 0 };

typedef struct poolalloc { void *p; size_t size; } poolalloc;
static poolalloc *pallocs;
static size_t npallocs;

void rt_alloc_forget(const void *p)
{
    for (size_t i = 0; i < npallocs; i++)
        if (pallocs[i].p == p) {
            default_pool.used -= pallocs[i].size;
            pallocs[i] = pallocs[--npallocs];
            return;
        }
    for (size_t i = 0; i < nhallocs; i++)
        if (hallocs[i].p == p) {
            hallocs[i] = hallocs[--nhallocs];
            return;
        }
}

void rt_stream_reset(void)
{
    nregs = 0;       /* the shadows went with the device */
    npallocs = 0;
    nhallocs = 0;
    default_pool.used = 0;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    RT_API();
    if (!memPool)
        return rt_ret(cudaErrorInvalidValue);
    if (device != 0)
        return rt_ret(cudaErrorInvalidDevice);
    *memPool = &default_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    RT_API();
    return cudaDeviceGetDefaultMemPool(memPool, device);
}

/* Only the default pool exists (cudaMemPoolCreate is not implemented). */
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    RT_API();
    if (device != 0)
        return rt_ret(cudaErrorInvalidDevice);
    return memPool == &default_pool ? cudaSuccess
                                    : rt_ret(cudaErrorInvalidValue);
}

static cudaError_t pool_alloc(void **ptr, size_t size, cudaMemPool_t pool,
                              cudaStream_t stream, const char *call)
{
    if (!ptr || pool != &default_pool)
        return rt_ret(cudaErrorInvalidValue);
    if (rt_capturing(stream)) {
        fprintf(stderr, "smcosim runtime: %s in a capturing stream (graph "
                "memory nodes) is not supported\n", call);
        return rt_ret(cudaErrorStreamCaptureUnsupported);
    }
    cudaError_t e = cudaMalloc(ptr, size);
    if (e != cudaSuccess || !*ptr)
        return e;
    pallocs = xrealloc(pallocs, (npallocs + 1) * sizeof *pallocs);
    pallocs[npallocs++] = (poolalloc){ *ptr, size };
    default_pool.used += size;
    if (default_pool.used > default_pool.used_high)
        default_pool.used_high = default_pool.used;
    if (default_pool.used > default_pool.reserved_high)
        default_pool.reserved_high = default_pool.used;
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    RT_API();
    return pool_alloc(devPtr, size, &default_pool, hStream, "cudaMallocAsync");
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
                                    cudaMemPool_t memPool, cudaStream_t stream)
{
    RT_API();
    return pool_alloc(ptr, size, memPool, stream, "cudaMallocFromPoolAsync");
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    RT_API();
    if (rt_capturing(hStream)) {
        fprintf(stderr, "smcosim runtime: cudaFreeAsync in a capturing stream "
                "(graph memory nodes) is not supported\n");
        return rt_ret(cudaErrorStreamCaptureUnsupported);
    }
    return cudaFree(devPtr);   /* cudaFree forgets the pool record */
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    RT_API();
    (void)minBytesToKeep;   /* nothing cached: nothing to release */
    return memPool == &default_pool ? cudaSuccess
                                    : rt_ret(cudaErrorInvalidValue);
}

/* cudaMemPoolSetAttribute (set) and cudaMemPoolGetAttribute (!set) of the
 * default pool, the only one: which field holds each attribute (flag: the
 * int-valued reuse policies, bytes: the uint64_t sizes) and what may be set. */
static cudaError_t pool_attribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                  void *value, int set)
{
    if (memPool != &default_pool || !value)
        return rt_ret(cudaErrorInvalidValue);
    struct CUmemPoolHandle_st *p = memPool;
    int *flag = NULL;
    uint64_t *bytes = NULL;
    int high_mark = 0;        /* may only be set to 0, which resets it to the current use */
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:   flag = &p->reuse_follow; break;
    case cudaMemPoolReuseAllowOpportunistic:        flag = &p->reuse_opportunistic; break;
    case cudaMemPoolReuseAllowInternalDependencies: flag = &p->reuse_internal; break;
    case cudaMemPoolAttrReleaseThreshold:           bytes = &p->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:   /* nothing cached; read-only */
    case cudaMemPoolAttrUsedMemCurrent:
        if (set)
            return rt_ret(cudaErrorInvalidValue);
        bytes = &p->used;
        break;
    case cudaMemPoolAttrReservedMemHigh: bytes = &p->reserved_high; high_mark = 1; break;
    case cudaMemPoolAttrUsedMemHigh:     bytes = &p->used_high; high_mark = 1; break;
    default:
        return rt_ret(cudaErrorInvalidValue);
    }
    if (!set) {
        if (flag)
            *(int *)value = *flag;
        else
            *(uint64_t *)value = *bytes;
    } else if (flag) {
        *flag = *(int *)value;
    } else if (!high_mark) {
        *bytes = *(uint64_t *)value;
    } else {
        if (*(uint64_t *)value != 0)
            return rt_ret(cudaErrorInvalidValue);
        *bytes = p->used;
    }
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
                                    enum cudaMemPoolAttr attr, void *value)
{
    RT_API();
    return pool_attribute(memPool, attr, value, 1);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
                                    enum cudaMemPoolAttr attr, void *value)
{
    RT_API();
    return pool_attribute(memPool, attr, value, 0);
}

/* ---- peer access and the L2 persisting lines ---------------------------------- */

/* One device: it has no peer. */
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                    int peerDevice)
{
    RT_API();
    if (!canAccessPeer)
        return rt_ret(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0)
        return rt_ret(cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    RT_API();
    (void)peerDevice; (void)flags;
    return rt_ret(cudaErrorInvalidDevice);   /* there is no other device */
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    RT_API();
    (void)peerDevice;
    return rt_ret(cudaErrorInvalidDevice);
}

/* The L2 model keeps no persisting lines (cudaDevAttrMaxPersistingL2CacheSize
 * is 0), so there is nothing to reset. */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    RT_API();
    return cudaSuccess;
}

/* ---- cudaLaunchKernelExC ------------------------------------------------------ */

/* The launch configuration with its attributes. Attributes that are
 * scheduling or caching hints are accepted without effect (the launch is
 * serialised anyway); ones that change what the launch means and that the
 * simulator does not do are refused with a line naming them. */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                const void *func, void **args)
{
    RT_API();
    if (!config)
        return rt_ret(cudaErrorInvalidValue);
    if (config->numAttrs && !config->attrs)
        return rt_ret(cudaErrorInvalidValue);
    int cooperative = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        const char *refuse = NULL;
        switch (a->id) {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
        case cudaLaunchAttributePreferredSharedMemoryCarveout:
        case cudaLaunchAttributeNvlinkUtilCentricScheduling:
        /* Allows overlap with the previous kernel; serialising is allowed. */
        case cudaLaunchAttributeProgrammaticStreamSerialization:
            break;
        case cudaLaunchAttributeCooperative:
            cooperative = a->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
        case cudaLaunchAttributePreferredClusterDimension:
            if (a->val.clusterDim.x > 1 || a->val.clusterDim.y > 1 ||
                a->val.clusterDim.z > 1)
                refuse = "thread block clusters (compute capability 9.0)";
            break;
        case cudaLaunchAttributeClusterSchedulingPolicyPreference:
            break;
        case cudaLaunchAttributeProgrammaticEvent:
            refuse = "programmatic dependent launch events";
            break;
        case cudaLaunchAttributeLaunchCompletionEvent:
            refuse = "launch completion events";
            break;
        case cudaLaunchAttributeDeviceUpdatableKernelNode:
            refuse = "device-updatable graph kernel nodes";
            break;
        default:
            refuse = "this attribute";
            break;
        }
        if (refuse) {
            fprintf(stderr, "smcosim runtime: cudaLaunchKernelExC: launch "
                    "attribute %d: %s not supported by the simulator\n",
                    (int)a->id, refuse);
            return rt_ret(cudaErrorNotSupported);
        }
    }
    if (cooperative)
        return cudaLaunchCooperativeKernel(func, config->gridDim,
                                           config->blockDim, args,
                                           config->dynamicSmemBytes,
                                           config->stream);
    return rt_launch(rt_kernel_by_host(func), config->gridDim,
                     config->blockDim, args, config->dynamicSmemBytes,
                     config->stream);
}
