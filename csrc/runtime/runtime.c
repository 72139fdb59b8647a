/*
 * runtime.c — the core of the drop-in libcudart.so.13: what nvcc's generated
 * host code calls (fatbinary/kernel/variable registration, the launch
 * configuration stack, kernel launches), the error state, and the statistics
 * file that `smcosim run` reads.
 *
 * Life of a program: before main(), nvcc's constructors call
 * __cudaRegisterFatBinary and __cudaRegisterFunction/Var for each translation
 * unit; we only remember them. The first runtime call that needs the device
 * (rt_ready) creates it and loads the PTX of every registered fatbinary.
 * At exit the per-launch statistics are written to $SMCOSIM_STATS_FILE.
 */
#include "rt_internal.h"
#include "fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The wrapper nvcc passes to __cudaRegisterFatBinary (fatbinary_section.h). */
typedef struct fatbin_wrapper {
    int magic;
    int version;
    const void *data;
    const void *filename_or_fatbins;
} fatbin_wrapper;

#define RT_MAX_ENTRIES   64   /* entries per fatbinary */
#define RT_CONFIG_DEPTH  32   /* nested <<<...>>> while evaluating arguments */
#define RT_MAX_FAULTS    16

typedef struct rt_launch_record {
    smc_launch_stats stats;
    dim3 grid, block;
} rt_launch_record;

typedef struct rt_config {
    dim3 grid, block;
    size_t smem;
    void *stream;
} rt_config;

static struct {
    smc_device *dev;
    smc_device_props props;
    cudaError_t init_error;      /* device creation failed: returned forever */

    rt_fatbin **fatbins;  size_t n_fatbins;
    rt_kernel **kernels;  size_t n_kernels;
    rt_var    **vars;     size_t n_vars;

    cudaError_t sticky;          /* guest fault: until cudaDeviceReset */

    uint32_t dev_launches_seen;  /* smc_launch_count() already collected */
    uint64_t sim_cycles;
    rt_launch_record *launches; size_t n_launches, cap_launches;
    /* Every guest fault (one per cudaDeviceReset at most), for the
     * statistics file; faults beyond RT_MAX_FAULTS are only printed. */
    char faults[RT_MAX_FAULTS][512];
    unsigned n_faults;
} rt;

/* Kept per host thread, as in CUDA: the last error (cleared by
 * cudaGetLastError) and the <<<...>>> configurations pushed by the
 * generated launch code and popped by its stub. */
static _Thread_local cudaError_t last_error;
static _Thread_local rt_config configs[RT_CONFIG_DEPTH];
static _Thread_local unsigned n_configs;

static void record_new_launches(const dim3 *grid, const dim3 *block);

/* ---- small helpers ------------------------------------------------------ */

static void *grow(void *arr, size_t *count, size_t elem)
{
    void *p = realloc(arr, (*count + 1) * elem);
    if (!p) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    (*count)++;
    return p;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    return memcpy(d, s, n);
}

cudaError_t rt_ret(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

/* A runtime API function the simulator cannot honour (the generated stubs of
 * scripts/gen_rt_stubs.py, and hand-written ones): one line naming it, the
 * first time it is called, and cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *function)
{
    RT_API();
    static const char *said[64];
    static unsigned nsaid;
    for (unsigned i = 0; i < nsaid; i++)
        if (said[i] == function)
            return rt_ret(cudaErrorNotSupported);
    if (nsaid < sizeof said / sizeof said[0])
        said[nsaid++] = function;
    fprintf(stderr, "smcosim runtime: %s is not supported by the simulator "
            "(returns cudaErrorNotSupported; docs/runtime.md)\n", function);
    return rt_ret(cudaErrorNotSupported);
}

cudaError_t rt_sticky(void) { return rt.sticky; }
smc_device *rt_dev(void) { return rt.dev; }
uint64_t rt_sim_cycles(void) { return rt.sim_cycles; }

cudaError_t rt_from_smc(smc_status s)
{
    switch (s) {
    case SMC_OK:                          return cudaSuccess;
    case SMC_ERR_INVALID_VALUE:           return cudaErrorInvalidValue;
    case SMC_ERR_OUT_OF_MEMORY:           return cudaErrorMemoryAllocation;
    case SMC_ERR_INVALID_PTX:             return cudaErrorInvalidPtx;
    case SMC_ERR_NOT_FOUND:               return cudaErrorInvalidDeviceFunction;
    case SMC_ERR_INVALID_DEVICE_PTR:      return cudaErrorInvalidValue;
    case SMC_ERR_LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case SMC_ERR_INVALID_CONFIGURATION:   return cudaErrorInvalidConfiguration;
    case SMC_ERR_ILLEGAL_ADDRESS:         return cudaErrorIllegalAddress;
    case SMC_ERR_MISALIGNED_ADDRESS:      return cudaErrorMisalignedAddress;
    case SMC_ERR_ILLEGAL_INSTRUCTION:     return cudaErrorIllegalInstruction;
    case SMC_ERR_ASSERT:                  return cudaErrorAssert;
    case SMC_ERR_LAUNCH_TIMEOUT:          return cudaErrorLaunchTimeout;
    case SMC_ERR_LAUNCH_FAILED:           return cudaErrorLaunchFailure;
    case SMC_ERR_INTERRUPTED:             return cudaErrorUnknown;
    case SMC_ERR_UNSUPPORTED:             return cudaErrorNotSupported;
    case SMC_ERR_COOPERATIVE_TOO_LARGE:   return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaErrorUnknown;
}

/* Guest faults poison the device until cudaDeviceReset, as on real GPUs. */
static int is_sticky_status(smc_status s)
{
    return s == SMC_ERR_ILLEGAL_ADDRESS || s == SMC_ERR_MISALIGNED_ADDRESS ||
           s == SMC_ERR_ILLEGAL_INSTRUCTION || s == SMC_ERR_ASSERT ||
           s == SMC_ERR_LAUNCH_TIMEOUT || s == SMC_ERR_LAUNCH_FAILED;
}

void rt_report(const char *call, smc_status s)
{
    fprintf(stderr, "smcosim runtime: %s: %s: %s\n", call, smc_status_name(s),
            rt.dev ? smc_last_message(rt.dev) : "no device");
}

/* ---- device creation and module loading -------------------------------- */

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (*end) {
        fprintf(stderr, "smcosim runtime: environment %s=\"%s\" is not a "
                "number; using %llu\n", name, v, (unsigned long long)dflt);
        return dflt;
    }
    return x;
}

/* Choose and extract the PTX of one fatbinary. On failure fb->problem says
 * what was found and what to do. */
static void extract_ptx(rt_fatbin *fb, uint32_t max_arch)
{
    const fatbin_wrapper *w = fb->wrapper;
    if (fb->ptx || fb->problem[0])
        return;
    if (w->magic != (int)FATBIN_WRAPPER_MAGIC || w->version != 1) {
        snprintf(fb->problem, sizeof fb->problem,
                 "fatbinary wrapper %p has magic 0x%08x version %d (expected "
                 "0x%08x version 1); relocatable device code (-rdc) and "
                 "separately linked device code are not supported",
                 (const void *)w, (unsigned)w->magic, w->version,
                 FATBIN_WRAPPER_MAGIC);
        return;
    }
    char err[512];
    size_t size = fatbin_declared_size(w->data, FATBIN_HEADER_BYTES);
    fatbin_entry entries[RT_MAX_ENTRIES];
    size_t n = 0;
    if (size == 0 ||
        fatbin_parse(w->data, size, entries, RT_MAX_ENTRIES, &n, err,
                     sizeof err) != 0) {
        snprintf(fb->problem, sizeof fb->problem, "unreadable fatbinary: %s",
                 size ? err : "bad header");
        return;
    }
    int pick = fatbin_pick_ptx(entries, n, max_arch);
    if (pick < 0) {
        char found[400];
        fatbin_describe(entries, n, found, sizeof found);
        snprintf(fb->problem, sizeof fb->problem,
                 "no PTX for compute_%u or lower in the fatbinary (found: %s); "
                 "smcosim executes PTX only: rebuild with "
                 "-gencode arch=compute_%u,code=compute_%u", max_arch, found,
                 max_arch, max_arch);
        return;
    }
    if (fatbin_entry_text(&entries[pick], &fb->ptx, &fb->ptx_len, err,
                          sizeof err) != 0)
        snprintf(fb->problem, sizeof fb->problem, "cannot read the PTX of "
                 "compute_%u: %s", entries[pick].arch, err);
}

/* `__managed__` variables are declared `.global .attribute(.managed)` in the
 * PTX. Every module variable already lives in host-visible device memory in
 * smcosim, so the runtime blanks the attribute out (same length: line and
 * column numbers in diagnostics stay right) and __cudaRegisterManagedVar /
 * __cudaInitModule point the host at the variable. */
static void blank_managed_attribute(char *ptx)
{
    static const char attr[] = ".attribute(.managed)";
    for (char *p = ptx; (p = strstr(p, attr)) != NULL; p += sizeof attr - 1)
        memset(p, ' ', sizeof attr - 1);
}

static void load_fatbin(rt_fatbin *fb)
{
    if (fb->unregistered || fb->mod)
        return;
    extract_ptx(fb, rt.props.cc_major * 10 + rt.props.cc_minor);
    if (!fb->problem[0]) {
        blank_managed_attribute(fb->ptx);
        smc_status s = smc_module_load_ptx(rt.dev, "<fatbin>", fb->ptx,
                                           fb->ptx_len, &fb->mod);
        if (s != SMC_OK)
            snprintf(fb->problem, sizeof fb->problem, "the PTX does not load: "
                     "%s: %s", smc_status_name(s), smc_last_message(rt.dev));
    }
    if (fb->problem[0] && !fb->problem_reported) {
        fprintf(stderr, "smcosim runtime: %s\n", fb->problem);
        fb->problem_reported = 1;
    }
}

cudaError_t rt_ready(void)
{
    if (rt.dev)
        return cudaSuccess;
    if (rt.init_error != cudaSuccess)
        return rt.init_error;
    smc_device_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.config = getenv("SMCOSIM_CONFIG");
    if (opts.config && !*opts.config)
        opts.config = NULL;
    opts.seed = env_u64("SMCOSIM_SEED", 0);
    opts.watchdog = env_u64("SMCOSIM_WATCHDOG", 0);
    smc_status s = smc_device_create(&opts, &rt.dev);
    if (s != SMC_OK) {
        /* SMC_ERR_UNSUPPORTED: the device has said what is wrong with the
         * configuration; a second line would only blur it */
        if (s != SMC_ERR_UNSUPPORTED)
            fprintf(stderr, "smcosim runtime: cannot create the simulated device "
                    "(config %s): %s\n", opts.config ? opts.config : "default",
                    smc_status_name(s));
        rt.dev = NULL;
        rt.init_error = cudaErrorInitializationError;
        return rt.init_error;
    }
    smc_device_get_props(rt.dev, &rt.props);
    for (size_t i = 0; i < rt.n_fatbins; i++)
        load_fatbin(rt.fatbins[i]);
    return cudaSuccess;
}

/* Forget everything tied to the current device instance. */
static void drop_device(void)
{
    if (!rt.dev)
        return;
    record_new_launches(NULL, NULL);
    smc_device_destroy(rt.dev);
    rt.dev = NULL;
    rt.dev_launches_seen = 0;
    for (size_t i = 0; i < rt.n_fatbins; i++)
        rt.fatbins[i]->mod = NULL;
    for (size_t i = 0; i < rt.n_kernels; i++)
        rt.kernels[i]->k = NULL;
    for (size_t i = 0; i < rt.n_vars; i++) {
        rt.vars[i]->dptr = 0;
        if (rt.vars[i]->managed_slot)
            *rt.vars[i]->managed_slot = NULL;
    }
}

/* ---- lookup and resolution --------------------------------------------- */

rt_kernel *rt_kernel_by_host(const void *host_fun)
{
    for (size_t i = 0; i < rt.n_kernels; i++)
        if (rt.kernels[i]->host_fun == host_fun && !rt.kernels[i]->fb->unregistered)
            return rt.kernels[i];
    return NULL;
}

rt_var *rt_var_by_host(const void *host_var)
{
    for (size_t i = 0; i < rt.n_vars; i++)
        if (rt.vars[i]->host_var == host_var && !rt.vars[i]->fb->unregistered)
            return rt.vars[i];
    return NULL;
}

cudaError_t rt_kernel_resolve(rt_kernel *k)
{
    cudaError_t e = rt_ready();
    if (e != cudaSuccess)
        return e;
    if (k->k)
        return cudaSuccess;
    if (k->fb->problem[0])
        return cudaErrorNoKernelImageForDevice;
    smc_status s = smc_module_get_kernel(k->fb->mod, k->name, &k->k);
    if (s != SMC_OK) {
        rt_report(k->name, s);
        return cudaErrorInvalidDeviceFunction;
    }
    return cudaSuccess;
}

cudaError_t rt_var_resolve(rt_var *v)
{
    cudaError_t e = rt_ready();
    if (e != cudaSuccess)
        return e;
    if (v->dptr)
        return cudaSuccess;
    if (v->fb->problem[0])
        return cudaErrorNoKernelImageForDevice;
    size_t bytes = 0;
    smc_status s = smc_module_get_global(v->fb->mod, v->name, &v->dptr, &bytes);
    if (s != SMC_OK) {
        rt_report(v->name, s);
        v->dptr = 0;
        return cudaErrorInvalidSymbol;
    }
    if (v->managed_slot) {
        void *h = smc_host_ptr(rt.dev, v->dptr, v->size);
        if (!h) {
            fprintf(stderr, "smcosim runtime: __managed__ %s has no host view\n",
                    v->name);
            v->dptr = 0;
            return cudaErrorInvalidSymbol;
        }
        *v->managed_slot = h;
    }
    return cudaSuccess;
}

uint64_t rt_dev_addr(const void *p)
{
    if (rt.dev) {
        uint64_t d = smc_device_addr_of(rt.dev, p);
        if (d)
            return d;
    }
    return (uint64_t)(uintptr_t)p;
}

/* ---- registration (called by nvcc-generated code) ---------------------- */

void **__cudaRegisterFatBinary(void *fatCubin)
{
    RT_LOCKED();
    rt_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    fb->wrapper = fatCubin;
    rt.fatbins = grow(rt.fatbins, &rt.n_fatbins, sizeof *rt.fatbins);
    rt.fatbins[rt.n_fatbins - 1] = fb;
    return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    RT_LOCKED();
    /* A library dlopen'ed after the device exists is loaded right away. */
    if (rt.dev)
        load_fatbin((rt_fatbin *)fatCubinHandle);
}

/* Called by nvcc's code at exit (and at dlclose): like rt_fini, it must
 * not wait forever for a thread stuck inside a CUDA call. */
void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    __attribute__((cleanup(rt_lock_release), unused)) int held =
        rt_lock_acquire_at_exit();
    rt_fatbin *fb = (rt_fatbin *)fatCubinHandle;
    if (fb)
        fb->unregistered = 1;   /* module memory goes with the device */
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                            char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
    RT_LOCKED();
    (void)deviceName; (void)thread_limit; (void)tid; (void)bid;
    (void)bDim; (void)gDim; (void)wSize;
    rt_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    k->host_fun = hostFun;
    k->name = dup_str(deviceFun);
    k->fb = (rt_fatbin *)fatCubinHandle;
    rt.kernels = grow(rt.kernels, &rt.n_kernels, sizeof *rt.kernels);
    rt.kernels[rt.n_kernels - 1] = k;
}

static void register_var(void **handle, const void *host, void **slot,
                         const char *name, size_t size)
{
    rt_var *v = calloc(1, sizeof *v);
    if (!v) {
        fprintf(stderr, "smcosim runtime: out of host memory\n");
        abort();
    }
    v->host_var = host;
    v->managed_slot = slot;
    v->name = dup_str(name);
    v->size = size;
    v->fb = (rt_fatbin *)handle;
    rt.vars = grow(rt.vars, &rt.n_vars, sizeof *rt.vars);
    rt.vars[rt.n_vars - 1] = v;
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
                       char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    RT_LOCKED();
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    register_var(fatCubinHandle, hostVar, NULL, deviceName, size);
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global)
{
    RT_LOCKED();
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    register_var(fatCubinHandle, hostVarPtrAddress, hostVarPtrAddress,
                 deviceName, size);
}

/* Called before the host touches a __managed__ variable: make every managed
 * variable of this module point at its host view. Returns nonzero on
 * success. */
char __cudaInitModule(void **fatCubinHandle)
{
    RT_LOCKED();
    if (rt_ready() != cudaSuccess)
        return 0;
    char ok = 1;
    for (size_t i = 0; i < rt.n_vars; i++) {
        rt_var *v = rt.vars[i];
        if (v->fb == (rt_fatbin *)fatCubinHandle && v->managed_slot &&
            rt_var_resolve(v) != cudaSuccess)
            ok = 0;
    }
    return ok;
}

/* ---- launch ------------------------------------------------------------ */

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                     size_t sharedMem, struct CUstream_st *stream)
{
    if (n_configs >= RT_CONFIG_DEPTH) {
        fprintf(stderr, "smcosim runtime: more than %d nested launch "
                "configurations\n", RT_CONFIG_DEPTH);
        return 1;   /* nonzero: the generated code skips the launch */
    }
    rt_config *c = &configs[n_configs++];
    c->grid = gridDim;
    c->block = blockDim;
    c->smem = sharedMem;
    c->stream = stream;
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                       size_t *sharedMem, void *stream)
{
    if (n_configs == 0)
        return rt_ret(cudaErrorMissingConfiguration);
    rt_config *c = &configs[--n_configs];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->smem;
    *(void **)stream = c->stream;
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    RT_API();
    rt_kernel *k = rt_kernel_by_host(hostFun);
    *kernel = k;
    return k ? cudaSuccess : rt_ret(cudaErrorInvalidDeviceFunction);
}

static void record_new_launches(const dim3 *grid, const dim3 *block)
{
    uint32_t n = smc_launch_count(rt.dev);
    for (; rt.dev_launches_seen < n; rt.dev_launches_seen++) {
        if (rt.n_launches == rt.cap_launches) {
            size_t cap = rt.cap_launches ? 2 * rt.cap_launches : 64;
            rt_launch_record *p = realloc(rt.launches, cap * sizeof *p);
            if (!p)
                return;   /* statistics are best effort; the run goes on */
            rt.launches = p;
            rt.cap_launches = cap;
        }
        rt_launch_record *r = &rt.launches[rt.n_launches];
        memset(r, 0, sizeof *r);
        if (grid && block) {
            r->grid = *grid;
            r->block = *block;
        }
        if (smc_launch_get_stats(rt.dev, rt.dev_launches_seen, &r->stats) != SMC_OK)
            continue;
        rt.n_launches++;
        /* Simulated time: in timing mode the launch's GPU cycles from the
         * timing model; in functional mode each SM issues one
         * warp-instruction per cycle (docs/runtime.md). */
        uint32_t sms = rt.props.num_sms ? rt.props.num_sms : 1;
        rt.sim_cycles += r->stats.cycles ? r->stats.cycles
                                         : (r->stats.warp_insts + sms - 1) / sms;
    }
}

/* A failed device assert, printed the way a GPU prints it:
 *   file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `cond` failed.
 * The emulator stops at the first failing thread, so there is one such line
 * (a GPU prints one per failing thread). The parts come from the fault's
 * message, "assertion 'COND' failed at FILE:LINE in FUNCTION"
 * (csrc/emu/exec_builtin.c, each part possibly truncated there); the thread index from the warp and
 * lane and the launch's block shape. */
static void print_assert_line(const smc_fault *f, const dim3 *block)
{
    static const char head[] = "assertion '", mid[] = "' failed at ";
    /* The emulator's message may be prefixed with the status name and
     * followed by " in kernel NAME, CTA ...". */
    const char *m = strstr(f->message, head);
    if (!m)
        return;
    const char *cond = m + sizeof head - 1;
    const char *at = strstr(cond, mid);
    const char *in = at ? strstr(at, " in ") : NULL;
    if (!at || !in)
        return;
    const char *fn = in + 4, *fn_end = strstr(fn, " in kernel ");
    int fn_len = (int)(fn_end ? (size_t)(fn_end - fn) : strlen(fn));
    const char *file = at + sizeof mid - 1;
    const char *colon = in;
    while (colon > file && *colon != ':')
        colon--;
    if (colon == file)
        return;
    unsigned t = f->warp * 32u + f->lane;
    unsigned bx = block && block->x ? block->x : 1, by = block && block->y ? block->y : 1;
    fprintf(stderr, "%.*s:%.*s: %.*s: block: [%u,%u,%u], thread: [%u,%u,%u] "
            "Assertion `%.*s` failed.\n", (int)(colon - file), file,
            (int)(in - colon - 1), colon + 1, fn_len, fn, f->cta.x, f->cta.y,
            f->cta.z, t % bx, t / bx % by, t / (bx * by), (int)(at - cond), cond);
}

static void report_fault(smc_status launch_status, const dim3 *block)
{
    char line[512];
    smc_fault f;
    smc_device_fault(rt.dev, &f);
    if (f.status == SMC_OK) {
        /* The device gave no fault record: report what the launch said. */
        snprintf(line, sizeof line, "%s: %s", smc_status_name(launch_status),
                 smc_last_message(rt.dev));
    } else {
        if (f.status == SMC_ERR_ASSERT)
            print_assert_line(&f, block);
        snprintf(line, sizeof line,
                 "%s in kernel %s, CTA (%u,%u,%u), warp %u, lane %u, PC %u, "
                 "PTX line %u, address 0x%llx: %s", smc_status_name(f.status),
                 f.kernel, f.cta.x, f.cta.y, f.cta.z, f.warp, f.lane, f.pc,
                 f.ptx_line, (unsigned long long)f.address, f.message);
    }
    fprintf(stderr, "smcosim: device fault: %s\n", line);
    if (rt.n_faults < RT_MAX_FAULTS)
        memcpy(rt.faults[rt.n_faults++], line, sizeof line);
}

/* A launch issued to a capturing stream becomes a kernel node of the
 * capture's graph (rt_graph.c); anything else runs now. */
cudaError_t rt_launch(rt_kernel *k, dim3 grid, dim3 block, void **args,
                      size_t smem, cudaStream_t stream)
{
    if (rt_capturing(stream)) {
        if (rt.sticky != cudaSuccess)
            return rt_ret(rt.sticky);
        if (!k)
            return rt_ret(cudaErrorInvalidDeviceFunction);
        return rt_capture_kernel(stream, k, grid, block, args, smem);
    }
    return rt_launch_now(k, grid, block, args, smem, stream);
}

static cudaError_t launch_now(rt_kernel *k, dim3 grid, dim3 block, void **args,
                              size_t smem, cudaStream_t stream, int cooperative);

/* The locality hint of the calling thread's next launch (seed 000 §6.3.1,
 * Table 6.1), from smcosimSetNextLaunchHint (smcosim_cuda.h): the thesis's
 * <<<grid, block, hint>>> cannot be used, CUDA's third launch argument is
 * the dynamic shared memory size (docs/locality.md). */
static _Thread_local uint32_t next_launch_hint;

int smcosimSetNextLaunchHint(int hint)
{
    if (hint < 0 || hint > 3) {
        fprintf(stderr, "smcosimSetNextLaunchHint: hint %d is not one of 0..3 (seed 000 Table 6.1); "
                        "the next launch has none\n", hint);
        next_launch_hint = 0;
        return cudaErrorInvalidValue;
    }
    next_launch_hint = (uint32_t)hint;
    return cudaSuccess;
}

cudaError_t rt_launch_now(rt_kernel *k, dim3 grid, dim3 block, void **args,
                          size_t smem, cudaStream_t stream)
{
    return launch_now(k, grid, block, args, smem, stream, 0);
}

static cudaError_t launch_now(rt_kernel *k, dim3 grid, dim3 block, void **args,
                              size_t smem, cudaStream_t stream, int cooperative)
{
    if (rt.sticky != cudaSuccess)
        return rt_ret(rt.sticky);
    if (!k)
        return rt_ret(cudaErrorInvalidDeviceFunction);
    cudaError_t e = rt_kernel_resolve(k);
    if (e != cudaSuccess)
        return rt_ret(e);

    smc_kernel_info info;
    smc_kernel_get_info(k->k, &info);
    unsigned char stackbuf[512];
    unsigned char *params = info.param_bytes <= sizeof stackbuf
                          ? stackbuf : malloc(info.param_bytes);
    if (!params)
        return rt_ret(cudaErrorMemoryAllocation);
    memset(params, 0, info.param_bytes);
    for (uint32_t i = 0; i < info.num_params; i++) {
        uint32_t off, size;
        if (smc_kernel_param(k->k, i, &off, &size) != SMC_OK ||
            (uint64_t)off + size > info.param_bytes || !args || !args[i]) {
            if (params != stackbuf)
                free(params);
            return rt_ret(cudaErrorInvalidValue);
        }
        memcpy(params + off, args[i], size);
        /* A pointer argument that is the host view of managed or pinned
         * memory becomes its device address. */
        if (size == 8) {
            uint64_t v;
            memcpy(&v, params + off, 8);
            uint64_t d = v ? smc_device_addr_of(rt.dev, (const void *)(uintptr_t)v) : 0;
            /* Registered host memory is used through its device shadow
             * (cudaDevAttrCanUseHostPointerForRegisteredMem, rt_stream.c). */
            if (v && !d)
                d = rt_hostreg_dev((const void *)(uintptr_t)v);
            if (d && d != v)
                memcpy(params + off, &d, 8);
        }
    }
    smc_dim3 g = { grid.x, grid.y, grid.z }, b = { block.x, block.y, block.z };
    smc_stream sid = 0;
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        sid = stream->id;
    smc_launch_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.cooperative = cooperative != 0;
    ext.locality_hint = next_launch_hint;       /* consumed by this launch */
    next_launch_hint = 0;
    rt_hostreg_push();
    smc_status s = smc_launch(rt.dev, k->k, g, b, (uint32_t)smem, sid, params,
                              info.param_bytes, &ext);
    rt_hostreg_pull();
    if (params != stackbuf)
        free(params);
    record_new_launches(&grid, &block);
    if (s == SMC_OK)
        return cudaSuccess;
    if (is_sticky_status(s)) {
        /* Like a real GPU the launch itself succeeds; the fault surfaces at
         * the next call and stays until cudaDeviceReset. */
        rt.sticky = rt_from_smc(s);
        report_fault(s, &block);
        return cudaSuccess;
    }
    rt_report(k->name, s);
    return rt_ret(rt_from_smc(s));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                               void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_API();
    return rt_launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
                                    dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    RT_API();
    return rt_launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_API();
    return rt_launch(rt_kernel_by_host(func), gridDim, blockDim, args,
                     sharedMem, stream);
}

/* A cooperative launch (cooperative_groups::this_grid().sync()): every
 * block must be co-resident; the device refuses a larger grid with
 * cudaErrorCooperativeLaunchTooLarge and provides the grid barrier's
 * workspace (docs/runtime.md). Not recorded into a capturing stream. */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                        dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    RT_API();
    if (rt_capturing(stream)) {
        fprintf(stderr, "smcosim runtime: cudaLaunchCooperativeKernel into a "
                "capturing stream is not supported by the simulator\n");
        return rt_ret(cudaErrorNotSupported);
    }
    return launch_now(rt_kernel_by_host(func), gridDim, blockDim, args,
                      sharedMem, stream, 1);
}

/* ---- device-wide calls -------------------------------------------------- */

cudaError_t cudaDeviceSynchronize(void)
{
    RT_API();
    /* Launches complete before they return, so there is nothing to wait
     * for; only a pending fault is reported. */
    if (rt.sticky != cudaSuccess)
        return rt_ret(rt.sticky);
    return rt_ret(rt_ready());
}

cudaError_t cudaDeviceReset(void)
{
    RT_API();
    rt_stream_reset();
    drop_device();
    rt.sticky = cudaSuccess;
    last_error = cudaSuccess;
    n_configs = 0;
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    RT_API();
    cudaError_t e = last_error != cudaSuccess ? last_error : rt.sticky;
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    RT_API();
    return last_error != cudaSuccess ? last_error : rt.sticky;
}

/* ---- error names and strings -------------------------------------------- */

/* cudaError names with their numeric values, extracted at build time from
 * the installed driver_types.h (see module.mk), so they cannot drift. */
static const struct { int code; const char *name; } error_names[] = {
#define RT_ERROR_NAME(name, code) { code, #name },
#include "cuda_error_names.inc"
#undef RT_ERROR_NAME
};

const char *cudaGetErrorName(cudaError_t error)
{
    for (size_t i = 0; i < sizeof error_names / sizeof error_names[0]; i++)
        if (error_names[i].code == (int)error)
            return error_names[i].name;
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
    case cudaSuccess:                     return "no error";
    case cudaErrorInvalidValue:           return "invalid argument";
    case cudaErrorMemoryAllocation:       return "out of memory";
    case cudaErrorInitializationError:    return "initialization error";
    case cudaErrorCudartUnloading:        return "driver shutting down";
    case cudaErrorInvalidConfiguration:   return "invalid configuration argument";
    case cudaErrorInvalidPitchValue:      return "invalid pitch argument";
    case cudaErrorInvalidSymbol:          return "invalid device symbol";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorMissingConfiguration:   return "__global__ function call is not configured";
    case cudaErrorNoDevice:               return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice:          return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidPtx:             return "a PTX JIT compilation failed";
    case cudaErrorInvalidResourceHandle:  return "invalid resource handle";
    case cudaErrorInvalidDeviceFunction:  return "invalid device function";
    case cudaErrorNotReady:               return "device not ready";
    case cudaErrorIllegalAddress:         return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources:   return "too many resources requested for launch";
    case cudaErrorLaunchTimeout:          return "the launch timed out and was terminated";
    case cudaErrorAssert:                 return "device-side assert triggered";
    case cudaErrorIllegalInstruction:     return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress:      return "misaligned address";
    case cudaErrorLaunchFailure:          return "unspecified launch failure";
    case cudaErrorNotSupported:           return "operation not supported";
    case cudaErrorUnknown:                return "unknown error";
    default:
        break;
    }
    for (size_t i = 0; i < sizeof error_names / sizeof error_names[0]; i++)
        if (error_names[i].code == (int)error)
            return error_names[i].name;   /* no description kept: the name */
    return "unrecognized error code";
}

/* ---- statistics for `smcosim run` ---------------------------------------- */

/* Write one line per launch to $SMCOSIM_STATS_FILE (temporary name, then
 * rename). Format, tab-separated, documented in docs/runtime.md:
 *   launch <kernel> <gx,gy,gz> <bx,by,bz> <warp_insts> <thread_insts>
 *   fault <description>                       (one per guest fault) */
static void write_stats(void)
{
    const char *path = getenv("SMCOSIM_STATS_FILE");
    if (!path || !*path)
        return;
    if (rt.dev)
        record_new_launches(NULL, NULL);
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "smcosim runtime: cannot write %s\n", tmp);
        return;
    }
    fprintf(f, "# smcosim launch statistics v1\n");
    for (size_t i = 0; i < rt.n_launches; i++) {
        const rt_launch_record *r = &rt.launches[i];
        fprintf(f, "launch\t%s\t%u,%u,%u\t%u,%u,%u\t%llu\t%llu\n",
                r->stats.kernel, r->grid.x, r->grid.y, r->grid.z, r->block.x,
                r->block.y, r->block.z,
                (unsigned long long)r->stats.warp_insts,
                (unsigned long long)r->stats.thread_insts);
    }
    for (unsigned i = 0; i < rt.n_faults; i++)
        fprintf(f, "fault\t%s\n", rt.faults[i]);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "smcosim runtime: cannot write %s\n", path);
        remove(tmp);
    }
}

__attribute__((destructor)) static void rt_fini(void)
{
    __attribute__((cleanup(rt_lock_release), unused)) int held =
        rt_lock_acquire_at_exit();
    write_stats();
}
