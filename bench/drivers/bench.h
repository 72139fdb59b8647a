/*
 * bench/drivers/bench.h — running the benchmark kernels from their committed
 * PTX through the public device API (csrc/include/smcosim.h), without nvcc.
 *
 * Each benchmark NAME has a driver bench/drivers/NAME.c exposing
 *
 *     int bench_NAME(smc_device *dev, const bench_opts *o);
 *
 * which loads bench/ptx/NAME.ptx, builds the input with the same seeded
 * generator as the CUDA program (bench/ref/NAME.h), runs the same launch
 * sequence and checks the result against the same CPU reference. It returns
 * BENCH_PASS, BENCH_FAIL (wrong result) or BENCH_ERROR (the device reported
 * an error, or bad options) and writes the reason into o->why.
 *
 * The drivers only see smcosim.h, so they do not care how the device
 * executes (functional emulator today, timing model later).
 *
 * A driver is a straight sequence of calls on a bench_ctx. The first error
 * is sticky: later calls do nothing, so a driver does not check every call;
 * bench_end() reports it and frees every device allocation made through the
 * context.
 */
#ifndef BENCH_DRIVERS_BENCH_H
#define BENCH_DRIVERS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "smcosim.h"
#include "../ref/common.h"

enum { BENCH_PASS = 0, BENCH_FAIL = 1, BENCH_ERROR = 2 };

/* What a benchmark run measured (accumulated over its launches). */
typedef struct bench_stats {
    uint32_t launches;
    uint64_t warp_insts;       /* smc_launch_get_stats */
    uint64_t thread_insts;
    double   launch_seconds;   /* wall time inside smc_launch only */
    double   launch_cpu_seconds; /* CPU time of this thread inside smc_launch:
                                    what the emulator cost, whatever the load */
} bench_stats;

typedef struct bench_opts {
    int          size;         /* BENCH_SIZE_SMALL / _DEFAULT / _LARGE / _PAPER */
    int          n, iters;     /* override the preset when > 0 */
    int          have_seed;    /* use `seed` instead of the preset's */
    uint64_t     seed;
    int          inputs;       /* BENCH_INPUTS_DEFAULT / _GENERAL (common.h) */
    const char  *ptx_dir;      /* directory holding NAME.ptx */
    bench_stats *stats;        /* filled in when not NULL */
    char        *why;          /* reason for FAIL/ERROR (may be NULL) */
    size_t       whylen;
} bench_opts;

#define BENCH_MAX_ALLOCS 32
/* --inputs general: every device allocation gets this many bytes of
 * BENCH_GUARD_BYTE after it, checked by bench_end, so a write past the end
 * of a buffer (a bounds check off by one) is a FAIL even where the result
 * arrays themselves come out right. */
#define BENCH_GUARD_BYTES 4096
#define BENCH_GUARD_BYTE 0x7F   /* read as a float: 3.4e38, so a kernel that reads
                                   past the end gets inf into its sums */

typedef struct bench_ctx {
    smc_device       *dev;
    smc_module       *mod;
    const bench_opts *o;
    const char       *name;
    int               status;             /* BENCH_PASS until something fails */
    char              msg[512];
    uint64_t          allocs[BENCH_MAX_ALLOCS];
    size_t            sizes[BENCH_MAX_ALLOCS];  /* bytes asked for */
    int               nallocs;
} bench_ctx;

/* Start: resolve the size (preset + overrides, validated by `check`) into
 * *p and load the PTX. Returns 0, or non-zero when the run cannot start
 * (then call bench_end all the same). */
int bench_begin(bench_ctx *c, smc_device *dev, const bench_opts *o,
                const char *name, const bench_params presets[BENCH_SIZE_COUNT],
                bench_check_fn check, bench_params *p);

/* --inputs general? */
static inline int bench_general(const bench_opts *o)
{
    return o->inputs == BENCH_INPUTS_GENERAL;
}

/* With --inputs general only: replace the preset's n / iters (those not set
 * by -n / -i) by the general-mode sizes (> 0; 0 keeps the value) and
 * validate again. Returns non-zero when the size is rejected (then call
 * bench_end). */
int bench_general_size(bench_ctx *c, bench_params *p, int n, int iters,
                       bench_check_fn check);

/* Device memory (freed by bench_end). Return 0 after an earlier error. */
uint64_t bench_alloc(bench_ctx *c, size_t bytes);              /* zeroed */
uint64_t bench_upload(bench_ctx *c, const void *host, size_t bytes);
void     bench_write(bench_ctx *c, uint64_t dst, const void *host, size_t bytes);
void     bench_read(bench_ctx *c, void *host, uint64_t src, size_t bytes);
void     bench_memset(bench_ctx *c, uint64_t dst, int value, size_t bytes);
/* Copy into a module-scope .global/.const variable (cudaMemcpyToSymbol). */
void     bench_write_symbol(bench_ctx *c, const char *symbol, const void *host,
                            size_t bytes);

/* One kernel argument: its bytes, which must have exactly the size that
 * the kernel's PTX declares for that parameter. */
typedef struct bench_arg { const void *ptr; uint32_t size; } bench_arg;
#define BARG(lvalue) ((bench_arg){ &(lvalue), (uint32_t)sizeof(lvalue) })

void bench_launch(bench_ctx *c, const char *kernel, smc_dim3 grid,
                  smc_dim3 block, uint32_t dyn_smem, const bench_arg *args,
                  uint32_t nargs);
#define BENCH_LAUNCH(c, kernel, grid, block, smem, ...)                     \
    do {                                                                    \
        const bench_arg bench_args_[] = { __VA_ARGS__ };                    \
        bench_launch((c), (kernel), (grid), (block), (smem), bench_args_,   \
                     (uint32_t)(sizeof bench_args_ / sizeof bench_args_[0])); \
    } while (0)

static inline smc_dim3 bench_dim(uint32_t x, uint32_t y, uint32_t z)
{
    smc_dim3 d;
    d.x = x; d.y = y; d.z = z;
    return d;
}
#define DIM1(x) bench_dim((uint32_t)(x), 1, 1)
#define DIM2(x, y) bench_dim((uint32_t)(x), (uint32_t)(y), 1)

/* Has an earlier call failed? */
static inline int bench_failed(const bench_ctx *c) { return c->status != BENCH_PASS; }

/* Finish: `bad`/`why` is the verdict of the result check (only looked at
 * when nothing failed before). Frees the allocations, fills o->why, returns
 * BENCH_PASS / BENCH_FAIL / BENCH_ERROR. */
int bench_end(bench_ctx *c, int bad, const char *why);

/* ---- a driver shared by benchmarks of one shape ----------------------------- */

/* A PolyBench kernel NAME(a, b, c, n) on n x n float matrices that updates c
 * from a, b and c, one thread per element of c in POLY_BLOCK_X x
 * POLY_BLOCK_Y blocks (gemm, syr2k): the benchmark's name (also its
 * kernel's), presets, size check, inputs and CPU references (bench/ref/NAME.h). */
typedef struct bench_abc_kernel {
    const char         *name;
    const bench_params *presets;
    bench_check_fn      check;
    void (*inputs)(const bench_params *p, float *a, float *b, float *c);
    void (*inputs_general)(const bench_params *p, float *a, float *b, float *c);
    void (*reference)(int n, const float *a, const float *b, const float *c_in,
                      float *want);
    void (*reference_exact)(int n, const float *a, const float *b,
                            const float *c_in, float *want);
} bench_abc_kernel;

/* The whole driver of such a benchmark: one launch, c checked against the
 * reference (exactly with --inputs general, to 1e-6 otherwise). */
int bench_run_abc(smc_device *dev, const bench_opts *o, const bench_abc_kernel *k);

/* ---- the registry (registry.c) -------------------------------------------- */

typedef int (*bench_fn)(smc_device *dev, const bench_opts *o);

typedef struct bench_entry {
    const char *name;       /* as printed and as NAME in bench/{cuda,ref,ptx} */
    bench_fn    run;
    const char *what;       /* one line for --list */
    const char *excluded;   /* non-NULL: left out of the default suite, why */
} bench_entry;

extern const bench_entry bench_registry[];
extern const size_t bench_registry_len;

#endif /* BENCH_DRIVERS_BENCH_H */
