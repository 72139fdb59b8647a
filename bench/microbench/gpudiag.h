/*
 * gpudiag.h — GPUDIAG (seed 002_12a24766197dacea, "GPUDIAG"): the seven
 * microbenchmarks of Table 3.1 and the analytical model of §3.1, as host
 * logic over a thin API wrapper (§4.1, Fig. 4.1).
 *
 * The host logic (gpudiag.c, plain C11) never calls a GPU API itself: it
 * launches the generated kernels of gd_kernels.cu by name through a
 * gd_backend. Two back ends exist:
 *   - gd_cuda.cu: the ordinary CUDA runtime (a real GPU, or smcosim through
 *     its drop-in libcudart.so.13 under `smcosim run`);
 *   - csrc/cli/cmd_diag.c: smcosim's device API with the committed PTX
 *     (`smcosim diag`, no nvcc needed).
 * docs/gpudiag.md describes every decision the paper leaves open.
 */
#ifndef GPUDIAG_H
#define GPUDIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a launch through the wrapper came to. */
enum gd_rc {
    GD_OK = 0,        /* ran to completion */
    GD_REJECTED,      /* the launch was refused: a limit of Eq. 3.1 */
    GD_HUNG,          /* the kernel did not finish: timeout or watchdog (deadlock) */
    GD_FAILED         /* anything else: the diagnosis stops */
};

/* The thin API wrapper (§4.1). Every kernel has the signature of
 * gen_kernels.py: (u64 *out, unsigned *sync, unsigned nblocks, u64 timeout,
 * unsigned arg). */
typedef struct gd_backend {
    void *ctx;
    /* Zero `sync` and the first `nout` words of `out`, launch `kernel` with
     * `grid` blocks of `block` threads and `dyn_smem` bytes of dynamic shared
     * memory; the semaphore waits for `nblocks` blocks. Copy the first `nout` words of `out` back
     * into `host_out` (when GD_OK). A GD_HUNG launch leaves the device
     * usable for the next call (the back end resets it if it must). */
    enum gd_rc (*launch)(void *ctx, const char *kernel, uint32_t grid, uint32_t block,
                         uint32_t dyn_smem, uint32_t nblocks, uint32_t arg, uint64_t timeout,
                         uint64_t *host_out, size_t nout);
    /* Registers per thread of `kernel` (cudaFuncGetAttributes numRegs);
     * non-zero when the kernel does not exist. */
    int (*regs)(void *ctx, const char *kernel, uint32_t *regs);
    size_t out_words;         /* capacity of the device `out` buffer */
    /* GPU cycles of the last launch (the simulator's cycle count, or a
     * GPU's event time times its clock); NULL when the back end has none
     * (then the model is not evaluated). */
    uint64_t (*last_cycles)(void *ctx);
} gd_backend;

#define GD_WARP 32            /* w, Table 3.1's input: the warp width */
#define GD_MAX_WARPS 128      /* most warps per block the tests sweep */
#define GD_MAX_POINTS 256     /* most sweep points of one state-buffer test */
#define GD_NUM_FU 5           /* instruction mixes of the functional-units test */

typedef struct gd_opts {
    int      quick;           /* reduced sweeps (make test) */
    uint64_t timeout;         /* %clock64 cycles a block waits at the semaphore */
    uint32_t grid_cap;        /* L(T/G) is searched up to this many blocks */
    FILE    *log;             /* progress lines, or NULL */
} gd_opts;

typedef struct gd_fu {
    const char *op;           /* "sp", "int", "dpu", "sfu", "smem" */
    double   latency;         /* P_1 of one dependent instruction (ILP 1), cycles */
    double   p1;              /* P_1 of {insts} = 4 independent instructions */
    uint32_t cmax;            /* fu[c] measured for c = 1..cmax (0 = not measured) */
    double   fu[GD_MAX_WARPS + 1];
    double   thrput;          /* Eq. 3.7 x |insts|: warp-instructions per cycle per SM */
} gd_fu;

typedef struct gd_point { uint32_t b, s, r, rpw, n; } gd_point;   /* one N_slot measurement */

typedef struct gd_result {
    /* kernel limits (§3.2.1) */
    uint32_t l_tb;            /* L(T/B) threads per block */
    uint64_t l_tg_blocks;     /* largest grid launched (blocks of L(T/B) threads) */
    int      l_tg_capped;     /* 1: no failure up to opts.grid_cap */
    uint32_t l_sb;            /* L(S/B) bytes */
    uint32_t l_rt;            /* L(R/T) registers per thread */
    int      l_rt_capped;     /* 1: every kernel of the family launched */
    uint32_t l_rb;            /* L(R/B) registers per block */
    /* functional units (§3.2.2) */
    gd_fu    fu[GD_NUM_FU];
    uint32_t c2x;             /* warps per block of the num-mp test */
    uint32_t n_mp;
    /* warp scheduling policy */
    char     policy[16];      /* "lrr", "gto", "two-level" or "unknown" */
    double   pol_start_frac;  /* warps that issued before the first one finished */
    double   pol_gap;         /* median cycles between a warp's consecutive reads */
    double   pol_back_to_back; /* fraction of those gaps no longer than pol_alone_gap */
    uint32_t pol_alone_gap;   /* shortest gap of one warp alone on the GPU */
    uint32_t pol_warps;       /* warps on the observed SM */
    uint32_t pol_active;      /* warps that issued before the first one finished */
    /* state buffers (§3.2.3) */
    uint32_t nslot_wsb[GD_MAX_WARPS + 1];   /* N_slot,wsb(b); 0 = not measured */
    uint32_t n1, n2;
    gd_point shm[GD_MAX_POINTS]; uint32_t n_shm;
    uint32_t S, s_min;
    gd_point rf[GD_MAX_POINTS];  uint32_t n_rf;
    uint32_t R, r_min;        /* registers (32-bit), allocation unit per warp */
    uint32_t launches;        /* kernel launches made */
    uint32_t hangs;           /* of which deadlocked (timeout or watchdog) */
} gd_result;

/* Run the seven tests in the order of their dependencies (Table 3.1).
 * Returns 0, or -1 after printing the reason to stderr. */
int gd_run_all(const gd_backend *be, const gd_opts *o, gd_result *r);

/* The analytical model: Eq. 3.2 with measured fu(c) (of mix `fu`, relative to
 * P_1) and N_slot: T(g, b) in units of fu(1). g blocks on one SM. */
double gd_model_T(const gd_fu *fu, uint32_t g, uint32_t b, uint32_t nslot);

/* The analytical model checked against the cycles of launches (§4.3.3,
 * Fig. 4.5): generated kernels (the functional-unit mixes, ILP 4, length
 * 96) at several (G, b); predicted = waves x O + 96 P_1 x T(g, b) with
 * Eq. 3.2, the measured fu(c), g = ceil(G / n_mp), N_slot(b) from the
 * warpslot test, and O = T_1 - 96 P_1 the part of the one-block-one-warp
 * run that is not the repeated {insts}. */
#define GD_MODEL_MAX 256
typedef struct gd_model_point { const char *op; uint32_t G, b, nslot; double measured, predicted; } gd_model_point;
typedef struct gd_model {
    gd_model_point p[GD_MODEL_MAX];
    uint32_t n;
    double r;                 /* Pearson correlation, measured vs predicted */
    double mean_abs_err;      /* mean |predicted - measured| / measured */
} gd_model;
int gd_run_model(const gd_backend *be, const gd_opts *o, const gd_result *r, gd_model *m);
double gd_pearson(const double *x, const double *y, uint32_t n);

/* The report: Markdown of the recovered values (smcosim diag prints its own
 * table with the configured values beside them) and JSON of every
 * measurement. */
void gd_print_markdown(const gd_result *r, const char *device, FILE *f);
void gd_print_json(const gd_result *r, FILE *f);
/* gnuplot data and script for Figs. 4.2-4.4 into DIR (files fu.dat,
 * nslot.dat, gpudiag.gp); returns 0 on success. */
int gd_write_plot_data(const gd_result *r, const char *dir);

const char *gd_rc_name(enum gd_rc rc);

#ifdef __cplusplus
}
#endif
#endif
