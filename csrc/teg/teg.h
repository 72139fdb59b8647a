/*
 * teg.h — TEG, the trace-driven analytical timing estimator of seed 003
 * (J. Lai's thesis, ch. 3; ../shared/design/teg.md; docs/teg.md).
 *
 * TEG does not simulate a pipeline. It walks a kernel's dynamic instruction
 * trace warp by warp and issues each warp-instruction as soon as its source
 * and destination registers are ready, its warp is not busy and a unit of
 * its kind accepts it, one issue per engine slot; each instruction class
 * has three numbers (Table 3.1): its execution latency (to a dependent's
 * issue), the unit's accept interval ("multiple-warp issue latency") and the
 * warp's busy time after issuing it ("same-warp issue latency"). Shared
 * accesses add bank-conflict passes; global accesses queue for Little's-law
 * caps on bytes in flight per TPC group and per channel (Eq. 3.1).
 *
 * The input is any instruction source of the timing model
 * (csrc/timing/inst_source.h): an Accel-Sim trace, or an exported one.
 */
#ifndef SMC_TEG_H
#define SMC_TEG_H

#include <stdint.h>
#include <stdio.h>

#include "inst_source.h"

/* TEG's instruction classes (teg.md §5.3, "Parameters"): each has a unit and
 * three latencies. X(id, key name, Table 3.1 row or what it covers). */
#define TEG_CLASSES(X)                                                   \
    X(INT,     "int",     "integer and logic ALU, 16/24-bit multiply")   \
    X(INT_MUL, "int_mul", "32-bit integer multiply, multiply-add")       \
    X(FP32,    "fp32",    "single-precision add, multiply-add")          \
    X(FMUL,    "fmul",    "single-precision multiply")                   \
    X(FP64,    "fp64",    "double precision")                            \
    X(SFU,     "sfu",     "special functions")                           \
    X(CONV,    "conv",    "conversions")                                 \
    X(SMEM,    "smem",    "shared-memory access")                        \
    X(GLOAD,   "gload",   "global load or atomic")                       \
    X(GSTORE,  "gstore",  "global store")                                \
    X(LMEM,    "lmem",    "local-memory access")                         \
    X(CONST,   "const",   "constant or parameter load")                  \
    X(BRANCH,  "branch",  "branch, barrier, exit, no-op")                \
    X(S2R,     "s2r",     "special-register read")

enum teg_class {
#define TEG_CLASS_ENUM(id, key, doc) TEG_##id,
    TEG_CLASSES(TEG_CLASS_ENUM)
#undef TEG_CLASS_ENUM
    TEG_CLASS_COUNT
};
extern const char *const teg_class_names[TEG_CLASS_COUNT];

/* Units are the timing model's kinds (enum gpu_unit: sp, sfu, dpu, int,
 * ldst, branch), so that a set derived from a preset uses its counts. */
#define TEG_UNIT_COUNT 6

typedef struct teg_class_params {
    uint32_t unit;        /* enum gpu_unit */
    uint32_t exec;        /* issue to a dependent's issue (memory: see smem/gmem) */
    uint32_t accept;      /* the unit takes its next warp-instruction this much later */
    uint32_t warp_busy;   /* the warp issues its next instruction this much later */
} teg_class_params;

typedef struct teg_unit_params {
    uint32_t private_units;   /* per engine */
    uint32_t shared_units;    /* per SM, any engine */
} teg_unit_params;

enum teg_policy { TEG_POLICY_LRR = 0, TEG_POLICY_GTO };
#define TEG_SB_MAX 16             /* teg.sb_entries at most (sched.sb_entries' range) */
enum teg_regbank { TEG_REGBANK_NONE = 0, TEG_REGBANK_KEPLER4 };

/* What-ifs (003 L1124, L1643): one bottleneck switched off. */
enum teg_whatif {
    TEG_WHATIF_SMEM_CONFLICT_FREE = 1u << 0,  /* shared accesses take the fewest passes */
    TEG_WHATIF_COALESCED          = 1u << 1,  /* global accesses move the fewest bytes */
    TEG_WHATIF_NO_CHANNEL_SKEW    = 1u << 2,  /* no per-channel cap */
    TEG_WHATIF_REGBANK            = 1u << 3,  /* the kepler4 register-bank rule on */
};

typedef struct teg_params {
    char     name[64];            /* "gt200", "from-config kepler-k20x", a file */
    /* the machine */
    uint32_t sms;
    uint32_t max_warps, max_ctas, regs, smem_bytes;   /* per SM, for occupancy */
    uint32_t engines;             /* issue engines (schedulers) per SM */
    uint32_t issue_interval;      /* cycles between an engine's issue slots */
    uint32_t policy;              /* enum teg_policy */
    uint32_t sb_entries;          /* pending writes per warp, 0: no cap (G6) */
    uint32_t barrier_lat;         /* release after the last arrival (G17) */
    uint32_t regbank;             /* enum teg_regbank */
    uint32_t exec_from_source;    /* an instruction's own latency (SASS table) wins */
    /* from-config only: each non-memory instruction's unit, exec and accept
     * as the cycle model decides them (timing_unit_of, csrc/timing/units.h:
     * per opcode under unit.opcode_latency = g321), not its class's; the
     * configuration must outlive the runs. NULL: the class's. Setting a
     * class's unit, exec or accept (a --param) sets it NULL. Not a key. */
    const struct gpu_config *units_cfg;
    teg_class_params cls[TEG_CLASS_COUNT];
    teg_unit_params  unit[TEG_UNIT_COUNT];
    /* shared memory (003 L1099; G9) */
    uint32_t smem_latency, smem_banks, smem_bank_bytes, smem_group;
    double   smem_pass_cycles;    /* per pass beyond one per group */
    /* global memory (003 L969, L1075-1109; G10-G12) */
    uint32_t gmem_latency, gmem_sector_bytes, gmem_group, gmem_sms_per_group;
    uint32_t gmem_inflight_bytes;           /* per group of SMs (a TPC) */
    uint32_t gmem_channels, gmem_channel_bytes, gmem_channel_inflight_bytes;
} teg_params;

/* The thesis's GT200 set (Table 3.1, §2.1's memory numbers; G8-G12 for what
 * it does not give, marked ASSUMED in teg_params.c). */
void teg_params_gt200(teg_params *p);

/* The set of a timing-model configuration (teg.md §5.3, `from-config`):
 * its SMs, schedulers, units and memory; what it cannot say is ASSUMED
 * (docs/teg.md). */
struct gpu_config;
void teg_params_from_config(teg_params *p, const struct gpu_config *cfg);
/* The unit kind from-config runs kind u on: u, or the SPs where the
 * configuration has no unit of kind u (the LD/ST unit always exists). */
unsigned teg_config_unit(const struct gpu_config *cfg, unsigned u);

/* One "teg.KEY = VALUE" (the "teg." prefix optional). 0, or -1 with a
 * message naming the key. */
int teg_params_apply(teg_params *p, const char *assignment, char *err, size_t errlen);
/* A file of "key = value" lines (# comments); errors name file and line. */
int teg_params_load_file(teg_params *p, const char *path, char *err, size_t errlen);
/* Consistency (non-zero counts, units that exist). */
int teg_params_check(const teg_params *p, char *err, size_t errlen);
/* Every key as a file that teg_params_load_file reads back. */
void teg_params_print(const teg_params *p, FILE *out);
/* Table 3.1's layout: the nine rows, then the other classes. */
void teg_params_table(const teg_params *p, FILE *out);

/* The class of an instruction (a SASS name decides where it says more than
 * the operation class: FMUL, S2R, IMUL/IMAD, conversions). */
enum teg_class teg_class_of(const emu_inst_info *in);

/* ---- a run --------------------------------------------------------------- */

/* What an engine's issue slots went to (teg.md §5.3, "Outputs"; the names
 * follow cosim/sched_reasons.def where they exist). A slot that does not
 * issue takes the reason of the warp that is nearest to issuing. */
#define TEG_SLOTS(X)                                                              \
    X(ISSUE,      "issue",          "a warp-instruction issued")                   \
    X(NO_INSTR,   "no_instr",       "no warp with an instruction left")            \
    X(DEPENDENCY, "dependency",     "a register not yet written")                  \
    X(DEP_MEM,    "dependency_mem", "a register a queued global access will write") \
    X(WARP_BUSY,  "warp_busy",      "the warp's same-warp issue latency")          \
    X(SCOREBOARD, "scoreboard",     "no free scoreboard entry (sb_entries)")       \
    X(UNIT_BUSY,  "unit_busy",      "no unit of its kind accepts")                 \
    X(BARRIER,    "barrier",        "every warp with an instruction waits at a barrier") \
    X(REGBANK,    "regbank",        "the kepler4 rule's extra slots after an issue")

enum teg_slot {
#define TEG_SLOT_ENUM(id, key, doc) TEG_SLOT_##id,
    TEG_SLOTS(TEG_SLOT_ENUM)
#undef TEG_SLOT_ENUM
    TEG_SLOT_COUNT
};
extern const char *const teg_slot_names[TEG_SLOT_COUNT];

typedef struct teg_unit_stats {
    uint64_t issued;              /* warp-instructions */
    uint64_t busy;                /* unit-cycles not accepting (sum of accept intervals) */
} teg_unit_stats;

typedef struct teg_result {
    char     kernel[128];
    uint64_t cycles;              /* launch to the last completion */
    uint64_t warp_insts, thread_insts;
    uint32_t ctas, ctas_per_sm;
    teg_unit_stats unit[TEG_UNIT_COUNT];
    uint64_t class_insts[TEG_CLASS_COUNT];
    uint64_t smem_extra_passes;   /* passes beyond one per half-warp group */
    uint64_t gmem_bytes;          /* bytes moved by global accesses */
    uint64_t gmem_queued;         /* transactions that waited for a cap */
    uint64_t regbank_conflicts[4];/* instructions by degree 1..3 (index 1..3) */
    uint64_t slots[TEG_SLOT_COUNT];/* engine issue slots, all engines of all SMs */
} teg_result;

typedef struct teg_opts {
    uint32_t whatif;              /* enum teg_whatif bits */
    FILE    *pc_trace;            /* NULL, or "cycle,sm,warp,pc" per issue */
    FILE    *load;                /* NULL, or SM 0's warp-instructions in flight per
                                     unit, "cycle,sp,sfu,dpu,int,ldst,branch" every
                                     load_every cycles (Figs. 3.9-3.15) */
    uint32_t load_every;
} teg_opts;

/* Estimate one launch of `src` (grid/block and resources as for
 * timing_run_source). 0, or -1 with a message (a fault of the source, out of
 * memory, a launch that does not fit). */
int teg_run_source(const teg_params *p, const teg_opts *o, const inst_source *src,
                   const char *kernel_name, const timing_kernel_req *req,
                   smc_dim3 grid, smc_dim3 block, teg_result *out, char *err, size_t errlen);

/* The kepler4 register-bank rule (003 L1373; G25): the largest number of
 * distinct source registers of `in` (RZ excluded) that share one of the four
 * banks, bank(R) = 2*((R>>2)&1) + (R&1); 1 when the opcode is not one the
 * rule was measured on, or with fewer than two sources. */
uint32_t teg_regbank_degree(const emu_inst_info *in);

#endif
