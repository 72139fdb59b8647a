/*
 * timing_wave.c — the C side of the --fst waveform: which variables the
 * timing model adds beside the RTL's signals (docs/timing-model.md,
 * "Waveform") and when they are sampled.
 *
 * The writer itself (fst.c, timing_fst.h) uses fstapi from the Verilator
 * runtime, so it is linked only with the RTL: its functions are weak
 * references here, and where they are not linked (the drop-in runtime) they
 * come from the RTL plugin libsmc_vsched.so, which carries fst.c too
 * (sched_plugin_symbol, cosim/sched_open.c).
 */
#include "timing_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "timing_fst.h"

#define TM_WEAK __attribute__((weak))
extern tm_fst *tm_fst_create(const char *, const char *, const sched_params *, uint64_t, uint64_t, char *, size_t) TM_WEAK;
extern const char *tm_fst_rtl_path(const tm_fst *, char *, size_t) TM_WEAK;
extern int tm_fst_var(tm_fst *, const char *, const char *, uint32_t) TM_WEAK;
extern int tm_fst_reset(tm_fst *) TM_WEAK;
extern int tm_fst_step(tm_fst *, uint64_t) TM_WEAK;
extern int tm_fst_sample(tm_fst *, uint32_t, uint64_t) TM_WEAK;
extern int tm_fst_pending(const tm_fst *) TM_WEAK;
extern int tm_fst_closed(const tm_fst *) TM_WEAK;
extern int tm_fst_written(const tm_fst *) TM_WEAK;
extern int tm_fst_finish(tm_fst *, char *, size_t) TM_WEAK;
extern void tm_fst_destroy(tm_fst *) TM_WEAK;

/* The writer's functions, linked or from the plugin (NULL until resolved). */
static struct fst_api {
    tm_fst *(*create)(const char *, const char *, const sched_params *, uint64_t, uint64_t, char *, size_t);
    const char *(*rtl_path)(const tm_fst *, char *, size_t);
    int (*var)(tm_fst *, const char *, const char *, uint32_t);
    int (*reset)(tm_fst *);
    int (*step)(tm_fst *, uint64_t);
    int (*sample)(tm_fst *, uint32_t, uint64_t);
    int (*pending)(const tm_fst *);
    int (*closed)(const tm_fst *);
    int (*written)(const tm_fst *);
    int (*finish)(tm_fst *, char *, size_t);
    void (*destroy)(tm_fst *);
} fa;

int tm_wave_resolve(const char *what, char *err, size_t errlen)
{
    if (fa.create)
        return 0;
    if (tm_fst_create) {
        fa = (struct fst_api){ tm_fst_create, tm_fst_rtl_path, tm_fst_var, tm_fst_reset,
                               tm_fst_step, tm_fst_sample, tm_fst_pending, tm_fst_closed,
                               tm_fst_written, tm_fst_finish, tm_fst_destroy };
        return 0;
    }
    struct fst_api a;
    /* POSIX: a data pointer from dlsym converts to a function pointer */
#define FA_SYM(field, name) \
    if (!(*(void **)&a.field = sched_plugin_symbol(what, name, err, errlen))) return -1
    FA_SYM(create, "tm_fst_create");
    FA_SYM(rtl_path, "tm_fst_rtl_path");
    FA_SYM(var, "tm_fst_var");
    FA_SYM(reset, "tm_fst_reset");
    FA_SYM(step, "tm_fst_step");
    FA_SYM(sample, "tm_fst_sample");
    FA_SYM(pending, "tm_fst_pending");
    FA_SYM(closed, "tm_fst_closed");
    FA_SYM(written, "tm_fst_written");
    FA_SYM(finish, "tm_fst_finish");
    FA_SYM(destroy, "tm_fst_destroy");
#undef FA_SYM
    fa = a;
    return 0;
}

/* The waveform: the writer, the index of the first C-side variable, what
 * the traced back end is given, and the first error. */
struct tm_wave {
    tm_fst  *fst;
    uint32_t var0;
    int      dlc_var0;              /* OAWS: the dlc scope's first variable (-1 none) */
    char     seg_path[4096];        /* the back end's own file of one launch */
    sched_trace_opts trace;         /* { seg_path, from, to } */
    char     err[512];              /* first failure ("" none) */
};

/* C-side variables, in this order (docs/timing-model.md, "Waveform"). */
enum { FV_CYCLE, FV_RESIDENT, FV_MSHR, FV_MEM_OUT, FV_LDST_READY, FV_SM_COUNT };
enum { FV_ISSUE_VALID, FV_ISSUE_WARP, FV_ISSUE_PC, FV_STALL, FV_SCHED_COUNT };
enum { FV_STATE, FV_PC, FV_IBUF_COUNT, FV_IBUF0, FV_IBUF1, FV_SB_PENDING, FV_INFLIGHT, FV_WARP_COUNT };
enum { FV_DLC_ENTRIES, FV_DLC_FILLS, FV_DLC_PC, FV_DLC_ACC, FV_DLC_SETS };

static int wave_declare(const timing_gpu *g, tm_wave *wv)
{
    tm_fst *f = wv->fst;
    char smsc[16];
    snprintf(smsc, sizeof smsc, "sm%u", g->wave_sm);
    int first = fa.var(f, smsc, "cycle", 64);
    wv->var0 = (uint32_t)first;
    int bad = first < 0;
    bad |= fa.var(f, smsc, "resident_ctas", 8) < 0;
    bad |= fa.var(f, smsc, "mshr_in_use", 16) < 0;
    bad |= fa.var(f, smsc, "mem_outstanding", 16) < 0;
    bad |= fa.var(f, smsc, "ldst_ready", 1) < 0;
    char sc[24];
    for (unsigned s = 0; s < g->cfg.num_schedulers; s++) {
        snprintf(sc, sizeof sc, "sched%u", s);
        bad |= fa.var(f, sc, "issue_valid", 1) < 0;
        bad |= fa.var(f, sc, "issue_warp", 8) < 0;
        bad |= fa.var(f, sc, "issue_pc", 32) < 0;
        bad |= fa.var(f, sc, "stall_reason", 3) < 0;
    }
    for (unsigned w = 0; w < g->cfg.max_warps_per_sm; w++) {
        snprintf(sc, sizeof sc, "warp%02u", w);
        bad |= fa.var(f, sc, "state", 2) < 0;
        bad |= fa.var(f, sc, "pc", 32) < 0;
        bad |= fa.var(f, sc, "ibuf_count", 4) < 0;
        bad |= fa.var(f, sc, "ibuf0_pc", 32) < 0;
        bad |= fa.var(f, sc, "ibuf1_pc", 32) < 0;
        bad |= fa.var(f, sc, "sb_pending", 8) < 0;
        bad |= fa.var(f, sc, "inflight", 16) < 0;
    }
    /* OAWS: the SM's DLC (rtl/macu_dlc.sv or its C twin, as --sched picks):
     * its entry count (the block's count_o) and the fills the LD/ST unit
     * made (its fill_* inputs, the last one held) */
    wv->dlc_var0 = -1;
    if (g->oaws.mode) {
        wv->dlc_var0 = fa.var(f, "dlc", "entries", 7);
        bad |= wv->dlc_var0 < 0;
        bad |= fa.var(f, "dlc", "fills", 32) < 0;
        bad |= fa.var(f, "dlc", "last_fill_pc", 32) < 0;
        bad |= fa.var(f, "dlc", "last_fill_acc", 7) < 0;
        bad |= fa.var(f, "dlc", "last_fill_sets", 7) < 0;
    }
    return bad ? -1 : 0;
}

tm_wave *tm_wave_create(timing_gpu *g, const char *path, uint64_t from, uint64_t to,
                        char *err, size_t errlen)
{
    tm_wave *wv = calloc(1, sizeof *wv);
    if (!wv) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    wv->fst = fa.create(path, g->cfg.backend == GPU_SCHED_C ? "C model" : "RTL", &g->params,
                        from, to, err, errlen);
    if (!wv->fst || wave_declare(g, wv) != 0) {
        if (wv->fst) {
            snprintf(err, errlen, "out of memory");
            fa.destroy(wv->fst);
        }
        free(wv);
        return NULL;
    }
    fa.rtl_path(wv->fst, wv->seg_path, sizeof wv->seg_path);
    wv->trace = (sched_trace_opts){ wv->seg_path, from, to };
    return wv;
}

/* Sample the traced SM's state as of the start of cycle `cycle`. */
static void wave_sample(timing_gpu *g, tm_sm *sm, uint64_t cycle)
{
    tm_fst *f = g->wave->fst;
    uint32_t v = g->wave->var0;
    fa.sample(f, v + FV_CYCLE, cycle);
    fa.sample(f, v + FV_RESIDENT, sm->resident);
    fa.sample(f, v + FV_MSHR, g->mem ? g->cfg.mem.l1d_mshr_entries - mem_free_mshrs(g->mem, sm->id) : 0);
    fa.sample(f, v + FV_MEM_OUT, sm->mem_out);
    fa.sample(f, v + FV_LDST_READY, g->mem ? mem_ldst_ready(g->mem, sm->id) : 1);
    v += FV_SM_COUNT;
    const sched_outputs *o = sched_get_outputs(sm->sched);
    for (unsigned s = 0; s < g->cfg.num_schedulers; s++, v += FV_SCHED_COUNT) {
        fa.sample(f, v + FV_ISSUE_VALID, o->issue[s].valid);
        fa.sample(f, v + FV_ISSUE_WARP, o->issue[s].warp);
        fa.sample(f, v + FV_ISSUE_PC, o->issue[s].pc);
        fa.sample(f, v + FV_STALL, o->stall_reason[s]);
    }
    for (unsigned w = 0; w < g->cfg.max_warps_per_sm; w++, v += FV_WARP_COUNT) {
        const tm_warp *tw = &sm->warp[w];
        unsigned state = !tw->cta ? 0 : tw->exited ? 3 : (sm->bar_mask >> w) & 1 ? 2 : 1;
        const emu_inst_info *in = state == 1 || state == 2 ? g->src.ops->peek(tw->cta, tw->widx) : NULL;
        unsigned pend = 0;
        if (tw->cta)
            for (unsigned k = 0; k < 256; k++)
                pend += tw->pend[k] != 0;
        fa.sample(f, v + FV_STATE, state);
        fa.sample(f, v + FV_PC, in ? in->pc : 0);
        fa.sample(f, v + FV_IBUF_COUNT, tw->count);
        fa.sample(f, v + FV_IBUF0, tw->count > 0 ? tw->buf[tw->head].info->pc : 0);
        fa.sample(f, v + FV_IBUF1, tw->count > 1 ?
                  tw->buf[(tw->head + 1) % SCHED_MAX_IBUF_DEPTH].info->pc : 0);
        fa.sample(f, v + FV_SB_PENDING, pend);
        fa.sample(f, v + FV_INFLIGHT, tw->inflight);
    }
    if (g->wave->dlc_var0 >= 0) {
        v = (uint32_t)g->wave->dlc_var0;
        fa.sample(f, v + FV_DLC_ENTRIES, sm->dlc ? dlc_count(sm->dlc) : 0);
        fa.sample(f, v + FV_DLC_FILLS, sm->dlc_fills);
        fa.sample(f, v + FV_DLC_PC, sm->dlc_last_pc);
        fa.sample(f, v + FV_DLC_ACC, sm->dlc_last_acc);
        fa.sample(f, v + FV_DLC_SETS, sm->dlc_last_sets);
    }
}

void tm_wave_reset(timing_gpu *g, tm_sm *sm)
{
    if (g->wave && sm->id == g->wave_sm && fa.reset(g->wave->fst))
        wave_sample(g, sm, 0);
}

void tm_wave_step(timing_gpu *g, tm_sm *sm, uint64_t t)
{
    if (g->wave && sm->id == g->wave_sm && fa.step(g->wave->fst, t))
        wave_sample(g, sm, t + 1);
}

const sched_trace_opts *tm_wave_trace(const timing_gpu *g, const tm_sm *sm)
{
    if (!g->wave || sm->id != g->wave_sm || fa.closed(g->wave->fst))
        return NULL;
    return &g->wave->trace;
}

/* After every launch (and once at creation). The final file is complete
 * after each launch that dumped cycles, so a CUDA program — which never
 * destroys its device — gets its waveform too, whatever way it ends later
 * (return from main, exit(), a crash or a kill in a later launch). The
 * traced back end writes its own FST, complete only once closed, so it is
 * destroyed (closing the file) and the file merged; tm_sm_open opens a fresh
 * back end at the next launch (every launch resets the core, so a fresh one
 * behaves the same). Between launches no file of the back end is open, so
 * none is left behind when the process ends. */
int tm_wave_launch_end(timing_gpu *g, char *err, size_t errlen)
{
    tm_wave *wv = g->wave;
    tm_sm *sm = wv ? &g->sm[g->wave_sm] : NULL;
    int traced = wv && (fa.pending(wv->fst) || !fa.closed(wv->fst));
    if (!traced || !sm->sched)
        return 0;
    sched_group_member_close(g->cores, sm->id);   /* closes its FST */
    sm->sched = NULL;
    int rc = fa.finish(wv->fst, err, errlen);   /* or removes an empty one */
    if (rc != 0 && !wv->err[0])
        snprintf(wv->err, sizeof wv->err, "%s", err);
    return rc;
}

int tm_wave_finish(tm_wave *wv, char *err, size_t errlen)
{
    if (!wv)
        return 0;
    int rc = wv->err[0] ? -1 : fa.written(wv->fst) ? 1 : 0;
    if (rc < 0)
        snprintf(err, errlen, "%s", wv->err);
    fa.destroy(wv->fst);
    free(wv);
    return rc;
}
