/*
 * teg_calib.c — `smcosim teg calibrate`: TEG's calibration microbenchmarks
 * (seed 003, J. Lai's thesis; ../shared/design/teg.md §5.5, G19, G26, R5;
 * docs/teg.md, "Calibration (`teg calibrate`)").
 *
 * The generated kernels of teg_kernels.cu (gen_teg_kernels.py; the
 * committed PTX teg_kernels.ptx, so no nvcc is needed) run on the cycle
 * model through smcosim's device API, exactly as `smcosim diag` runs
 * GPUDIAG's (csrc/cli/cmd_diag.c): every warp reads %clock64 before and
 * after its timed code, and each quantity is a difference of two unrolled
 * lengths (G19), so that neither the clock reads nor the code around them
 * count. Per TEG class (the instruction is the class's Table 3.1 row where
 * the thesis has one, 003 L1041-1053):
 *
 *   exec       one warp, one dependent chain of 32 and 96: (T96 - T32) / 64
 *              (the thesis's 21 dependent FADD32, 003 L1023-1027, with the
 *              clock overhead differenced away instead of subtracted, G19)
 *   warp_busy  one warp, 32 independent chains, 32 and 96 instructions:
 *              the warp's own issue interval ("same-warp issue latency",
 *              003 L1035, measured "the same way with one warp"); what
 *              bounds it is named (the scoreboard's sched.sb_entries
 *              pending writes, or the unit) when it is not 1
 *   accept     as many warps as one block holds, 4 chains each: the SM's
 *              throughput T (warp-instructions per cycle; 003 L1031: "32 /
 *              ops per clock", GPUDIAG's Eq. 3.7), as TEG's interval of one
 *              unit instance: instances / T, the instances counted as
 *              teg_params_from_config assigns them (units.K.private x
 *              engines + units.K.shared of the class's unit); when T is the
 *              engines' issue limit the unit's interval is only bounded
 *              (<= instances / T)
 *
 * (shared loads: a conflict-free chase; global loads: a chase that stays
 * on L1-resident lines, the accept of the LD/ST path rather than of DRAM)
 *
 * and the memory numbers: the shared-memory latency and pass_cycles (a
 * pointer chase at bank degrees 1..32; G9, 003 L1099-1101), the global
 * load latency (a chase over fresh lines: gmem.latency, 003 L1075; L1 and
 * L2 hits for information), the bytes in flight of a stream of many warps
 * by Little's law (Eq. 3.1, 003 L1077-1083; G10) and the F_T throughput of
 * the FFMA : LDS.X mixes (003 L1469, Fig. 4.2; G26).
 *
 * The report (the R5 table) sets each beside the from-config set of the
 * same configuration; --out writes that set with the calibrated values in
 * (teg_params_print's `key = value` format, read by `smcosim teg --params
 * FILE`), --json the numbers. Both files are written as FILE.tmp and
 * renamed: complete or absent.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smcosim.h"
#include "timing.h"
#include "../../../csrc/config/gpu_config.h"
#include "../../../csrc/ptx/ptx.h"
#include "../../../csrc/teg/teg.h"
#include "../../../csrc/cli/cli.h"
#include "teg_calib.h"

#define CALIB_USAGE \
    "usage: smcosim teg calibrate [--config PRESET|FILE] [--set key=value]... [--quick]\n" \
    "                             [--out FILE] [--json FILE] [--ptx FILE]\n" \
    "  Runs TEG's calibration microbenchmarks (seed 003; docs/teg.md, \"Calibration\") on the\n" \
    "  cycle model and prints, per TEG class, the configured exec / accept / warp_busy (the\n" \
    "  from-config set of the same configuration) beside the calibrated ones (Markdown, R5).\n" \
    "  --quick      fewer kernels: no second opcodes, fewer bank degrees, no L2 chase, no F_T\n" \
    "  --out FILE   the from-config set with the calibrated values, as a TEG parameter file\n" \
    "               (smcosim teg --params FILE)\n" \
    "  --json FILE  every measurement as JSON\n" \
    "  --ptx FILE   the kernels (default bench/microbench/teg/teg_kernels.ptx of the source\n" \
    "               tree this smcosim was built in, else of the current directory)\n"

#define OUT_WORDS (1u << 16)          /* the device's `out`: 2 words per warp */
#define CHAIN_L1 32                   /* ILP 1: the two dependent-chain lengths */
#define CHAIN_L2 96
#define ILP32_L1 1                    /* ILP 32: periods (32 and 96 instructions) */
#define ILP32_L2 3
#define ILP4_L1 8                     /* ILP 4: periods (32 and 160 instructions) */
#define ILP4_L2 40
#define LINE 128                      /* bytes between two links of a chase */
#define DRAM_STRIDE 4224              /* 4 KiB + a line: each link in a fresh row and partition
                                         (bench/sidebyside/chase.cu's DRAM level) */
#define L2_LINKS 1024                 /* 128 KiB: more than any preset's L1D, less than its L2 */
#define STREAM_ILP 8                  /* lines per warp and pass (gen_teg_kernels.py) */
#define STREAM_BLOCK 256
#define STREAM_P1 1                   /* the stream's two lengths, passes */
#define STREAM_P2 3
#define FT_L1 4                       /* ffma-lds: mix periods of the two lengths */
#define FT_L2 12

/* Passes of the timed kernels; the last is timed. The first brings the
 * code into the instruction cache (and the gload chains' lines into the
 * L1D), the second starts with the first's results still in flight; the
 * third is clean. With two, fermi-gtx480's shared chase at degree 32 came
 * out 16 cycles short over 64 loads (37.75 per load for 38), and exact
 * with an ideal instruction cache (l1i.sets = 0) or with three passes. */
#define PASSES 3

/* Tolerance of an accept interval (R5: "within 5 %"): a throughput is a
 * difference of two finite runs (GPUDIAG's 5 %, docs/gpudiag.md). */
#define ACCEPT_TOL 0.05

/* ---- what is measured --------------------------------------------------- */

/* One instruction of a class. `info`: a second opcode of the class, run in
 * full mode only, for information (not written to --out). `ptx_op`/`type`:
 * the opcode for unit.opcode_latency = g321's per-opcode table (0: memory). */
typedef struct calib_op {
    const char *name;                 /* kernel infix: teg_NAME_iI_lL */
    enum teg_class cls;
    const char *ptx;
    int info;
    unsigned ptx_op, type;
} calib_op;

static const calib_op ops[] = {
    { "int",      TEG_INT,     "add.u32",        0, OP_ADD, GPU_OPT_INT },   /* Integer ADD */
    { "int_mul",  TEG_INT_MUL, "mul.lo.u32",     0, OP_MUL, GPU_OPT_INT },
    { "fp32",     TEG_FP32,    "add.f32",        0, OP_ADD, GPU_OPT_FP32 },  /* Float ADD */
    { "fmul",     TEG_FMUL,    "mul.f32",        0, OP_MUL, GPU_OPT_FP32 },  /* Float MUL */
    { "fp64",     TEG_FP64,    "add.f64",        0, OP_ADD, GPU_OPT_FP64 },  /* Double ADD */
    { "sfu",      TEG_SFU,     "sin.approx.f32", 0, OP_SIN, GPU_OPT_FP32 },
    { "conv",     TEG_CONV,    "cvt.s32.s16",    0, OP_CVT, GPU_OPT_INT },
    { "smem",     TEG_SMEM,    "ld.shared.u32",  0, 0, 0 },
    { "gload",    TEG_GLOAD,   "ld.global.u64",  0, 0, 0 },
    { "int_mad",  TEG_INT_MUL, "mad.lo.u32",     1, OP_MAD, GPU_OPT_INT },   /* Integer MAD */
    { "fp32_fma", TEG_FP32,    "fma.rn.f32",     1, OP_FMA, GPU_OPT_FP32 },  /* Float MAD */
};
#define NOPS (sizeof ops / sizeof ops[0])

typedef struct op_result {
    int      done;
    double   exec;            /* one warp, dependent chain: cycles per instruction */
    double   period;          /* one warp, 32 chains: cycles per instruction */
    uint32_t chains;          /* 32, or 16 (64-bit values beyond thread.max_regs) */
    double   thr;             /* many warps: warp-instructions per cycle per SM */
    uint32_t warps;           /* warps of the throughput block */
    uint32_t instances;       /* unit instances of the class (from-config) */
    double   accept;          /* instances / thr */
    int      issue_bound;     /* thr at the engines' issue limit: accept <= instances / thr */
} op_result;

#define MAX_DEG 16
#define NFT 3
static const struct { unsigned width, ratio; } ft_mix[NFT] = { { 32, 3 }, { 64, 6 }, { 128, 12 } };

typedef struct calib_result {
    op_result op[NOPS];
    uint32_t  ndeg, deg[MAX_DEG], deg_m[MAX_DEG];
    double    deg_lat[MAX_DEG];   /* cycles per chased shared load at each degree */
    double    smem_lat, smem_pass, smem_resid;   /* degree 1; least-squares slope; worst residual */
    double    l1_lat, l2_lat, dram_lat;          /* < 0: not measured */
    double    stream_sm;          /* bytes per cycle: one SM streaming */
    double    stream_ch;          /* every SM into one channel */
    double    stream_all;         /* every SM over every channel */
    double    stream_ch_cap;      /* a channel's bytes per cycle for TEG: the larger of
                                     stream_ch and stream_all / channels */
    uint32_t  stream_warps_sm, stream_warps_all;
    double    ft[NFT];            /* thread-instructions per cycle per SM; < 0: not measured */
    uint32_t  ft_warps;
    uint32_t  launches;
} calib_result;

/* ---- the device ------------------------------------------------------------ */

typedef struct calib {
    smc_device *dev;
    smc_module *mod;
    gpu_config  cfg;              /* the cycle model's configuration */
    teg_params  fc;               /* teg_params_from_config of it */
    uint64_t    out;              /* device: OUT_WORDS words */
    uint64_t   *host;             /* host copy of out */
    calib_result *r;
    int quick;
} calib;

/* Launch `name` <<<grid, block>>> with (out, data, arg, passes). 0 ok, 1
 * the launch was refused (resources), -1 failure (message printed). The
 * first `nwords` words of out come back into c->host; *cycles (if not
 * NULL) is the launch's cycle count. */
static int run_kernel(calib *c, const char *name, uint32_t grid, uint32_t block, uint64_t data,
                      uint32_t arg, uint32_t passes, size_t nwords, uint64_t *cycles)
{
    smc_kernel *k;
    if (smc_module_get_kernel(c->mod, name, &k) != SMC_OK) {
        fprintf(stderr, "smcosim teg calibrate: kernel %s not in the PTX (bench/microbench/regen.sh teg)\n", name);
        return -1;
    }
    if (nwords > OUT_WORDS) {
        fprintf(stderr, "smcosim teg calibrate: %s <<<%u, %u>>>: %zu result words, the buffer holds %u\n",
                name, grid, block, nwords, OUT_WORDS);
        return -1;
    }
    if (smc_memset(c->dev, c->out, 0, nwords * sizeof(uint64_t)) != SMC_OK) return -1;
    unsigned char params[64];
    memset(params, 0, sizeof params);
    const void *vals[4] = { &c->out, &data, &arg, &passes };
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t off, sz;
        if (smc_kernel_param(k, i, &off, &sz) != SMC_OK || off + sz > sizeof params) {
            fprintf(stderr, "smcosim teg calibrate: %s: unexpected parameters\n", name);
            return -1;
        }
        memcpy(params + off, vals[i], sz);
    }
    smc_kernel_info info;
    smc_kernel_get_info(k, &info);
    c->r->launches++;
    smc_status s = smc_launch(c->dev, k, (smc_dim3){ grid, 1, 1 }, (smc_dim3){ block, 1, 1 }, 0, 0,
                              params, info.param_bytes, NULL);
    if (s == SMC_ERR_INVALID_CONFIGURATION || s == SMC_ERR_LAUNCH_OUT_OF_RESOURCES) return 1;
    if (s != SMC_OK) {
        fprintf(stderr, "smcosim teg calibrate: %s <<<%u, %u>>>: %s\n", name, grid, block,
                smc_last_message(c->dev));
        return -1;
    }
    if (smc_memcpy_dtoh(c->dev, c->host, c->out, nwords * sizeof(uint64_t)) != SMC_OK) return -1;
    if (cycles) {
        smc_launch_stats st;
        uint32_t n = smc_launch_count(c->dev);
        *cycles = n && smc_launch_get_stats(c->dev, n - 1, &st) == SMC_OK ? st.cycles : 0;
    }
    return 0;
}

/* The time of one block's timed pass: its last warp's end minus its first
 * warp's start, each warp reading its own clock (GPUDIAG's rule: under a
 * greedy policy the first warp to run need not be warp 0). */
static uint64_t block_span(const calib *c, uint32_t warps)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (uint32_t w = 0; w < warps; w++) {
        if (c->host[2 * w] < first) first = c->host[2 * w];
        if (c->host[2 * w + 1] > last) last = c->host[2 * w + 1];
    }
    return last > first ? last - first : 0;
}

/* T(len2) - T(len1) of kernel teg_OP_iILP_lLEN, one block of `warps`
 * warps. 0, 1 (refused), -1. */
static int timed_diff(calib *c, const char *op, uint32_t ilp, uint32_t len1, uint32_t len2,
                      uint32_t warps, uint64_t data1, uint64_t data2, uint32_t arg, uint32_t passes,
                      double *diff)
{
    uint64_t t[2];
    for (int i = 0; i < 2; i++) {
        char k[64];
        snprintf(k, sizeof k, "teg_%s_i%u_l%u", op, ilp, i ? len2 : len1);
        int rc = run_kernel(c, k, 1, warps * 32, i ? data2 : data1, arg, passes, 2 * (size_t)warps, NULL);
        if (rc) return rc;
        t[i] = block_span(c, warps);
    }
    *diff = (double)t[1] - (double)t[0];
    return 0;
}

/* ---- device memory for the chases ------------------------------------------- */

/* `bytes` of device memory at an address aligned to ALLOC_ALIGN, so that
 * the address bits below it (cache sets, channels, DRAM banks and rows)
 * are the same whatever was allocated before (gpu.malloc = gpgpusim never
 * reuses memory; bench/sidebyside/chase.cu does the same); zeroed. The
 * device frees it with itself. */
#define ALLOC_ALIGN (1u << 20)
static int dev_alloc(calib *c, size_t bytes, uint64_t *d, char **h)
{
    uint64_t raw;
    if (smc_malloc(c->dev, bytes + ALLOC_ALIGN, SMC_MEM_DEVICE, &raw) != SMC_OK) {
        fprintf(stderr, "smcosim teg calibrate: out of device memory (%zu bytes)\n", bytes);
        return -1;
    }
    *d = (raw + ALLOC_ALIGN - 1) & ~(uint64_t)(ALLOC_ALIGN - 1);
    *h = smc_host_ptr(c->dev, *d, bytes);
    if (!*h) return -1;
    memset(*h, 0, bytes);
    return 0;
}

/* Link k of a chain at d + k*stride points to link next(k). */
static void put_link(char *h, uint64_t d, size_t k, size_t next, size_t stride)
{
    uint64_t v = d + (uint64_t)next * stride;
    memcpy(h + k * stride, &v, sizeof v);
}

/* ---- the ALU and memory families ---------------------------------------------- */

/* Warps of a throughput block of kernel `name`: as many as one block can
 * have and one SM holds (block.max_threads, sm.max_warps, and the
 * registers and shared memory of the kernel, by smc_kernel_occupancy: the
 * computation the timing model dispatches with). A launch refused anyway
 * halves it (the callers). */
static uint32_t many_warps(const calib *c, const char *name)
{
    uint32_t w = c->cfg.max_threads_per_block / 32;
    if (w > c->cfg.max_warps_per_sm) w = c->cfg.max_warps_per_sm;
    if (w > OUT_WORDS / 2) w = OUT_WORDS / 2;
    smc_kernel *k;
    if (smc_module_get_kernel(c->mod, name, &k) == SMC_OK)
        while (w > 1 && smc_kernel_occupancy(c->dev, k, w * 32, 0) == 0) w--;
    return w ? w : 1;
}

/* Unit instances of a class as teg_params_from_config counts them. */
static uint32_t class_instances(const teg_params *p, enum teg_class cls)
{
    const teg_unit_params *u = &p->unit[p->cls[cls].unit];
    return u->private_units * p->engines + u->shared_units;
}

/* The gload chases' data: 32 self-linked lines (every chain of the ILP 4
 * and ILP 32 kernels stays on one line: L1 hits after the first pass). */
typedef struct chase_mem { uint64_t l1; char *l1h; } chase_mem;

static int measure_op(calib *c, const calib_op *o, op_result *res, const chase_mem *cm)
{
    double d;
    int rc;
    uint64_t data = cm->l1;
    uint32_t passes = PASSES;
    /* exec: one warp, one dependent chain (smem and gload: smem.latency
     * and gmem.latency, measured by measure_smem and measure_gmem) */
    if (o->cls == TEG_SMEM) res->exec = c->r->smem_lat;
    else if (o->cls == TEG_GLOAD) res->exec = c->r->dram_lat;
    else {
        if ((rc = timed_diff(c, o->name, 1, CHAIN_L1, CHAIN_L2, 1, data, data, 0, passes, &d))) return rc;
        res->exec = d / (CHAIN_L2 - CHAIN_L1);
    }
    /* warp_busy: one warp, 32 independent chains (16 where 32 64-bit
     * chains do not fit thread.max_regs: the same 32 and 96 instructions) */
    res->chains = 32;
    rc = timed_diff(c, o->name, 32, ILP32_L1, ILP32_L2, 1, data, data, 0, passes, &d);
    if (rc == 1) {
        res->chains = 16;
        rc = timed_diff(c, o->name, 16, 2 * ILP32_L1, 2 * ILP32_L2, 1, data, data, 0, passes, &d);
    }
    if (rc) return rc;
    res->period = d / (32.0 * (ILP32_L2 - ILP32_L1));
    /* accept: many warps, 4 chains each */
    char kn[64];
    snprintf(kn, sizeof kn, "teg_%s_i4_l%u", o->name, ILP4_L2);
    uint32_t w = many_warps(c, kn);
    for (;;) {
        rc = timed_diff(c, o->name, 4, ILP4_L1, ILP4_L2, w, data, data, 0, passes, &d);
        if (rc != 1) break;
        if (w == 1) {
            fprintf(stderr, "smcosim teg calibrate: teg_%s_i4: a block of one warp does not launch\n", o->name);
            return -1;
        }
        w /= 2;
    }
    if (rc) return rc;
    res->warps = w;
    res->thr = d > 0 ? 4.0 * w * (ILP4_L2 - ILP4_L1) / d : 0;
    res->instances = class_instances(&c->fc, o->cls);
    res->accept = res->thr > 0 ? res->instances / res->thr : 0;
    double issue = (double)c->fc.engines / c->fc.issue_interval;
    res->issue_bound = res->thr >= (1 - ACCEPT_TOL) * issue;
    res->done = 1;
    return 0;
}

/* The bank-conflict degree of the shared chase with m lanes per group
 * (gen_teg_kernels.py: lane l reads word (l % m) + 32 (l / m)) on the
 * configured banks: the most distinct words in one bank. */
static uint32_t smem_degree(const gpu_config *cfg, uint32_t m)
{
    uint32_t banks = cfg->mem.smem_banks, bb = cfg->mem.smem_bank_bytes, best = 0;
    for (uint32_t b = 0; b < banks; b++) {
        uint32_t words[32], n = 0;
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t byte = 4 * ((l % m) + 32 * (l / m)), word = byte / bb;
            if (word % banks != b) continue;
            int seen = 0;
            for (uint32_t i = 0; i < n; i++) seen |= words[i] == word;
            if (!seen) words[n++] = word;
        }
        if (n > best) best = n;
    }
    return best;
}

static int measure_smem(calib *c, uint64_t data)
{
    calib_result *r = c->r;
    static const uint32_t full[] = { 32, 16, 11, 8, 7, 6, 4, 3, 2, 1 }, quick[] = { 32, 16, 4, 1 };
    const uint32_t *ms = c->quick ? quick : full;
    uint32_t n = c->quick ? sizeof quick / sizeof quick[0] : sizeof full / sizeof full[0];
    r->ndeg = 0;
    for (uint32_t i = 0; i < n && r->ndeg < MAX_DEG; i++) {
        double d;
        if (timed_diff(c, "smem", 1, CHAIN_L1, CHAIN_L2, 1, data, data, ms[i], PASSES, &d)) return -1;
        r->deg_m[r->ndeg] = ms[i];
        r->deg[r->ndeg] = smem_degree(&c->cfg, ms[i]);
        r->deg_lat[r->ndeg] = d / (CHAIN_L2 - CHAIN_L1);
        r->ndeg++;
    }
    /* smem.latency: degree 1 (m = 32, the first point); pass_cycles: the
     * least-squares slope of the latency against the passes beyond one
     * (G9: latency = smem.latency + (p - p_min) pass_cycles; one group of
     * 32 lanes in the from-config set, smem.group 32) */
    r->smem_lat = r->deg_lat[0];
    double sxy = 0, sxx = 0;
    for (uint32_t i = 0; i < r->ndeg; i++) {
        double x = r->deg[i] - 1.0;
        sxy += x * (r->deg_lat[i] - r->smem_lat);
        sxx += x * x;
    }
    r->smem_pass = sxx > 0 ? sxy / sxx : 0;
    r->smem_resid = 0;
    for (uint32_t i = 0; i < r->ndeg; i++) {
        double e = fabs(r->deg_lat[i] - (r->smem_lat + (r->deg[i] - 1.0) * r->smem_pass));
        if (e > r->smem_resid) r->smem_resid = e;
    }
    return 0;
}

/* One-warp chases of the global loads: each load's address is the
 * previous load's value, every lane the same (one transaction). */
static int measure_gmem(calib *c, const chase_mem *cm)
{
    calib_result *r = c->r;
    double d;
    /* L1: the self-linked lines, the second pass hits */
    if (timed_diff(c, "gload", 1, CHAIN_L1, CHAIN_L2, 1, cm->l1, cm->l1, 0, PASSES, &d)) return -1;
    r->l1_lat = d / (CHAIN_L2 - CHAIN_L1);
    /* DRAM: a chain of links DRAM_STRIDE apart, never visited before: the
     * untimed passes follow 2 L links, the timed pass the next L; each
     * launch its own links (the caches may persist from launch to launch,
     * mem.keep_caches) */
    size_t links = PASSES * (CHAIN_L1 + CHAIN_L2) + 2;
    uint64_t dd;
    char *dh;
    if (dev_alloc(c, links * DRAM_STRIDE, &dd, &dh)) return -1;
    for (size_t k = 0; k + 1 < links; k++) put_link(dh, dd, k, k + 1, DRAM_STRIDE);
    uint64_t start1 = dd, start2 = dd + (uint64_t)(PASSES * CHAIN_L1 + 1) * DRAM_STRIDE;
    if (timed_diff(c, "gload", 1, CHAIN_L1, CHAIN_L2, 1, start1, start2, 0, PASSES, &d)) return -1;
    r->dram_lat = d / (CHAIN_L2 - CHAIN_L1);
    return 0;
}

/* L2 hits (full runs, information): a cycle of L2_LINKS lines LINE apart,
 * followed until the timed pass revisits lines last read L2_LINKS loads
 * before (gone from the L1D, still in the L2). */
static int measure_l2(calib *c)
{
    uint64_t d2;
    char *h2;
    if (dev_alloc(c, (size_t)L2_LINKS * LINE, &d2, &h2)) return -1;
    for (size_t k = 0; k < L2_LINKS; k++) put_link(h2, d2, k, (k + 1) % L2_LINKS, LINE);
    uint64_t t[2];
    for (int i = 0; i < 2; i++) {
        uint32_t len = i ? CHAIN_L2 : CHAIN_L1;
        char k[64];
        snprintf(k, sizeof k, "teg_gload_i1_l%u", len);
        if (run_kernel(c, k, 1, 32, d2, 0, (L2_LINKS + len - 1) / len + 1, 2, NULL)) return -1;
        t[i] = block_span(c, 1);
    }
    c->r->l2_lat = ((double)t[1] - (double)t[0]) / (CHAIN_L2 - CHAIN_L1);
    return 0;
}

/* Bytes per cycle of a stream of fresh lines: `grid` blocks of `block`
 * threads; `chunk` lines together (a power of two), a chunk's start `skip`
 * lines after the previous one's (gen_teg_kernels.py; 1, 1: consecutive
 * lines). From the launch cycles of two pass counts, differenced; each
 * launch its own lines (nothing hits a line the other loaded). 0, 1 (the
 * launch was refused), -1. */
static int stream_bpc(calib *c, uint32_t grid, uint32_t block, uint32_t chunk, uint32_t skip, double *bpc)
{
    char k[64];
    snprintf(k, sizeof k, "teg_stream_i%u", STREAM_ILP);
    uint32_t warps = grid * ((block + 31) / 32);
    size_t lines = (size_t)warps * STREAM_ILP, span = (lines + chunk - 1) / chunk * skip * LINE;
    uint64_t d;
    char *h;
    uint32_t lc = 0;
    while ((1u << lc) < chunk) lc++;
    if ((1u << lc) != chunk || skip > 0xffffff || skip < chunk) {
        fprintf(stderr, "smcosim teg calibrate: stream: %u lines per chunk every %u lines: out of range\n", chunk, skip);
        return -1;
    }
    if (dev_alloc(c, span * (STREAM_P1 + STREAM_P2), &d, &h)) return -1;
    uint32_t arg = skip << 8 | lc;
    uint64_t cyc[2];
    int rc = run_kernel(c, k, grid, block, d, arg, STREAM_P1, 2 * (size_t)warps, &cyc[0]);
    if (!rc) rc = run_kernel(c, k, grid, block, d + span * STREAM_P1, arg, STREAM_P2, 2 * (size_t)warps, &cyc[1]);
    if (rc) {
        if (rc < 0) fprintf(stderr, "smcosim teg calibrate: %s <<<%u, %u>>> failed\n", k, grid, block);
        return rc;
    }
    double bytes = (double)lines * LINE * (STREAM_P2 - STREAM_P1);
    *bpc = cyc[1] > cyc[0] ? bytes / (double)(cyc[1] - cyc[0]) : 0;
    return 0;
}

/* The streams of Little's law (Eq. 3.1, G10): one SM (TEG's cap per SM,
 * gmem.sms_per_group = 1 in the from-config set), every SM into one
 * channel (chunks of gmem.channel_bytes, gmem.channels x gmem.channel_bytes
 * apart: TEG's channel rule puts them all in one; its cap per channel),
 * and every SM over every channel (the whole GPU, for information and as a
 * check of the two caps together). */
static int measure_stream(calib *c)
{
    calib_result *r = c->r;
    char k[64];
    snprintf(k, sizeof k, "teg_stream_i%u", STREAM_ILP);
    uint32_t sms = c->cfg.mem.num_sms, w = many_warps(c, k);
    uint32_t chunk = c->fc.gmem_channel_bytes / LINE ? c->fc.gmem_channel_bytes / LINE : 1;
    int rc;
    while ((rc = stream_bpc(c, 1, w * 32, 1, 1, &r->stream_sm)) == 1 && w > 1) w /= 2;
    if (rc) return -1;
    if (stream_bpc(c, sms, STREAM_BLOCK, chunk, chunk * c->fc.gmem_channels, &r->stream_ch)) return -1;
    smc_kernel *kk;
    if (smc_module_get_kernel(c->mod, k, &kk) != SMC_OK) return -1;
    uint32_t per_sm = smc_kernel_occupancy(c->dev, kk, STREAM_BLOCK, 0);
    if (!per_sm) per_sm = 1;
    if (stream_bpc(c, per_sm * sms, STREAM_BLOCK, 1, 1, &r->stream_all)) return -1;
    r->stream_warps_sm = w;
    r->stream_warps_all = per_sm * sms * (STREAM_BLOCK / 32);
    /* A channel delivers at least what either stream shows: one channel
     * alone (the skew of 003 L1109), or its share when every channel works
     * (on fermi-gtx480 more: the one-channel stream also queues in one L2
     * slice). TEG has one cap per channel; the larger keeps the uniform
     * stream, the common case, as measured. */
    r->stream_ch_cap = r->stream_ch;
    if (r->stream_all / c->fc.gmem_channels > r->stream_ch_cap) r->stream_ch_cap = r->stream_all / c->fc.gmem_channels;
    return 0;
}

/* T(FT_L2) - T(FT_L1) of one FFMA : LDS mix with a block of `warps`. */
static int ft_diff(calib *c, int i, uint32_t warps, double *diff)
{
    uint64_t t[2];
    for (int j = 0; j < 2; j++) {
        char k[64];
        snprintf(k, sizeof k, "teg_ffma_lds%u_r%u_l%u", ft_mix[i].width, ft_mix[i].ratio, j ? FT_L2 : FT_L1);
        int rc = run_kernel(c, k, 1, warps * 32, 0, 1, PASSES, 2 * (size_t)warps, NULL);
        if (rc) return rc;
        t[j] = block_span(c, warps);
    }
    *diff = (double)t[1] - (double)t[0];
    return 0;
}

/* F_T of the FFMA : LDS.X mixes (003 L1469): thread-instructions per
 * cycle per SM, many warps (refused launches halve the block). */
static int measure_ft(calib *c)
{
    calib_result *r = c->r;
    for (int i = 0; i < NFT; i++) {
        char k[64];
        snprintf(k, sizeof k, "teg_ffma_lds%u_r%u_l%u", ft_mix[i].width, ft_mix[i].ratio, FT_L2);
        uint32_t w = many_warps(c, k);
        double d;
        int rc;
        while ((rc = ft_diff(c, i, w, &d)) == 1 && w > 1) w /= 2;
        if (rc) return -1;
        double insts = 32.0 * w * (FT_L2 - FT_L1) * (ft_mix[i].ratio + 1);
        r->ft[i] = d > 0 ? insts / d : 0;
        r->ft_warps = w;
    }
    return 0;
}

/* ---- the verdicts ---------------------------------------------------------------- */

static int near(double a, double b, double tol) { return b > 0 ? fabs(a - b) <= tol * b : fabs(a - b) < 1e-9; }
static int exact(double a, double b) { return fabs(a - b) < 1e-6; }

/* The value a TEG parameter file gets (its keys are integers): the nearest
 * integer when the measurement is within 5 % of it, else the largest
 * integer below it — the largest interval that keeps the unit (or warp)
 * at least as fast as measured, which reproduces a throughput bounded by
 * something else (the issue limit, the scoreboard) rather than by it. */
static uint32_t file_value(double x)
{
    double r = floor(x + 0.5);
    uint32_t v = (uint32_t)(near(x, r, ACCEPT_TOL) ? r : floor(x));
    return v ? v : 1;
}

/* What unit.opcode_latency = g321 gives an opcode: unit kind, latency,
 * interval (gpu_g321_op, the cycle model's per-opcode table). 0 when the
 * configuration has no per-opcode table or the op is a memory access. */
static int g321_of(const gpu_config *cfg, const calib_op *o, unsigned *kind, unsigned *lat, unsigned *ii)
{
    if (cfg->opcode_latency != GPU_OPLAT_G321 || o->cls == TEG_SMEM || o->cls == TEG_GLOAD) return 0;
    gpu_g321_op(cfg, o->ptx_op, o->type, kind, lat, ii);
    return 1;
}

/* A short verdict of exec, accept and warp_busy against the from-config
 * set, with the cause of a difference where the configuration names one. */
static void verdict(const calib *c, const calib_op *o, const op_result *x, char *buf, size_t len)
{
    const teg_class_params *k = &c->fc.cls[o->cls];
    const gpu_config *cfg = &c->cfg;
    size_t n = 0;
    unsigned gk = 0, glat = 0, gii = 0;
    int g = g321_of(cfg, o, &gk, &glat, &gii);
#define ADD(...) do { int m_ = snprintf(buf + n, len - n, __VA_ARGS__); if (m_ > 0) n += (size_t)m_ < len - n ? (size_t)m_ : len - n - 1; } while (0)
    if (o->cls == TEG_SMEM || o->cls == TEG_GLOAD) {
        ADD("exec: see the memory table");
    } else if (exact(x->exec, k->exec)) {
        ADD("exec exact");
    } else if (g && exact(x->exec, glat)) {
        ADD("exec = g321's %s latency %u (unit.opcode_latency = g321: per opcode, not unit.%s.latency %u)",
            o->ptx, glat, gpu_unit_name(k->unit), k->exec);
    } else {
        ADD("exec **DIFFERS**");
    }
    /* accept */
    if (x->issue_bound && k->accept <= x->accept * (1 + ACCEPT_TOL)) {
        ADD("; accept ok: issue-bound (%.2f warp-instructions per cycle = sched.num), so any accept <= %.2f fits",
            x->thr, x->accept);
    } else if (near(x->accept, k->accept, ACCEPT_TOL)) {
        ADD("; accept ok (%+.1f %%)", 100 * (x->accept - k->accept) / k->accept);
    } else if (g) {
        const gpu_unit_config *u = &cfg->unit[gk];
        double inst = (double)u->private_units * cfg->num_schedulers + u->shared_units;
        double t = inst / gii;
        if (t > cfg->num_schedulers) t = cfg->num_schedulers;
        if (t > cfg->wb_ports) t = cfg->wb_ports;
        if (near(x->thr, t, ACCEPT_TOL))
            ADD("; accept differs: g321 runs %s on the %s units (%.0f, interval %u: %.3f per cycle), "
                "from-config on %u %s unit(s) of interval %u", o->ptx, gpu_unit_name(gk), inst, gii, t,
                x->instances, gpu_unit_name(k->unit), k->accept);
        else
            ADD("; accept **DIFFERS**");
    } else {
        ADD("; accept **DIFFERS**");
    }
    /* warp_busy: the same-warp interval, or what bounds one warp */
    double one_warp_units = (double)c->fc.unit[k->unit].private_units + c->fc.unit[k->unit].shared_units;
    double unit_bound = one_warp_units > 0 ? x->accept / one_warp_units : 0;
    double ex = (o->cls == TEG_SMEM) ? c->r->smem_lat : (o->cls == TEG_GLOAD ? c->r->l1_lat : x->exec);
    if (near(x->period, k->warp_busy, ACCEPT_TOL)) {
        ADD("; warp_busy ok");
    } else if (cfg->sb_entries && near(x->period, ex / cfg->sb_entries, ACCEPT_TOL)) {
        ADD("; warp_busy: one warp holds sched.sb_entries = %u pending writes: %.2f / %u = %.2f",
            cfg->sb_entries, ex, cfg->sb_entries, ex / cfg->sb_entries);
    } else if (unit_bound > 0 && near(x->period, unit_bound, ACCEPT_TOL)) {
        ADD("; warp_busy: one warp is unit-bound (accept %.2f / %.0f units its engine reaches)",
            x->accept, one_warp_units);
    } else {
        ADD("; warp_busy **DIFFERS**");
    }
#undef ADD
}

/* ---- the report ---------------------------------------------------------------- */

static void print_report(const calib *c, const char *cfgname, FILE *f)
{
    const calib_result *r = c->r;
    const teg_params *p = &c->fc;
    fprintf(f, "# TEG calibration on smcosim (%s)\n\n", cfgname);
    fprintf(f, "R5 (../shared/design/teg.md §5.7): configured = `teg params --params from-config` of the same\n"
               "configuration; calibrated = the microbenchmarks on the cycle model (docs/teg.md, \"Calibration\").\n"
               "exec: one warp, dependent chain, (T(96) - T(32)) / 64; warp_busy: one warp, 32 chains;\n"
               "accept: %u warps x 4 chains, per unit instance (units.K.private x engines + units.K.shared).\n"
               "In (): the value --out writes.\n\n", r->op[0].warps);
    fprintf(f, "| class | instruction | exec configured | exec calibrated | accept configured | accept calibrated "
               "| warp_busy configured | warp_busy calibrated | verdict |\n");
    fprintf(f, "|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (size_t i = 0; i < NOPS; i++) {
        const op_result *x = &r->op[i];
        if (!x->done) continue;
        const calib_op *o = &ops[i];
        const teg_class_params *k = &p->cls[o->cls];
        char v[768], ex[48], ec[48];
        verdict(c, o, x, v, sizeof v);
        if (o->cls == TEG_SMEM) {
            snprintf(ec, sizeof ec, "%u (smem.latency)", p->smem_latency);
            snprintf(ex, sizeof ex, "%.2f", r->smem_lat);
        } else if (o->cls == TEG_GLOAD) {
            snprintf(ec, sizeof ec, "%u (gmem.latency)", p->gmem_latency);
            snprintf(ex, sizeof ex, "%.2f", r->dram_lat);
        } else {
            snprintf(ec, sizeof ec, "%u", k->exec);
            snprintf(ex, sizeof ex, "%.2f", x->exec);
        }
        fprintf(f, "| %s%s | %s | %s | %s | %u | %.2f (%u) | %u | %.2f (%u)%s | %s |\n",
                teg_class_names[o->cls], o->info ? " (info)" : "", o->ptx, ec, ex, k->accept, x->accept,
                file_value(x->accept), k->warp_busy, x->period, file_value(x->period),
                x->chains == 32 ? "" : ", 16 chains", v);
    }
    fprintf(f, "\nThroughput of the accept runs (warp-instructions per cycle per SM): ");
    for (size_t i = 0; i < NOPS; i++)
        if (r->op[i].done) fprintf(f, "%s%s %.3f", i ? ", " : "", ops[i].name, r->op[i].thr);
    fprintf(f, "; engines issue at most %u.\n", p->engines / p->issue_interval);

    fprintf(f, "\n## Memory\n\n| quantity | configured | calibrated | method | note |\n|---|---:|---:|---|---|\n");
    fprintf(f, "| smem.latency | %u | %.2f | shared chase, degree 1 | %s |\n", p->smem_latency, r->smem_lat,
            exact(r->smem_lat, p->smem_latency) ? "exact"
            : c->cfg.ldst_id_oc && exact(r->smem_lat, p->smem_latency + 3.0)
            ? "+ 3: the buffered LD/ST path (ldst.id_oc > 0: ID_OC, a collector unit, OC_EX; docs/timing-model.md) that from-config leaves out"
            : "**DIFFERS**");
    fprintf(f, "| smem.pass_cycles | %.2f | %.2f | least squares over degrees", p->smem_pass_cycles, r->smem_pass);
    for (uint32_t i = 0; i < r->ndeg; i++) fprintf(f, "%s%u", i ? ", " : " ", r->deg[i]);
    fprintf(f, " (worst residual %.2f) | %s |\n", r->smem_resid,
            near(r->smem_pass, p->smem_pass_cycles, ACCEPT_TOL) ? "ok" : "**DIFFERS**");
    fprintf(f, "| gmem.latency | %u | %.2f | global chase over fresh lines %u B apart (DRAM) | %s |\n",
            p->gmem_latency, r->dram_lat, DRAM_STRIDE,
            exact(r->dram_lat, p->gmem_latency) ? "exact"
            : "from-config's is an ASSUMED round trip (l1d + l2 + dram.latency + dram.tCL, one clock); calibrated replaces it");
    fprintf(f, "| L1 hit latency | - | %.2f | global chase on one line | information (TEG has no caches, 003 L1270-1272) |\n",
            r->l1_lat);
    if (r->l2_lat >= 0)
        fprintf(f, "| L2 hit latency | - | %.2f | global chase over %u lines | information |\n", r->l2_lat, L2_LINKS);
    if (r->stream_sm > 0) {
        uint32_t sms = c->cfg.mem.num_sms, ch = p->gmem_channels;
        fprintf(f, "| stream, one SM | - | %.2f B/cycle | %u warps, %u fresh lines each per pass | |\n",
                r->stream_sm, r->stream_warps_sm, STREAM_ILP);
        fprintf(f, "| gmem.inflight_bytes | %u | %.0f | one SM's bytes per cycle x gmem.latency (Little, Eq. 3.1) | "
                   "from-config: dram.bytes_per_cycle x l2.partitions x its assumed latency / SMs |\n",
                p->gmem_inflight_bytes, r->stream_sm * r->dram_lat);
        fprintf(f, "| stream, every SM into one channel | - | %.2f B/cycle | %u-byte chunks %u B apart (gmem.channel_bytes, x gmem.channels) | %s |\n",
                r->stream_ch, p->gmem_channel_bytes, p->gmem_channels * p->gmem_channel_bytes,
                r->stream_ch >= (1 - ACCEPT_TOL) * sms * r->stream_sm
                ? "the SMs' caps bound it: the channel's cap is at least this" : "the channel bounds it");
        fprintf(f, "| stream, every SM over every channel | - | %.2f B/cycle | %u warps | %.2f per channel |\n",
                r->stream_all, r->stream_warps_all, r->stream_all / ch);
        fprintf(f, "| gmem.channel_inflight_bytes | %u | %.0f | the larger of one channel's bytes per cycle and "
                   "its share of the whole GPU's, x gmem.latency | from-config: dram.bytes_per_cycle x its assumed latency |\n",
                p->gmem_channel_inflight_bytes, r->stream_ch_cap * r->dram_lat);
        double teg_all = sms * r->stream_sm < ch * r->stream_ch_cap ? sms * r->stream_sm : ch * r->stream_ch_cap;
        fprintf(f, "| TEG's two caps on that stream | - | %.2f B/cycle | min(%u x %.2f, %u x %.2f) | "
                   "%+.1f %% against the stream |\n",
                teg_all, sms, r->stream_sm, ch, r->stream_ch_cap,
                r->stream_all > 0 ? 100 * (teg_all - r->stream_all) / r->stream_all : 0.0);
    }
    fprintf(f, "\nShared chase, cycles per load by bank degree (lanes per group m):\n\n| degree | m | cycles |\n|---:|---:|---:|\n");
    for (uint32_t i = 0; i < r->ndeg; i++) fprintf(f, "| %u | %u | %.2f |\n", r->deg[i], r->deg_m[i], r->deg_lat[i]);
    if (r->ft[0] >= 0) {
        /* the thesis's F_T is per shader clock of an SM that issues 32
         * thread-instructions per clock (GTX 580; 30.8 / 32 in Eq. 4.10,
         * 003 L1534); the preset issues sched.num warp-instructions per cycle */
        static const double thesis[NFT] = { 31.3, 30.4, 24.5 };   /* 003 L1469 */
        double peak = 32.0 * p->engines / p->issue_interval;
        fprintf(f, "\n## F_T of the FFMA : LDS.X mixes (003 L1469; G26)\n\n%u warps, each LDS feeding the next "
                   "FFMAs; thread-instructions per cycle per SM, and as a share of the issue limit (%.0f here, "
                   "32 on the thesis's GTX 580)\n\n| mix | FFMA share | F_T | of the issue limit | thesis GTX 580 |\n"
                   "|---|---:|---:|---:|---:|\n", r->ft_warps, peak);
        for (int i = 0; i < NFT; i++)
            fprintf(f, "| %u FFMA : LDS.%u | %.1f %% | %.2f | %.1f %% | %.1f = %.1f %% |\n", ft_mix[i].ratio,
                    ft_mix[i].width, 100.0 * ft_mix[i].ratio / (ft_mix[i].ratio + 1), r->ft[i],
                    100 * r->ft[i] / peak, thesis[i], 100 * thesis[i] / 32);
    }
    fprintf(f, "\n%u launches.\n", r->launches);
}

/* The from-config set with the calibrated values in. */
static void calibrated_params(const calib *c, teg_params *p)
{
    const calib_result *r = c->r;
    *p = c->fc;
    snprintf(p->name, sizeof p->name, "calibrated %.50s", c->cfg.preset[0] ? c->cfg.preset : "(file)");
    for (size_t i = 0; i < NOPS; i++) {
        const op_result *x = &r->op[i];
        if (!x->done || ops[i].info) continue;
        teg_class_params *k = &p->cls[ops[i].cls];
        if (ops[i].cls != TEG_SMEM && ops[i].cls != TEG_GLOAD) k->exec = (uint32_t)floor(x->exec + 0.5);
        k->accept = file_value(x->accept);
        k->warp_busy = file_value(x->period);
    }
    p->smem_latency = (uint32_t)floor(r->smem_lat + 0.5);
    p->smem_pass_cycles = floor(r->smem_pass * 100 + 0.5) / 100;
    p->gmem_latency = (uint32_t)floor(r->dram_lat + 0.5);
    if (r->stream_sm > 0) {
        p->gmem_inflight_bytes = (uint32_t)floor(r->stream_sm * r->dram_lat + 0.5);
        p->gmem_channel_inflight_bytes = (uint32_t)floor(r->stream_ch_cap * r->dram_lat + 0.5);
        if (!p->gmem_inflight_bytes) p->gmem_inflight_bytes = 1;
        if (!p->gmem_channel_inflight_bytes) p->gmem_channel_inflight_bytes = 1;
    }
}

static void print_json(const calib *c, const char *cfgname, FILE *f)
{
    const calib_result *r = c->r;
    teg_params cal;
    calibrated_params(c, &cal);
    fprintf(f, "{\n  \"config\": \"");
    for (const char *q = cfgname; *q; q++) {   /* a JSON string: --set values may hold quotes */
        if (*q == '"' || *q == '\\') fputc('\\', f);
        if ((unsigned char)*q >= 0x20) fputc(*q, f);
    }
    fprintf(f, "\",\n  \"quick\": %s,\n  \"classes\": [\n", c->quick ? "true" : "false");
    int first = 1;
    for (size_t i = 0; i < NOPS; i++) {
        const op_result *x = &r->op[i];
        if (!x->done) continue;
        const teg_class_params *k = &c->fc.cls[ops[i].cls];
        fprintf(f, "%s    {\"class\": \"%s\", \"op\": \"%s\", \"ptx\": \"%s\", \"info\": %s, "
                   "\"exec\": {\"configured\": %u, \"calibrated\": %.4f}, "
                   "\"accept\": {\"configured\": %u, \"calibrated\": %.4f, \"file\": %u, \"throughput\": %.4f, "
                   "\"warps\": %u, \"instances\": %u, \"issue_bound\": %s}, "
                   "\"warp_busy\": {\"configured\": %u, \"calibrated\": %.4f, \"file\": %u, \"chains\": %u}}",
                first ? "" : ",\n", teg_class_names[ops[i].cls], ops[i].name, ops[i].ptx, ops[i].info ? "true" : "false",
                ops[i].cls == TEG_SMEM ? c->fc.smem_latency : ops[i].cls == TEG_GLOAD ? c->fc.gmem_latency : k->exec,
                ops[i].cls == TEG_SMEM ? r->smem_lat : ops[i].cls == TEG_GLOAD ? r->dram_lat : x->exec,
                k->accept, x->accept, file_value(x->accept), x->thr, x->warps, x->instances,
                x->issue_bound ? "true" : "false", k->warp_busy, x->period, file_value(x->period), x->chains);
        first = 0;
    }
    fprintf(f, "\n  ],\n  \"smem\": {\"latency\": {\"configured\": %u, \"calibrated\": %.4f}, "
               "\"pass_cycles\": {\"configured\": %.4f, \"calibrated\": %.4f}, \"worst_residual\": %.4f, \"degrees\": [",
            c->fc.smem_latency, r->smem_lat, c->fc.smem_pass_cycles, r->smem_pass, r->smem_resid);
    for (uint32_t i = 0; i < r->ndeg; i++)
        fprintf(f, "%s{\"degree\": %u, \"m\": %u, \"cycles\": %.4f}", i ? ", " : "", r->deg[i], r->deg_m[i], r->deg_lat[i]);
    fprintf(f, "]},\n  \"gmem\": {\"latency\": {\"configured\": %u, \"calibrated\": %.4f}, \"l1_hit\": %.4f, \"l2_hit\": ",
            c->fc.gmem_latency, r->dram_lat, r->l1_lat);
    if (r->l2_lat >= 0) fprintf(f, "%.4f", r->l2_lat); else fprintf(f, "null");
    fprintf(f, ", \"stream\": {\"one_sm\": %.4f, \"one_sm_warps\": %u, \"one_channel\": %.4f, "
               "\"whole_gpu\": %.4f, \"whole_gpu_warps\": %u, \"channel_cap\": %.4f}, "
               "\"inflight_bytes\": {\"configured\": %u, \"calibrated\": %u}, "
               "\"channel_inflight_bytes\": {\"configured\": %u, \"calibrated\": %u}},\n",
            r->stream_sm, r->stream_warps_sm, r->stream_ch, r->stream_all, r->stream_warps_all, r->stream_ch_cap,
            c->fc.gmem_inflight_bytes, cal.gmem_inflight_bytes,
            c->fc.gmem_channel_inflight_bytes, cal.gmem_channel_inflight_bytes);
    fprintf(f, "  \"ffma_lds\": [");
    if (r->ft[0] >= 0)
        for (int i = 0; i < NFT; i++)
            fprintf(f, "%s{\"ratio\": %u, \"lds_bits\": %u, \"warps\": %u, \"F_T\": %.4f}", i ? ", " : "",
                    ft_mix[i].ratio, ft_mix[i].width, r->ft_warps, r->ft[i]);
    fprintf(f, "],\n  \"launches\": %u\n}\n", r->launches);
}

/* Write FILE.tmp with `fn`, then rename it: the file is complete or absent. */
static int write_file(const char *path, void (*fn)(const calib *, const char *, FILE *), const calib *c,
                      const char *cfgname)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "smcosim teg calibrate: path too long: %s\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) { fprintf(stderr, "smcosim teg calibrate: cannot write %s\n", path); return -1; }
    fn(c, cfgname, f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        fprintf(stderr, "smcosim teg calibrate: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static void print_params(const calib *c, const char *cfgname, FILE *f)
{
    teg_params p;
    calibrated_params(c, &p);
    fprintf(f, "# written by `smcosim teg calibrate` (%s): the from-config set with the calibrated\n"
               "# exec, accept, warp_busy of int, int_mul, fp32, fmul, fp64, sfu, conv, smem, gload,\n"
               "# smem.latency, smem.pass_cycles, gmem.latency%s (docs/teg.md, \"Calibration\")\n",
            cfgname, c->r->stream_sm > 0 ? ", gmem.inflight_bytes, gmem.channel_inflight_bytes" : "");
    teg_params_print(&p, f);
}

/* ---- the command ------------------------------------------------------------- */

/* Everything, in an order that gives --quick and full runs the same
 * numbers: the memory measurements first (with mem.keep_caches and
 * gpu.dispatch_persist, fermi-gtx480's caches and CTA placement carry
 * over from launch to launch, so what ran before moves them a few per
 * cent), then the classes, then what only full runs do. */
static int run_all(calib *c)
{
    calib_result *r = c->r;
    chase_mem cm;
    if (dev_alloc(c, 32 * LINE, &cm.l1, &cm.l1h)) return -1;
    for (size_t k = 0; k < 32; k++) put_link(cm.l1h, cm.l1, k, k, LINE);
    r->l2_lat = -1;
    for (int i = 0; i < NFT; i++) r->ft[i] = -1;
    if (measure_stream(c) || measure_gmem(c, &cm) || measure_smem(c, cm.l1)) return -1;
    for (size_t i = 0; i < NOPS; i++) {
        if (ops[i].info && c->quick) continue;
        int rc = measure_op(c, &ops[i], &r->op[i], &cm);
        if (rc) {
            if (rc > 0) fprintf(stderr, "smcosim teg calibrate: teg_%s: a launch was refused\n", ops[i].name);
            return -1;
        }
        fprintf(stderr, "teg calibrate: %-8s exec %.2f, warp period %.2f, %.3f per cycle\n", ops[i].name,
                r->op[i].exec, r->op[i].period, r->op[i].thr);
    }
    if (!c->quick && (measure_l2(c) || measure_ft(c))) return -1;
    return 0;
}

int teg_calibrate_cli(int argc, char **argv, FILE *out)
{
    const char *config = NULL, *json = NULL, *outfile = NULL;
    char ptx_buf[PATH_MAX];
    const char *ptx = cli_repo_file("bench/microbench/teg/teg_kernels.ptx", ptx_buf, sizeof ptx_buf);
    int quick = 0;
    char set[4096] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--config") && more) config = argv[++i];
        else if (!strcmp(a, "--json") && more) json = argv[++i];
        else if (!strcmp(a, "--out") && more) outfile = argv[++i];
        else if (!strcmp(a, "--ptx") && more) ptx = argv[++i];
        else if (!strcmp(a, "--set") && more) {
            size_t l = strlen(set);
            if (l + strlen(argv[i + 1]) + 2 >= sizeof set) {
                fprintf(stderr, "smcosim teg calibrate: too many --set\n");
                return 2;
            }
            snprintf(set + l, sizeof set - l, "%s%s", l ? ";" : "", argv[++i]);
        } else if (!strcmp(a, "--quick")) quick = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(CALIB_USAGE, stdout); return 0; }
        else { fprintf(stderr, "smcosim teg calibrate: bad argument '%s'\n" CALIB_USAGE, a); return 2; }
    }
    if (access(ptx, R_OK) != 0) {
        fprintf(stderr, "smcosim teg calibrate: cannot read the kernels %s (--ptx FILE names them)\n", ptx);
        return 2;
    }
    smc_device_opts o;
    memset(&o, 0, sizeof o);
    o.config = config;
    o.mode = SMC_MODE_TIMING;
    o.set = set;
    o.print_stats = -1;
    static calib_result res;
    memset(&res, 0, sizeof res);
    calib c;
    memset(&c, 0, sizeof c);
    c.r = &res;
    c.quick = quick;
    if (smc_device_create(&o, &c.dev) != SMC_OK) return 2;     /* the message names the key */
    int rc = 1;
    c.cfg = *timing_config(smc_device_timing_model(c.dev));
    teg_params_from_config(&c.fc, &c.cfg);
    char err[512];
    if (teg_params_check(&c.fc, err, sizeof err) != 0) {
        fprintf(stderr, "smcosim teg calibrate: the from-config set: %s\n", err);
        goto done;
    }
    if (smc_module_load_ptx_file(c.dev, ptx, &c.mod) != SMC_OK) {
        fprintf(stderr, "smcosim teg calibrate: %s\n", smc_last_message(c.dev));
        goto done;
    }
    c.host = calloc(OUT_WORDS, sizeof(uint64_t));
    if (!c.host || smc_malloc(c.dev, OUT_WORDS * sizeof(uint64_t), SMC_MEM_DEVICE, &c.out) != SMC_OK) {
        fprintf(stderr, "smcosim teg calibrate: out of memory\n");
        goto done;
    }
    if (run_all(&c)) goto done;
    char name[300];
    snprintf(name, sizeof name, "%s%s%.200s", config ? config : c.cfg.preset, set[0] ? ", " : "", set);
    print_report(&c, name, out);
    fflush(out);
    rc = 0;
    if (outfile && write_file(outfile, print_params, &c, name)) rc = 1;
    if (json && write_file(json, print_json, &c, name)) rc = 1;
done:
    free(c.host);
    smc_device_destroy(c.dev);
    return rc;
}
