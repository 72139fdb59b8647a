/*
 * gpu_config.c — key table, presets and checks of the GPU configuration.
 *
 * Sources of the numbers (seed papers in ../shared/seeds/):
 *   [G-431]  000 (Gong thesis) §4.3.1: 4 warp schedulers per SM; private
 *            units per scheduler (pSPU, pBRU) and units shared by the four
 *            schedulers (sSPU, sIMU, DPU, SFU, LSU); 32 lanes per unit
 *   [G-T41]  000 Table 4.1: 14 SMs, 6 SPU / 4 BRU / 2 DPU / 1 IMU / 1 SFU /
 *            1 LSU per SM, 65536 registers, 64 warps, 16 CTAs, 2048 threads
 *   [G-T63]  000 Table 6.3: 732 MHz, round-robin scheduler
 *   [G-T52]  000 Table 5.2: Radeon 7970, 1000 MHz, 32 CUs, 40 wavefronts,
 *            GTO, 4 SIMT units of 16 lanes, 65536 vector registers, 64 KB LDS
 *   [O-T1]   001 (OAWS) Table 1: GTX480, 1400 MHz, 30 SMs, 32K registers,
 *            48 KB shared memory, SIMD width 16, 1536 threads, GTO
 *   [G-FE]   000 §4.3.1: 2 instructions fetched per warp (buffer depth 2)
 *   [CUDA]   CUDA programming guide, "technical specifications per compute
 *            capability" (the table GPUDIAG Eq. 3.1/3.3 cite, footnote 2/3):
 *            block and allocation-granularity limits
 *   [TXP], [GP104], [2080TI], [TU], [JIA18], [JIA19]: the traced GPUs'
 *            presets (pascal-titanx, turing-rtx2080ti) — NVIDIA's
 *            specifications and whitepapers and the microbenchmark papers;
 *            full references in mem-model/mem_config.c and docs/traces.md
 *   [CUDA6]  CUDA programming guide, compute capabilities 6.1 and 7.5
 * Values marked "assumed" are not in the papers; docs/config.md lists them.
 */
#include "../ptx/ptx.h"
#include "gpu_config.h"

#include "config_keys.h"
#include "fail.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const policy_names[] = { "lrr", "gto", "two-level", "owl", NULL };
static const char *const backend_names[] = { "c", "rtl", "lockstep", "offload", NULL };
static const char *const check_names[] = { "off", "offload", NULL };   /* enum gpu_check_rtl */
static const char *const dispatch_names[] = { "round-robin", NULL };
static const char *const malloc_names[] = { "pages", "gpgpusim", NULL };
static const char *const haws_names[] = { "off", "warp", "all", NULL };   /* enum gpu_haws */
static const char *const oplat_names[] = { "unit", "g321", NULL };   /* enum gpu_opcode_latency */
static const char *const oaws_names[] = { "off", "static", "dynamic", NULL };   /* enum gpu_oaws */
static const char *const oaws_delta_names[] = { "auto", "one", "half", NULL };  /* enum oaws_delta */
static const char *const peer_names[] = { "none", "ccws", "mascar", NULL };       /* enum gpu_peer */

/* index = enum gpu_locality: "launch", then GPU_LOCALITY_FORCE + hint */
static const char *const locality_names[] = { "launch", "0", "1", "2", "3", "auto", NULL };
static const char *const unit_names[GPU_UNIT_COUNT] = {
    "sp", "sfu", "dpu", "int", "ldst", "branch"
};

const char *gpu_unit_name(unsigned u) { return u < GPU_UNIT_COUNT ? unit_names[u] : "?"; }
const char *gpu_policy_name(unsigned p) { return p < 4 ? policy_names[p] : "?"; }
const char *gpu_backend_name(unsigned b) { return b < 4 ? backend_names[b] : "?"; }
const char *gpu_haws_name(unsigned h) { return h < 3 ? haws_names[h] : "?"; }

#define G32(name, field, lo, hi, doc) CK_KEY_U32(name, gpu_config, field, lo, hi, doc)
#define UNIT_KEYS(nm, u, what)                                                          \
    G32("unit." nm ".private", unit[u].private_units, 0, 8,                             \
        what " units owned by each scheduler"),                                         \
    G32("unit." nm ".shared", unit[u].shared_units, 0, 32,                              \
        what " units shared by all schedulers of the SM"),                              \
    G32("unit." nm ".latency", unit[u].latency, 2, 10000,                               \
        what ": cycles from issue until a dependent may issue (at least 2: the "         \
        "scheduler core's writeback comes an edge after the issue, docs/sched-interface.md)"), \
    G32("unit." nm ".ii", unit[u].ii, 1, 64,                                            \
        what ": initiation interval, cycles between warp-instructions on one unit")

static const ck_key gpu_keys[] = {
    G32("gpu.clock_mhz", clock_mhz, 1, 100000, "shader clock (reported by cudaGetDeviceProperties; cycles are core cycles)"),
    G32("block.max_threads", max_threads_per_block, 1, 4096, "launch limit L(T/B): threads per block (Eq. 3.1)"),
    G32("block.max_smem", max_smem_per_block, 0, 1 << 24, "launch limit L(S/B): shared memory per block, bytes (Eq. 3.1)"),
    G32("thread.max_regs", max_regs_per_thread, 1, 255, "launch limit L(R/T): registers per thread (Eq. 3.1)"),
    G32("block.max_regs", max_regs_per_block, 1, 1 << 24, "launch limit L(R/B): registers per block (Eq. 3.1)"),
    G32("sm.max_threads", max_threads_per_sm, 1, 1 << 16, "threads resident per SM"),
    G32("sm.max_warps", max_warps_per_sm, 1, 64, "N2: warp slots per SM (Eq. 3.3); also the scheduler core's NumWarps"),
    G32("sm.max_ctas", max_ctas_per_sm, 1, 64, "N1: CTA (barrier) slots per SM (Eq. 3.3)"),
    G32("sm.regs", regs_per_sm, 1, 1 << 24, "R: 32-bit registers per SM (Eq. 3.3)"),
    G32("sm.reg_alloc_unit", reg_alloc_unit, 1, 1 << 16, "r_min: registers of a warp are allocated in units of this many (Eq. 3.3)"),
    G32("sm.smem", smem_per_sm, 0, 1 << 24, "S: shared memory per SM, bytes (Eq. 3.3)"),
    G32("sm.smem_alloc_unit", smem_alloc_unit, 1, 1 << 16, "s_min: shared memory of a CTA is allocated in units of this many bytes (Eq. 3.3)"),
    CK_KEY_ENUM("gpu.dispatch", gpu_config, dispatch, dispatch_names, "CTA dispatcher of launches without a locality hint: round-robin over SMs with free slots"),
    CK_KEY_ENUM("gpu.locality_hint", gpu_config, locality_hint, locality_names, "locality hint (seed 000 Table 6.1): launch = each launch's own (smc_launch_ext, --locality), 0..3 = this hint for every launch; 1..3 place adjacent CTAs on one SM (docs/locality.md); auto = detect the type from the address streams of a kernel's first launch (which runs without a hint) and use it for its later launches"),
    CK_KEY_BOOL("gpu.locality_warps", gpu_config, locality_warps, "locality hints 1..3 also group the warps (the scheduler core's grouped policy, seed 000 §6.3.2; docs/locality.md); 0 = the CTA placement only, warps under sched.policy"),
    CK_KEY_BOOL("gpu.dispatch_persist", gpu_config, dispatch_persist, "round-robin dispatch: where it stopped (the SM or cluster after the last one served, and each cluster's SM) is kept from one launch to the next, and the device's first CTA goes to cluster 1 (GPGPU-Sim 3.2.1); off: every launch starts at SM 0"),
    CK_KEY_ENUM("gpu.malloc", gpu_config, malloc_layout, malloc_names, "where cudaMalloc and cudaMallocManaged put buffers: pages = whole pages, first fit, freed memory reused; gpgpusim = GPGPU-Sim's: upward from a 1-GiB boundary, each rounded up to 256 bytes, freed memory never reused (the buffers' address bits below 1 GiB then match a GPGPU-Sim run of the same program, and with them the cache sets and memory partitions they fall in)"),
    G32("gpu.dispatch_chunk", dispatch_chunk, 0, 1 << 20, "locality placement: consecutive CTAs an SM claims at a time (0 = min(N_slot, ceil(CTAs / SMs)))"),
    G32("sched.num", num_schedulers, 1, 8, "warp schedulers per SM (scheduler core NumSchedulers)"),
    G32("sched.ibuf_depth", ibuf_depth, 1, 8, "instruction-buffer entries per warp (IbufDepth)"),
    G32("sched.sb_entries", sb_entries, 1, 16, "scoreboard entries (pending register writes) per warp (SbEntries)"),
    G32("sched.wb_ports", wb_ports, 1, 8, "register writebacks per cycle per SM (WbPorts)"),
    G32("sched.reg_id_width", reg_id_width, 4, 8, "bits of a register id in the core (RegIdWidth)"),
    CK_KEY_ENUM("sched.policy", gpu_config, policy, policy_names, "warp-scheduling policy (lrr, gto, two-level, owl = CTA-aware, Jog et al. ASPLOS'13: the grouped policy over CTA groups with OWL's priority, docs/locality.md); --policy also accepts swl:N, oaws-static[:SMR], oaws-dyn, ccws, mascar (docs/oaws.md)"),
    G32("sched.warp_limit", warp_limit, 0, 64, "SWL: the first N alive warps of an SM (by id) may issue (0 = no limit; at most the warps of one scheduler; must not be below the warps of a block for kernels with barriers)"),
    G32("sched.pool_size", pool_size, 1, 64, "two-level: warps in the active pool per scheduler"),
    CK_KEY_ENUM("sched.backend", gpu_config, backend, backend_names, "scheduler back end: C model, Verilated RTL, both in lockstep, or the RTL on a device through an offload transport (closed loop, one exchange per cycle for all SMs; docs/offload.md)"),
    CK_KEY_STR("sched.offload_transport", gpu_config, offload_transport, "offload transport \"name[:arg]\" of sched.backend=offload and of sched.check_rtl: netlist (the Yosys netlist in an OpenCL interpreter kernel), vl-board (the board kernel's Verilated model), ocl-board, cmodel (C models behind the token codec, a test double); docs/offload.md"),
    CK_KEY_ENUM("sched.check_rtl", gpu_config, check_rtl, check_names, "replay check of a run of sched.backend c, rtl or lockstep: off; offload = its scheduler-boundary tokens go to sched.offload_transport in batches of sched.check_k cycles x all SMs, and the first differing output fails the run (cycle, SM, signal, both values); --check-rtl sets it"),
    G32("sched.check_k", check_k, 1, 1 << 20, "replay check: cycles per exchange with the device (the report does not depend on it; k x SMs token buffers must fit in 1 GiB)"),
    UNIT_KEYS("sp", GPU_UNIT_SP, "single-precision/ALU"),
    UNIT_KEYS("sfu", GPU_UNIT_SFU, "special-function"),
    UNIT_KEYS("dpu", GPU_UNIT_DPU, "double-precision"),
    UNIT_KEYS("int", GPU_UNIT_INT, "integer-math"),
    UNIT_KEYS("branch", GPU_UNIT_BRANCH, "branch (also barrier, exit, shuffle/vote)"),
    CK_KEY_ENUM("unit.opcode_latency", gpu_config, opcode_latency, oplat_names, "latency, initiation interval and unit of a PTX instruction: unit = unit.KIND.latency / .ii of its kind; g321 = GPGPU-Sim 3.2.1 per opcode (its -ptx_opcode_latency/initiation columns for add/sub, max/min, mul, mad, div; sqrt, sin, cos, ex2, lg2, rsqrt, rcp on the SFU with the fp64 mul column; integer mul and mad and every div on the SFU; every other instruction latency 1 on the SP units; docs/timing-model.md) plus unit.issue_stages. Traces keep their SASS table"),
    G32("unit.issue_stages", issue_stages, 0, 64, "cycles the pipeline adds between an ALU/SFU instruction's issue and a dependent's issue on top of its unit latency (unit.opcode_latency = g321; GPGPU-Sim 3.2.1: 6); the sum is at least 2"),
    G32("ldst.id_oc", ldst_id_oc, 0, 4, "buffered LD/ST path (docs/timing-model.md, \"The LD/ST path\"): entries of the pipeline register between issue and the memory collector units, shared by the SM's schedulers (GPGPU-Sim ID_OC_MEM); 0 = no path: an issued memory instruction enters the LD/ST unit at once, which is offered only when free"),
    G32("ldst.collectors", ldst_collectors, 0, 128, "buffered LD/ST path: memory operand-collector units (Multi2Sim presets: the unit's read buffer, where instructions wait for the cache); each holds an instruction at least 2 cycles (its registers are read the cycle after it is allocated, it is dispatched the cycle after that)"),
    G32("ldst.oc_ex", ldst_oc_ex, 0, 4, "buffered LD/ST path: entries of the pipeline register between the collector units and the LD/ST unit (GPGPU-Sim OC_EX_MEM)"),
    CK_KEY_U64("gpu.watchdog_insts", gpu_config, watchdog_insts, 1, UINT64_C(1) << 50, "watchdog, both modes: warp-instructions one warp may execute while no warp exits, no barrier completes and no CTA starts before the launch is reported hung (SMC_ERR_LAUNCH_TIMEOUT)"),
    CK_KEY_U64("gpu.watchdog_cycles", gpu_config, watchdog_cycles, 1000, UINT64_C(1) << 50, "watchdog, timing mode: cycles in which no warp exits, no barrier completes and no CTA starts before the launch is reported hung (SMC_ERR_LAUNCH_TIMEOUT)"),
    G32("gpu.progress_seconds", progress_seconds, 0, 3600, "a progress line on stderr every N seconds of host time (0 = never)"),
    CK_KEY_BOOL("stats.per_sm", gpu_config, stats_per_sm, "timing mode: each launch's statistics also per SM (issue slots by stall reason, active cycles, CTAs; JSON \"per_sm\", docs/statistics.md)"),
    CK_KEY_ENUM("sched.haws", gpu_config, haws, haws_names, "HAWS (docs/haws.md) on top of the policy: off; warp = a warp enters hint mode when its next instruction waits on a long-latency load (seed 000 §5.3.3); all = only in a cycle its scheduler issued nothing"),
    G32("haws.rcu_depth", haws_rcu_depth, 1, 8, "HAWS: Result Collection Unit entries per warp, the scheduler core's RcuDepth (seed 000 §5.3.3: 8); the Verilated models have 8"),
    G32("haws.copy_latency", haws_copy_latency, 2, 1000, "HAWS: cycles from a return-pass copy's issue until a dependent may issue (an issue slot, no unit; at least 2 like a unit latency)"),
    CK_KEY_BOOL("haws.mem_hints", gpu_config, haws_mem_hints, "HAWS hint pass: memory instructions may be chain members (never atomics, volatile, or past a barrier)"),
    CK_KEY_BOOL("haws.branch_hints", gpu_config, haws_branch_hints, "HAWS hint pass: uniform branches may be chain members (format 2)"),
    CK_KEY_BOOL("haws.cross_stall_points", gpu_config, haws_cross_stall_points, "HAWS hint pass: a chain skips a later stall point instead of ending there"),
    CK_KEY_BOOL("haws.rename_occupancy", gpu_config, haws_rename_occupancy, "HAWS: occupancy counts the registers of the renaming pool"),
    CK_KEY_BOOL("haws.validate", gpu_config, haws_validate, "HAWS: the validator rejects unsafe hints at launch (0 only for tests of wrong hints)"),
    CK_KEY_STR("haws.hints_file", gpu_config, haws_hints_file, "HAWS: hand-written hint file replacing the pass's hints for the kernels it names (\"\" = none)"),
    CK_KEY_ENUM("sched.oaws", gpu_config, oaws, oaws_names, "OAWS (docs/oaws.md; seed 001) on top of the policy: off; static = a memory instruction issues only when its predicted misses (active lanes x sched.oaws_smr for a load in the DLC, 1 for another global/local load) fit the free MSHRs (Eq. 1); dynamic = locality warps (rank < OCW) predict 0, thrashing warps lanes x 50 % + rank (§4.3). --policy oaws-static[:SMR], oaws-dyn set it"),
    G32("sched.oaws_smr", oaws_smr, 0, 100, "OAWS static: miss rate SMR in percent, 0..100 in steps of 5 (seed 001 §4.2: 50 best; 0 = GTO)"),
    G32("sched.oaws_dlc_entries", oaws_dlc_entries, 1, 64, "OAWS: Divergent Load Classifier entries per SM (seed 001 §4.2: 32); a new pc in a full table replaces the least recently updated"),
    G32("sched.oaws_cnt_max", oaws_cnt_max, 1, 255, "OAWS dynamic: Cmax of the 8-bit CNT (seed 001 §4.3.1: 255)"),
    G32("sched.oaws_cnt_init", oaws_cnt_init, 0, 255, "OAWS dynamic: CNT at each launch (seed 001 §4.3.1: 128); at most sched.oaws_cnt_max"),
    G32("sched.oaws_ocw_min", oaws_ocw_min, 0, 64, "OAWS dynamic: OCW's lower bound and initial value; 0 = sched.num (seed 001 §4.3.1: 2, one warp per scheduler)"),
    G32("sched.oaws_ocw_max", oaws_ocw_max, 0, 64, "OAWS dynamic: OCW's upper bound; 0 = sm.max_warps (seed 001 §4.3.1: 48)"),
    CK_KEY_ENUM("sched.peer", gpu_config, peer, peer_names, "OAWS's peers (docs/oaws.md, \"Peers\"; seed 001 §5) on top of the policy: none; ccws = per-warp lost-locality scores raised by victim-tag-array hits throttle the global/local loads of low-score warps; mascar = when the memory system is saturated (at most one free L1D MSHR or injection-queue slot) only an owner warp issues memory instructions, else memory instructions go first. --policy ccws, mascar set it"),
    G32("sched.ccws_base", ccws_base, 1, 1023, "CCWS: every warp's base score; the cutoff is (alive warps) x base (seed 001 Table 3: 100)"),
    G32("sched.ccws_k_throttle", ccws_k_throttle, 0, 40, "CCWS: K_THROTTLE; a VTA hit raises the warp's score by K x base (at most 4095), which decays by 1 per cycle (seed 001 Table 3: 8)"),
    G32("sched.ccws_vta_entries", ccws_vta_entries, 1, 1024, "CCWS: victim-tag-array tags per warp, a multiple of sched.ccws_vta_ways (seed 001 Table 3: 16 per warp, 768 for 48 warps)"),
    G32("sched.ccws_vta_ways", ccws_vta_ways, 1, 64, "CCWS: victim-tag-array associativity, LRU (seed 001 Table 3: 8)"),
    G32("sched.mascar_reexec_entries", mascar_reexec_entries, 0, 256, "MASCAR: re-execution queue entries per SM, one L1D access each; a global/local load access stalled for want of an MSHR or injection-queue room waits there while the LD/ST unit goes on (seed 001 §5: 32); 0 = off (in-order replay)"),
    CK_KEY_ENUM("sched.oaws_delta", gpu_config, oaws_delta, oaws_delta_names, "OAWS dynamic: CNT's step down on a partially cached divergent load: auto = CNT/2 for an associativity-sensitive load (#acc > 1.5 #sets in its DLC entry), 1 otherwise (seed 001 §4.3.1); one; half"),
};
#define NGPUKEYS (sizeof gpu_keys / sizeof gpu_keys[0])

/* The full table: gpu_keys followed by the memory model's keys, whose
 * offsets are moved into gpu_config.mem. Built once. */
static ck_key *all_keys;
static size_t nall_keys;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void build_keys(void)
{
    size_t nmem;
    const ck_key *mk = mem_config_keys(&nmem);
    ck_key *k = malloc((NGPUKEYS + nmem) * sizeof *k);
    if (!k)
        return;
    memcpy(k, gpu_keys, sizeof gpu_keys);
    for (size_t i = 0; i < nmem; i++) {
        k[NGPUKEYS + i] = mk[i];
        k[NGPUKEYS + i].offset += offsetof(gpu_config, mem);
    }
    all_keys = k;
    nall_keys = NGPUKEYS + nmem;
}

/* GPGPU-Sim 3.2.1 (cuda-sim.cc set_opcode_and_latency) with the GTX480
 * configuration's columns [ADD/SUB, MAX/MIN, MUL, MAD, DIV]. */
static const uint16_t g321_lat[3][5] = {
    { 4, 13, 4, 5, 145 },         /* -ptx_opcode_latency_int */
    { 4, 13, 4, 5, 39 },          /* -ptx_opcode_latency_fp */
    { 8, 19, 8, 8, 330 },         /* -ptx_opcode_latency_dp */
};
static const uint16_t g321_ii[3][5] = {
    { 1, 2, 2, 1, 8 },            /* -ptx_opcode_initiation_int */
    { 1, 2, 1, 1, 4 },            /* -ptx_opcode_initiation_fp */
    { 8, 16, 8, 8, 130 },         /* -ptx_opcode_initiation_dp */
};

static void g321_unit(unsigned op, unsigned type, unsigned *kind, unsigned *latency, unsigned *ii)
{
    unsigned t = type <= GPU_OPT_FP64 ? type : GPU_OPT_INT, col;
    *kind = GPU_UNIT_SP;                /* ALU_OP, and ALU_SFU_OP (the SP pipe first) */
    switch (op) {
    case OP_ADD: case OP_ADDC: case OP_SUB: case OP_SUBC: col = 0; break;
    case OP_MAX: case OP_MIN: col = 1; break;
    case OP_MUL:                        /* integer: SFU_OP */
        col = 2;
        if (t == GPU_OPT_INT)
            *kind = GPU_UNIT_SFU;
        break;
    case OP_MAD:                        /* integer: SFU_OP */
        col = 3;
        if (t == GPU_OPT_INT)
            *kind = GPU_UNIT_SFU;
        break;
    case OP_DIV: col = 4; *kind = GPU_UNIT_SFU; break;
    case OP_SQRT: case OP_SIN: case OP_COS: case OP_EX2: case OP_LG2: case OP_RSQRT: case OP_RCP:
        /* "Using double to approximate those": the dp MUL column, SFU_OP */
        *kind = GPU_UNIT_SFU;
        *latency = g321_lat[GPU_OPT_FP64][2];
        *ii = g321_ii[GPU_OPT_FP64][2];
        return;
    default:                            /* fma, mov, logic, compare, branches...: 1, 1 */
        *latency = 1;
        *ii = 1;
        return;
    }
    *latency = g321_lat[t][col];
    *ii = g321_ii[t][col];
}

void gpu_g321_op(const gpu_config *c, unsigned op, unsigned type, unsigned *kind,
                 unsigned *latency, unsigned *ii)
{
    g321_unit(op, type, kind, latency, ii);
    *latency += c->issue_stages;
    if (*latency < 2)
        *latency = 2;
}

static const ck_key *keys(size_t *n)
{
    pthread_once(&keys_once, build_keys);
    *n = all_keys ? nall_keys : NGPUKEYS;
    return all_keys ? all_keys : gpu_keys;
}

const char *const gpu_preset_names[] = { "kepler-k20x", "kepler-k20x-v1", "fermi-gtx480",
                                         "fermi-gtx480-v1", "si-7970", "si-7970-v1",
                                         "pascal-titanx", "turing-rtx2080ti", NULL };

static void unit(gpu_config *c, unsigned u, uint32_t priv, uint32_t shared,
                 uint32_t latency, uint32_t ii)
{
    c->unit[u] = (gpu_unit_config){ priv, shared, latency, ii };
}

static void kepler_k20x_v1(gpu_config *c)
{
    c->clock_mhz = 732;                  /* [G-T63] */
    c->max_threads_per_block = 1024;     /* [CUDA] cc 3.5 */
    c->max_smem_per_block = 48 * 1024;   /* [CUDA] cc 3.5 */
    c->max_regs_per_thread = 255;        /* [CUDA] cc 3.5 */
    c->max_regs_per_block = 65536;       /* [CUDA] cc 3.5 */
    c->max_threads_per_sm = 2048;        /* [G-T41] */
    c->max_warps_per_sm = 64;            /* [G-T41] */
    c->max_ctas_per_sm = 16;             /* [G-T41] */
    c->regs_per_sm = 65536;              /* [G-T41] */
    c->reg_alloc_unit = 256;             /* [CUDA] cc 3.x: 256 registers per warp */
    /* Table 4.1 lists 16 KB of shared memory, the 16 KB L1 split being the
     * other 48 KB; the 64 KB array is split 48 KB shared / 16 KB L1 here so
     * that programs written for 48 KB per block launch (the L1D keeps the
     * table's 16 KB). */
    c->smem_per_sm = 48 * 1024;
    c->smem_alloc_unit = 256;            /* [CUDA] cc 3.x */
    c->dispatch = GPU_DISPATCH_ROUND_ROBIN;
    c->num_schedulers = 4;               /* [G-431] */
    c->ibuf_depth = 2;                   /* [G-FE] */
    c->sb_entries = 6;                   /* assumed (scheduler core default) */
    c->wb_ports = 4;                     /* assumed: one per scheduler */
    c->reg_id_width = 8;
    c->policy = GPU_POLICY_LRR;          /* [G-T63] round robin */
    c->warp_limit = 0;
    c->pool_size = 8;                    /* assumed (two-level only) */
    c->backend = GPU_SCHED_C;
    /* [G-T41]/[G-431]: 6 SPUs = 4 private (one per scheduler) + 2 shared;
     * 4 BRUs private; 2 DPUs, 1 IMU, 1 SFU, 1 LSU shared; 32 lanes per unit,
     * so each unit takes a warp-instruction every cycle (ii = 1).
     * Latencies are not in the papers: assumed from Kepler microbenchmarks
     * (dependent FP32/INT ALU ~9 cycles, DP ~10, SFU ~18). */
    unit(c, GPU_UNIT_SP, 1, 2, 9, 1);
    unit(c, GPU_UNIT_SFU, 0, 1, 18, 1);
    unit(c, GPU_UNIT_DPU, 0, 2, 10, 1);
    unit(c, GPU_UNIT_INT, 0, 1, 9, 1);
    unit(c, GPU_UNIT_LDST, 0, 1, 1, 1);
    unit(c, GPU_UNIT_BRANCH, 1, 0, 4, 1);
    /* The watchdog is not a hardware number. 10^9 warp-instructions is ten
     * times the 10^8 a legitimate long loop may run in one warp between two
     * progress events (= EMU_DEFAULT_WATCHDOG); 10^11 cycles is what 10^9
     * warp-instructions of one warp take at 100 cycles each (a dependent
     * chain of DRAM loads), so neither trips before the other on a loop. */
    c->watchdog_insts = 1000000000;
    c->watchdog_cycles = UINT64_C(100000000000);
    c->progress_seconds = 5;
}

/* The first fermi-gtx480, kept as fermi-gtx480-v1: one 1400-MHz clock and
 * SIMD-16 units (mem_config.c has its memory side). */
static void fermi_gtx480_v1(gpu_config *c)
{
    c->clock_mhz = 1400;                 /* [O-T1] */
    c->max_threads_per_block = 1024;     /* [CUDA] cc 2.0 */
    c->max_smem_per_block = 48 * 1024;   /* [O-T1] 48 KB */
    c->max_regs_per_thread = 63;         /* [CUDA] cc 2.0 */
    c->max_regs_per_block = 32768;       /* [CUDA] cc 2.0 */
    c->max_threads_per_sm = 1536;        /* [O-T1] */
    c->max_warps_per_sm = 48;            /* 1536 / 32 [O-T1] */
    c->max_ctas_per_sm = 8;              /* [CUDA] cc 2.0 */
    c->regs_per_sm = 32768;              /* [O-T1] 32K */
    c->reg_alloc_unit = 64;              /* [CUDA] cc 2.0 */
    c->smem_per_sm = 48 * 1024;          /* [O-T1] */
    c->smem_alloc_unit = 128;            /* [CUDA] cc 2.0 */
    c->dispatch = GPU_DISPATCH_ROUND_ROBIN;
    c->num_schedulers = 2;               /* assumed: GF100 dual warp scheduler */
    /* Scheduler-core sizes of the Fermi-sized Verilated model in
     * cosim/module.mk (48 warps, 2 schedulers, 6-bit ids, 3-entry buffers,
     * 4 scoreboard entries, 2 writeback ports), so that fermi-gtx480 also
     * runs on the RTL; 6-bit ids fit Fermi's 63 registers per thread. */
    c->ibuf_depth = 3;
    c->sb_entries = 4;
    c->wb_ports = 2;
    c->reg_id_width = 6;
    c->policy = GPU_POLICY_GTO;          /* [O-T1] */
    c->warp_limit = 0;
    c->pool_size = 8;
    c->backend = GPU_SCHED_C;
    /* SIMD width 16 [O-T1]: a 32-thread warp needs 2 cycles per unit (ii 2).
     * One 16-lane SP group per scheduler; SFU (4 lanes, ii 8), DP at 1/8 rate
     * on GeForce and the integer path shared (assumed, GTX480 whitepaper). */
    unit(c, GPU_UNIT_SP, 1, 0, 18, 2);   /* latency assumed (GPGPU-Sim ~18) */
    unit(c, GPU_UNIT_SFU, 0, 1, 24, 8);
    unit(c, GPU_UNIT_DPU, 0, 1, 24, 8);
    unit(c, GPU_UNIT_INT, 1, 0, 18, 2);
    unit(c, GPU_UNIT_LDST, 0, 1, 1, 1);
    unit(c, GPU_UNIT_BRANCH, 1, 0, 4, 2);
    c->watchdog_insts = 1000000000;      /* as kepler_k20x */
    c->watchdog_cycles = UINT64_C(100000000000);
    c->progress_seconds = 5;
}

/* The OAWS paper's machine: GPGPU-Sim 3.2.1's GTX480 with Table 1's
 * overrides (tags as in mem-model/mem_config.c, fermi_gtx480_sources). The
 * keys not listed are fermi-gtx480-v1's (Table 1's and CUDA cc 2.0's
 * limits, the scheduler-core sizes of the Fermi-sized Verilated model).
 * GPGPU-Sim runs the SM at 700 MHz with 32-wide units: a unit takes a
 * warp-instruction per core cycle, Table 1's SIMD width 16 at 1400 MHz.
 * Latencies are per opcode, as in GPGPU-Sim (unit.opcode_latency = g321,
 * gpu_g321_op): the unit.* latencies and the DPU/INT/branch units serve
 * only unit.opcode_latency = unit and traces. */
static const ck_source fermi_gtx480_sources[] = {
    { "gpu.clock_mhz", "700", "[G321] -gpgpu_clock_domains 700.0:...: cycles are 700-MHz core cycles" },
    { "sched.num", "2", "[G321] -gpgpu_num_sched_per_core 2" },
    { "unit.sp.private", "0", "[G321] -gpgpu_num_sp_units 2: units of the SM, shared by its schedulers" },
    { "unit.sp.shared", "2", "[G321] -gpgpu_num_sp_units 2" },
    { "unit.sp.latency", "10", "[G321] -ptx_opcode_latency_int/_fp ADD column 4 + unit.issue_stages 6; used only with unit.opcode_latency=unit (g321 takes each opcode's own)" },
    { "unit.sp.ii", "1", "[G321] -ptx_opcode_initiation_int/_fp ADD column 1: a 32-wide unit at 700 MHz" },
    { "unit.sfu.private", "0", "[G321] -gpgpu_num_sfu_units 1" },
    { "unit.sfu.shared", "1", "[G321] -gpgpu_num_sfu_units 1" },
    { "unit.sfu.latency", "14", "[G321] transcendentals take the dp MUL column, 8 (cuda-sim.cc: \"Using double to approximate those\") + unit.issue_stages 6; only with unit.opcode_latency=unit" },
    { "unit.sfu.ii", "8", "[G321] -ptx_opcode_initiation_dp MUL column 8" },
    { "unit.dpu.private", "0", "[G321-src cuda-sim.cc] fp64 ALU work is ALU_OP on the SP units (unit.opcode_latency = g321 puts it there); with unit: one shared unit, assumed" },
    { "unit.dpu.shared", "1", "assumed: as unit.dpu.private" },
    { "unit.dpu.latency", "14", "[G321] -ptx_opcode_latency_dp ADD column 8 + unit.issue_stages 6; only with unit.opcode_latency=unit" },
    { "unit.dpu.ii", "8", "[G321] -ptx_opcode_initiation_dp ADD column 8" },
    { "unit.int.private", "0", "[G321-src cuda-sim.cc] integer MUL/MAD/DIV are SFU_OP (unit.opcode_latency = g321 puts them on the SFU); with unit: one shared unit" },
    { "unit.int.shared", "1", "[G321-src cuda-sim.cc] as unit.int.private" },
    { "unit.int.latency", "10", "[G321] -ptx_opcode_latency_int MUL column 4 + unit.issue_stages 6; only with unit.opcode_latency=unit" },
    { "unit.int.ii", "2", "[G321] -ptx_opcode_initiation_int MUL column 2" },
    { "unit.branch.private", "1", "[G321-src shader.cc] branches issue into the SP pipe (unit.opcode_latency = g321 puts them there); with unit: one per scheduler, assumed" },
    { "unit.branch.latency", "7", "[G321-src cuda-sim.cc] a branch has latency 1 in the SP pipe + unit.issue_stages 6; only with unit.opcode_latency=unit" },
    { "unit.branch.ii", "1", "[G321] a warp per core cycle, as unit.sp.ii" },
    { "unit.opcode_latency", "g321", "[G321] -ptx_opcode_latency_int 4,13,4,5,145, _fp 4,13,4,5,39, _dp 8,19,8,8,330 and -ptx_opcode_initiation_int 1,2,2,1,8, _fp 1,2,1,1,4, _dp 8,16,8,8,130 (add/sub, max/min, mul, mad, div) as [G321-src cuda-sim.cc] set_opcode_and_latency applies them (fma and every other opcode: latency 1)" },
    { "unit.issue_stages", "6", "[G321-src shader.cc] issue to ID_OC, a collector unit (allocated next cycle, registers read the one after, dispatched to OC_EX the next), the unit's dispatch register, its pipeline, EX_WB and the writeback stage that releases the scoreboard: a dependent issues latency + 6 cycles after (docs/timing-model.md works it)" },
    { "gpu.dispatch_persist", "true", "[G321-src gpu-sim.cc] m_last_cluster_issue is set to 0 once, in gpgpu_sim's constructor (so the first CTA goes to cluster 1), and issue_block2core goes on from it at every launch; [G321-src shader.cc] each cluster's m_cta_issue_next_core likewise" },
    { "gpu.malloc", "gpgpusim", "[G321-src cuda-sim.cc] gpgpu_t::gpu_malloc: m_dev_malloc starts at GLOBAL_HEAP_START 0x80000000 [G321-src abstract_hardware_model.h] and each allocation advances it by its size rounded up to 256 bytes; cudaFree does not return it" },
    { "ldst.id_oc", "1", "[G321] -gpgpu_pipeline_widths 2,1,1,2,1,1,2: ID_OC_MEM 1, one pipeline register both schedulers issue into (scheduler 0 first each cycle [G321-src shader.cc issue])" },
    { "ldst.collectors", "2", "[G321-src gpu-sim.cc] -gpgpu_operand_collector_num_units_mem default 2 (the config does not set it); registers read the cycle after allocation [G321-src shader.cc opndcoll_rfu_t::step]" },
    { "ldst.oc_ex", "1", "[G321] -gpgpu_pipeline_widths: OC_EX_MEM 1; the LD/ST unit takes it when its dispatch register is empty [G321-src shader.cc execute, ldst_unit::can_issue]" },
    { NULL, NULL, NULL }
};

/* A preset that is a -v1 base (base) with a source table on top. */
static int with_sources(gpu_config *c, void (*base)(gpu_config *), const ck_source *t,
                        char *err, size_t errlen)
{
    base(c);
    size_t n;
    const ck_key *k = keys(&n);
    return ck_apply_sources(k, n, c, t, err, errlen);
}

static void si_7970_v1(gpu_config *c)
{
    kepler_k20x_v1(c);                      /* CUDA-style block limits, assumed */
    c->clock_mhz = 1000;                 /* [G-T52] */
    /* [G-T52]: 40 wavefronts of 64. The emulator executes PTX warps of 32
     * threads, so this preset schedules 40 warps of 32 (docs/config.md). */
    c->max_warps_per_sm = 40;
    c->max_threads_per_sm = 40 * 32;
    c->max_ctas_per_sm = 16;             /* assumed: 16 work-groups per CU */
    c->regs_per_sm = 65536;              /* [G-T52] vector registers */
    c->smem_per_sm = 64 * 1024;          /* [G-T52] LDS 64 KB */
    c->max_smem_per_block = 32 * 1024;   /* assumed: GCN 32 KB per work-group */
    c->num_schedulers = 4;               /* [G-T52] 4 SIMT units */
    c->policy = GPU_POLICY_GTO;          /* [G-T52] */
    /* 16-lane SIMT units [G-T52]: a 32-thread warp takes 2 cycles (ii 2);
     * each SIMT unit is private to its scheduler. Latencies assumed. */
    unit(c, GPU_UNIT_SP, 1, 0, 8, 2);
    unit(c, GPU_UNIT_SFU, 0, 1, 16, 8);
    unit(c, GPU_UNIT_DPU, 0, 1, 16, 8);
    unit(c, GPU_UNIT_INT, 1, 0, 8, 2);
    unit(c, GPU_UNIT_LDST, 0, 1, 1, 1);
    unit(c, GPU_UNIT_BRANCH, 1, 0, 4, 1);
}

/* The Gong thesis's machines (issue 37): kepler-k20x-v1 / si-7970-v1 with
 * the LD/ST unit of Multi2Sim's models (tags as in mem-model/mem_config.c;
 * [M2S-KPL] Lsu.cc, [M2S-SI] VectorMemoryUnit.cc). The memory side is mem_config.c's. An issued memory instruction
 * waits in the unit's buffers (the LD/ST path) for the cache to admit it,
 * and its dependents wait on the scoreboard: saturation is long-latency
 * dependence, not a busy unit (000 §6.1: "the upcoming memory requests will
 * be blocked in the pipeline and will be retried in future cycles"). */
static const ck_source kepler_k20x_sources[] = {
    { "sm.smem", "49152", "not [G-T41]/[G-T63]'s 16 KB (000 L1387): CUDA 13's oldest target is compute_75, whose CUB/Thrust sort kernels declare 33,856 bytes of static shared memory, refused by a 16-KB SM; the K20X's 48 KB shared / 16 KB L1 split (the L1D keeps the tables' 16 KB); at 16 KB fft, transpose and bitonic fit fewer CTAs (docs/config.md)" },
    { "block.max_smem", "49152", "[CUDA] cc 3.5: 48 KB per block (as sm.smem)" },
    { "ldst.id_oc", "2", "[M2S-KPL] Lsu.cc dispatch_buffer_size = SM::dispatch_latency 2" },
    { "ldst.collectors", "100", "[M2S-KPL] Lsu.cc read_buffer_size 100: instructions whose registers were read wait here for the cache (one per cycle, Lsu.cc width 1)" },
    { "ldst.oc_ex", "1", "[M2S-KPL] Lsu.cc: the memory stage works on one instruction at a time (width 1)" },
    { NULL, NULL, NULL }
};

static const ck_source si_7970_sources[] = {
    { "ldst.id_oc", "1", "[M2S-SI] VectorMemoryUnit.cc issue_buffer_size 1" },
    { "ldst.collectors", "1", "[M2S-SI] VectorMemoryUnit.cc decode_buffer_size 1 and read_buffer_size 1 (one decode and one read cycle)" },
    { "ldst.oc_ex", "1", "[M2S-SI] VectorMemoryUnit.cc: the memory stage retries its instruction's refused lanes every cycle (width 1)" },
    { NULL, NULL, NULL }
};

static const ck_preset_sources sourced_presets[] = {
    { "fermi-gtx480", fermi_gtx480_sources },
    { "kepler-k20x", kepler_k20x_sources },
    { "si-7970", si_7970_sources },
    { NULL, NULL }
};

const ck_source *gpu_preset_sources(const char *name)
{
    return ck_sources_of(sourced_presets, name);
}

/* A TITAN X (Pascal), GP102, sm_61: the GPU the shared Accel-Sim traces
 * were recorded on (binary version 61). The scheduler-core sizes are those
 * of kepler-k20x (64 warps, 4 schedulers, 8-bit ids, 2-entry buffers, 6
 * scoreboard entries, 4 writeback ports), which the RTL back end has. */
static void pascal_titanx(gpu_config *c)
{
    kepler_k20x_v1(c);                      /* scheduler-core sizes, watchdog */
    c->clock_mhz = 1417;                 /* [TXP] base clock */
    c->max_threads_per_block = 1024;     /* [CUDA6] cc 6.1 */
    c->max_smem_per_block = 48 * 1024;   /* [CUDA6] */
    c->max_regs_per_thread = 255;        /* [CUDA6] */
    c->max_regs_per_block = 65536;       /* [CUDA6] */
    c->max_threads_per_sm = 2048;        /* [CUDA6] */
    c->max_warps_per_sm = 64;            /* [CUDA6] */
    c->max_ctas_per_sm = 32;             /* [CUDA6] */
    c->regs_per_sm = 65536;              /* [CUDA6], [GP104] */
    c->reg_alloc_unit = 256;             /* [CUDA6] */
    c->smem_per_sm = 96 * 1024;          /* [GP104] */
    c->smem_alloc_unit = 256;            /* [CUDA6] */
    c->num_schedulers = 4;               /* [GP104]: 4 processing blocks */
    c->policy = GPU_POLICY_GTO;          /* assumed (GTO, as Accel-Sim's configs) */
    /* [GP104]: per processing block 32 FP32 cores (a warp per cycle) and 8
     * SFUs (ii 4); integer ops run on the FP32 cores (own unit here,
     * assumed); 4 FP64 units per SM on GP102 (1/32 rate: ii 8, shared).
     * Latencies as the Pascal opcode table (csrc/trace/sass_ops.c: 6 ALU
     * [JIA18], 14 SFU and 8 DP assumed); traces take theirs from the table. */
    unit(c, GPU_UNIT_SP, 1, 0, 6, 1);
    unit(c, GPU_UNIT_SFU, 1, 0, 14, 4);
    unit(c, GPU_UNIT_DPU, 0, 1, 8, 8);
    unit(c, GPU_UNIT_INT, 1, 0, 6, 1);
    unit(c, GPU_UNIT_LDST, 0, 1, 1, 1);
    unit(c, GPU_UNIT_BRANCH, 1, 0, 6, 1);
}

/* An RTX 2080 Ti, TU102, sm_75. Turing keeps 32 warps per SM ([CUDA6] cc
 * 7.5: 1024 threads): sm.max_threads = 1024 limits residency to 32 warps,
 * while the scheduler core keeps kepler-k20x's 64 slots so that the RTL back
 * end's Verilated model serves (a deviation with no effect on occupancy). */
static void turing_rtx2080ti(gpu_config *c)
{
    pascal_titanx(c);
    c->clock_mhz = 1350;                 /* [2080TI] base clock */
    c->max_threads_per_sm = 1024;        /* [CUDA6] cc 7.5 */
    c->max_ctas_per_sm = 16;             /* [CUDA6] cc 7.5 */
    c->smem_per_sm = 64 * 1024;          /* [TU]: 64 KB shared + 32 KB L1 */
    c->max_smem_per_block = 48 * 1024;   /* [CUDA6] (64 KB only with opt-in) */
    /* [TU]: per processing block 16 FP32 and 16 INT32 cores (ii 2 each, and
     * concurrent) and 4 SFUs (ii 8); 2 FP64 units per SM (ii 16, shared).
     * Latencies: 4 ALU/FP32 [JIA19]; SFU 14 and DP 8 assumed (sass_ops.c). */
    unit(c, GPU_UNIT_SP, 1, 0, 4, 2);
    unit(c, GPU_UNIT_SFU, 1, 0, 14, 8);
    unit(c, GPU_UNIT_DPU, 0, 1, 8, 16);
    unit(c, GPU_UNIT_INT, 1, 0, 4, 2);
    unit(c, GPU_UNIT_LDST, 0, 1, 1, 1);
    unit(c, GPU_UNIT_BRANCH, 1, 0, 4, 1);
}

int gpu_config_preset(gpu_config *cfg, const char *name, char *err, size_t errlen)
{
    gpu_config c;
    memset(&c, 0, sizeof c);
    if (strcmp(name, "kepler-k20x") == 0) {
        if (with_sources(&c, kepler_k20x_v1, kepler_k20x_sources, err, errlen) != 0)
            return -1;
    }
    else if (strcmp(name, "kepler-k20x-v1") == 0)
        kepler_k20x_v1(&c);
    else if (strcmp(name, "fermi-gtx480") == 0) {
        if (with_sources(&c, fermi_gtx480_v1, fermi_gtx480_sources, err, errlen) != 0)
            return -1;
    }
    else if (strcmp(name, "fermi-gtx480-v1") == 0)
        fermi_gtx480_v1(&c);
    else if (strcmp(name, "si-7970") == 0) {
        if (with_sources(&c, si_7970_v1, si_7970_sources, err, errlen) != 0)
            return -1;
    }
    else if (strcmp(name, "si-7970-v1") == 0)
        si_7970_v1(&c);
    else if (strcmp(name, "pascal-titanx") == 0)
        pascal_titanx(&c);
    else if (strcmp(name, "turing-rtx2080ti") == 0)
        turing_rtx2080ti(&c);
    else
        return smc_fail(err, errlen, "unknown GPU preset '%s' (kepler-k20x, kepler-k20x-v1, "
                    "fermi-gtx480, fermi-gtx480-v1, si-7970, si-7970-v1, pascal-titanx, "
                    "turing-rtx2080ti)", name);
    if (mem_config_preset(&c.mem, name, err, errlen) != 0)
        return -1;
    /* HAWS is off in every preset; the pass's options as spec C.9 #11,
     * #18, #33 recommend (docs/haws.md). */
    c.haws = GPU_HAWS_OFF;
    c.locality_warps = 1;                /* hints group warps (seed 000 §6.3.2) */
    c.haws_copy_latency = 2;             /* the core's minimum (issue -> dependent issue) */
    c.haws_rcu_depth = 8;                /* seed 000 §5.3.3 */
    c.haws_mem_hints = 1;
    c.haws_branch_hints = 1;
    c.haws_cross_stall_points = 0;
    c.haws_rename_occupancy = 1;
    c.haws_validate = 1;
    c.haws_hints_file[0] = '\0';
    /* the offload path: the netlist transport, no replay check (its k
     * when one is asked for: docs/offload.md, "Back end and modes") */
    snprintf(c.offload_transport, sizeof c.offload_transport, "netlist");
    c.check_rtl = GPU_CHECK_OFF;
    c.check_k = 1024;
    /* OAWS is off in every preset; the paper's parameters (seed 001 §4.2,
     * §4.3.1); ocw bounds 0 = the preset's schedulers and warps. */
    c.oaws = GPU_OAWS_OFF;
    c.oaws_smr = 50;
    c.oaws_dlc_entries = 32;
    c.oaws_cnt_max = 255;
    c.oaws_cnt_init = 128;
    c.oaws_ocw_min = 0;
    c.oaws_ocw_max = 0;
    c.oaws_delta = 0;
    /* the peers are off; their parameters are the paper's (seed 001 Table 3) */
    c.peer = GPU_PEER_NONE;
    c.ccws_base = 100;
    c.ccws_k_throttle = 8;
    c.ccws_vta_entries = 16;
    c.ccws_vta_ways = 8;
    c.mascar_reexec_entries = 32;     /* seed 001 §5: "The re-execution queue has 32 entries" */
    /* The emulator's warps are 32 threads wide (see si_7970 above). */
    c.mem.warp_size = 32;
    snprintf(c.preset, sizeof c.preset, "%s", name);
    *cfg = c;
    return 0;
}

int gpu_config_apply(gpu_config *cfg, const char *assignment, char *err, size_t errlen)
{
    size_t n;
    const ck_key *k = keys(&n);
    gpu_config tmp = *cfg;
    if (ck_apply(k, n, &tmp, assignment, err, errlen) != 0)
        return -1;
    *cfg = tmp;
    return 0;
}

int gpu_config_load_file(gpu_config *cfg, const char *path, char *err, size_t errlen)
{
    size_t n;
    const ck_key *k = keys(&n);
    gpu_config tmp = *cfg;
    if (ck_load_file(k, n, &tmp, path, err, errlen) != 0)
        return -1;
    *cfg = tmp;
    return 0;
}

static int is_preset(const char *s)
{
    for (size_t i = 0; gpu_preset_names[i]; i++)
        if (strcmp(s, gpu_preset_names[i]) == 0)
            return 1;
    return 0;
}

int gpu_config_load_spec(gpu_config *cfg, const char *spec, char *err, size_t errlen)
{
    gpu_config c;
    if (gpu_config_preset(&c, GPU_DEFAULT_PRESET, err, errlen) != 0)
        return -1;
    if (spec && *spec) {
        char *copy = strdup(spec);
        if (!copy)
            return smc_fail(err, errlen, "out of memory");
        int rc = 0;
        char *save = NULL;
        for (char *item = strtok_r(copy, ",", &save); item && rc == 0;
             item = strtok_r(NULL, ",", &save)) {
            if (strcmp(item, "default") == 0)
                item = GPU_DEFAULT_PRESET;
            if (is_preset(item))
                rc = gpu_config_preset(&c, item, err, errlen);
            else
                rc = gpu_config_load_file(&c, item, err, errlen);
        }
        free(copy);
        if (rc != 0)
            return -1;
    }
    *cfg = c;
    return 0;
}

int gpu_config_check(const gpu_config *c, char *err, size_t errlen)
{
    size_t n;
    const ck_key *k = keys(&n);
    if (ck_check(k, n, c, err, errlen) != 0)
        return -1;
    if (mem_config_check(&c->mem, err, errlen) != 0)
        return -1;
    if (c->mem.warp_size != 32)
        return smc_fail(err, errlen, "key 'mem.warp_size': %u is not supported by "
                    "the timing model (the emulator executes 32-thread warps)",
                    c->mem.warp_size);
    if (c->max_warps_per_sm % c->num_schedulers)
        return smc_fail(err, errlen, "key 'sm.max_warps': %u is not a multiple of "
                    "sched.num %u", c->max_warps_per_sm, c->num_schedulers);
    if (c->max_threads_per_sm > c->max_warps_per_sm * 32u)
        return smc_fail(err, errlen, "key 'sm.max_threads': %u exceeds sm.max_warps "
                    "x 32 = %u", c->max_threads_per_sm, c->max_warps_per_sm * 32u);
    if (c->warp_limit > c->max_warps_per_sm / c->num_schedulers)
        return smc_fail(err, errlen, "key 'sched.warp_limit': %u exceeds the %u warps "
                    "of a scheduler", c->warp_limit,
                    c->max_warps_per_sm / c->num_schedulers);
    if (c->ldst_id_oc && (!c->ldst_collectors || !c->ldst_oc_ex))
        return smc_fail(err, errlen, "key 'ldst.id_oc': %u needs ldst.collectors and "
                    "ldst.oc_ex of at least 1 (have %u, %u)", c->ldst_id_oc,
                    c->ldst_collectors, c->ldst_oc_ex);
    if (!c->ldst_id_oc && (c->ldst_collectors || c->ldst_oc_ex))
        return smc_fail(err, errlen, "key 'ldst.collectors': %u and ldst.oc_ex %u need "
                    "ldst.id_oc of at least 1 (0 turns the buffered LD/ST path off)",
                    c->ldst_collectors, c->ldst_oc_ex);
    if (c->oaws_smr % 5)
        return smc_fail(err, errlen, "key 'sched.oaws_smr': %u is not a multiple of 5 "
                    "(0..100 in steps of 5 %%)", c->oaws_smr);
    if (c->ccws_vta_entries % c->ccws_vta_ways)
        return smc_fail(err, errlen, "key 'sched.ccws_vta_entries': %u is not a multiple of "
                    "sched.ccws_vta_ways %u", c->ccws_vta_entries, c->ccws_vta_ways);
    if (c->oaws_cnt_init > c->oaws_cnt_max)
        return smc_fail(err, errlen, "key 'sched.oaws_cnt_init': %u exceeds "
                    "sched.oaws_cnt_max %u", c->oaws_cnt_init, c->oaws_cnt_max);
    {
        unsigned lo = c->oaws_ocw_min ? c->oaws_ocw_min : c->num_schedulers;
        unsigned hi = c->oaws_ocw_max ? c->oaws_ocw_max : c->max_warps_per_sm;
        if (lo > hi)
            return smc_fail(err, errlen, "key 'sched.oaws_ocw_min': %u exceeds "
                        "sched.oaws_ocw_max %u", lo, hi);
    }
    if (c->mem.clock_core_mhz && c->mem.clock_core_mhz != c->clock_mhz)
        return smc_fail(err, errlen, "key 'clock.core_mhz': %u MHz differs from gpu.clock_mhz "
                    "%u (the core clock is one clock; set both)", c->mem.clock_core_mhz,
                    c->clock_mhz);
    for (unsigned u = 0; u < GPU_UNIT_COUNT; u++)
        if (c->unit[u].private_units + c->unit[u].shared_units == 0)
            return smc_fail(err, errlen, "key 'unit.%s.shared': the SM has no %s "
                        "unit (private and shared are both 0)", unit_names[u],
                        unit_names[u]);
    if (c->unit[GPU_UNIT_SP].private_units * c->num_schedulers +
        c->unit[GPU_UNIT_SP].shared_units > 64)
        return smc_fail(err, errlen, "key 'unit.sp.shared': too many units");
    return 0;
}

int gpu_config_set_policy(gpu_config *cfg, const char *policy, char *err, size_t errlen)
{
    gpu_config tmp = *cfg;
    char *end;
    tmp.oaws = GPU_OAWS_OFF;
    tmp.peer = GPU_PEER_NONE;
    if (strcmp(policy, "lrr") == 0) {
        tmp.policy = GPU_POLICY_LRR;
        tmp.warp_limit = 0;
    } else if (strcmp(policy, "gto") == 0) {
        tmp.policy = GPU_POLICY_GTO;
        tmp.warp_limit = 0;
    } else if (strcmp(policy, "owl") == 0) {
        tmp.policy = GPU_POLICY_OWL;
        tmp.warp_limit = 0;
    } else if (strcmp(policy, "two-level") == 0) {
        tmp.policy = GPU_POLICY_TWO_LEVEL;
        tmp.warp_limit = 0;
    } else if (strncmp(policy, "two-level:", 10) == 0) {
        unsigned long v = strtoul(policy + 10, &end, 10);
        if (*end || v < 1 || v > 64)
            return smc_fail(err, errlen, "--policy '%s': pool size must be 1..64", policy);
        tmp.policy = GPU_POLICY_TWO_LEVEL;
        tmp.pool_size = (uint32_t)v;
        tmp.warp_limit = 0;
    } else if (strncmp(policy, "swl:", 4) == 0) {
        unsigned long v = strtoul(policy + 4, &end, 10);
        if (*end || v < 1 || v > 64)
            return smc_fail(err, errlen, "--policy '%s': warp limit must be 1..64", policy);
        tmp.policy = GPU_POLICY_GTO;
        tmp.warp_limit = (uint32_t)v;
    } else if (strcmp(policy, "oaws-static") == 0 || strncmp(policy, "oaws-static:", 12) == 0) {
        unsigned long v = 50;     /* seed 001 §4.2: "an SMR of 50% achieves the optimal" */
        if (policy[11] == ':') {
            v = strtoul(policy + 12, &end, 10);
            if (*end || policy[12] == '\0' || v > 100 || v % 5)
                return smc_fail(err, errlen, "--policy '%s': SMR must be 0..100 in steps of 5",
                            policy);
        }
        tmp.policy = GPU_POLICY_GTO;
        tmp.warp_limit = 0;
        tmp.oaws = GPU_OAWS_STATIC;
        tmp.oaws_smr = (uint32_t)v;
    } else if (strcmp(policy, "oaws-dyn") == 0) {
        tmp.policy = GPU_POLICY_GTO;
        tmp.warp_limit = 0;
        tmp.oaws = GPU_OAWS_DYNAMIC;
    } else if (strcmp(policy, "ccws") == 0 || strcmp(policy, "mascar") == 0) {
        /* the OAWS paper's peers run on GTO (seed 001 §5) */
        tmp.policy = GPU_POLICY_GTO;
        tmp.warp_limit = 0;
        tmp.peer = policy[0] == 'c' ? GPU_PEER_CCWS : GPU_PEER_MASCAR;
    } else {
        return smc_fail(err, errlen, "unknown policy '%s' (lrr, gto, two-level[:POOL], "
                    "owl, swl:N, oaws-static[:SMR], oaws-dyn, ccws, mascar)", policy);
    }
    *cfg = tmp;
    return 0;
}

const char *gpu_policy_string(const gpu_config *c, char *buf, size_t len)
{
    char base[24], oaws[24] = "";
    if (c->warp_limit)
        snprintf(base, sizeof base, "swl:%u", c->warp_limit);
    else
        snprintf(base, sizeof base, "%s", gpu_policy_name(c->policy));
    if (c->oaws == GPU_OAWS_STATIC)
        snprintf(oaws, sizeof oaws, "oaws-static:%u", c->oaws_smr);
    else if (c->oaws == GPU_OAWS_DYNAMIC)
        snprintf(oaws, sizeof oaws, "oaws-dyn");
    else if (c->peer == GPU_PEER_CCWS)
        snprintf(oaws, sizeof oaws, "ccws");
    else if (c->peer == GPU_PEER_MASCAR)
        snprintf(oaws, sizeof oaws, "mascar");
    if (!oaws[0])
        snprintf(buf, len, "%s", base);
    else if (c->policy == GPU_POLICY_GTO && !c->warp_limit)
        snprintf(buf, len, "%s", oaws);
    else
        snprintf(buf, len, "%s+%s", base, oaws);
    return buf;
}

/* A transport spec into sched.offload_transport. */
static int set_transport(gpu_config *cfg, const char *what, const char *spec, size_t n,
                         char *err, size_t errlen)
{
    if (n == 0 || n > GPU_OFFLOAD_SPEC_MAX)
        return smc_fail(err, errlen, "%s: the offload transport must be 1..%d characters",
                        what, GPU_OFFLOAD_SPEC_MAX);
    memcpy(cfg->offload_transport, spec, n);
    cfg->offload_transport[n] = '\0';
    return 0;
}

int gpu_config_set_backend(gpu_config *cfg, const char *name, char *err, size_t errlen)
{
    if (strncmp(name, "offload:", 8) == 0) {
        char what[300];
        snprintf(what, sizeof what, "--sched '%.280s'", name);
        if (set_transport(cfg, what, name + 8, strlen(name + 8), err, errlen) != 0)
            return -1;
        cfg->backend = GPU_SCHED_OFFLOAD;
        return 0;
    }
    for (uint32_t i = 0; backend_names[i]; i++)
        if (strcmp(name, backend_names[i]) == 0) {
            cfg->backend = i;
            return 0;
        }
    return smc_fail(err, errlen, "unknown scheduler back end '%s' (c, rtl, lockstep, "
                    "offload[:TRANSPORT])", name);
}

int gpu_config_set_check(gpu_config *cfg, const char *spec, char *err, size_t errlen)
{
    char what[300];
    snprintf(what, sizeof what, "--check-rtl '%.280s'", spec);
    if (strcmp(spec, "off") == 0) {
        cfg->check_rtl = GPU_CHECK_OFF;
        return 0;
    }
    if (strcmp(spec, "offload") != 0 && strncmp(spec, "offload:", 8) != 0)
        return smc_fail(err, errlen, "%s: expected off or offload[:TRANSPORT[:ARG]][:K]", what);
    gpu_config c = *cfg;
    const char *rest = spec[7] ? spec + 8 : "";
    size_t n = strlen(rest);
    /* K: the last field, when it is all digits */
    const char *last = strrchr(rest, ':');
    last = last ? last + 1 : rest;
    if (*last && strspn(last, "0123456789") == strlen(last)) {
        unsigned long k = strtoul(last, NULL, 10);
        if (strlen(last) > 7 || k < 1 || k > (1ul << 20))
            return smc_fail(err, errlen, "%s: K must be 1..%lu cycles", what, 1ul << 20);
        c.check_k = (uint32_t)k;
        n = last > rest ? (size_t)(last - rest - 1) : 0;
    }
    if (n && set_transport(&c, what, rest, n, err, errlen) != 0)
        return -1;
    c.check_rtl = GPU_CHECK_OFFLOAD;
    *cfg = c;
    return 0;
}

void gpu_config_print(const gpu_config *cfg, FILE *out)
{
    size_t n;
    const ck_key *k = keys(&n);
    fprintf(out, "# smcosim GPU configuration (preset %s)\n", cfg->preset);
    const ck_source *tables[3] = { gpu_preset_sources(cfg->preset),
                                   mem_preset_sources(cfg->preset), NULL };
    if (tables[0] || tables[1])
        fprintf(out, "# \"source:\" under a value says where the preset's value comes from\n"
                     "# (docs/config.md lists the tags)\n");
    mem_probe_print(&cfg->mem, out);
    ck_print_sourced(k, n, cfg, sizeof *cfg, tables[0] ? tables : tables + 1, out);
}

void gpu_config_markdown(const gpu_config *cfg, FILE *out)
{
    size_t n;
    const ck_key *k = keys(&n);
    ck_markdown(k, n, cfg, out);
}
