/*
 * timing.c — the cycle-level GPU and SM model. See timing.h and
 * docs/timing-model.md (the pipeline, cycle by cycle, and every decision
 * written down here is explained there too).
 *
 * One GPU cycle t:
 *   1. CTA dispatcher: round-robin over SMs, at most one CTA per SM per cycle,
 *      into SMs with fewer than N_slot resident CTAs (Eq. 3.3).
 *   2. Per SM ("front"): read the scheduler core's outputs of cycle t; every
 *      issued warp-instruction executes now in the emulator; it goes to a
 *      functional unit (result at start + latency) or to the memory model
 *      (mem_submit).
 *   3. mem_cycle: the memory hierarchy simulates cycle t.
 *   4. Per SM ("back"): collect memory completions; build the core's inputs
 *      for the rising edge that ends cycle t: writebacks due (scoreboard
 *      release, at most wb_ports), barrier and launch/finish masks, one push
 *      per scheduler for the warp its fetch arbiter chose, unit availability
 *      for cycle t+1; sched_step.
 *
 * Writeback timing: an instruction whose result is ready at cycle d (issue +
 * latency, or the memory completion cycle) releases its scoreboard entry at
 * the edge ending cycle d-1, so a dependent instruction issues at d: a chain
 * of N dependent ALU instructions takes N x latency cycles.
 */
#define _GNU_SOURCE   /* dladdr */
#include "timing.h"

#include <dlfcn.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched_if.h"
#include "timing_fst.h"
#include "../ptx/ptx.h"

/* The RTL and lockstep back ends live in $(VSCHED_LIB) (C++ inside). They
 * are weak references so that programs which do not need them (most tests)
 * link without Verilator and libstdc++; a program that links $(VSCHED_LIB)
 * (see csrc/timing/module.mk, TIMING_RTL_LINK) gets them directly. Where they
 * are not linked (the drop-in runtime libcudart.so.13, loaded into arbitrary
 * nvcc-built programs), vsched_resolve() loads them from the plugin
 * libsmc_vsched.so, built from the same sources. */
extern sched_backend *sched_rtl_create(const sched_params *p, const sched_trace_opts *trace,
                                       char *err, size_t errlen) __attribute__((weak));
extern sched_backend *sched_lockstep_create(const sched_params *p, const sched_trace_opts *trace,
                                            char *err, size_t errlen) __attribute__((weak));
extern void sched_lockstep_set_mutator(sched_backend *b, sched_mutator fn, void *ctx)
    __attribute__((weak));

/* The combined waveform (fst.c) is linked only with the RTL: weak too. */
#define TM_WEAK __attribute__((weak))
extern tm_fst *tm_fst_create(const char *, uint64_t, uint64_t, char *, size_t) TM_WEAK;
extern const char *tm_fst_rtl_path(const tm_fst *, char *, size_t) TM_WEAK;
extern int tm_fst_var(tm_fst *, const char *, const char *, uint32_t) TM_WEAK;
extern int tm_fst_reset(tm_fst *) TM_WEAK;
extern int tm_fst_step(tm_fst *, uint64_t) TM_WEAK;
extern int tm_fst_sample(tm_fst *, uint32_t, uint64_t) TM_WEAK;
extern int tm_fst_finish(tm_fst *, char *, size_t) TM_WEAK;
extern void tm_fst_destroy(tm_fst *) TM_WEAK;

/* The functions above, linked or from the plugin (all NULL until resolved). */
static struct vsched_api {
    sched_backend *(*rtl_create)(const sched_params *, const sched_trace_opts *, char *, size_t);
    sched_backend *(*lockstep_create)(const sched_params *, const sched_trace_opts *, char *,
                                      size_t);
    void (*set_mutator)(sched_backend *, sched_mutator, void *);
    tm_fst *(*fst_create)(const char *, uint64_t, uint64_t, char *, size_t);
    const char *(*fst_rtl_path)(const tm_fst *, char *, size_t);
    int (*fst_var)(tm_fst *, const char *, const char *, uint32_t);
    int (*fst_reset)(tm_fst *);
    int (*fst_step)(tm_fst *, uint64_t);
    int (*fst_sample)(tm_fst *, uint32_t, uint64_t);
    int (*fst_finish)(tm_fst *, char *, size_t);
    void (*fst_destroy)(tm_fst *);
} vs;

/* Where the plugin is looked for: $SMCOSIM_VSCHED_PLUGIN, else next to the
 * object that holds this code (build/lib/libcudart.so.13 ->
 * build/lib/libsmc_vsched.so), else the dynamic loader's search path. */
static void *vsched_open(char *tried, size_t triedlen)
{
    const char *env = getenv("SMCOSIM_VSCHED_PLUGIN");
    if (env && *env) {
        void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
        if (!h)
            snprintf(tried, triedlen, "$SMCOSIM_VSCHED_PLUGIN: %s", dlerror());
        return h;
    }
    Dl_info info;
    char path[4096] = "";
    if (dladdr((void *)&vsched_open, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash)
            snprintf(path, sizeof path, "%.*s/libsmc_vsched.so",
                     (int)(slash - info.dli_fname), info.dli_fname);
    }
    void *h = path[0] ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h) {
        snprintf(tried, triedlen, "%s", path[0] ? dlerror() : "");
        h = dlopen("libsmc_vsched.so", RTLD_NOW | RTLD_LOCAL);
        if (!h && !tried[0])
            snprintf(tried, triedlen, "%s", dlerror());
    }
    return h;
}

/* Fill vs: the linked functions when this program has them, otherwise the
 * plugin's. 0 on success; -1 with a message naming the back end in err. */
static int vsched_resolve(const char *what, char *err, size_t errlen)
{
    if (vs.rtl_create)
        return 0;
    if (sched_rtl_create && sched_lockstep_create && tm_fst_create) {
        vs = (struct vsched_api){
            sched_rtl_create, sched_lockstep_create, sched_lockstep_set_mutator,
            tm_fst_create, tm_fst_rtl_path, tm_fst_var, tm_fst_reset, tm_fst_step,
            tm_fst_sample, tm_fst_finish, tm_fst_destroy,
        };
        return 0;
    }
    char tried[1024] = "";
    void *h = vsched_open(tried, sizeof tried);
    if (!h) {
        snprintf(err, errlen, "%s needs the Verilated scheduler RTL, which this program does "
                 "not link; its plugin libsmc_vsched.so (make build/lib/libsmc_vsched.so, "
                 "installed next to libcudart.so.13, or set SMCOSIM_VSCHED_PLUGIN) could "
                 "not be loaded: %s", what, tried);
        return -1;
    }
    struct vsched_api a;
    /* POSIX: a data pointer from dlsym converts to a function pointer */
#define VS_SYM(field, name) *(void **)&a.field = dlsym(h, name)
    VS_SYM(rtl_create, "sched_rtl_create");
    VS_SYM(lockstep_create, "sched_lockstep_create");
    VS_SYM(set_mutator, "sched_lockstep_set_mutator");
    VS_SYM(fst_create, "tm_fst_create");
    VS_SYM(fst_rtl_path, "tm_fst_rtl_path");
    VS_SYM(fst_var, "tm_fst_var");
    VS_SYM(fst_reset, "tm_fst_reset");
    VS_SYM(fst_step, "tm_fst_step");
    VS_SYM(fst_sample, "tm_fst_sample");
    VS_SYM(fst_finish, "tm_fst_finish");
    VS_SYM(fst_destroy, "tm_fst_destroy");
#undef VS_SYM
    if (!a.rtl_create || !a.lockstep_create || !a.set_mutator || !a.fst_create ||
        !a.fst_rtl_path || !a.fst_var || !a.fst_reset || !a.fst_step || !a.fst_sample ||
        !a.fst_finish || !a.fst_destroy) {
        snprintf(err, errlen, "%s: the plugin libsmc_vsched.so lacks a symbol "
                 "(rebuild it: make build/lib/libsmc_vsched.so)", what);
        dlclose(h);
        return -1;
    }
    vs = a;   /* the plugin stays loaded for the life of the process */
    return 0;
}

#define TM_REG_SLOTS (PTX_MAX_PHYS_REGS + 1 + PTX_MAX_PRED_REGS)  /* alias table */
#define TM_PRED_BASE (PTX_MAX_PHYS_REGS + 1)


/* One decoded instruction in the shadow of a warp's instruction buffer. */
typedef struct tm_entry {
    const emu_inst_info *info;
    uint32_t seq;
    uint8_t  kind;                /* enum gpu_unit */
    uint8_t  has_dst, dst;        /* primary destination, core id */
} tm_entry;

typedef struct tm_warp {
    emu_cta *cta;
    uint32_t widx;                /* warp index inside its CTA */
    int32_t  cta_slot;            /* index into tm_sm.cta, -1 when free */
    uint8_t  exited;
    tm_entry buf[SCHED_MAX_IBUF_DEPTH];
    unsigned head, count;
    uint32_t inflight;            /* issued, result or completion not back */
    uint8_t  pend[256];           /* pushed writers per core id, not yet written back */
    int16_t  alias[TM_REG_SLOTS]; /* secondary destination -> primary core id */
    uint32_t alias_seq[TM_REG_SLOTS];
} tm_warp;

typedef struct tm_cta {
    emu_cta *emu;
    uint32_t nwarps;
    uint8_t  slot[SCHED_MAX_WARPS];
    int      used;
} tm_cta;

typedef struct tm_wb {            /* a pending scoreboard release */
    uint64_t cycle;               /* the edge ending this cycle */
    uint64_t order;               /* insertion order: deterministic ties */
    uint32_t seq;
    uint8_t  warp, id;
    const emu_inst_info *info;
} tm_wb;

typedef struct tm_memrec {        /* an instruction inside the memory model */
    const emu_inst_info *info;
    uint32_t seq;
    uint8_t  warp, id, has_dst;
    int32_t  next_free;
} tm_memrec;

typedef struct tm_sm {
    uint32_t id;
    sched_backend *sched;
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
    tm_wb   *wb; uint32_t nwb, capwb;
    uint64_t wb_order;
    uint32_t seq;
    uint32_t ldst_rr;
    uint64_t ldst_head;           /* warps with a memory instruction at the buffer head */
    uint32_t mem_out;             /* instructions inside the memory model */
    int      cta_check;           /* a warp exited or drained: look for finished CTAs */
    tm_memrec *mr; uint32_t nmr, capmr;   /* tag = index; free list */
    int32_t  mr_free;
} tm_sm;

struct timing_gpu {
    gpu_config cfg;
    sched_params params;
    uint64_t sched_mask[SCHED_MAX_SCHEDULERS];   /* warps of each scheduler */
    tm_fst  *fst;                 /* --fst: SM trace_sm, RTL + C side; NULL when off */
    uint32_t trace_sm;
    int      mismatch;            /* the last failure was a lockstep mismatch */
    uint32_t mismatch_sm;
    uint64_t mismatch_cycle;
    uint64_t inject_cycle;        /* SMCOSIM_TEST_LOCKSTEP_INJECT (test hook) */
    int      fst_var0;            /* index of the first C-side variable */
    tm_sm   *sm;
    uint32_t nsm;
    uint64_t cycle;               /* %clock */
    /* per launch */
    mem_system *mem;
    const emu_kernel *ek;
    emu_launch *launch;
    uint8_t *join;                /* per pc: reconvergence point of some branch */
    uint32_t ncode;
    timing_occupancy occ;
    timing_stats *st;
    smc_status fault;
    char *msg; size_t msglen;
};

/* ---- helpers ------------------------------------------------------------ */

static void set_msg(timing_gpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_msg(timing_gpu *g, const char *fmt, ...)
{
    if (!g->msg || !g->msglen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->msg, g->msglen, fmt, ap);
    va_end(ap);
}


/* The functional unit of an instruction (docs/timing-model.md, "units"). */
static unsigned unit_kind(const emu_inst_info *in)
{
    switch (in->op_class) {
    case EC_FP32: case EC_WARP: return GPU_UNIT_SP;
    case EC_FP64: return GPU_UNIT_DPU;
    case EC_SFU: return GPU_UNIT_SFU;
    case EC_MEM: return GPU_UNIT_LDST;
    case EC_BRANCH: case EC_BARRIER: case EC_EXIT: case EC_NOP: return GPU_UNIT_BRANCH;
    case EC_INT:
        switch (in->op) {   /* Kepler's IMU: complex integer ops (seed 000 §4.3.3) */
        case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: case OP_DIV: case OP_REM:
        case OP_SAD: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE:
        case OP_BFI: case OP_MADC:
            return GPU_UNIT_INT;
        default:
            return GPU_UNIT_SP;
        }
    default: return GPU_UNIT_SP;
    }
}

/* Core operation class of a unit kind (the core has four). */
static uint8_t op_class_of(unsigned kind)
{
    switch (kind) {
    case GPU_UNIT_SFU: return SCHED_OP_SFU;
    case GPU_UNIT_LDST: return SCHED_OP_LDST;
    case GPU_UNIT_DPU: case GPU_UNIT_INT: return SCHED_OP_DP;
    default: return SCHED_OP_SP;   /* SP and branch */
    }
}

/* Register ids: the top P ids of the core's space are predicates, the rest
 * fold the 32-bit registers (modulo: aliasing only adds dependencies). */
static unsigned id_space(const timing_gpu *g) { return 1u << g->cfg.reg_id_width; }
static unsigned pred_ids(const timing_gpu *g) { return id_space(g) >= 64 ? 8 : id_space(g) / 8; }
static uint8_t reg_id(const timing_gpu *g, unsigned r) { return (uint8_t)(r % (id_space(g) - pred_ids(g))); }
static uint8_t pred_id(const timing_gpu *g, unsigned p)
{
    return (uint8_t)(id_space(g) - pred_ids(g) + p % pred_ids(g));
}

/* ---- writeback heap, ordered by (cycle, order) ------------------------- */

static int wb_less(const tm_wb *a, const tm_wb *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->order < b->order);
}

static int wb_push(tm_sm *sm, tm_wb w)
{
    if (sm->nwb == sm->capwb) {
        uint32_t nc = sm->capwb ? sm->capwb * 2 : 256;
        tm_wb *n = realloc(sm->wb, nc * sizeof *n);
        if (!n)
            return -1;
        sm->wb = n;
        sm->capwb = nc;
    }
    w.order = sm->wb_order++;
    uint32_t i = sm->nwb++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!wb_less(&w, &sm->wb[p]))
            break;
        sm->wb[i] = sm->wb[p];
        i = p;
    }
    sm->wb[i] = w;
    return 0;
}

static tm_wb wb_pop(tm_sm *sm)
{
    tm_wb top = sm->wb[0], last = sm->wb[--sm->nwb];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= sm->nwb)
            break;
        if (c + 1 < sm->nwb && wb_less(&sm->wb[c + 1], &sm->wb[c]))
            c++;
        if (!wb_less(&sm->wb[c], &last))
            break;
        sm->wb[i] = sm->wb[c];
        i = c;
    }
    if (sm->nwb)
        sm->wb[i] = last;
    return top;
}

/* ---- create / destroy --------------------------------------------------- */

const gpu_config *timing_config(const timing_gpu *g) { return &g->cfg; }

sched_backend *timing_sm_backend(timing_gpu *g, uint32_t sm)
{
    return g && sm < g->nsm ? g->sm[sm].sched : NULL;
}

uint64_t timing_clock(void *gpu, uint32_t smid)
{
    (void)smid;
    return ((const timing_gpu *)gpu)->cycle;
}

/* ---- the combined waveform of SM 0 (--fst) ------------------------------- */

/* C-side variables, in this order (docs/timing-model.md, "Waveform"). */
enum { FV_CYCLE, FV_RESIDENT, FV_MSHR, FV_MEM_OUT, FV_LDST_READY, FV_SM_COUNT };
enum { FV_ISSUE_VALID, FV_ISSUE_WARP, FV_ISSUE_PC, FV_STALL, FV_SCHED_COUNT };
enum { FV_STATE, FV_PC, FV_IBUF_COUNT, FV_IBUF0, FV_IBUF1, FV_SB_PENDING, FV_INFLIGHT, FV_WARP_COUNT };

static int fst_declare(timing_gpu *g)
{
    tm_fst *f = g->fst;
    char smsc[16];
    snprintf(smsc, sizeof smsc, "sm%u", g->trace_sm);
    int first = vs.fst_var(f, smsc, "cycle", 64);
    g->fst_var0 = first;
    int bad = first < 0;
    bad |= vs.fst_var(f, smsc, "resident_ctas", 8) < 0;
    bad |= vs.fst_var(f, smsc, "mshr_in_use", 16) < 0;
    bad |= vs.fst_var(f, smsc, "mem_outstanding", 16) < 0;
    bad |= vs.fst_var(f, smsc, "ldst_ready", 1) < 0;
    char sc[24];
    for (unsigned s = 0; s < g->cfg.num_schedulers; s++) {
        snprintf(sc, sizeof sc, "sched%u", s);
        bad |= vs.fst_var(f, sc, "issue_valid", 1) < 0;
        bad |= vs.fst_var(f, sc, "issue_warp", 8) < 0;
        bad |= vs.fst_var(f, sc, "issue_pc", 32) < 0;
        bad |= vs.fst_var(f, sc, "stall_reason", 3) < 0;
    }
    for (unsigned w = 0; w < g->cfg.max_warps_per_sm; w++) {
        snprintf(sc, sizeof sc, "warp%02u", w);
        bad |= vs.fst_var(f, sc, "state", 2) < 0;
        bad |= vs.fst_var(f, sc, "pc", 32) < 0;
        bad |= vs.fst_var(f, sc, "ibuf_count", 4) < 0;
        bad |= vs.fst_var(f, sc, "ibuf0_pc", 32) < 0;
        bad |= vs.fst_var(f, sc, "ibuf1_pc", 32) < 0;
        bad |= vs.fst_var(f, sc, "sb_pending", 8) < 0;
        bad |= vs.fst_var(f, sc, "inflight", 16) < 0;
    }
    return bad ? -1 : 0;
}

/* Sample SM 0's state as of the start of cycle `cycle`. */
static void fst_sample(timing_gpu *g, tm_sm *sm, uint64_t cycle)
{
    tm_fst *f = g->fst;
    uint32_t v = (uint32_t)g->fst_var0;
    vs.fst_sample(f, v + FV_CYCLE, cycle);
    vs.fst_sample(f, v + FV_RESIDENT, sm->resident);
    vs.fst_sample(f, v + FV_MSHR, g->mem ? g->cfg.mem.l1d_mshr_entries - mem_free_mshrs(g->mem, sm->id) : 0);
    vs.fst_sample(f, v + FV_MEM_OUT, sm->mem_out);
    vs.fst_sample(f, v + FV_LDST_READY, g->mem ? mem_ldst_ready(g->mem, sm->id) : 1);
    v += FV_SM_COUNT;
    const sched_outputs *o = sched_get_outputs(sm->sched);
    for (unsigned s = 0; s < g->cfg.num_schedulers; s++, v += FV_SCHED_COUNT) {
        vs.fst_sample(f, v + FV_ISSUE_VALID, o->issue[s].valid);
        vs.fst_sample(f, v + FV_ISSUE_WARP, o->issue[s].warp);
        vs.fst_sample(f, v + FV_ISSUE_PC, o->issue[s].pc);
        vs.fst_sample(f, v + FV_STALL, o->stall_reason[s]);
    }
    for (unsigned w = 0; w < g->cfg.max_warps_per_sm; w++, v += FV_WARP_COUNT) {
        const tm_warp *tw = &sm->warp[w];
        unsigned state = !tw->cta ? 0 : tw->exited ? 3 : (sm->bar_mask >> w) & 1 ? 2 : 1;
        const emu_inst_info *in = state == 1 || state == 2 ? emu_warp_peek(tw->cta, tw->widx) : NULL;
        unsigned pend = 0;
        if (tw->cta)
            for (unsigned k = 0; k < 256; k++)
                pend += tw->pend[k] != 0;
        vs.fst_sample(f, v + FV_STATE, state);
        vs.fst_sample(f, v + FV_PC, in ? in->pc : 0);
        vs.fst_sample(f, v + FV_IBUF_COUNT, tw->count);
        vs.fst_sample(f, v + FV_IBUF0, tw->count > 0 ? tw->buf[tw->head].info->pc : 0);
        vs.fst_sample(f, v + FV_IBUF1, tw->count > 1 ?
                      tw->buf[(tw->head + 1) % SCHED_MAX_IBUF_DEPTH].info->pc : 0);
        vs.fst_sample(f, v + FV_SB_PENDING, pend);
        vs.fst_sample(f, v + FV_INFLIGHT, tw->inflight);
    }
}

/* Test hook: SMCOSIM_TEST_LOCKSTEP_INJECT=SM:CYCLE flips bit 0 of scheduler
 * 0's stall_reason in the C model's outputs of that cycle on that SM, so a
 * test can see a lockstep mismatch reported (and its waveform written)
 * through `smcosim run`. Deterministic: a re-run flips the same bit. */
static void flip_stall0(sched_outputs *o, uint64_t cycle, void *ctx)
{
    const timing_gpu *g = ctx;
    if (cycle == g->inject_cycle)
        o->stall_reason[0] ^= 1;
}

static int inject_lockstep(timing_gpu *g, tm_sm *sm)
{
    const char *e = getenv("SMCOSIM_TEST_LOCKSTEP_INJECT");
    if (!e || !*e)
        return 0;
    char *end;
    unsigned long smid = strtoul(e, &end, 10);
    if (end == e || *end != ':')
        return -1;
    const char *c = end + 1;
    unsigned long long cyc = strtoull(c, &end, 10);
    if (end == c || *end)
        return -1;
    g->inject_cycle = cyc;
    if (smid == sm->id)
        vs.set_mutator(sm->sched, flip_stall0, g);
    return 0;
}

int timing_lockstep_mismatch(const timing_gpu *g, uint32_t *sm, uint64_t *cycle)
{
    if (!g || !g->mismatch)
        return 0;
    *sm = g->mismatch_sm;
    *cycle = g->mismatch_cycle;
    return 1;
}

timing_gpu *timing_create(const gpu_config *cfg, const timing_trace *trace, char *err, size_t errlen)
{
    if (gpu_config_check(cfg, err, errlen) != 0)
        return NULL;
    int want_fst = trace && trace->path;
    if (want_fst && cfg->backend == GPU_SCHED_C) {
        snprintf(err, errlen, "--fst needs the RTL: use --sched rtl or --sched lockstep");
        return NULL;
    }
    if ((want_fst || cfg->backend != GPU_SCHED_C) &&
        vsched_resolve(want_fst ? "--fst" : cfg->backend == GPU_SCHED_RTL ? "--sched rtl"
                                                                          : "--sched lockstep",
                       err, errlen) != 0)
        return NULL;
    timing_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->cfg = *cfg;
    g->nsm = cfg->mem.num_sms;
    if (trace && trace->sm < g->nsm)
        g->trace_sm = trace->sm;
    g->params = (sched_params){
        .num_warps = cfg->max_warps_per_sm, .num_schedulers = cfg->num_schedulers,
        .reg_id_width = cfg->reg_id_width, .ibuf_depth = cfg->ibuf_depth,
        .sb_entries = cfg->sb_entries, .wb_ports = cfg->wb_ports,
    };
    for (unsigned w = 0; w < cfg->max_warps_per_sm; w++)
        g->sched_mask[w % cfg->num_schedulers] |= 1ull << w;
    g->sm = calloc(g->nsm, sizeof *g->sm);
    if (!g->sm) {
        snprintf(err, errlen, "out of memory");
        free(g);
        return NULL;
    }
    char rtl_path[4096] = "";
    if (want_fst) {
        g->fst = vs.fst_create(trace->path, trace->from, trace->to, err, errlen);
        if (!g->fst || fst_declare(g) != 0) {
            if (g->fst)
                snprintf(err, errlen, "out of memory");
            timing_destroy(g, NULL, 0);
            return NULL;
        }
        vs.fst_rtl_path(g->fst, rtl_path, sizeof rtl_path);
    }
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        sm->id = i;
        sm->cta = calloc(cfg->max_ctas_per_sm, sizeof *sm->cta);
        int ok = sm->cta != NULL;
        for (unsigned u = 0; u < GPU_UNIT_COUNT && ok; u++) {
            sm->unit_n[u] = cfg->unit[u].private_units * cfg->num_schedulers +
                            cfg->unit[u].shared_units;
            sm->unit_next[u] = calloc(sm->unit_n[u] + 1, sizeof *sm->unit_next[u]);
            ok = sm->unit_next[u] != NULL;
        }
        char e2[256] = "";
        if (ok) {
            sched_trace_opts to = { rtl_path, trace ? trace->from : 0, trace ? trace->to : 0 };
            const sched_trace_opts *tr = g->fst && i == g->trace_sm ? &to : NULL;
            switch (cfg->backend) {
            case GPU_SCHED_RTL:
                sm->sched = vs.rtl_create(&g->params, tr, e2, sizeof e2);
                break;
            case GPU_SCHED_LOCKSTEP:
                sm->sched = vs.lockstep_create(&g->params, tr, e2, sizeof e2);
                break;
            default:
                sm->sched = sched_cmodel_create(&g->params, e2, sizeof e2);
                break;
            }
        }
        if (ok && sm->sched && cfg->backend == GPU_SCHED_LOCKSTEP && inject_lockstep(g, sm) != 0) {
            snprintf(err, errlen, "SMCOSIM_TEST_LOCKSTEP_INJECT '%s': expected SM:CYCLE",
                     getenv("SMCOSIM_TEST_LOCKSTEP_INJECT"));
            timing_destroy(g, NULL, 0);
            return NULL;
        }
        if (!ok || !sm->sched) {
            snprintf(err, errlen, "%s scheduler back end: %s", gpu_backend_name(cfg->backend),
                     ok ? e2 : "out of memory");
            timing_destroy(g, NULL, 0);
            return NULL;
        }
    }
    return g;
}

int timing_destroy(timing_gpu *g, char *err, size_t errlen)
{
    if (!g)
        return 0;
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        if (sm->sched)
            sched_destroy(sm->sched);   /* closes the RTL's own FST */
        free(sm->cta);
        for (unsigned u = 0; u < GPU_UNIT_COUNT; u++)
            free(sm->unit_next[u]);
        free(sm->wb);
        free(sm->mr);
    }
    free(g->sm);
    int rc = 0;
    if (g->fst) {
        rc = vs.fst_finish(g->fst, err, errlen);
        vs.fst_destroy(g->fst);
    }
    free(g);
    return rc;
}

/* ---- per-launch state --------------------------------------------------- */

static void sm_reset(timing_gpu *g, tm_sm *sm)
{
    sched_reset(sm->sched);
    int sample = g->fst && sm->id == g->trace_sm && vs.fst_reset(g->fst);
    for (unsigned w = 0; w < SCHED_MAX_WARPS; w++) {
        sm->warp[w].cta_slot = -1;
        sm->warp[w].cta = NULL;
    }
    memset(sm->cta, 0, g->cfg.max_ctas_per_sm * sizeof *sm->cta);
    sm->resident = 0;
    sm->used_slots = sm->bar_mask = sm->launch_next = sm->finish_next = 0;
    for (unsigned u = 0; u < GPU_UNIT_COUNT; u++) {
        memset(sm->unit_next[u], 0, (sm->unit_n[u] + 1) * sizeof *sm->unit_next[u]);
        for (unsigned s = 0; s < SCHED_MAX_SCHEDULERS; s++)
            sm->priv_min[u][s] = g->cfg.unit[u].private_units ? 0 : UINT64_MAX;
        sm->shared_min[u] = g->cfg.unit[u].shared_units ? 0 : UINT64_MAX;
    }
    sm->nwb = 0;
    sm->wb_order = 0;
    sm->seq = 0;
    sm->ldst_rr = 0;
    sm->ldst_head = 0;
    sm->cta_check = 0;
    sm->mem_out = 0;
    sm->nmr = 0;
    sm->mr_free = -1;
    if (sample)
        fst_sample(g, sm, 0);
}

static void warp_init(tm_warp *w, emu_cta *cta, uint32_t widx, int32_t slot)
{
    w->cta = cta;
    w->widx = widx;
    w->cta_slot = slot;
    w->exited = 0;
    w->head = w->count = 0;
    w->inflight = 0;
    memset(w->pend, 0, sizeof w->pend);
    for (unsigned i = 0; i < TM_REG_SLOTS; i++)
        w->alias[i] = -1;
}

/* Place one CTA on an SM if a slot is free. Returns 1 when placed, 0 when the
 * SM is full, -1 on host memory exhaustion. */
static int place_cta(timing_gpu *g, tm_sm *sm, uint32_t linear)
{
    if (sm->resident >= g->occ.ctas_per_sm)
        return 0;
    int32_t cs = -1;
    for (uint32_t i = 0; i < g->cfg.max_ctas_per_sm; i++)
        if (!sm->cta[i].used) {
            cs = (int32_t)i;
            break;
        }
    if (cs < 0)
        return 0;
    emu_cta *ec = emu_cta_create(g->launch, linear, sm->id);
    if (!ec)
        return -1;
    tm_cta *c = &sm->cta[cs];
    c->emu = ec;
    c->nwarps = emu_cta_num_warps(ec);
    c->used = 1;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        unsigned w = (unsigned)__builtin_ctzll(~sm->used_slots);
        sm->used_slots |= 1ull << w;
        c->slot[i] = (uint8_t)w;
        warp_init(&sm->warp[w], ec, i, cs);
        sm->launch_next |= 1ull << w;
    }
    sm->resident++;
    g->st->ctas++;
    return 1;
}

/* ---- decode: one push ---------------------------------------------------- */

static int is_control(const emu_inst_info *in)
{
    return in->is_branch || in->is_barrier || in->is_exit;
}

/* Keep tm_sm.ldst_head in step with warp wi's buffer head. */
static void update_head(tm_sm *sm, unsigned wi)
{
    const tm_warp *w = &sm->warp[wi];
    if (w->count && !w->exited && w->buf[w->head].kind == GPU_UNIT_LDST)
        sm->ldst_head |= 1ull << wi;
    else
        sm->ldst_head &= ~(1ull << wi);
}

/* The pc of the warp's next instruction in program order, or -1 when it is
 * not known yet (behind an unexecuted branch, barrier or exit, or at a
 * reconvergence point) or the warp has exited. */
static int64_t next_fetch_pc(const timing_gpu *g, const tm_warp *w)
{
    if (w->exited || !w->cta)
        return -1;
    if (w->count == 0) {
        const emu_inst_info *in = emu_warp_peek(w->cta, w->widx);
        return in ? (int64_t)in->pc : -1;
    }
    const tm_entry *last = &w->buf[(w->head + w->count - 1) % SCHED_MAX_IBUF_DEPTH];
    uint32_t next = last->info->pc + 1;
    if (is_control(last->info) || next >= g->ncode || g->join[next])
        return -1;
    return next;
}

/* Map one register operand (with the alias table) to its core id. */
static uint8_t src_id(const timing_gpu *g, const tm_warp *w, unsigned slot, int is_pred, unsigned r)
{
    if (w->alias[slot] >= 0)
        return (uint8_t)w->alias[slot];
    return is_pred ? pred_id(g, r) : reg_id(g, r);
}

/* Decode the instruction at pc for warp w into a core push. Returns 0 when
 * pushed, 1 when held (more than three pending sources). */
static int decode_push(timing_gpu *g, tm_sm *sm, unsigned wi, uint32_t pc, sched_push *p)
{
    tm_warp *w = &sm->warp[wi];
    const emu_inst_info *in = emu_kernel_inst(g->ek, pc);
    uint8_t ids[20];
    unsigned n = 0;
    for (unsigned i = 0; i < in->nsrc && i < 16; i++) {
        unsigned r = in->src[i];
        if (r == EMU_NO_REG || r > PTX_MAX_PHYS_REGS)
            continue;
        ids[n++] = src_id(g, w, r, 0, r);
    }
    for (unsigned i = 0; i < in->nsrc_pred && i < 4; i++) {
        unsigned r = in->src_pred[i];
        if (r == EMU_NO_REG || r >= PTX_MAX_PRED_REGS)
            continue;
        ids[n++] = src_id(g, w, TM_PRED_BASE + r, 1, r);
    }
    /* distinct ids, pending ones first */
    uint8_t pick[3];
    unsigned np = 0, npend = 0;
    uint8_t seen[256 / 8];
    memset(seen, 0, sizeof seen);
    uint8_t uniq[20];
    unsigned nu = 0;
    for (unsigned i = 0; i < n; i++)
        if (!(seen[ids[i] >> 3] & (1u << (ids[i] & 7)))) {
            seen[ids[i] >> 3] |= (uint8_t)(1u << (ids[i] & 7));
            uniq[nu++] = ids[i];
        }
    for (unsigned i = 0; i < nu; i++)
        if (w->pend[uniq[i]]) {
            if (npend == 3) {
                g->st->held_pushes++;
                return 1;
            }
            pick[npend++] = uniq[i];
        }
    np = npend;
    for (unsigned i = 0; i < nu && np < 3; i++)
        if (!w->pend[uniq[i]])
            pick[np++] = uniq[i];

    unsigned kind = unit_kind(in);
    memset(p, 0, sizeof *p);
    p->valid = 1;
    p->warp = (uint8_t)wi;
    p->instr.pc = pc;
    p->instr.op = op_class_of(kind);
    p->instr.long_lat = in->long_latency;
    p->instr.pred = in->nsrc_pred > 0;
    for (unsigned i = 0; i < np; i++) {
        p->instr.src[i] = pick[i];
        p->instr.src_valid |= (uint8_t)(1u << i);
    }
    tm_entry e = { in, ++sm->seq, (uint8_t)kind, 0, 0 };
    int primary_slot = -1;
    if (in->ndst > 0 && in->dst[0] <= PTX_MAX_PHYS_REGS) {
        e.has_dst = 1;
        e.dst = reg_id(g, in->dst[0]);
        primary_slot = in->dst[0];
    } else if (in->ndst_pred > 0 && in->dst_pred[0] < PTX_MAX_PRED_REGS) {
        e.has_dst = 1;
        e.dst = pred_id(g, in->dst_pred[0]);
        primary_slot = TM_PRED_BASE + in->dst_pred[0];
    }
    if (e.has_dst) {
        p->instr.dst_valid = 1;
        p->instr.dst = e.dst;
        w->pend[e.dst]++;
        w->alias[primary_slot] = -1;
        /* secondary destinations (64-bit pairs, vectors, extra predicates)
         * are released together with the primary one */
        for (unsigned i = 0; i < in->ndst && i < 8; i++)
            if (in->dst[i] <= PTX_MAX_PHYS_REGS && (int)in->dst[i] != primary_slot) {
                w->alias[in->dst[i]] = e.dst;
                w->alias_seq[in->dst[i]] = e.seq;
            }
        for (unsigned i = 0; i < in->ndst_pred && i < 2; i++) {
            unsigned s = TM_PRED_BASE + in->dst_pred[i];
            if (in->dst_pred[i] < PTX_MAX_PRED_REGS && (int)s != primary_slot) {
                w->alias[s] = e.dst;
                w->alias_seq[s] = e.seq;
            }
        }
    }
    w->buf[(w->head + w->count) % SCHED_MAX_IBUF_DEPTH] = e;
    w->count++;
    update_head(sm, wi);
    return 0;
}

/* Release a writeback's aliases (only those still naming this instruction). */
static void release_aliases(tm_warp *w, const tm_wb *b)
{
    const emu_inst_info *in = b->info;
    for (unsigned i = 0; i < in->ndst && i < 8; i++) {
        unsigned s = in->dst[i];
        if (s <= PTX_MAX_PHYS_REGS && w->alias[s] == b->id && w->alias_seq[s] == b->seq)
            w->alias[s] = -1;
    }
    for (unsigned i = 0; i < in->ndst_pred && i < 2; i++) {
        unsigned s = TM_PRED_BASE + in->dst_pred[i];
        if (in->dst_pred[i] < PTX_MAX_PRED_REGS && w->alias[s] == b->id && w->alias_seq[s] == b->seq)
            w->alias[s] = -1;
    }
}

/* ---- issue: execute, functional unit or memory -------------------------- */

static int32_t memrec_alloc(tm_sm *sm)
{
    if (sm->mr_free >= 0) {
        int32_t i = sm->mr_free;
        sm->mr_free = sm->mr[i].next_free;
        return i;
    }
    if (sm->nmr == sm->capmr) {
        uint32_t nc = sm->capmr ? sm->capmr * 2 : 64;
        tm_memrec *n = realloc(sm->mr, nc * sizeof *n);
        if (!n)
            return -1;
        sm->mr = n;
        sm->capmr = nc;
    }
    return (int32_t)sm->nmr++;
}

static void memrec_free(tm_sm *sm, int32_t i)
{
    sm->mr[i].next_free = sm->mr_free;
    sm->mr_free = i;
}

static mem_space mem_space_of(unsigned s)
{
    switch (s) {
    case SP_LOCAL: return MEM_LOCAL;
    case SP_SHARED: return MEM_SHARED;
    case SP_CONST: case SP_PARAM: return MEM_CONST;
    default: return MEM_GLOBAL;
    }
}

/* Start an instruction on a unit of `kind` for scheduler s at cycle t: the
 * private unit of s or a shared unit that frees first. Returns the cycle its
 * result is ready. */
static uint64_t unit_start(timing_gpu *g, tm_sm *sm, unsigned kind, unsigned s, uint64_t t)
{
    const gpu_unit_config *uc = &g->cfg.unit[kind];
    uint64_t *nx = sm->unit_next[kind];
    int best = -1;
    for (uint32_t i = 0; i < uc->private_units; i++) {
        uint32_t k = s * uc->private_units + i;
        if (best < 0 || nx[k] < nx[best])
            best = (int)k;
    }
    uint32_t base = uc->private_units * g->cfg.num_schedulers;
    for (uint32_t i = 0; i < uc->shared_units; i++) {
        uint32_t k = base + i;
        if (best < 0 || nx[k] < nx[best])
            best = (int)k;
    }
    uint64_t start = nx[best] > t ? nx[best] : t;
    nx[best] = start + uc->ii;
    /* refresh the group's earliest free time */
    uint64_t m = UINT64_MAX;
    if ((uint32_t)best < base) {
        for (uint32_t i = 0; i < uc->private_units; i++)
            if (nx[s * uc->private_units + i] < m)
                m = nx[s * uc->private_units + i];
        sm->priv_min[kind][s] = m;
    } else {
        for (uint32_t i = 0; i < uc->shared_units; i++)
            if (nx[base + i] < m)
                m = nx[base + i];
        sm->shared_min[kind] = m;
    }
    return start + uc->latency;
}

/* Can a unit of `kind` accept an instruction from scheduler s at cycle t? */
static inline int unit_free(const tm_sm *sm, unsigned kind, unsigned s, uint64_t t)
{
    return sm->priv_min[kind][s] <= t || sm->shared_min[kind] <= t;
}

static int issue_one(timing_gpu *g, tm_sm *sm, unsigned s, const sched_issue *is, uint64_t t)
{
    unsigned wi = is->warp;
    tm_warp *w = &sm->warp[wi];
    if (!w->cta || w->count == 0) {
        g->fault = SMC_ERR_LAUNCH_FAILED;
        set_msg(g, "timing model: SM %u scheduler %u issued warp %u which has no "
                "instruction (cycle %llu)", sm->id, s, wi, (unsigned long long)t);
        return -1;
    }
    tm_entry e = w->buf[w->head];
    w->head = (w->head + 1) % SCHED_MAX_IBUF_DEPTH;
    w->count--;
    update_head(sm, wi);
    emu_exec_info x;
    x.pc = e.info->pc;       /* in case nothing executes */
    x.active = 0;
    int st = emu_warp_execute(w->cta, w->widx, &x);
    if (st == EMU_FAULT) {
        const smc_fault *f = emu_launch_fault(g->launch);
        g->fault = f->status != SMC_OK ? f->status : SMC_ERR_LAUNCH_FAILED;
        set_msg(g, "%s", f->message);
        return -1;
    }
    /* what the emulator executed (x.pc) is normally what was buffered */
    const emu_inst_info *actual = emu_kernel_inst(g->ek, x.pc);
    if (x.pc != e.info->pc)
        g->st->fetch_redirects++;
    g->st->unit_insts[e.kind]++;
    uint64_t ready;
    int to_mem = e.kind == GPU_UNIT_LDST && actual && actual->op_class == EC_MEM && x.active;
    if (to_mem) {
        mem_request rq;
        rq.sm = sm->id;
        rq.warp = wi;
        rq.op = actual->is_atomic ? MEM_ATOMIC : actual->is_store ? MEM_STORE : MEM_LOAD;
        rq.space = mem_space_of(x.mem_space);
        rq.active_mask = x.active;
        unsigned size = x.access_size ? x.access_size : 4;
        if (size > 16)
            size = 16;      /* v4 of 64-bit values: modelled as 16 bytes per lane */
        for (unsigned l = 0; l < 32; l++) {
            rq.addr[l] = (x.active >> l) & 1 ? x.addr[l] : 0;
            rq.size[l] = (uint8_t)size;
        }
        rq.num_dst = e.has_dst;
        rq.dst[0] = e.dst;
        int32_t slot = memrec_alloc(sm);
        if (slot < 0) {
            g->fault = SMC_ERR_OUT_OF_MEMORY;
            set_msg(g, "timing model: out of host memory");
            return -1;
        }
        sm->mr[slot] = (tm_memrec){ e.info, e.seq, (uint8_t)wi, e.dst, e.has_dst, -1 };
        sm->mem_out++;
        rq.tag = (uint64_t)slot;
        char err[256];
        if (mem_submit(g->mem, &rq, NULL, err, sizeof err) != 0) {
            g->fault = SMC_ERR_LAUNCH_FAILED;
            set_msg(g, "timing model: SM %u warp %u pc %u: memory request refused: %s",
                    sm->id, wi, x.pc, err);
            return -1;
        }
        w->inflight++;
        ready = 0;
    } else {
        ready = unit_start(g, sm, e.kind, s, t);
    }
    if (!to_mem && e.has_dst) {
        tm_wb b = { ready - 1, 0, e.seq, (uint8_t)wi, e.dst, e.info };
        if (wb_push(sm, b) != 0) {
            g->fault = SMC_ERR_OUT_OF_MEMORY;
            set_msg(g, "timing model: out of host memory");
            return -1;
        }
        w->inflight++;
    }
    if (st == EMU_WAIT_BARRIER)
        sm->bar_mask |= 1ull << wi;
    else if (st == EMU_EXITED || emu_warp_exited(w->cta, w->widx)) {
        w->exited = 1;
        sm->finish_next |= 1ull << wi;
        /* the core empties the buffer at finish; so does the shadow */
        for (; w->count; w->count--, w->head = (w->head + 1) % SCHED_MAX_IBUF_DEPTH)
            if (w->buf[w->head].has_dst && w->pend[w->buf[w->head].dst])
                w->pend[w->buf[w->head].dst]--;
        update_head(sm, wi);
        sm->cta_check = 1;
    }
    return 0;
}

/* A memory completion: the load's destination is written at c->cycle, so
 * its scoreboard entry is released at the edge ending c->cycle - 1 (or now,
 * the earliest edge left). Stores and reductions just complete. */
static int mem_done(tm_sm *sm, const mem_completion *c, uint64_t t)
{
    int32_t slot = (int32_t)c->tag;
    tm_memrec r = sm->mr[slot];
    memrec_free(sm, slot);
    sm->mem_out--;
    if (r.has_dst) {
        tm_wb b = { c->cycle > t + 1 ? c->cycle - 1 : t, 0, r.seq, r.warp, r.id, r.info };
        return wb_push(sm, b);   /* inflight drops at the writeback */
    }
    if (--sm->warp[r.warp].inflight == 0 && sm->warp[r.warp].exited)
        sm->cta_check = 1;
    return 0;
}

/* ---- one SM, one cycle -------------------------------------------------- */

/* Front half of cycle t: account the issue slots and execute what issued. */
static int sm_front(timing_gpu *g, tm_sm *sm, uint64_t t, int *issued)
{
    const sched_outputs *o = sched_get_outputs(sm->sched);
    unsigned ns = g->cfg.num_schedulers;
    int counted = sm->resident > 0;
    for (unsigned s = 0; s < ns; s++) {
        if (counted)
            g->st->slots[o->stall_reason[s] < TS_COUNT ? o->stall_reason[s] : TS_NO_INSTR]++;
        else
            g->st->idle_slots++;
    }
    if (counted)
        g->st->sm_active_cycles++;
    for (unsigned s = 0; s < ns; s++) {
        if (!o->issue[s].valid)
            continue;
        if (issue_one(g, sm, s, &o->issue[s], t) != 0)
            return -1;
        *issued = 1;
    }
    return 0;
}

/* Back half of cycle t (mem_now() == t + 1): completions, inputs, edge. */
static int sm_back(timing_gpu *g, tm_sm *sm, uint64_t t)
{
    const gpu_config *c = &g->cfg;
    unsigned ns = c->num_schedulers;
    mem_completion done[32];
    size_t n;
    while ((n = mem_collect(g->mem, sm->id, done, 32)) > 0)
        for (size_t i = 0; i < n; i++)
            if (mem_done(sm, &done[i], t) != 0) {
                g->fault = SMC_ERR_OUT_OF_MEMORY;
                set_msg(g, "timing model: out of host memory");
                return -1;
            }

    sched_inputs in;
    memset(&in, 0, sizeof in);
    in.policy = (uint8_t)c->policy;
    in.warp_limit = (uint8_t)c->warp_limit;
    in.pool_size = (uint8_t)c->pool_size;

    /* writebacks due at this edge, oldest first, at most wb_ports */
    unsigned k = 0;
    while (sm->nwb && sm->wb[0].cycle <= t) {
        if (k == c->wb_ports) {
            g->st->wb_port_stalls++;
            break;
        }
        tm_wb b = wb_pop(sm);
        tm_warp *w = &sm->warp[b.warp];
        in.wb[k].valid = 1;
        in.wb[k].warp = b.warp;
        in.wb[k].reg = b.id;
        k++;
        if (w->pend[b.id])
            w->pend[b.id]--;
        release_aliases(w, &b);
        if (--w->inflight == 0 && w->exited)
            sm->cta_check = 1;
    }

    /* barriers released by the last arrival */
    for (uint64_t m = sm->bar_mask; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        tm_warp *tw = &sm->warp[w];
        if (emu_warp_ready(tw->cta, tw->widx) || emu_warp_exited(tw->cta, tw->widx))
            sm->bar_mask &= ~(1ull << w);
    }
    in.barrier = sm->bar_mask;

    /* CTAs whose warps have all exited and drained leave the SM */
    for (uint32_t i = 0; sm->cta_check && i < c->max_ctas_per_sm; i++) {
        tm_cta *ct = &sm->cta[i];
        if (!ct->used || !emu_cta_done(ct->emu))
            continue;
        int drained = 1;
        for (uint32_t j = 0; j < ct->nwarps && drained; j++)
            drained = sm->warp[ct->slot[j]].inflight == 0 && sm->warp[ct->slot[j]].exited;
        if (!drained)
            continue;
        for (uint32_t j = 0; j < ct->nwarps; j++) {
            tm_warp *tw = &sm->warp[ct->slot[j]];
            tw->cta = NULL;
            tw->cta_slot = -1;
            sm->used_slots &= ~(1ull << ct->slot[j]);
        }
        emu_cta_destroy(ct->emu);
        ct->emu = NULL;
        ct->used = 0;
        sm->resident--;
    }
    sm->cta_check = 0;

    in.launch = sm->launch_next;
    in.finish = sm->finish_next & ~sm->launch_next;
    sm->launch_next = sm->finish_next = 0;

    /* fetch: one push per scheduler, for the warp its fetch arbiter chose */
    const sched_outputs *o = sched_get_outputs(sm->sched);
    for (unsigned s = 0; s < ns; s++) {
        if (!o->fetch_valid[s])
            continue;
        unsigned w = o->fetch_warp[s];
        tm_warp *tw = &sm->warp[w];
        if (((in.launch | in.finish) >> w) & 1 || tw->count >= c->ibuf_depth)
            continue;
        int64_t pc = next_fetch_pc(g, tw);
        if (pc < 0)
            continue;
        decode_push(g, sm, w, (uint32_t)pc, &in.push[s]);
    }

    /* unit availability for cycle t+1 */
    uint64_t t1 = t + 1;
    int ldst_ok = mem_ldst_ready(g->mem, sm->id);
    int ldst_to = -1;
    if (ldst_ok)
        for (unsigned i = 0; i < ns; i++) {
            unsigned s = (sm->ldst_rr + i) % ns;
            if (sm->ldst_head & g->sched_mask[s]) {
                ldst_to = (int)s;
                sm->ldst_rr = (s + 1) % ns;
                break;
            }
        }
    for (unsigned s = 0; s < ns; s++) {
        uint8_t a = 0;
        if (unit_free(sm, GPU_UNIT_SP, s, t1) && unit_free(sm, GPU_UNIT_BRANCH, s, t1))
            a |= 1u << SCHED_OP_SP;
        if (unit_free(sm, GPU_UNIT_SFU, s, t1))
            a |= 1u << SCHED_OP_SFU;
        if (unit_free(sm, GPU_UNIT_DPU, s, t1) && unit_free(sm, GPU_UNIT_INT, s, t1))
            a |= 1u << SCHED_OP_DP;
        if ((int)s == ldst_to)
            a |= 1u << SCHED_OP_LDST;
        in.unit_avail[s] = a;
    }

    if (sched_step(sm->sched, &in) != 0) {
        g->fault = SMC_ERR_LAUNCH_FAILED;
        if (g->cfg.backend == GPU_SCHED_LOCKSTEP) {
            g->mismatch = 1;
            g->mismatch_sm = sm->id;
            g->mismatch_cycle = t + 1;   /* the outputs of cycle t+1 differ */
        }
        set_msg(g, "scheduler back end %s failed on SM %u at cycle %llu: %s",
                sched_backend_name(sm->sched), sm->id, (unsigned long long)t,
                sched_error(sm->sched));
        return -1;
    }
    if (g->fst && sm->id == g->trace_sm && vs.fst_step(g->fst, t))
        fst_sample(g, sm, t + 1);
    return 0;
}

/* An SM with nothing resident or pending is not stepped — except SM 0 while
 * a waveform is written, so that its time axis is the GPU's cycles. */
static int sm_busy(const timing_gpu *g, const tm_sm *sm)
{
    return sm->resident || sm->launch_next || sm->finish_next || sm->nwb ||
           (g->fst && sm->id == g->trace_sm);
}

static int sm_work(const tm_sm *sm)
{
    return sm->resident || sm->launch_next || sm->finish_next || sm->nwb;
}

/* ---- the launch ----------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

smc_status timing_run(timing_gpu *g, const emu_kernel *ek, emu_launch *l, const char *kernel_name,
                      const timing_kernel_req *req, smc_dim3 grid, smc_dim3 block,
                      volatile sig_atomic_t *stop, timing_stats *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel_name);
    snprintf(out->config, sizeof out->config, "%s", g->cfg.preset);
    snprintf(out->backend, sizeof out->backend, "%s", gpu_backend_name(g->cfg.backend));
    if (g->cfg.warp_limit)
        snprintf(out->policy, sizeof out->policy, "swl:%u", g->cfg.warp_limit);
    else
        snprintf(out->policy, sizeof out->policy, "%s", gpu_policy_name(g->cfg.policy));
    out->num_sms = g->nsm;
    out->grid[0] = grid.x; out->grid[1] = grid.y; out->grid[2] = grid.z;
    out->block[0] = block.x; out->block[1] = block.y; out->block[2] = block.z;
    g->msg = msg;
    g->msglen = msglen;
    if (msg && msglen)
        msg[0] = '\0';
    smc_status st = timing_occupancy_compute(&g->cfg, req, &g->occ, msg, msglen);
    out->status = st;
    if (st != SMC_OK)
        return st;
    out->ctas_per_sm_limit = g->occ.ctas_per_sm;
    out->waves = g->occ.waves;
    /* SWL counts warps waiting at a barrier against the limit (the core lets
     * the first warp_limit alive warps of the SM issue): when a CTA has more
     * warps than the limit, its warps inside the limit wait at the barrier
     * for warps outside it that can never issue. Refuse such a launch up
     * front instead of running into the watchdog. */
    if (g->cfg.warp_limit && g->occ.warps_per_cta > g->cfg.warp_limit) {
        uint32_t bar_pc = UINT32_MAX;
        const emu_inst_info *in;
        for (uint32_t pc = 0; (in = emu_kernel_inst(ek, pc)) != NULL; pc++)
            if (in->is_barrier) {
                bar_pc = pc;
                break;
            }
        if (bar_pc != UINT32_MAX) {
            set_msg(g, "policy swl:%u lets only %u warps per SM issue, but a block of %u "
                    "threads has %u warps and kernel %s has a barrier (PTX line %u): the "
                    "warps at the barrier would wait forever for warps outside the limit; "
                    "use swl:%u or more, or a smaller block", g->cfg.warp_limit,
                    g->cfg.warp_limit, req->threads_per_cta, g->occ.warps_per_cta, kernel_name,
                    in->ptx_line, g->occ.warps_per_cta);
            return out->status = SMC_ERR_INVALID_CONFIGURATION;
        }
    }

    char err[256];
    g->mem = mem_create(&g->cfg.mem, err, sizeof err);
    if (!g->mem) {
        set_msg(g, "memory model: %s", err);
        return out->status = SMC_ERR_INVALID_VALUE;
    }
    g->ek = ek;
    g->launch = l;
    g->st = out;
    g->fault = SMC_OK;
    g->mismatch = 0;
    g->cycle = 0;
    const ptx_kernel *pk = emu_kernel_ptx(ek);
    g->ncode = pk->ncode;
    g->join = calloc(pk->ncode + 1, 1);
    if (!g->join) {
        mem_destroy(g->mem);
        set_msg(g, "out of host memory");
        return out->status = SMC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t pc = 0; pc < pk->ncode; pc++) {
        const emu_inst_info *in = emu_kernel_inst(ek, pc);
        if (in->is_branch && pk->reconv && pk->reconv[pc] < pk->ncode)
            g->join[pk->reconv[pc]] = 1;
    }
    for (uint32_t i = 0; i < g->nsm; i++)
        sm_reset(g, &g->sm[i]);

    uint32_t nctas = emu_launch_num_ctas(l);
    uint32_t next_cta = 0, rr = 0;
    uint64_t last_issue = 0;
    double t0 = now_seconds(), next_progress = t0 + g->cfg.progress_seconds;
    uint64_t t = 0;
    for (;; t++) {
        g->cycle = t;
        /* 1. CTA dispatcher */
        if (next_cta < nctas) {
            uint32_t last = UINT32_MAX;
            for (uint32_t i = 0; i < g->nsm && next_cta < nctas; i++) {
                uint32_t s = (rr + i) % g->nsm;
                int r = place_cta(g, &g->sm[s], next_cta);
                if (r < 0) {
                    g->fault = SMC_ERR_OUT_OF_MEMORY;
                    set_msg(g, "out of host memory");
                    break;
                }
                if (r) {
                    next_cta++;
                    last = s;
                }
            }
            if (last != UINT32_MAX)
                rr = (last + 1) % g->nsm;
            if (g->fault)
                break;
        }
        /* 2. issue and execute */
        int issued = 0, busy = 0;
        for (uint32_t i = 0; i < g->nsm && !g->fault; i++)
            if (sm_busy(g, &g->sm[i]) && sm_front(g, &g->sm[i], t, &issued) != 0)
                break;
        if (g->fault)
            break;
        /* 3. memory */
        mem_cycle(g->mem);
        /* 4. completions, inputs, edge */
        for (uint32_t i = 0; i < g->nsm; i++) {
            tm_sm *sm = &g->sm[i];
            if (!sm_busy(g, sm))
                continue;
            if (sm_back(g, sm, t) != 0)
                break;
            busy |= sm_work(sm);
        }
        if (g->fault)
            break;
        if (issued)
            last_issue = t;
        if (!busy && next_cta >= nctas) {
            t++;
            break;
        }
        if (t - last_issue > g->cfg.watchdog_cycles) {
            g->fault = SMC_ERR_LAUNCH_TIMEOUT;
            set_msg(g, "kernel %s: no instruction issued for %llu cycles (gpu.watchdog_cycles) "
                    "at cycle %llu: deadlock or hang", kernel_name,
                    (unsigned long long)g->cfg.watchdog_cycles, (unsigned long long)t);
            break;
        }
        if ((t & 0xFFFF) == 0) {
            if (stop && *stop) {
                g->fault = SMC_ERR_INTERRUPTED;
                set_msg(g, "kernel %s: interrupted at cycle %llu", kernel_name,
                        (unsigned long long)t);
                t++;
                break;
            }
            if (g->cfg.progress_seconds) {
                double now = now_seconds();
                if (now >= next_progress) {
                    fprintf(stderr, "smcosim: %s: %llu cycles, %u/%u blocks started, "
                            "%.0f cycles/s\n", kernel_name, (unsigned long long)t,
                            next_cta, nctas, t / (now - t0));
                    next_progress = now + g->cfg.progress_seconds;
                }
            }
        }
    }
    out->cycles = t;
    out->warp_insts = emu_launch_warp_insts(l);
    out->thread_insts = emu_launch_thread_insts(l);
    out->ipc = t ? (double)out->warp_insts / (double)t : 0.0;
    out->mem = *mem_get_stats(g->mem);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        mem_stats_json(g->mem, f);
        fclose(f);
        out->mem_json = buf;
    }
    out->host_seconds = now_seconds() - t0;
    /* leave no CTA behind (a fault or interruption stops mid-launch) */
    for (uint32_t i = 0; i < g->nsm; i++) {
        tm_sm *sm = &g->sm[i];
        for (uint32_t j = 0; j < g->cfg.max_ctas_per_sm; j++)
            if (sm->cta[j].used) {
                emu_cta_destroy(sm->cta[j].emu);
                sm->cta[j].used = 0;
            }
    }
    mem_destroy(g->mem);
    g->mem = NULL;
    free(g->join);
    g->join = NULL;
    g->msg = NULL;
    out->status = g->fault;
    return g->fault;
}
