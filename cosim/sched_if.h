/*
 * sched_if.h -- the scheduler core's interface, as C structs, and the
 * abstract back-end API.
 *
 * docs/sched-interface.md is the contract; this header is the same contract
 * in C. Three back ends implement it and are interchangeable:
 *
 *   sched_cmodel_create()    the C reference model (libsmc_sched.a)
 *   sched_cmodel_create_traced()  the same, writing an FST of its ports
 *                            (libsmc_vsched.a)
 *   sched_rtl_create()       the Verilated RTL of rtl/sched_core.sv
 *                            (libsmc_vsched.a, C++ inside)
 *   sched_lockstep_create()  both, compared on every output every cycle
 *                            (libsmc_vsched.a)
 *
 * The cycle protocol, for every back end:
 *
 *   sched_reset(b);                       // cycle 0 begins
 *   for (;;) {
 *       const sched_outputs *o = sched_get_outputs(b);  // outputs of cycle t
 *       ... decide the inputs of cycle t from o and the rest of the SM ...
 *       if (sched_step(b, &in) != 0) ...  // rising edge ending cycle t
 *   }
 *
 * Outputs are functions of the core's registers only, so they are valid as
 * soon as a cycle begins and do not change when inputs are set.
 */
#ifndef SMCOSIM_SCHED_IF_H
#define SMCOSIM_SCHED_IF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Hard upper bounds of the parameters (the RTL allows the same). */
#define SCHED_MAX_WARPS       64
#define SCHED_MAX_SCHEDULERS   8
#define SCHED_MAX_WB_PORTS     8
#define SCHED_MAX_REG_ID_WIDTH 8
#define SCHED_MAX_IBUF_DEPTH   8
#define SCHED_MAX_SB_ENTRIES  16
#define SCHED_MAX_RCU_DEPTH    8
#define SCHED_MAX_REN_ENTRIES  8
#define SCHED_NUM_OP_CLASSES   4
#define SCHED_NUM_REASONS      SCHED_REASON_END_   /* the lines of sched_reasons.def */

/* Warp-scheduling policies (input `policy`). */
enum sched_policy {
    SCHED_POLICY_LRR       = 0,  /* loose round-robin */
    SCHED_POLICY_GTO       = 1,  /* greedy-then-oldest */
    SCHED_POLICY_TWO_LEVEL = 2,  /* active/pending pools, LRR inside the pool */
    SCHED_POLICY_GROUPED   = 3,  /* warp groups (launch_group), LRR inside the
                                    active group (seed 000 §6.3.2; OWL with
                                    group_prio 1) */
    SCHED_NUM_POLICIES     = 4
};

/* Operation classes: which functional unit an instruction needs. */
enum sched_op_class {
    SCHED_OP_SP   = 0,   /* integer / single-precision ALU */
    SCHED_OP_SFU  = 1,   /* special function unit */
    SCHED_OP_LDST = 2,   /* load/store unit */
    SCHED_OP_DP   = 3    /* double precision and everything else */
};

/* Why a scheduler issued or did not issue in a cycle (output stall_reason,
 * index of the counters): SCHED_REASON_ISSUE = 0, SCHED_REASON_NO_INSTR, ...
 * from cosim/sched_reasons.def. When several warps block for different
 * reasons, the scheduler reports the first of: occluded (OAWS), unit busy, scoreboard,
 * long-latency dependence, warp limit, barrier, no instruction. */
enum sched_reason {
#define SCHED_REASON(id, code, name, ts, stat, doc) SCHED_REASON_##id = code,
#include "sched_reasons.def"
    SCHED_REASON_END_             /* (one past the last code) */
};
const char *sched_reason_name(unsigned reason);     /* "scoreboard" */
const char *sched_policy_name(unsigned policy);     /* "gto" */
int         sched_policy_parse(const char *name);   /* -1 when unknown */

/* Synthesis-time parameters of the core (Verilog parameters). */
typedef struct sched_params {
    unsigned num_warps;        /* NumWarps, 1..64, a multiple of num_schedulers */
    unsigned num_schedulers;   /* NumSchedulers, 1..8 */
    unsigned reg_id_width;     /* RegIdWidth, 1..8 bits */
    unsigned ibuf_depth;       /* IbufDepth, 1..8 entries per warp */
    unsigned sb_entries;       /* SbEntries, 1..16 pending writes per warp */
    unsigned wb_ports;         /* WbPorts, 1..8 writebacks per cycle */
    /* HAWS (docs/haws.md, "Scheduler core"; seed 000 §5.3.3): */
    unsigned rcu_depth;        /* RcuDepth, 0..8 Result Collection Unit entries
                                  per warp (0 = no HAWS hardware) */
    unsigned ren_entries;      /* RenEntries, 0..8 renaming-table entries per warp */
    /* Mechanisms left out of the core (SCHED_OMIT_*; 0: all present). A run
     * that never uses a mechanism omits it: the RTL back end then runs a
     * Verilated variant without its logic, and sched_step rejects an input
     * that would use it (docs/sched-interface.md, "Omitted mechanisms"). */
    unsigned omit;
} sched_params;

/* sched_params.omit: each bit leaves one mechanism's hardware out. */
enum sched_omit {
    SCHED_OMIT_OAWS    = 1u << 0,   /* OAWS: Eq. 1, Miss_inflight, the OCW logic
                                       (inputs oaws, ocw_event, ldst_retire_miss) */
    SCHED_OMIT_PEERS   = 1u << 1,   /* CCWS and MASCAR (inputs peer, vta_valid) */
    SCHED_OMIT_GROUPED = 1u << 2,   /* the grouped policy (input policy 3) */
    SCHED_OMIT_HAWS    = 1u << 3,   /* HAWS (inputs haws, hbr, push.rcu): the RTL
                                       variant with RcuDepth = RenEntries = 0
                                       stands for any rcu_depth and ren_entries */
    SCHED_OMIT_ALL     = 15u
};

/* The core's register ids (RegIdWidth bits): the top ids name predicates (8
 * of them, or an eighth of the space when it is smaller than 64), the rest
 * name registers, physical register r folded onto r mod their count. The
 * timing model maps operands with these, and the HAWS hint pass uses the
 * same map to find every pc the core can block on a long-latency write. */
static inline unsigned sched_pred_ids(unsigned reg_id_width)
{
    unsigned space = 1u << reg_id_width;
    return space >= 64 ? 8 : space / 8;
}
static inline unsigned sched_reg_id(unsigned reg_id_width, unsigned r)
{
    return r % ((1u << reg_id_width) - sched_pred_ids(reg_id_width));
}
static inline unsigned sched_pred_id(unsigned reg_id_width, unsigned p)
{
    return (1u << reg_id_width) - sched_pred_ids(reg_id_width) + p % sched_pred_ids(reg_id_width);
}

/* Defaults: one Kepler SM (Gong thesis ch. 4: 64 warps, 4 schedulers),
 * 8-bit register ids (255 registers per thread in PTX-to-SASS terms),
 * 2-entry instruction buffers (the thesis fetches 2 instructions per warp),
 * 6 scoreboard entries per warp, 4 writebacks per cycle, an 8-entry RCU and
 * an 8-entry renaming table per warp (seed 000 §5.3.3, §5.3.6). */
void sched_params_default(sched_params *p);
/* 0 when valid; otherwise -1 and a message naming the parameter in err. */
int  sched_params_check(const sched_params *p, char *err, size_t errlen);

/* One decoded instruction, as pushed into a warp's buffer. */
typedef struct sched_instr {
    uint32_t pc;
    uint8_t  op;               /* enum sched_op_class */
    uint8_t  dst_valid;        /* writes dst */
    uint8_t  dst;              /* destination register id */
    uint8_t  src_valid;        /* bit i: src[i] is read */
    uint8_t  src[3];           /* source register ids (predicates included:
                                  the timing model maps them into the id space) */
    uint8_t  pred;             /* guarded by a predicate (carried only) */
    uint8_t  long_lat;         /* long-latency result (global/local load) */
    uint32_t hint;             /* HAWS hint word, 24 bits (hints/haws_hint.h) */
    uint8_t  pred_miss;        /* OAWS: stored part of the predicted misses, 6 bits */
    uint8_t  pred_div;         /* OAWS: predicted divergent (pc in the DLC), 1 bit */
} sched_instr;

/* Return-pass kind of a push (sched_push.rcu) and of the RCU head shown in
 * fetch_rcu (docs/haws.md, "Scheduler core"). */
enum sched_rcu_kind {
    SCHED_RCU_NONE   = 0,      /* an ordinary push / no RCU head */
    SCHED_RCU_SKIP   = 1,      /* done ahead, not renamed: no buffer entry, the
                                  head entry is freed at the push */
    SCHED_RCU_COPY   = 2,      /* done ahead into a renamed register: a copy
                                  renamed -> original is buffered and issued */
    SCHED_RCU_REEXEC = 3       /* a hinted branch: pushed and issued again */
};

typedef struct sched_push {
    uint8_t     valid;
    uint8_t     warp;          /* must belong to this port's scheduler */
    uint8_t     rcu;           /* enum sched_rcu_kind: nonzero exactly when
                                  instr.pc is the pc of fetch_rcu[s] */
    sched_instr instr;
} sched_push;

/* Outcome of a conditional branch issued in hint mode by scheduler s. */
typedef struct sched_hbr {
    uint8_t valid;
    uint8_t warp;              /* must belong to this port's scheduler */
    uint8_t taken;
    uint8_t uniform;           /* 0: divergent, the chain ends */
} sched_hbr;

typedef struct sched_writeback {
    uint8_t valid;
    uint8_t warp;
    uint8_t reg;
} sched_writeback;

/* Everything the core samples at one rising edge. Zero = idle. */
typedef struct sched_inputs {
    uint8_t  policy;                                    /* enum sched_policy */
    uint8_t  warp_limit;                                /* SWL, 0 = none */
    uint8_t  pool_size;                                 /* two-level pool per scheduler */
    uint8_t  unit_avail[SCHED_MAX_SCHEDULERS];          /* bit c: op class c free */
    uint64_t barrier;                                   /* bit w: warp waits at a barrier */
    uint64_t launch;                                    /* bit w: (re)start warp w */
    uint64_t finish;                                    /* bit w: warp w finished */
    sched_push      push[SCHED_MAX_SCHEDULERS];         /* port s: warps of scheduler s */
    sched_writeback wb[SCHED_MAX_WB_PORTS];
    /* OAWS (docs/oaws.md; seed 001 Eq. 1) */
    uint8_t  oaws;                                      /* 0 off, 1 static, 2 dynamic */
    uint8_t  mshr_avail;                                /* free L1D MSHRs, 7 bits */
    uint8_t  oaws_cap;                                  /* eff saturates here (MSHR count) */
    uint8_t  ldst_retire_miss;                          /* event: eff of retired LD/ST insts */
    uint8_t  ocw_event;                                 /* event: 1 fully, 2 partially cached
                                                           divergent load, 3 load initial values */
    uint8_t  ocw_half;                                  /* with 2: delta = max(1, CNT/2) */
    uint8_t  ocw_min, ocw_max;                          /* OCW's bounds, 7 bits */
    uint8_t  cnt_max, cnt_init;                         /* Cmax, CNT's initial value */
    /* Peers of OAWS (docs/oaws.md, "Peers"; seed 001 §5, Table 3) */
    uint8_t  peer;                                      /* 0 none, 1 CCWS, 2 MASCAR */
    uint16_t ccws_base;                                 /* CCWS base score, 10 bits */
    uint16_t ccws_bump;                                 /* score added by a VTA hit, 12 bits */
    uint8_t  vta_valid, vta_warp;                       /* event: a VTA hit of warp vta_warp */
    uint8_t  mascar_sat;                                /* MASCAR: memory saturated */
    /* HAWS (docs/haws.md, "Scheduler core") */
    uint8_t  haws;                                      /* 0 off, 1 per-warp trigger,
                                                           2 only when the warp's scheduler
                                                           did not issue this cycle */
    sched_hbr hbr[SCHED_MAX_SCHEDULERS];                /* hint-mode branch outcomes */
    /* Grouped policy (docs/sched-interface.md, "Grouped"; docs/locality.md) */
    uint8_t  group_prio;                                /* 0 round-robin switching (thesis),
                                                           1 OWL: the active group keeps
                                                           the priority while alive */
    uint8_t  launch_group[SCHED_MAX_WARPS];             /* group id (0..63) of warp w,
                                                           read when launch bit w is set */
} sched_inputs;

typedef struct sched_issue {
    uint8_t  valid;
    uint8_t  warp;
    uint32_t pc;
    uint8_t  op;
    uint8_t  dst_valid;
    uint8_t  dst;
    uint8_t  pred;
    uint8_t  long_lat;
    uint8_t  hinted;           /* HAWS: issued in hint mode (a chain member) */
    uint8_t  copy;             /* HAWS: a return-pass copy (renamed -> dst) */
    uint32_t hint;
    uint8_t  pred_miss;
    uint8_t  pred_div;
    uint8_t  eff_miss;         /* OAWS: the eff Eq. 1 used (LD/ST only, else 0) */
} sched_issue;                 /* all fields zero when !valid; dst is the
                                  register written (a renamed member's Dst) */

/* The RCU head of a warp, as fetch_rcu shows it (all zero when kind = 0). */
typedef struct sched_rcu_head {
    uint8_t  kind;             /* enum sched_rcu_kind */
    uint8_t  ren;              /* the register the member wrote */
    uint8_t  dst;              /* its original destination */
    uint32_t pc;
} sched_rcu_head;

typedef struct sched_outputs {
    sched_issue issue[SCHED_MAX_SCHEDULERS];
    uint8_t     stall_reason[SCHED_MAX_SCHEDULERS];     /* enum sched_reason */
    uint8_t     fetch_valid[SCHED_MAX_SCHEDULERS];
    uint8_t     fetch_warp[SCHED_MAX_SCHEDULERS];       /* 0 when !fetch_valid */
    uint64_t    long_pending;                           /* bit w: long write pending */
    uint32_t    counters[SCHED_MAX_SCHEDULERS][SCHED_NUM_REASONS];
    /* HAWS */
    uint64_t    haws_mode;                              /* bit w: warp w in hint mode */
    uint64_t    rcu_busy;                               /* bit w: its RCU has a valid entry */
    uint8_t     fetch_pc_valid[SCHED_MAX_SCHEDULERS];   /* the request is a chain fetch */
    uint32_t    fetch_pc[SCHED_MAX_SCHEDULERS];         /* ... push exactly this pc */
    sched_rcu_head fetch_rcu[SCHED_MAX_SCHEDULERS];     /* RCU head of fetch_warp[s] */
    /* OAWS */
    uint8_t     miss_inflight;                          /* Miss_inflight register */
    uint8_t     ocw, ocw_cnt;                           /* the OCW logic's registers */
    /* peers */
    uint64_t    ccws_hold;                              /* bit w: CCWS holds w's loads */
    uint8_t     mascar_owner;                           /* bit 6 valid, 5..0 owner warp */
} sched_outputs;

/* OAWS (docs/oaws.md; seed 001 §4.1.1, §4.2, §4.3.2): the effective
 * predicted misses of an LD/ST head, the left side of Eq. 1. mode 1
 * (static): the stored prediction. mode 2 (dynamic): 0 for a locality warp
 * (rank < ocw), else the stored prediction plus, for a predicted-divergent
 * load, the warp's rank (GTO_gprio: alive warps of the SM with a lower id).
 * Saturated at cap (the L1D's MSHR count). The core (C model and RTL,
 * sched_oaws.sv) and the timing model's LD/ST offer use this one rule. */
/* Bit count without a libgcc call (the build does not assume POPCNT). */
static inline unsigned sched_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

static inline unsigned sched_oaws_eff(unsigned mode, unsigned pred_miss, unsigned pred_div,
                                      unsigned rank, unsigned ocw, unsigned cap)
{
    unsigned e = pred_miss;
    if (mode == 2)
        e = rank < ocw ? 0 : e + (pred_div ? rank : 0);
    return e < cap ? e : cap;
}

/* OAWS's OCW logic (seed 001 §4.3.1, Fig. 7; ../shared/design/oaws.md C.6
 * #13, #14), one step: event 1 (a fully cached divergent load): CNT up,
 * saturating at cnt_max; at cnt_max, if OCW < ocw_max, OCW up and CNT 0.
 * Event 2 (partially cached): CNT down by 1, or by max(1, CNT/2) with half,
 * stopping at 0; at 0, if OCW > ocw_min, OCW down and CNT = cnt_max. Event
 * 3: CNT = cnt_init, OCW = ocw_min. The core's C model and RTL
 * (rtl/sched_oaws_ocw.sv) and the timing model's look-ahead use this rule. */
static inline void sched_oaws_ocw_step(uint8_t *ocw, uint8_t *cnt, unsigned event, unsigned half,
                                       unsigned ocw_min, unsigned ocw_max, unsigned cnt_max,
                                       unsigned cnt_init)
{
    unsigned o = *ocw, c = *cnt;
    if (event == 1) {
        if (c < cnt_max) c++;
        if (c == cnt_max && o < ocw_max) { o++; c = 0; }
    } else if (event == 2) {
        unsigned d = half && (c >> 1) ? c >> 1 : 1;
        c = c > d ? c - d : 0;
        if (c == 0 && o > ocw_min) { o--; c = cnt_max; }
    } else if (event == 3) {
        c = cnt_init;
        o = ocw_min;
    }
    *ocw = (uint8_t)o;
    *cnt = (uint8_t)c;
}

/* ---- back ends ---------------------------------------------------------- */

typedef struct sched_backend sched_backend;

/* FST tracing, only in the window of cycles [start, end) counted from reset;
 * written to path.tmp and renamed to path when the window ends or at destroy.
 * path NULL = no tracing. The RTL writes every RTL signal; the C model
 * (sched_cmodel_create_traced) writes the interface ports, with the RTL
 * trace's scope names, widths and times (docs/sched-interface.md). */
typedef struct sched_trace_opts {
    const char *path;
    uint64_t    start;
    uint64_t    end;           /* 0 = until destroy */
} sched_trace_opts;

/* All create functions return NULL on failure with a message in err. */
sched_backend *sched_cmodel_create(const sched_params *p, char *err, size_t errlen);
/* The C model writing an FST of its ports; trace NULL or trace->path NULL =
 * sched_cmodel_create(). In libsmc_vsched.a (fstapi is in the Verilator
 * runtime there), so programs using it link that library. */
sched_backend *sched_cmodel_create_traced(const sched_params *p, const sched_trace_opts *trace,
                                          char *err, size_t errlen);
sched_backend *sched_rtl_create(const sched_params *p, const sched_trace_opts *trace,
                                char *err, size_t errlen);
/* The Verilated model an RTL back end runs ("Vsc_64_4_8_2_6_4_0_0_o3": the
 * variant with the most of p->omit left out); NULL for other back ends. */
const char    *sched_rtl_model(const sched_backend *b);
sched_backend *sched_lockstep_create(const sched_params *p, const sched_trace_opts *trace,
                                     char *err, size_t errlen);

void                 sched_reset(sched_backend *b);
/* 0 on success; -1 on bad inputs or (lockstep) a mismatch: see sched_error. */
int                  sched_step(sched_backend *b, const sched_inputs *in);
const sched_outputs *sched_get_outputs(const sched_backend *b);
uint64_t             sched_cycle(const sched_backend *b);   /* cycles since reset */
const sched_params  *sched_get_params(const sched_backend *b);
const char          *sched_error(const sched_backend *b);   /* "" when none */
const char          *sched_backend_name(const sched_backend *b);
void                 sched_destroy(sched_backend *b);

/* Counters of scheduler s: n[SCHED_NUM_REASONS], n[0] = issue cycles. */
void sched_counters(const sched_backend *b, unsigned s, uint32_t n[SCHED_NUM_REASONS]);

/* Compare two output sets under params p. Returns 1 when equal; otherwise 0
 * and the first differing signal's name (e.g. "issue_warp[2]") and values. */
int sched_outputs_compare(const sched_params *p, const sched_outputs *a,
                          const sched_outputs *b, char *signal, size_t signal_len,
                          uint64_t *value_a, uint64_t *value_b);

/* Lockstep test hook: called on the C model's outputs before each comparison,
 * so a test can inject a difference and see the checker report it. */
typedef void (*sched_mutator)(sched_outputs *cmodel_out, uint64_t cycle, void *ctx);
void sched_lockstep_set_mutator(sched_backend *b, sched_mutator fn, void *ctx);

/* ---- the vtable behind the functions above ------------------------------ */

typedef struct sched_backend_ops {
    const char *name;
    void (*reset)(sched_backend *b);
    void (*step)(sched_backend *b, const sched_inputs *in);   /* inputs checked */
    void (*destroy)(sched_backend *b);
    /* Optional (NULL: sched_step() calls sched_inputs_check(), then step):
     * check the inputs and step in one go; 0, or -1 with b->error set by
     * sched_inputs_check() and the state unchanged. For a back end that can
     * use what sched_inputs_scan() (sched_inputs_scan.h) finds. */
    int (*checked_step)(sched_backend *b, const sched_inputs *in);
} sched_backend_ops;

struct sched_backend {
    const sched_backend_ops *ops;
    sched_params  params;
    sched_outputs out;         /* outputs of the current cycle */
    uint64_t      cycle;
    int           failed;      /* sticky: a lockstep mismatch */
    char          error[256];
};

/* For back-end implementations: validate inputs against params. */
int sched_inputs_check(const sched_params *p, const sched_inputs *in, char *err, size_t errlen);
/* The HAWS rules that depend on the current outputs (docs/sched-interface.md,
 * "HAWS"): a push into a warp in hint mode or with a busy RCU must answer
 * this cycle's fetch request for it, with fetch_pc when that is valid, and
 * with push.rcu = fetch_rcu[s].kind exactly when its pc is the RCU head's.
 * 0, or -1 with a message naming the field. sched_step() applies it to every
 * back end after sched_inputs_check(). */
int sched_haws_check(const sched_params *p, const sched_outputs *o, const sched_inputs *in,
                     char *err, size_t errlen);
/* (The same rules, fast and without a message: sched_inputs_scan() in
 * cosim/sched_inputs_scan.h.) */
/* Everything sched_step() checks before it steps (a failed back end, the
 * HAWS rules, the input ranges), without stepping: 0, or -1 with
 * b->error set. For back ends that step many instances at once (the
 * offload group, sched_group.h). */
int sched_step_check(sched_backend *b, const sched_inputs *in);

/* ---- opening a back end by name (sched_open.c) -------------------------- */

/* The one door to the back ends: "c" (C model), "rtl" (Verilated RTL) or
 * "lockstep" (both, compared every cycle), from one table in sched_open.c.
 * The RTL and lockstep back ends are used where the program links them
 * ($(VSCHED_LIB)), else loaded from the plugin libsmc_vsched.so (found at
 * $SMCOSIM_VSCHED_PLUGIN, next to the library holding this code, or on the
 * loader's path). trace: as for sched_rtl_create ("c" with a trace is
 * sched_cmodel_create_traced, linked or from the plugin too). NULL with a
 * message in err on failure. */
sched_backend *sched_open(const char *kind, const sched_params *p, const sched_trace_opts *trace,
                          char *err, size_t errlen);
/* Can `kind` be opened (known, and linked or its plugin loadable)? 0, or -1
 * with a message that starts with `what` (e.g. "--sched rtl"). */
int sched_kind_available(const char *kind, const char *what, char *err, size_t errlen);
/* sched_lockstep_set_mutator for a back end from sched_open; 0, or -1 with a
 * message when the lockstep code cannot be found. */
int sched_open_set_mutator(sched_backend *b, sched_mutator fn, void *ctx, char *err, size_t errlen);
/* The address of `name` in the plugin libsmc_vsched.so, loading it on first
 * use (for code that ships in the plugin beside the back ends, e.g. the
 * waveform writer); NULL with a message that starts with `what`. */
void *sched_plugin_symbol(const char *what, const char *name, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
