/*
 * timing.h — the cycle-level GPU/SM timing model (issue 5).
 *
 * A timing_gpu joins three parts, cycle by cycle:
 *   - the functional emulator (csrc/emu/): instructions are decoded with
 *     emu_warp_peek and executed with emu_warp_execute at the cycle the
 *     scheduler issues them, so results are those of functional mode;
 *   - one scheduler core per SM (cosim/sched_if.h), C model, Verilated RTL or
 *     both in lockstep;
 *   - the memory hierarchy (mem-model/mem.h).
 * docs/timing-model.md describes the pipeline and what is modelled;
 * docs/statistics.md explains every statistic.
 */
#ifndef SMC_TIMING_H
#define SMC_TIMING_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu_config.h"
#include "../emu/emu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- occupancy and launch limits (GPUDIAG Eq. 3.1-3.3) ------------------ */

#define TIMING_LOCALITY_AUTO 4u

typedef struct timing_kernel_req {
    uint32_t threads_per_cta;     /* B */
    uint32_t regs_per_thread;     /* r (per thread; per warp = 32 r) */
    uint32_t smem_per_cta;        /* s: static + dynamic */
    uint64_t num_ctas;            /* G */
    uint32_t locality_hint;       /* seed 000 Table 6.1: 0 = none, 1..3 = the
                                     locality type (CTA placement, dispatch.c;
                                     gpu.locality_hint overrides it);
                                     TIMING_LOCALITY_AUTO = detect it
                                     (--locality KERNEL=auto) */
    /* HAWS (statistics only; 0 = regs_per_thread): the kernel's own
     * registers per thread and those with the renaming pool. regs_per_thread
     * above is what occupancy uses (the latter when haws.rename_occupancy). */
    uint32_t regs_per_thread_own, regs_per_thread_haws;
} timing_kernel_req;

typedef struct timing_occupancy {
    uint32_t warps_per_cta;       /* b = ceil(B / 32) */
    uint32_t regs_per_warp;       /* ceil(32 r, r_min) */
    uint32_t smem_per_cta;        /* ceil(s, s_min) */
    uint32_t limit_ctas, limit_warps, limit_threads, limit_regs, limit_smem;
    uint32_t ctas_per_sm;         /* N_slot = min of the limits (Eq. 3.3) */
    const char *limiter;          /* "ctas", "warps", "threads", "registers", "shared memory" */
    uint64_t waves;               /* ceil(ceil(G / n_mp) / N_slot) (Eq. 3.2) */
} timing_occupancy;

/* Eq. 3.1 (launch limits) then Eq. 3.3. SMC_OK, or the status a GPU returns
 * (SMC_ERR_INVALID_CONFIGURATION for too many threads per block,
 * SMC_ERR_LAUNCH_OUT_OF_RESOURCES for registers/shared memory, also when not
 * even one CTA fits an SM) with a message naming the limit. */
smc_status timing_occupancy_compute(const gpu_config *cfg, const timing_kernel_req *req,
                                    timing_occupancy *out, char *msg, size_t msglen);

/* ---- statistics of one launch ------------------------------------------- */

enum timing_slot {                /* = enum sched_reason (cosim/sched_reasons.def) */
#define SCHED_REASON(id, code, name, ts, stat, doc) TS_##ts = code,
#include "../../cosim/sched_reasons.def"
    TS_COUNT
};
extern const char *const timing_slot_names[TS_COUNT];

/* HAWS statistics of one launch (docs/statistics.md, "haws"; seed 000
 * Figs. 5.11-5.15). */
typedef struct timing_haws_stats {
    uint32_t on;                  /* sched.haws was on (1 warp, 2 all) */
    uint32_t regs_per_thread;     /* the kernel's own registers per thread */
    uint32_t regs_per_thread_haws;/* ... with the renaming pool (occupancy uses it
                                     when haws.rename_occupancy = 1) */
    uint64_t entries;             /* hint-mode episodes started */
    uint64_t exits;               /* episodes ended (load returned or chain done) */
    uint64_t hinted_issues;       /* chain members issued in hint mode */
    uint64_t hinted_alu;          /* ... of them not memory, not branches */
    uint64_t hinted_mem;          /* ... memory instructions */
    uint64_t hinted_long_mem;     /* ... long-latency memory instructions */
    uint64_t hinted_branches;     /* ... uniform branches (evaluated, re-executed later) */
    uint64_t skips;               /* return pass: done instructions stepped over */
    uint64_t copies;              /* return pass: renamed results copied back */
    uint64_t reexec;              /* return pass: hinted branches executed in order */
    uint64_t flushed;             /* chain members fetched but flushed unissued */
    uint64_t renamed;             /* members that wrote a renamed register */
    uint64_t mode_warp_cycles;    /* sum over cycles of the warps in hint mode */
    uint64_t alu_insts;           /* all executed ALU warp-instructions (Fig. 5.14's base) */
    uint64_t long_mem_insts;      /* all executed long-latency memory warp-instructions
                                     (Fig. 5.15's base) */
} timing_haws_stats;

/* OAWS statistics of one launch (docs/oaws.md, "Statistics"; seed 001
 * Figs. 9-11). Loads are global/local loads that occupied the LD/ST unit;
 * "fully cached" = no L1 miss among its accesses (merges count as misses). */
typedef struct timing_oaws_stats {
    uint32_t on;                  /* sched.oaws (1 static, 2 dynamic) */
    uint32_t smr;                 /* static miss rate, percent */
    uint64_t div_loads, div_fully_cached;   /* divergent (coalescer: > 2 lines) */
    uint64_t coh_loads, coh_fully_cached;   /* coherent */
    uint64_t div_replay_mshr, div_replay_icnt;  /* replay cycles of divergent loads */
    uint64_t coh_replay_mshr, coh_replay_icnt;  /* ... of coherent loads */
    uint64_t pred_div_loads;      /* loads issued predicted divergent (pc in the DLC) */
    uint64_t pred_div_replay_mshr;/* ... their MSHR replay cycles */
    uint64_t pred_div_min_avail;  /* ... the fewest free MSHRs at one's issue edge */
    uint64_t eff_issued;          /* sum of eff_miss of issued LD/ST instructions */
    uint64_t eff_retired;         /* ... given back at retire (equal at the end) */
    uint64_t offers_redirected;   /* LD/ST offers given to another scheduler because
                                     the round-robin one's LD/ST heads were occluded */
    uint64_t ocw_events;          /* CNT updates (divergent loads serviced) */
    uint64_t ocw_sum;             /* sum of OCW after each update */
    uint32_t ocw_min, ocw_max;    /* range OCW took (all SMs) */
    uint32_t dlc_max;             /* most DLC entries on one SM at launch end */
} timing_oaws_stats;

/* OAWS's peers (docs/oaws.md, "Peers"; csrc/timing/peers.c), written only
 * when sched.peer is on. Holds of either peer count as warp_limit slots. */
typedef struct timing_peers_stats {
    uint32_t on;                  /* sched.peer (1 ccws, 2 mascar) */
    uint64_t vta_hits;            /* CCWS: VTA hits handed to the cores */
    uint64_t vta_inserts;         /* CCWS: evicted lines entered in a VTA */
    uint64_t sat_cycles;          /* MASCAR: SM-cycles given as saturated */
    uint64_t div_loads, div_fully_cached;   /* as timing_oaws_stats (Fig. 10) */
    uint64_t coh_loads, coh_fully_cached;   /* ... (Fig. 11) */
} timing_peers_stats;

/* One SM's share of a launch's statistics (stats.per_sm): its issue slots
 * by reason, its slots while nothing was resident, its cycles with
 * resident warps and the CTAs it ran. The launch's totals are their sums. */
typedef struct timing_sm_stats {
    uint64_t slots[TS_COUNT];
    uint64_t idle_slots;
    uint64_t active_cycles;
    uint64_t ctas;
} timing_sm_stats;

typedef struct timing_stats {
    char     kernel[128];
    char     config[32];
    char     backend[16];
    char     policy[32];
    uint32_t grid[3], block[3];
    smc_status status;
    uint64_t cycles;              /* GPU cycles from launch to the last writeback */
    uint64_t warp_insts, thread_insts;
    double   ipc;                 /* warp-instructions per cycle, whole GPU */
    uint64_t slots[TS_COUNT];     /* scheduler issue slots of SMs with resident warps */
    uint64_t idle_slots;          /* slots of SMs with nothing resident */
    uint64_t unit_insts[GPU_UNIT_COUNT];
    uint64_t ctas, ctas_per_sm_limit, waves;
    uint32_t locality_hint;       /* the hint the launch ran with (0 = none) */
    uint32_t dispatch_chunk;      /* locality placement: CTAs per chunk (0 with hint 0) */
    const char *warp_groups;      /* grouped policy's groups: "hint" (seed 000 §6.3.2),
                                     "owl" (CTA groups), NULL when not grouped */
    int32_t  locality_detected;   /* gpu.locality_hint=auto: the type detected in this
                                     launch (0..3), -1 when it did not detect */
    double   locality_shared;     /* ... the fraction of the sample's lines shared */
    uint64_t fetch_redirects;     /* buffered instruction was not the one executed */
    uint64_t held_pushes;         /* decode held: more than 3 pending source registers */
    uint64_t wb_port_stalls;      /* writebacks delayed by the port limit */
    /* the buffered LD/ST path (written only when ldst.id_oc > 0) */
    uint64_t ldst_path_insts;     /* memory instructions that entered it */
    uint64_t ldst_path_full;      /* SM-cycles in which ID_OC_MEM had no room */
    uint64_t sm_active_cycles;    /* sum over SMs of cycles with resident warps */
    uint64_t lockstep_cycles;     /* cycles compared (lockstep back end) */
    timing_haws_stats haws;       /* HAWS (written only when sched.haws is on) */
    timing_oaws_stats oaws;       /* OAWS (written only when sched.oaws is on) */
    timing_peers_stats peers;     /* CCWS, MASCAR (written only when sched.peer is on) */
    mem_stats mem;                /* caches, MSHRs, interconnect, DRAM */
    uint32_t num_sms;             /* SMs of the GPU (mem's per-SM averages) */
    char    *mem_json;            /* the memory model's own JSON members (owned) */
    timing_sm_stats *per_sm;      /* stats.per_sm: num_sms entries (owned), else NULL */
    double   host_seconds;        /* not written to JSON (not deterministic) */
} timing_stats;

/* ---- the model ---------------------------------------------------------- */

typedef struct timing_gpu timing_gpu;

/* --fst: one waveform of SM `sm` (0 for --fst; the mismatching SM for the
 * lockstep re-run) with the back end's signals and the C side, cycles
 * [from, to) of each launch (to 0 = to the end). The file is complete after
 * every launch that had cycles in the window (a program need not destroy
 * the model); a failure to write it is printed then and returned by
 * timing_destroy. */
typedef struct timing_trace {
    const char *path;             /* NULL = no waveform */
    uint64_t    from, to;
    uint32_t    sm;
} timing_trace;

/* After timing_run failed: 1 and the SM and cycle (launch-relative, as the
 * lockstep message and the FST window count them) when the failure was a
 * lockstep mismatch; 0 otherwise. */
int timing_lockstep_mismatch(const timing_gpu *g, uint32_t *sm, uint64_t *cycle);

/* The waveform of a lockstep mismatch (timing_lockstep.c): a snapshot of
 * device memory taken before a launch, and, after the launch stopped on a
 * mismatch at (sm, cycle), a re-run from it on a fresh model that traces that
 * SM for cycles [cycle - window, cycle + 8) into `path`. `note` receives the
 * sentence to append to the launch's message (where the waveform is, or why
 * there is none). */
typedef struct timing_snapshot timing_snapshot;
struct devmem;
timing_snapshot *timing_snapshot_take(const struct devmem *m);   /* NULL: out of memory */
void timing_snapshot_free(timing_snapshot *s);
void timing_mismatch_rerun(const gpu_config *cfg, struct devmem *mem, const timing_snapshot *snap,
                           const emu_kernel *ek, const emu_launch_desc *d, const char *kernel_name,
                           const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                           uint32_t sm, uint64_t cycle, uint64_t window, const char *path,
                           char *note, size_t notelen);

/* NULL and a message when the configuration is invalid or a back end cannot
 * be created (e.g. no Verilated model for these parameters). */
timing_gpu *timing_create(const gpu_config *cfg, const timing_trace *trace,
                          char *err, size_t errlen);
/* Frees everything. With a waveform: 1 when it was written, 0 when no cycle
 * of any launch fell in its window (no file), -1 and a message when writing
 * it failed. 0 without one. */
int         timing_destroy(timing_gpu *g, char *err, size_t errlen);
const gpu_config *timing_config(const timing_gpu *g);

/* Run one launch to completion. The launch must have been created with
 * timing_clock as its clock function and the gpu as clock context.
 * `req` describes its resources (checked with timing_occupancy_compute).
 * `stop` (may be NULL) is polled: when it becomes non-zero the run stops with
 * SMC_ERR_INTERRUPTED and the statistics so far. A guest fault returns the
 * emulator's status; a scheduler-back-end failure (lockstep mismatch) returns
 * SMC_ERR_LAUNCH_FAILED with the mismatch in msg. */
smc_status timing_run(timing_gpu *g, const emu_kernel *ek, emu_launch *l, const char *kernel_name,
                      const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                      volatile sig_atomic_t *stop, timing_stats *out,
                      char *msg, size_t msglen);

/* emu_clock_fn for %clock/%clock64: the simulated cycle. */
uint64_t timing_clock(void *gpu, uint32_t smid);

/* Frees what a timing_stats owns (mem_json). */
void timing_stats_free(timing_stats *s);
/* Human-readable summary of one launch. */
void timing_stats_print(const timing_stats *s, FILE *out);
/* JSON object of one launch (deterministic: no host time). */
void timing_stats_json(const timing_stats *s, FILE *out);
/* Write {"launches": [...]} to path via a temporary file and rename. */
int  timing_stats_write_json(const timing_stats *s, uint32_t n, const char *path,
                             char *err, size_t errlen);

/* Bridge from the device API (csrc/device/): statistics of the i-th timed
 * launch of a device in timing mode, NULL when there is none. */
const timing_stats *smc_device_timing(const smc_device *dev, uint32_t i);
/* The timing model of a device (NULL in functional mode), and the scheduler
 * back end of one SM (struct sched_backend, cosim/sched_if.h): for tests
 * that inject a lockstep mismatch. */
timing_gpu *smc_device_timing_model(smc_device *dev);
struct sched_backend *timing_sm_backend(timing_gpu *g, uint32_t sm);

#ifdef __cplusplus
}
#endif
#endif
