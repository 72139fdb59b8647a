/*
 * timing_internal.h — the state the parts of the timing model share. Private
 * to csrc/timing/: users of the model see only timing.h.
 *
 * The parts, one job each (docs/architecture.md has the picture):
 *   timing.c       orchestrator: create/destroy, one launch, the cycle loop
 *   dispatch.c     CTA dispatcher and its placement policies
 *   pipeline.c     one SM: decode, issue, functional units, memory feed,
 *                  writeback (the core's inputs and outputs)
 *   timing_wave.c  the C side of the --fst waveform
 *   occupancy.c    launch limits and CTA slots (Eq. 3.1-3.3)
 *   stats.c        statistics: printing and JSON
 *
 * Dependencies go one way: timing.c calls dispatch.c, pipeline.c and
 * timing_wave.c; pipeline.c calls timing_wave.c (to sample after an edge);
 * none of them calls back into timing.c.
 */
#ifndef SMC_TIMING_INTERNAL_H
#define SMC_TIMING_INTERNAL_H

#include "timing.h"
#include "inst_source.h"
#include "sched_if.h"
#include "sched_group.h"
#include "../ptx/ptx.h"
#include "../../hints/haws_hint.h"
#include "oaws.h"
#include "dlc.h"

#define TM_REG_SLOTS (PTX_MAX_PHYS_REGS + 1 + PTX_MAX_PRED_REGS)  /* alias table */
#define TM_PRED_BASE (PTX_MAX_PHYS_REGS + 1)

/* One decoded instruction in the shadow of a warp's instruction buffer. */
typedef struct tm_entry {
    const emu_inst_info *info;
    uint32_t seq;
    uint8_t  kind;                /* enum gpu_unit */
    uint8_t  has_dst, dst;        /* primary destination, core id (the register
                                     written: a renamed member's pool id) */
    uint8_t  haws;                /* enum tm_haws_entry */
    int16_t  rename_to;           /* hint-mode member: pool register it writes, -1 none */
    uint8_t  pred_miss, pred_div; /* OAWS: the prediction pushed with it */
    uint8_t  nsrc, src[3];        /* the source ids pushed with it */
    uint16_t lat;                 /* its own latency and initiation interval */
    uint8_t  ii;                  /* (unit_of), 0: the unit's */
} tm_entry;

/* What a buffered entry is to HAWS (docs/haws.md, "Timing model"). */
enum tm_haws_entry {
    TM_HAWS_NONE = 0,             /* in program order */
    TM_HAWS_MEMBER,               /* chain member, executes ahead at issue */
    TM_HAWS_BRANCH,               /* chain member, a branch: guard evaluated, hbr */
    TM_HAWS_COPY,                 /* return pass: renamed result copied back */
    TM_HAWS_REEXEC                /* return pass: a hinted branch, executed in order */
};

typedef struct tm_warp {
    inst_cta *cta;
    uint32_t widx;                /* warp index inside its CTA */
    int32_t  cta_slot;            /* index into tm_sm.cta, -1 when free */
    uint8_t  exited;
    tm_entry buf[SCHED_MAX_IBUF_DEPTH];
    unsigned head, count;
    uint32_t inflight;            /* issued, result or completion not back */
    uint8_t  pend[256];           /* pushed writers per core id, not yet written back */
    int16_t  alias[TM_REG_SLOTS]; /* secondary destination -> primary core id */
    uint32_t alias_seq[TM_REG_SLOTS];
    /* HAWS: the renaming mirror of the episode (physical register -> pool
     * register; the latest mapping of a register wins), cleared at entry */
    uint8_t  nren;
    uint16_t ren_from[2 * HAWS_RENAME_ENTRIES], ren_to[2 * HAWS_RENAME_ENTRIES];
    uint8_t  group;               /* warp group (grouped policy; dispatch.c) */
    uint32_t cta_linear;          /* its CTA's linear id (locality_detect.c) */
} tm_warp;

typedef struct tm_cta {
    inst_cta *src;
    uint32_t nwarps;
    uint8_t  slot[SCHED_MAX_WARPS];
    int      used;
} tm_cta;

typedef struct tm_wb {            /* a pending scoreboard release */
    uint64_t cycle;               /* the edge ending this cycle */
    uint64_t order;               /* insertion order: deterministic ties */
    uint32_t seq;
    uint8_t  warp, id;
    int16_t  rename_to;           /* HAWS: the pool register written, -1 none */
    const emu_inst_info *info;
} tm_wb;

typedef struct tm_memrec {        /* an instruction inside the memory model */
    const emu_inst_info *info;
    uint32_t seq;
    uint8_t  warp, id, has_dst;
    int16_t  rename_to;           /* HAWS: the pool register written, -1 none */
    int32_t  next_free;
    uint8_t  pred_div;            /* OAWS: pushed predicted divergent */
    uint8_t  eff;                 /* OAWS: the eff Eq. 1 charged at issue (Miss_inflight),
                                     given back when it leaves the LD/ST unit */
} tm_memrec;

/* A memory instruction on the buffered path between issue and the LD/ST
 * unit (ldst_path.c): the request the unit will take, and where it is. */
enum tm_ldst_stage { TM_LP_ID = 0, TM_LP_CU, TM_LP_EX };
typedef struct tm_ldst_entry {
    mem_request rq;
    uint64_t at;                  /* the cycle it entered its stage */
    uint32_t pc;                  /* for messages */
    uint8_t  stage;               /* enum tm_ldst_stage */
} tm_ldst_entry;

typedef struct tm_sm {
    uint32_t id;
    sched_backend *sched;         /* member sm->id of timing_gpu.cores (NULL while closed) */
    tm_warp  warp[SCHED_MAX_WARPS];
    tm_cta  *cta;                 /* [max_ctas_per_sm] */
    uint32_t resident;            /* CTAs */
    uint64_t used_slots;          /* warp slots taken */
    uint64_t bar_mask, launch_next, finish_next;
    uint64_t *unit_next[GPU_UNIT_COUNT];  /* next_accept per unit instance */
    uint32_t unit_n[GPU_UNIT_COUNT];      /* instances: private (ns x p) then shared */
    /* earliest next_accept of each scheduler's private units and of the
     * shared units (UINT64_MAX when there are none), kept by unit_start */
    uint64_t priv_min[GPU_UNIT_COUNT][SCHED_MAX_SCHEDULERS];
    uint64_t shared_min[GPU_UNIT_COUNT];
    /* shared units: warps whose buffer head needs each kind, the
     * schedulers offered one for the next cycle (at most as many as are
     * free then) and the round-robin start of those offers, one per core
     * op class (the kinds of one class are offered from the same start) */
    uint64_t head_kind[GPU_UNIT_COUNT];
    uint32_t shared_offer[GPU_UNIT_COUNT];
    uint32_t shared_rr[SCHED_NUM_OP_CLASSES];
    tm_wb   *wb; uint32_t nwb, capwb;
    uint64_t wb_order;
    uint32_t seq;
    uint32_t ldst_rr;
    uint64_t ldst_head;           /* warps with a memory instruction at the buffer head */
    uint32_t mem_out;             /* instructions inside the memory model */
    int      cta_check;           /* a warp exited or drained: look for finished CTAs */
    tm_memrec *mr; uint32_t nmr, capmr;   /* tag = index; free list */
    /* the buffered LD/ST path (ldst_path.c), oldest first: a ring of
     * ldst.id_oc + ldst.collectors + ldst.oc_ex entries, and how many are
     * in each stage */
    tm_ldst_entry *lp;
    uint32_t lp_head, lp_n, lp_cap;
    uint32_t lp_in[3];
    int32_t  mr_free;
    /* locality placement (dispatch.c): this SM's claimed chunk, positions
     * [chunk_next, chunk_end) of the hint's CTA order */
    uint32_t chunk_next, chunk_end;
    /* round-robin placement over SM clusters (dispatch.c): on a cluster's
     * first SM, the cluster's SM that took its last CTA */
    uint32_t cluster_next;
    /* warp groups (grouped policy, dispatch.c): the key each group id holds
     * and its warps on this SM (0 = free); warps placed so far on each
     * scheduler, CTAs placed so far */
    uint64_t grp_key[SCHED_MAX_WARPS];
    uint8_t  grp_refs[SCHED_MAX_WARPS];
    uint32_t grp_warps_s[SCHED_MAX_SCHEDULERS], grp_ctas;
    /* HAWS: the core's haws_mode before the last edge, and the outcomes of
     * hint-mode branches issued this cycle (inputs of the next edge) */
    uint64_t haws_mode;
    sched_hbr hbr[SCHED_MAX_SCHEDULERS];
    /* OAWS (docs/oaws.md): the DLC (C, RTL or both: cosim/dlc.h), eff not
     * yet retired; the core's alive warps (its alive_q, mirrored) and the
     * Avail_mshr given at the last edge */
    dlc     *dlc;
    oaws_sm  oaws;
    uint64_t core_alive;
    uint32_t oaws_avail;
    uint8_t  head_pm[SCHED_MAX_WARPS];   /* each buffer head's pred_miss and */
    uint8_t  head_div[SCHED_MAX_WARPS];  /* pred_div (update_head; read by the LD/ST offer) */
    uint8_t  rank[SCHED_MAX_WARPS];      /* alive warps below each warp (core_alive's) */
    uint64_t ldst_cheap;                 /* LD/ST heads predicting at most 1 miss and not
                                            divergent: eff <= 1 in every mode */
    uint8_t  ocw_event, ocw_half;        /* the core's OCW event for the next edge */
    /* the DLC fills of this launch and the last one's inputs, saturated as
     * at the DLC's ports (the waveform's dlc scope) */
    uint32_t dlc_fills, dlc_last_pc;
    uint8_t  dlc_last_acc, dlc_last_sets;
    /* this SM's issue slots, active cycles and CTAs; the launch's are their
     * sums (timing_run_source), stats.per_sm shows them apart */
    timing_sm_stats st;
} tm_sm;

typedef struct tm_wave tm_wave;   /* timing_wave.c */

/* A CTA placement policy (dispatch.c): the SM that gets the next CTA. */
typedef struct tm_placement tm_placement;

struct timing_gpu {
    gpu_config cfg;
    sched_params params;
    sched_group  *cores;          /* every SM's core, stepped together (sched_group.h) */
    sched_inputs *sched_in;       /* [nsm]: the inputs of this cycle's edge (tm_sm_back) */
    uint8_t      *sched_active;   /* [nsm]: the SM is stepped at this edge (tm_sm_busy) */
    uint64_t sched_mask[SCHED_MAX_SCHEDULERS];   /* warps of each scheduler */
    tm_wave *wave;                /* --fst: SM wave_sm, RTL + C side; NULL when off */
    uint32_t wave_sm;
    int      mismatch;            /* the last failure was a lockstep mismatch */
    uint32_t mismatch_sm;
    uint64_t mismatch_cycle;
    uint64_t inject_cycle;        /* SMCOSIM_TEST_LOCKSTEP_INJECT (test hook) */
    tm_sm   *sm;
    uint32_t nsm;
    uint64_t cycle;               /* %clock */
    const tm_placement *placement;   /* CTA placement policy for hint 0 (dispatch.c) */
    const tm_placement *launch_placement;   /* the running launch's (hint 1..3: locality) */
    uint32_t dispatch_rr;         /* round-robin: the SM after the last one served */
    uint32_t loc_hint;            /* locality: the launch's hint (1..3) */
    uint32_t loc_claimed;         /* locality: positions claimed so far (chunks are
                                     claimed in order, so this is the next one) */
    uint32_t loc_tail;            /* locality: chunks claimed in the tail */
    /* the running launch's warp scheduling (tm_dispatch_reset): the core's
     * policy input, group_prio, and how warps are grouped */
    uint32_t sched_policy, group_prio, grouping;
    struct tm_detect *det;        /* locality detection (locality_detect.c) */
    /* the instruction cache (l1i.*): where each kernel's code is, laid out
     * in the order of first launch (tm_code_addr) */
    struct tm_code { char *name; uint64_t addr; } *code;
    uint32_t ncodes;
    uint64_t code_next;           /* where the next new kernel's code goes */
    /* per launch */
    uint64_t code_addr;           /* the running kernel's code: pc 0's address */
    mem_system *mem;
    mem_system *mem_prev;    /* mem.keep_caches: the last launch's, whose
                                cache contents the next launch takes */
    inst_source src;              /* where instructions come from (inst_source.h) */
    uint8_t *join;                /* per pc: reconvergence point of some branch */
    uint32_t ncode;
    timing_occupancy occ;
    timing_stats *st;
    oaws_params oaws;             /* OAWS parameters (from cfg; mode 0 = off) */
    smc_status fault;
    char *msg; size_t msglen;
};

/* The failure message of the running launch (timing_run's msg). */
void tm_set_msg(timing_gpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How the running launch groups its warps (timing_gpu.grouping). */
enum tm_grouping {
    TM_GROUP_NONE = 0,            /* not the grouped policy */
    TM_GROUP_HINT1, TM_GROUP_HINT2, TM_GROUP_HINT3,   /* seed 000 §6.3.2 */
    TM_GROUP_OWL                  /* CTA groups (Jog et al., ASPLOS'13) */
};
/* Warp w of SM sm (a warp slot) leaves its group (its CTA left the SM). */
void tm_group_release(tm_sm *sm, unsigned w);

/* ---- pipeline.c: one SM ------------------------------------------------- */

/* Per-launch reset of one SM (scheduler core included). */
void tm_sm_reset(timing_gpu *g, tm_sm *sm);
/* A new CTA's warp w takes a warp slot. */
void tm_warp_init(tm_warp *w, inst_cta *cta, uint32_t widx, int32_t slot);
/* Front half of cycle t: account the issue slots, execute what issued;
 * *issued is set when something did. 0, or -1 with g->fault set. */
int  tm_sm_front(timing_gpu *g, tm_sm *sm, uint64_t t, int *issued);
/* Back half of cycle t: completions, the core's inputs into
 * g->sched_in[sm->id]; then (timing.c) one edge for all SMs' cores, and per
 * SM stepped tm_sm_after: what follows from the core's new outputs (OCW
 * statistics, HAWS mode changes, the waveform). 0, or -1 with g->fault set. */
int  tm_sm_back(timing_gpu *g, tm_sm *sm, uint64_t t);
int  tm_sm_after(timing_gpu *g, tm_sm *sm, uint64_t t);

/* ---- ldst_path.c: memory instructions between issue and the LD/ST unit --- */

/* Is the buffered path on (ldst.id_oc > 0)? Off, an issued memory
 * instruction is submitted to the memory model at once. */
static inline int tm_ldst_path_on(const timing_gpu *g);
/* Per-SM storage (at create; 0 or -1 out of memory), per-launch reset, free. */
int  tm_ldst_path_init(timing_gpu *g, tm_sm *sm);
void tm_ldst_path_reset(tm_sm *sm);
void tm_ldst_path_free(tm_sm *sm);
/* Issue at cycle t: rq enters the pipeline register ID_OC_MEM (the caller
 * was offered the class, so there is room). */
void tm_ldst_path_push(tm_sm *sm, const mem_request *rq, uint32_t pc, uint64_t t);
/* The path's moves of cycle t1 (= mem_now()): a ready collector unit to
 * OC_EX_MEM, ID_OC_MEM to a free collector unit, and OC_EX_MEM into the
 * LD/ST unit when it is free (mem_submit). Returns the ID_OC_MEM entries
 * free for issue at t1, or -1 with g->fault set. */
int  tm_ldst_path_step(timing_gpu *g, tm_sm *sm, uint64_t t1);

/* Has the SM work left (CTAs, launches or exits to signal, writebacks)? */
static inline int tm_sm_work(const tm_sm *sm)
{
    return sm->resident || sm->launch_next || sm->finish_next || sm->nwb;
}

/* Is the SM stepped this cycle? One with nothing resident or pending is
 * not — except the traced SM while a waveform is written, so that its time
 * axis is the GPU's cycles. */
static inline int tm_sm_busy(const timing_gpu *g, const tm_sm *sm)
{
    return tm_sm_work(sm) || (g->wave && sm->id == g->wave_sm);
}

/* ---- dispatch.c: the CTA dispatcher ------------------------------------- */

/* The placement policy called `name` ("round-robin"), NULL when unknown. */
const tm_placement *tm_placement_find(const char *name);
/* Start of a launch (after g->occ and g->st are set): the dispatcher's
 * state and the placement policy of this launch, from its locality hint
 * (req->locality_hint, or gpu.locality_hint when that forces one). */
void tm_dispatch_rr_init(timing_gpu *g, uint32_t first);
void tm_dispatch_reset(timing_gpu *g, const timing_kernel_req *req, const char *kernel);

/* Locality detection (locality_detect.c; docs/locality.md, "Automatic
 * detection"): begin for a launch of nctas CTAs (0, or -1 out of memory);
 * the global loads of CTA `cta` (lanes `active` of addr); at the end of the
 * launch the type goes into the statistics and is remembered for the kernel;
 * the type remembered for `kernel`, -1 when none; free at destroy. */
typedef struct tm_detect tm_detect;
int  tm_detect_begin(timing_gpu *g, uint32_t nctas);
void tm_detect_access(timing_gpu *g, uint32_t cta, const uint64_t *addr, uint64_t active);
void tm_detect_end(timing_gpu *g, const char *kernel);
int  tm_detect_known(const timing_gpu *g, const char *kernel);
void tm_detect_free(timing_gpu *g);
void tm_detect_stop(timing_gpu *g);       /* no detection in this launch (yet) */
/* Is the launch's hint `auto` (gpu.locality_hint=auto, or the launch's own
 * TIMING_LOCALITY_AUTO from --locality KERNEL=auto)? (dispatch.c) */
int  tm_launch_auto(const timing_gpu *g, const timing_kernel_req *req);
/* Step 1 of cycle t: hand out CTAs. The next CTA to place is *next_cta (of
 * nctas); advances it. 0, or -1 with g->fault set. */
int  tm_dispatch_cycle(timing_gpu *g, uint32_t *next_cta, uint32_t nctas);

/* ---- timing_wave.c: the C side of the waveform -------------------------- */

/* Load the waveform writer (linked, or from the RTL plugin); 0, or -1 with a
 * message naming `what`. */
int      tm_wave_resolve(const char *what, char *err, size_t errlen);
/* The waveform of SM g->wave_sm: cycles [from, to) into path. NULL with a
 * message. */
tm_wave *tm_wave_create(timing_gpu *g, const char *path, uint64_t from, uint64_t to,
                        char *err, size_t errlen);
/* What the back end of `sm` is to trace (its own FST of one launch, merged
 * by tm_wave_launch_end), NULL for no trace. */
const sched_trace_opts *tm_wave_trace(const timing_gpu *g, const tm_sm *sm);
/* The core was reset / stepped through the edge ending cycle t: sample the
 * C side when the RTL dumps the state that follows. */
void     tm_wave_reset(timing_gpu *g, tm_sm *sm);
void     tm_wave_step(timing_gpu *g, tm_sm *sm, uint64_t t);
/* After every launch (and at creation): close the traced back end's file by
 * destroying it (tm_sm_open opens a fresh one at the next launch) and merge
 * the launch's cycles into the final file. 0, or -1 with a message. */
int      tm_wave_launch_end(timing_gpu *g, char *err, size_t errlen);
/* At destroy (the back ends are gone): 1 when the final file was written, 0
 * when no cycle fell in the window, -1 with the first failure; frees. */
int      tm_wave_finish(tm_wave *w, char *err, size_t errlen);

/* ---- timing.c ------------------------------------------------------------ */

/* Open the scheduler back end of `sm` (traced as tm_wave_trace says, with
 * the lockstep test hook installed). 0, or -1 with a message. */
int      tm_sm_open(timing_gpu *g, tm_sm *sm, char *err, size_t errlen);

static inline int tm_ldst_path_on(const timing_gpu *g)
{
    return g->cfg.ldst_id_oc > 0;
}

#endif
