/*
 * rt_internal.h — state shared by the files of the drop-in CUDA runtime.
 *
 * The runtime is a thin translation of the CUDA runtime ABI onto smcosim.h.
 * It keeps what nvcc's generated host code registers (fatbinaries, kernels,
 * variables), the launch configuration stack, the error state and the
 * per-launch statistics; everything that concerns the device itself lives
 * behind smcosim.h. Host threads may call it concurrently: every exported
 * entry point holds the API lock (RT_API, rt_thread.c; docs/runtime.md).
 */
#ifndef SMC_RUNTIME_INTERNAL_H
#define SMC_RUNTIME_INTERNAL_H

#include <cuda_runtime_api.h>

#include "smcosim.h"

/* One fatbinary registered by __cudaRegisterFatBinary. */
typedef struct rt_fatbin {
    const void *wrapper;       /* what nvcc passed, for diagnostics */
    char       *ptx;           /* the chosen PTX image, NUL-terminated */
    size_t      ptx_len;
    char        problem[768];  /* why this fatbinary cannot run, or "" */
    int         problem_reported;
    smc_module *mod;           /* loaded into the current device, or NULL */
    int         unregistered;
} rt_fatbin;

/* One __global__ function (cudaKernel_t is a pointer to this). */
struct CUkern_st {
    const void *host_fun;      /* the host stub's address: the key */
    char       *name;          /* mangled device name */
    rt_fatbin  *fb;
    smc_kernel *k;             /* resolved in the current device, or NULL */
};
typedef struct CUkern_st rt_kernel;

/* One __device__ / __constant__ / __managed__ variable. */
typedef struct rt_var {
    const void *host_var;      /* host shadow address: the key */
    void      **managed_slot;  /* __managed__: where the host pointer goes */
    char       *name;
    size_t      size;
    rt_fatbin  *fb;
    uint64_t    dptr;          /* resolved in the current device, or 0 */
} rt_var;

/* Stream attributes (cudaStreamSetAttribute): remembered per stream and
 * reported back; streams are executed in order anyway (docs/runtime.md). */
#define RT_STREAM_ATTRS 32   /* cudaLaunchAttributeID values kept */

struct rt_capture;

struct CUstream_st {
    uint32_t id;
    unsigned flags;
    int      priority;
    cudaLaunchAttributeValue attr[RT_STREAM_ATTRS];
    /* Stream capture (rt_graph.c): the capture this stream belongs to, or
     * NULL, and the nodes the next captured operation depends on. */
    struct rt_capture *cap;
    cudaGraphNode_t *deps;
    size_t ndeps;
};
struct CUevent_st {
    int recorded;
    uint64_t cycle;
    /* Recorded in a capturing stream: the capture's id and the nodes a
     * stream waiting on this event must depend on (rt_graph.c). */
    unsigned long long cap_id;
    cudaGraphNode_t *deps;
    size_t ndeps;
};

/* The stream object behind a handle: the legacy and per-thread default
 * streams (NULL, cudaStreamLegacy, cudaStreamPerThread) are one static
 * object, so attributes can be set on them too. */
struct CUstream_st *rt_stream(cudaStream_t s);

/* Returns cudaSuccess with rt_dev() usable, or the error to return. Creates
 * the device and loads every registered module on first use. */
cudaError_t rt_ready(void);
smc_device *rt_dev(void);

/* Host threads (rt_thread.c). Every exported entry point starts with
 * RT_API() (functions returning cudaError_t) or RT_LOCKED() (the others): it
 * holds the runtime's recursive API lock until the function returns. On the
 * callback thread, RT_API() returns cudaErrorNotPermitted instead: CUDA
 * forbids API calls from stream callbacks and host functions, and the
 * enqueuing call holds the lock while it waits for them. */
int  rt_lock_acquire(void);
int  rt_lock_acquire_at_exit(void);   /* bounded wait; 1 when held */
void rt_lock_release(int *held);
int  rt_on_callback_thread(void);
#define RT_LOCKED()                                                        \
    __attribute__((cleanup(rt_lock_release), unused)) int rt_lock_held_ = \
        rt_lock_acquire()
#define RT_API()                                                           \
    if (rt_on_callback_thread())                                           \
        return rt_ret(cudaErrorNotPermitted);                              \
    RT_LOCKED()
/* Run a stream callback, host function or graph host node on the callback
 * thread and wait for it to return. */
void rt_run_host_fn(void (*fn)(void *), void *arg);

/* Record `e` as the last error (when not cudaSuccess) and return it. */
cudaError_t rt_ret(cudaError_t e);
cudaError_t rt_unsupported(const char *function);

/* Every call that touches the device starts with this: a pending guest fault
 * is returned first (sticky), then lazy device creation. */
#define RT_ENTER()                                            \
    do {                                                      \
        if (rt_sticky() != cudaSuccess)                       \
            return rt_ret(rt_sticky());                       \
        cudaError_t rt_e_ = rt_ready();                       \
        if (rt_e_ != cudaSuccess)                             \
            return rt_ret(rt_e_);                             \
    } while (0)   /* "not supported", once per function */
/* The sticky error of a faulted device, or cudaSuccess. */
cudaError_t rt_sticky(void);
/* Map an smcosim status to the CUDA error with the same meaning. */
cudaError_t rt_from_smc(smc_status s);
/* Print smc_last_message() with a prefix naming the runtime call. */
void rt_report(const char *call, smc_status s);

rt_kernel *rt_kernel_by_host(const void *host_fun);
/* Resolve the kernel in the current device; cudaSuccess or an error. */
cudaError_t rt_kernel_resolve(rt_kernel *k);
rt_var *rt_var_by_host(const void *host_var);
cudaError_t rt_var_resolve(rt_var *v);

/* Launch with the given configuration (both launch entry points). */
cudaError_t rt_launch(rt_kernel *k, dim3 grid, dim3 block, void **args,
                      size_t smem, cudaStream_t stream);

/* Copies and memsets of rt_api.c, for graph nodes and capture. */
cudaError_t rt_copy(void *dst, const void *src, size_t n,
                    enum cudaMemcpyKind kind, const char *call);
cudaError_t rt_memset(void *p, int value, size_t n, const char *call);

/* Stream capture (rt_graph.c). rt_capturing: is `s` capturing? The
 * rt_capture_* calls add a node for the operation to the stream's capture
 * instead of running it, and return what the call returns. */
int rt_capturing(cudaStream_t s);
cudaError_t rt_capture_kernel(cudaStream_t s, rt_kernel *k, dim3 grid,
                              dim3 block, void **args, size_t smem);
cudaError_t rt_capture_copy(cudaStream_t s, void *dst, const void *src,
                            size_t dpitch, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind);
cudaError_t rt_capture_memset(cudaStream_t s, void *dst, size_t pitch,
                              int value, size_t width, size_t height);
cudaError_t rt_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data);
cudaError_t rt_capture_event_record(cudaEvent_t e, cudaStream_t s);
cudaError_t rt_capture_event_wait(cudaStream_t s, cudaEvent_t e);
/* Launch without looking at capture (graph execution). */
cudaError_t rt_launch_now(rt_kernel *k, dim3 grid, dim3 block, void **args,
                          size_t smem, cudaStream_t stream);

/* Registered host memory (rt_stream.c, cudaHostRegister): each registered
 * range has a device shadow. rt_hostreg_push copies every range into its
 * shadow before device work, rt_hostreg_pull copies the shadows back after
 * it; both do nothing when nothing is registered. rt_hostreg_dev gives the
 * shadow address of a registered host pointer, or 0. */
void     rt_hostreg_push(void);
void     rt_hostreg_pull(void);
uint64_t rt_hostreg_dev(const void *host);
/* The host address behind a shadow address range [dptr, dptr+n), or NULL. */
void    *rt_hostreg_host(uint64_t dptr, size_t n);
/* cudaDeviceReset: registered shadows and pool allocations are gone. */
void     rt_stream_reset(void);
/* Bookkeeping of allocations for the queries of rt_stream.c: pinned
 * allocations with their cudaHostAlloc flags (cudaHostGetFlags), and
 * cudaFree/cudaFreeHost of any pointer (the pool stops counting memory from
 * cudaMallocAsync, the pinned record goes). */
void     rt_hostalloc_note(void *p, size_t size, unsigned flags);
void     rt_alloc_forget(const void *p);

/* Simulated time in device cycles, advanced by launches (docs/runtime.md). */
uint64_t rt_sim_cycles(void);

/* Device address for a pointer the program passes as a device pointer:
 * translates host views of managed/pinned memory, else the value itself. */
uint64_t rt_dev_addr(const void *p);

/* Device attributes (rt_attr.c): the value of `attr` for a device with the
 * properties p, and where it comes from; RT_ATTR_INVALID for a number that is
 * not an attribute. cudaGetDeviceProperties fills its fields from the same. */
enum { RT_ATTR_INVALID = -1, RT_ATTR_MODELLED = 0, RT_ATTR_CC75 = 1 };
int  rt_attr(enum cudaDeviceAttr attr, const smc_device_props *p, long long *v);
void rt_attr_fill_props(struct cudaDeviceProp *d, const smc_device_props *p);

#endif /* SMC_RUNTIME_INTERNAL_H */
