/*
 * gpu_config.h — the configuration of the simulated GPU (issue 5).
 *
 * One plain struct holds everything the timing model needs: occupancy limits
 * of an SM, the scheduler core's parameters and policy, the functional units,
 * and the memory hierarchy (an embedded mem_config, whose keys keep their own
 * names: "l1d.sets", "mem.num_sms", ...). It is described once by a key table
 * built on csrc/util/config_keys (the same mechanism the memory model uses),
 * so presets, "key=value" overrides, config files, printing and the Markdown
 * table in docs/config.md all come from that one table.
 *
 * The SM count and the warp width are the memory model's keys mem.num_sms and
 * mem.warp_size: there is exactly one place for each.
 *
 * Presets (sources in gpu_config.c, next to every number):
 *   kepler-k20x   seed 000 Tables 4.1 and 6.3, §4.3.1 (default)
 *   fermi-gtx480  seed 001 (OAWS) Table 1
 *   si-7970       seed 000 Table 5.2
 */
#ifndef SMC_GPU_CONFIG_H
#define SMC_GPU_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../mem-model/mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Functional-unit kinds of the SM (seed 000 §4.3.1: SPU, SFU, DPU, IMU, LSU,
 * BRU). Every instruction class of the emulator maps onto one of them. */
enum gpu_unit {
    GPU_UNIT_SP = 0,      /* single-precision ALU (also plain integer ALU ops) */
    GPU_UNIT_SFU,         /* special functions */
    GPU_UNIT_DPU,         /* double precision */
    GPU_UNIT_INT,         /* integer math unit (mul, div, rem, bit ops) */
    GPU_UNIT_LDST,        /* load/store: the memory model's unit (no keys here) */
    GPU_UNIT_BRANCH,      /* branches, barriers, exit, warp-level ops */
    GPU_UNIT_COUNT
};
const char *gpu_unit_name(unsigned unit);   /* "sp", "sfu", ... */

/* How a PTX instruction's latency, initiation interval and unit are chosen
 * (key unit.opcode_latency): per unit kind (unit.KIND.*), or as GPGPU-Sim
 * 3.2.1 does per opcode (gpu_g321_op). */
enum gpu_opcode_latency { GPU_OPLAT_UNIT = 0, GPU_OPLAT_G321 };
/* The operand type an opcode's latency column is chosen by. */
enum gpu_op_type { GPU_OPT_INT = 0, GPU_OPT_FP32, GPU_OPT_FP64 };
/* GPGPU-Sim 3.2.1's timing of an ALU/SFU PTX opcode (ptx_op: enum ptx_op of
 * csrc/ptx/ptx.h) with the GTX480 configuration's -ptx_opcode_latency_* and
 * -ptx_opcode_initiation_* columns (cuda-sim.cc set_opcode_and_latency):
 * *kind GPU_UNIT_SP (its ALU and ALU_SFU pipe) or GPU_UNIT_SFU; *latency
 * the cycles from issue to a dependent's issue: the unit's latency +
 * c->issue_stages, at least 2 (the core's writeback is an edge after the
 * issue); *ii. */
struct gpu_config;
void gpu_g321_op(const struct gpu_config *c, unsigned ptx_op, unsigned type, unsigned *kind,
                 unsigned *latency, unsigned *ii);

/* One kind of functional unit. Each scheduler owns `private_units` of them;
 * `shared_units` more are shared by all schedulers of the SM (Kepler,
 * seed 000 §4.3.1 and §4.4.2). A unit accepts a new warp-instruction every
 * `ii` cycles (initiation interval: 32 lanes / lanes per unit) and delivers
 * its result `latency` cycles after issue. */
typedef struct gpu_unit_config {
    uint32_t private_units;
    uint32_t shared_units;
    uint32_t latency;
    uint32_t ii;
} gpu_unit_config;

/* GPU_POLICY_OWL: the core's grouped policy over CTA groups with group_prio 1
 * (docs/locality.md, "OWL"); the others are the core's policy numbers. */
enum gpu_policy { GPU_POLICY_LRR = 0, GPU_POLICY_GTO, GPU_POLICY_TWO_LEVEL, GPU_POLICY_OWL };
enum gpu_sched_backend { GPU_SCHED_C = 0, GPU_SCHED_RTL, GPU_SCHED_LOCKSTEP, GPU_SCHED_OFFLOAD };
/* sched.check_rtl (docs/offload.md, "Back end and modes") */
enum gpu_check_rtl { GPU_CHECK_OFF = 0, GPU_CHECK_OFFLOAD };
#define GPU_OFFLOAD_SPEC_MAX 255   /* sched.offload_transport, bytes */
enum gpu_dispatch { GPU_DISPATCH_ROUND_ROBIN = 0 };
/* gpu.locality_hint: "launch" = each launch's own hint (smc_launch_ext,
 * --locality); GPU_LOCALITY_FORCE + h forces hint h (0..3, seed 000 Table
 * 6.1) on every launch; GPU_LOCALITY_AUTO: the type detected from the
 * kernel's first launch (csrc/timing/locality_detect.c). */
enum gpu_locality { GPU_LOCALITY_LAUNCH = 0, GPU_LOCALITY_FORCE = 1, GPU_LOCALITY_AUTO = 5 };
/* sched.haws (docs/haws.md; spec C.9 #1): HAWS off, entered per warp when
 * its head waits on a long-latency load (§5.3.3), or only when the warp's
 * scheduler issued nothing that cycle (the "all warps stalled" reading). */
enum gpu_haws { GPU_HAWS_OFF = 0, GPU_HAWS_WARP, GPU_HAWS_ALL };
#define GPU_HAWS_PATH_MAX 255
/* sched.oaws (docs/oaws.md; seed 001): memory-occlusion-aware qualification
 * on top of the policy: off, static (fixed miss rate), dynamic (OCW). */
enum gpu_oaws { GPU_OAWS_OFF = 0, GPU_OAWS_STATIC, GPU_OAWS_DYNAMIC };
/* sched.peer (docs/oaws.md, "Peers"): OAWS's peers, on top of the policy;
 * the values are the core's input `peer`. */
enum gpu_peer { GPU_PEER_NONE = 0, GPU_PEER_CCWS = 1, GPU_PEER_MASCAR = 2 };

/* Where device allocations (cudaMalloc, cudaMallocManaged) go: whole
 * pages, first fit, freed memory reused (smcosim's own); or as GPGPU-Sim's
 * gpgpu_t::gpu_malloc: upward from a 1-GiB boundary, each rounded up to
 * 256 bytes, never reused. The layout decides the buffers' address bits
 * below 1 GiB, and with them cache sets and memory partitions. */
enum gpu_malloc_layout { GPU_MALLOC_PAGES = 0, GPU_MALLOC_GPGPUSIM = 1 };

typedef struct gpu_config {
    char     preset[32];          /* preset it started from (not a key) */
    uint32_t clock_mhz;

    /* Launch limits (GPUDIAG Eq. 3.1). */
    uint32_t max_threads_per_block;
    uint32_t max_smem_per_block;
    uint32_t max_regs_per_thread;
    uint32_t max_regs_per_block;

    /* SM state buffers (GPUDIAG Eq. 3.3). */
    uint32_t max_threads_per_sm;
    uint32_t max_warps_per_sm;    /* N2; also the scheduler core's NumWarps */
    uint32_t max_ctas_per_sm;     /* N1: barrier slots = CTA slots */
    uint32_t regs_per_sm;         /* R */
    uint32_t reg_alloc_unit;      /* r_min: registers per warp are rounded up to it */
    uint32_t smem_per_sm;         /* S */
    uint32_t smem_alloc_unit;     /* s_min */

    /* CTA dispatcher. */
    uint32_t dispatch;            /* enum gpu_dispatch: launches with hint 0 */
    uint32_t locality_hint;       /* enum gpu_locality (docs/locality.md) */
    uint32_t dispatch_chunk;      /* locality placement: CTAs per chunk, 0 = auto */
    uint32_t locality_warps;      /* hints 1..3 also group warps (grouped policy) */
    uint32_t dispatch_persist;    /* round-robin pointers kept from launch to launch */
    uint32_t malloc_layout;       /* enum gpu_malloc_layout: where cudaMalloc puts buffers */

    /* Scheduler core (sched_params and inputs). */
    uint32_t num_schedulers;
    uint32_t ibuf_depth;
    uint32_t sb_entries;
    uint32_t wb_ports;
    uint32_t reg_id_width;
    uint32_t policy;              /* enum gpu_policy */
    uint32_t warp_limit;          /* SWL: 0 = none */
    uint32_t pool_size;           /* two-level: active pool per scheduler */
    uint32_t backend;             /* enum gpu_sched_backend */
    /* The offload back end and the replay check (docs/offload.md): the
     * transport "name[:arg]" of both, whether a run of c/rtl/lockstep is
     * checked against it, and the cycles per check exchange. */
    char     offload_transport[GPU_OFFLOAD_SPEC_MAX + 1];
    uint32_t check_rtl;           /* enum gpu_check_rtl */
    uint32_t check_k;

    gpu_unit_config unit[GPU_UNIT_COUNT];
    /* The buffered path of memory instructions between issue and the LD/ST
     * unit (csrc/timing/ldst_path.c; GPGPU-Sim's ID_OC_MEM pipeline
     * register, memory operand-collector units, OC_EX_MEM). ldst_id_oc 0:
     * no path, an issued memory instruction enters the unit at once and the
     * unit is offered only when it is free. */
    uint32_t opcode_latency;      /* enum gpu_opcode_latency */
    uint32_t issue_stages;        /* cycles the pipeline adds to an ALU/SFU latency */
    uint32_t ldst_id_oc;          /* ID_OC_MEM entries */
    uint32_t ldst_collectors;     /* memory collector units */
    uint32_t ldst_oc_ex;          /* OC_EX_MEM entries */

    /* The watchdog (docs/emulator.md "No progress"): progress is a warp
     * exiting, a barrier completing or a CTA starting. A launch is reported
     * hung (SMC_ERR_LAUNCH_TIMEOUT) when one warp executes watchdog_insts
     * warp-instructions (both modes), or watchdog_cycles cycles pass (timing
     * mode), without progress. */
    uint64_t watchdog_insts;
    uint64_t watchdog_cycles;
    uint32_t progress_seconds;    /* progress line on stderr every N s (0 = never) */
    uint32_t stats_per_sm;        /* statistics also per SM (docs/statistics.md) */

    /* HAWS (docs/haws.md): the mode, and the hint pass's options
     * (hints/haws_pass.h haws_opts_from_config). With haws = off nothing
     * else here has an effect. */
    uint32_t haws;                /* enum gpu_haws */
    uint32_t haws_rcu_depth;      /* RCU entries per warp (core RcuDepth) */
    uint32_t haws_copy_latency;   /* cycles of a return-pass copy (C.9 #18) */
    uint32_t haws_mem_hints;      /* memory instructions may be chain members */
    uint32_t haws_branch_hints;   /* uniform branches may be chain members */
    uint32_t haws_cross_stall_points; /* a later stall point is skipped, not an end (C.9 #33) */
    uint32_t haws_rename_occupancy;   /* occupancy counts the renaming pool (C.9 #11) */
    uint32_t haws_validate;       /* the validator rejects unsafe hints */
    char     haws_hints_file[GPU_HAWS_PATH_MAX + 1];  /* hand-written hints ("" = none) */

    /* OAWS (docs/oaws.md; seed 001). With oaws = off nothing else here has
     * an effect. The values are csrc/timing/oaws.h's oaws_params. */
    uint32_t oaws;                /* enum gpu_oaws */
    uint32_t oaws_smr;            /* static: miss rate, percent, 0..100 in steps of 5 */
    uint32_t oaws_dlc_entries;    /* DLC entries per SM (paper 32) */
    uint32_t oaws_cnt_max;        /* Cmax (paper 255) */
    uint32_t oaws_cnt_init;       /* CNT at launch (paper 128) */
    uint32_t oaws_ocw_min;        /* OCW's lower bound, 0 = sched.num (paper 2) */
    uint32_t oaws_ocw_max;        /* OCW's upper bound, 0 = sm.max_warps (paper 48) */
    uint32_t oaws_delta;          /* enum oaws_delta: auto, one, half */
    /* Peers of OAWS (docs/oaws.md, "Peers"; seed 001 §5, Table 3). With
     * peer = none nothing else here has an effect. */
    uint32_t peer;                /* enum gpu_peer */
    uint32_t ccws_base;           /* CCWS base score (Table 3: 100) */
    uint32_t ccws_k_throttle;     /* CCWS K_THROTTLE (Table 3: 8): a VTA hit adds K x base */
    uint32_t ccws_vta_entries;    /* VTA tags per warp (Table 3: 16) */
    uint32_t ccws_vta_ways;       /* VTA associativity (Table 3: 8) */
    uint32_t mascar_reexec_entries;   /* MASCAR re-execution queue per SM, 0 = off (§5: 32) */

    mem_config mem;
} gpu_config;

extern const char *const gpu_preset_names[];   /* NULL-terminated */
#define GPU_DEFAULT_PRESET "kepler-k20x"

/* Fill cfg with a preset. -1 and a message naming it when unknown. */
int gpu_config_preset(gpu_config *cfg, const char *name, char *err, size_t errlen);
/* One "key=value". cfg is unchanged on error. */
int gpu_config_apply(gpu_config *cfg, const char *assignment, char *err, size_t errlen);
/* A file of "key = value" lines on top of cfg; errors name file:line and key. */
int gpu_config_load_file(gpu_config *cfg, const char *path, char *err, size_t errlen);
/* A comma-separated list of presets and files, applied in order on top of the
 * default preset: "fermi-gtx480", "my.cfg", "si-7970,fast.cfg". NULL or ""
 * gives the default preset. */
int gpu_config_load_spec(gpu_config *cfg, const char *spec, char *err, size_t errlen);
/* Ranges of every key and the cross-key rules (multiples, powers of two). */
int gpu_config_check(const gpu_config *cfg, char *err, size_t errlen);

/* --policy syntax: lrr | gto | two-level[:POOL] | swl:N (GTO limited to
 * the first N alive warps of the SM, by id: the core's warp limit) |
 * oaws-static[:SMR] (GTO + static OAWS, SMR percent, default 50) | oaws-dyn
 * (GTO + dynamic OAWS). Every form sets sched.oaws (off unless oaws-*). */
int gpu_config_set_policy(gpu_config *cfg, const char *policy, char *err, size_t errlen);
/* --sched: c | rtl | lockstep | offload[:TRANSPORT[:ARG]] (the transport
 * goes into sched.offload_transport). */
int gpu_config_set_backend(gpu_config *cfg, const char *name, char *err, size_t errlen);
/* --check-rtl: off | offload[:TRANSPORT[:ARG]][:K] (sched.check_rtl,
 * sched.offload_transport, sched.check_k; K is the last field when it is a
 * number). */
int gpu_config_set_check(gpu_config *cfg, const char *spec, char *err, size_t errlen);
const char *gpu_policy_name(unsigned policy);
const char *gpu_backend_name(unsigned backend);
const char *gpu_haws_name(unsigned haws);   /* "off", "warp", "all" */
/* The policy as statistics name it: "gto", "swl:4", "oaws-static:50",
 * "oaws-dyn", "lrr+oaws-dyn", ... (buf of len bytes). */
const char *gpu_policy_string(const gpu_config *cfg, char *buf, size_t len);

/* The preset as a table of values with their sources (ck_source), or NULL
 * for a preset written as code (its sources are comments there). */
struct ck_source;
const struct ck_source *gpu_preset_sources(const char *name);
void gpu_config_print(const gpu_config *cfg, FILE *out);     /* valid config-file text */
void gpu_config_markdown(const gpu_config *cfg, FILE *out);  /* docs/config.md table */

#ifdef __cplusplus
}
#endif
#endif
