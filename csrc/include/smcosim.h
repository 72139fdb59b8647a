/*
 * smcosim.h — the public C API of the smcosim device.
 *
 * This is the one interface through which host code reaches the simulated GPU:
 * the drop-in libcudart.so.13 (csrc/runtime/) is a thin layer over it, and C
 * drivers that do not go through nvcc (tests, the CLI, the trace front end of a
 * later issue) call it directly.
 *
 * Conventions
 *   - Every function that can fail returns an smc_status (SMC_OK == 0) and,
 *     when it fails, leaves a human-readable message retrievable with
 *     smc_last_message(dev).
 *   - Device addresses are plain 64-bit integers in a deterministic address
 *     space: the same sequence of allocations gives the same addresses in
 *     every run (the memory model's cache indexing depends on them). Managed
 *     and host-pinned allocations live in the same space and are directly
 *     dereferenceable by the host through smc_host_ptr().
 *   - A guest fault (bad access, illegal instruction, trap, watchdog) does not
 *     abort the host: the launch returns SMC_ERR_LAUNCH_FAILED or a more
 *     specific code, the fault is recorded (smc_device_fault) and the device
 *     stays "sticky" failed as CUDA does until smc_device_reset().
 */
#ifndef SMCOSIM_H
#define SMCOSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum smc_status {
    SMC_OK = 0,
    SMC_ERR_INVALID_VALUE,        /* bad argument (cudaErrorInvalidValue) */
    SMC_ERR_OUT_OF_MEMORY,        /* cudaErrorMemoryAllocation */
    SMC_ERR_INVALID_PTX,          /* PTX failed to load (cudaErrorInvalidPtx) */
    SMC_ERR_NOT_FOUND,            /* kernel or symbol name unknown */
    SMC_ERR_INVALID_DEVICE_PTR,   /* pointer not inside an allocation */
    SMC_ERR_LAUNCH_OUT_OF_RESOURCES, /* too many threads/regs/smem per block */
    SMC_ERR_INVALID_CONFIGURATION,   /* bad grid/block dimensions */
    SMC_ERR_ILLEGAL_ADDRESS,      /* guest out-of-bounds access */
    SMC_ERR_MISALIGNED_ADDRESS,   /* guest misaligned access */
    SMC_ERR_ILLEGAL_INSTRUCTION,  /* guest executed something unsupported */
    SMC_ERR_ASSERT,               /* guest trap / __trap() / assert */
    SMC_ERR_LAUNCH_TIMEOUT,       /* watchdog: no progress (no warp exit, barrier
                                     completion or CTA start) within the budget;
                                     barrier deadlock (docs/emulator.md) */
    SMC_ERR_LAUNCH_FAILED,        /* any other guest failure */
    SMC_ERR_INTERRUPTED,          /* run stopped by the user (Ctrl-C) */
    SMC_ERR_UNSUPPORTED,          /* host asked for something not modelled */
    SMC_ERR_COOPERATIVE_TOO_LARGE /* cooperative grid does not fit co-resident
                                     (cudaErrorCooperativeLaunchTooLarge) */
} smc_status;

const char *smc_status_name(smc_status s);   /* "SMC_ERR_ILLEGAL_ADDRESS" */
const char *smc_status_string(smc_status s); /* one-line description */

typedef struct smc_device smc_device;
typedef struct smc_module smc_module;
typedef struct smc_kernel smc_kernel;

typedef struct smc_dim3 { uint32_t x, y, z; } smc_dim3;

/* Options for a device. Zero-initialise and set what you need. */
typedef struct smc_device_opts {
    const char *config;      /* preset name or config file; NULL = default preset */
    uint64_t    watchdog;    /* warp-instructions one warp may execute without
                                progress before a hang is reported: the same
                                budget as gpu.watchdog_insts, which it overrides;
                                0 = the key's (default 10^9) */
    uint64_t    seed;        /* for anything randomised; results depend only on it */

    /* Timing model (issue 5, docs/timing-model.md). A NULL/0 field takes
     * its value from the environment variable named next to it, so that
     * `smcosim run` can configure the device inside an unmodified program.
     * `config` above also accepts a comma-separated list of presets and
     * config files (docs/config.md) and falls back to SMCOSIM_CONFIG. */
    int         mode;        /* SMC_MODE_*; 0 = SMCOSIM_MODE ("functional"/"timing"),
                                else functional */
    const char *sched;       /* scheduler back end "c", "rtl", "lockstep" (SMCOSIM_SCHED) */
    const char *policy;      /* "lrr", "gto", "two-level[:N]", "swl:N", "oaws-static[:SMR]", "oaws-dyn" (SMCOSIM_POLICY) */
    const char *set;         /* "key=value;key=value" overrides (SMCOSIM_SET) */
    const char *json;        /* rewrite this JSON file after every timed launch (SMCOSIM_JSON) */
    int         print_stats; /* 1: print each timed launch's statistics on stderr,
                                -1: never; 0 = SMCOSIM_PRINT_STATS=1 */
    const char *fst;         /* waveform of SM 0, RTL + C side, written when the
                                device is destroyed (SMCOSIM_FST; needs sched rtl
                                or lockstep) */
    const char *fst_window;  /* "FROM:TO" cycles of each launch, default 0:20000
                                (SMCOSIM_FST_WINDOW) */
    const char *locality;    /* per-kernel locality hints "KERNEL=HINT,..." (seed
                                000 Table 6.1; KERNEL mangled or demangled, HINT
                                0..3), used where smc_launch_ext gives none
                                (SMCOSIM_LOCALITY; docs/locality.md) */
} smc_device_opts;

enum { SMC_MODE_DEFAULT = 0, SMC_MODE_FUNCTIONAL = 1, SMC_MODE_TIMING = 2 };

/* A configuration that does not load (unknown preset or key, value out of
 * range, unreadable file) or a back end that cannot be built gives
 * SMC_ERR_UNSUPPORTED and a message naming the key on stderr (there is no
 * device yet to hold it). */
smc_status smc_device_create(const smc_device_opts *opts, smc_device **out);
void       smc_device_destroy(smc_device *dev);
const char *smc_last_message(const smc_device *dev);
/* Size of the heap of malloc()/new in kernels (cudaLimitMallocHeapSize;
 * default 8 MiB): a malloc that would exceed it returns NULL. */
void       smc_device_set_heap_limit(smc_device *dev, uint64_t bytes);
/* Bytes of device memory allocated now (cudaMalloc, managed, host-mapped,
 * module variables, the kernels' heap): cudaMemGetInfo's "used". */
uint64_t   smc_device_bytes_in_use(const smc_device *dev);

/* Device properties, from the active configuration (cudaGetDeviceProperties). */
typedef struct smc_device_props {
    char     name[64];               /* e.g. "smcosim kepler-k20x" */
    uint32_t num_sms;
    uint32_t warp_size;
    uint32_t max_threads_per_block;
    uint32_t max_block_dim[3];
    uint32_t max_grid_dim[3];
    uint32_t max_threads_per_sm;
    uint32_t max_warps_per_sm;
    uint32_t max_ctas_per_sm;
    uint32_t regs_per_sm;
    uint32_t max_regs_per_block;
    uint32_t smem_per_sm;
    uint32_t smem_per_block;
    uint32_t const_bytes;
    uint32_t l2_bytes;
    uint32_t clock_khz;
    uint64_t global_mem_bytes;
    uint32_t cc_major, cc_minor;     /* what PTX targets we accept (7.5) */
} smc_device_props;
/* Fills *out; all zero when dev is NULL. */
void smc_device_get_props(const smc_device *dev, smc_device_props *out);

/* ---- modules and kernels ------------------------------------------------ */

/* Load PTX text. `name` is used in diagnostics (file name or "<fatbin>"). */
smc_status smc_module_load_ptx(smc_device *dev, const char *name,
                               const char *text, size_t len, smc_module **out);
smc_status smc_module_load_ptx_file(smc_device *dev, const char *path,
                                    smc_module **out);
smc_status smc_module_get_kernel(smc_module *mod, const char *name,
                                 smc_kernel **out);
/* Module-scope .global/.const variable: device address and size. */
smc_status smc_module_get_global(smc_module *mod, const char *name,
                                 uint64_t *dptr, size_t *bytes);

/* Additions (emu branch): enumerate the kernels of a module, unload it.
 * Unloading frees its module variables; its kernels become invalid. */
uint32_t    smc_module_kernel_count(const smc_module *mod);
smc_kernel *smc_module_kernel_at(smc_module *mod, uint32_t i);
void        smc_module_unload(smc_module *mod);

/* What a kernel needs, as `ptxas -v` reports it, and its parameter layout. */
typedef struct smc_kernel_info {
    const char *name;
    uint32_t regs_per_thread;     /* 32-bit registers after allocation */
    uint32_t pred_regs;           /* predicate registers */
    uint32_t static_smem_bytes;   /* .shared declared in the kernel/module */
    uint32_t local_bytes;         /* per-thread .local */
    uint32_t const_bytes;         /* module .const used */
    uint32_t param_bytes;         /* total size of the parameter block */
    uint32_t num_params;
    uint32_t max_threads_per_block; /* .maxntid product, 0 when absent */
} smc_kernel_info;
/* Fills *out; all zero when k is NULL. */
void smc_kernel_get_info(const smc_kernel *k, smc_kernel_info *out);
/* Resident CTAs of `k` per SM for blocks of `block_threads` threads with
 * `dyn_smem` bytes of dynamic shared memory, under the device's configuration:
 * the same computation the timing model dispatches with (GPUDIAG Eq. 3.1-3.3,
 * allocation units included; csrc/timing/occupancy.c). 0 when such a block
 * cannot launch at all (a launch limit is exceeded). */
uint32_t smc_kernel_occupancy(const smc_device *dev, const smc_kernel *k,
                              uint32_t block_threads, uint32_t dyn_smem);
/* Offset and size of parameter i inside the parameter block. */
smc_status smc_kernel_param(const smc_kernel *k, uint32_t i,
                            uint32_t *offset, uint32_t *size);

/* ---- memory --------------------------------------------------------------- */

typedef enum smc_mem_kind {
    SMC_MEM_DEVICE = 0,   /* cudaMalloc */
    SMC_MEM_MANAGED,      /* cudaMallocManaged: host and device */
    SMC_MEM_HOST          /* cudaMallocHost / cudaHostAlloc: host, device-mapped */
} smc_mem_kind;

smc_status smc_malloc(smc_device *dev, size_t bytes, smc_mem_kind kind,
                      uint64_t *dptr);
smc_status smc_free(smc_device *dev, uint64_t dptr);
/* Host view of a device address (valid for every kind; for SMC_MEM_DEVICE it
 * is what memcpy uses underneath). NULL when dptr is not inside an allocation
 * with at least `bytes` bytes after it. */
void      *smc_host_ptr(smc_device *dev, uint64_t dptr, size_t bytes);
/* Is this host pointer inside a managed/host allocation? Returns its device
 * address or 0. Lets cudaMemcpy(Default) tell host from device pointers. */
uint64_t   smc_device_addr_of(smc_device *dev, const void *host);

smc_status smc_memcpy_htod(smc_device *dev, uint64_t dst, const void *src, size_t n);
smc_status smc_memcpy_dtoh(smc_device *dev, void *dst, uint64_t src, size_t n);
smc_status smc_memcpy_dtod(smc_device *dev, uint64_t dst, uint64_t src, size_t n);
smc_status smc_memset(smc_device *dev, uint64_t dst, int value, size_t n);

/* ---- launch --------------------------------------------------------------- */

/* Per-launch extensions. Zero-initialise; a zero struct means "no hint".
 * locality_hint (seed 000 §6.3.1, Table 6.1): 0 none, 1 many cache lines
 * shared among adjacent blocks, 2 boundary lines shared, 3 some data shared;
 * 1..3 place adjacent CTAs on the same SM in timing mode (docs/locality.md).
 * A value above 3 fails the launch with SMC_ERR_INVALID_VALUE. A non-zero
 * hint here wins over smc_device_opts.locality; gpu.locality_hint = 0..3
 * overrides both. */
typedef struct smc_launch_ext {
    uint32_t locality_hint;   /* seed 000 ch. 6: 0..3 */
    /* Non-zero: a cooperative launch (cudaLaunchCooperativeKernel). Every
     * CTA must fit co-resident (smc_kernel_occupancy x SMs), else
     * SMC_ERR_COOPERATIVE_TOO_LARGE; the device allocates a zeroed 8-byte
     * grid-barrier workspace for the launch, passes its address in
     * %envreg1 (high 32 bits) / %envreg2 (low 32 bits), and the functional
     * mode interleaves all CTAs (docs/runtime.md). */
    uint32_t cooperative;
    uint32_t reserved[6];
} smc_launch_ext;

typedef uint32_t smc_stream;  /* 0 = the default stream */

/* Launch `k`. `params` points to `param_bytes` bytes laid out as
 * smc_kernel_param() describes. Launches are executed in stream order; with a
 * single simulated device every launch runs to completion before the call
 * returns (streams order work; they do not overlap it). */
smc_status smc_launch(smc_device *dev, smc_kernel *k, smc_dim3 grid,
                      smc_dim3 block, uint32_t dyn_smem_bytes,
                      smc_stream stream, const void *params,
                      size_t param_bytes, const smc_launch_ext *ext);

/* ---- faults and statistics ---------------------------------------------- */

typedef struct smc_fault {
    smc_status  status;          /* SMC_OK when there was none */
    char        kernel[128];
    smc_dim3    cta;
    uint32_t    warp;            /* warp index inside the CTA */
    uint32_t    lane;
    uint32_t    pc;              /* instruction index inside the kernel */
    uint32_t    ptx_line;        /* source line of the faulting instruction */
    uint64_t    address;         /* for memory faults */
    char        message[256];    /* complete one-line description */
} smc_fault;

/* The first fault since the last reset (status SMC_OK if none). */
void       smc_device_fault(const smc_device *dev, smc_fault *out);
void       smc_device_reset(smc_device *dev);

/* Per-launch functional statistics of the most recent launches. */
typedef struct smc_launch_stats {
    char     kernel[128];
    uint64_t warp_insts;         /* warp-instructions executed */
    uint64_t thread_insts;       /* sum of active lanes over them */
    uint64_t cycles;             /* timing mode: GPU cycles of the launch; 0 in
                                    functional mode */
} smc_launch_stats;
/* Number of launches so far, and the stats of launch i (0-based). */
uint32_t   smc_launch_count(const smc_device *dev);
smc_status smc_launch_get_stats(const smc_device *dev, uint32_t i,
                                smc_launch_stats *out);

#ifdef __cplusplus
}
#endif
#endif /* SMCOSIM_H */
