/*
 * pipeline.c — one SM, cycle by cycle: the part of the timing model around
 * the scheduler core (docs/timing-model.md, "Pipeline stages").
 *
 *   decode     the core's fetch arbiter names a warp; its next instruction
 *              is decoded into a push (register ids, alias table, operand
 *              order) — where per-instruction hints (HAWS) are computed;
 *   issue      the core's issue outputs: the warp-instruction executes in
 *              the emulator now and starts on a functional unit or goes to
 *              the memory model (the memory feed, where OAWS's inputs come
 *              from);
 *   writeback  results release their scoreboard entries at the edge before
 *              they are ready, at most wb_ports per cycle;
 *   edge       the core's inputs of the rising edge ending cycle t
 *              (writebacks, barrier, launch/finish, pushes, unit
 *              availability for t+1) and sched_step.
 *
 * Writeback timing: an instruction whose result is ready at cycle d (issue +
 * latency, or the memory completion cycle) releases its scoreboard entry at
 * the edge ending cycle d-1, so a dependent instruction issues at d: a chain
 * of N dependent ALU instructions takes N x latency cycles.
 */
#include "timing_internal.h"
#include "peers.h"
#include "units.h"

#include <stdlib.h>
#include <string.h>



/* ---- functional units ----
 *
 * timing_unit_of() (units.c, shared with TEG) picks an instruction's unit
 * kind, latency and interval; UNIT_OP_CLASSES maps each kind onto one of
 * the scheduler core's four op classes: it builds the table
 * unit_op_class[] (the push's op class) and, unrolled, the core's
 * unit_avail bits (tm_sm_back). */
#define UNIT_OP_CLASSES(X)                                     \
    X(GPU_UNIT_SP, SCHED_OP_SP)   X(GPU_UNIT_BRANCH, SCHED_OP_SP) \
    X(GPU_UNIT_DPU, SCHED_OP_DP)  X(GPU_UNIT_INT, SCHED_OP_DP)    \
    X(GPU_UNIT_SFU, SCHED_OP_SFU) X(GPU_UNIT_LDST, SCHED_OP_LDST)

static const uint8_t unit_op_class[GPU_UNIT_COUNT] = {
#define UNIT_OP_CLASS_ENTRY(kind, op_class) [kind] = op_class,
    UNIT_OP_CLASSES(UNIT_OP_CLASS_ENTRY)
#undef UNIT_OP_CLASS_ENTRY
};

/* Register ids: the top P ids of the core's space are predicates, the rest
 * fold the 32-bit registers (modulo: aliasing only adds dependencies). */
static uint8_t reg_id(const timing_gpu *g, unsigned r) { return (uint8_t)sched_reg_id(g->cfg.reg_id_width, r); }
static uint8_t pred_id(const timing_gpu *g, unsigned p) { return (uint8_t)sched_pred_id(g->cfg.reg_id_width, p); }

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

/* ---- per-launch state --------------------------------------------------- */

void tm_sm_reset(timing_gpu *g, tm_sm *sm)
{
    /* (the core: sched_group_reset of all SMs' cores, timing.c) */
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
        sm->head_kind[u] = 0;
        sm->shared_offer[u] = 0;
    }
    memset(sm->shared_rr, 0, sizeof sm->shared_rr);
    sm->nwb = 0;
    sm->wb_order = 0;
    sm->seq = 0;
    sm->ldst_rr = 0;
    sm->ldst_head = 0;
    tm_ldst_path_reset(sm);
    sm->cta_check = 0;
    sm->mem_out = 0;
    sm->nmr = 0;
    sm->mr_free = -1;
    sm->haws_mode = 0;
    memset(sm->hbr, 0, sizeof sm->hbr);
    oaws_sm_reset(&sm->oaws, &g->oaws);
    if (sm->dlc)
        dlc_clear(sm->dlc);                   /* the DLC is cleared per launch (§4.2) */
    sm->dlc_fills = sm->dlc_last_pc = 0;
    sm->dlc_last_acc = sm->dlc_last_sets = 0;
    memset(&sm->st, 0, sizeof sm->st);
    sm->core_alive = 0;
    sm->oaws_avail = 0;
    sm->ldst_cheap = 0;
    sm->ocw_event = 3;                        /* OCW, CNT = ocw_min, cnt_init at the first edge */
    sm->ocw_half = 0;
    memset(sm->rank, 0, sizeof sm->rank);
    tm_wave_reset(g, sm);
}

void tm_warp_init(tm_warp *w, inst_cta *cta, uint32_t widx, int32_t slot)
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
    w->nren = 0;
}

/* Place one CTA on an SM if a slot is free. Returns 1 when placed, 0 when the
 * SM is full, -1 on host memory exhaustion. */
/* ---- decode: one push ---------------------------------------------------- */

/* After these the next pc is known only once they have executed (an
 * out-of-line call's target may differ per lane: the emulator serializes
 * the targets, and fetch resumes where the warp's SIMT stack says). */
static int is_control(const emu_inst_info *in)
{
    return in->is_branch || in->is_barrier || in->is_exit || in->is_call;
}

/* Could warp wi's buffer head issue as far as its sources go: no source
 * has a write pending that issued (the shadow's pend counts the buffered
 * writers too, the head's own included). A guess of the core's scoreboard
 * for the buffered LD/ST path's offer, which must be made before the core
 * decides; it may be wrong in HAWS's hint mode. */
static int head_sources_ready(const tm_warp *w)
{
    const tm_entry *h = &w->buf[w->head];
    for (unsigned i = 0; i < h->nsrc; i++) {
        unsigned id = h->src[i], buffered = 0;
        if (!w->pend[id])
            continue;
        for (unsigned k = 0; k < w->count; k++) {
            const tm_entry *b = &w->buf[(w->head + k) % SCHED_MAX_IBUF_DEPTH];
            buffered += b->has_dst && b->dst == id;
        }
        if (w->pend[id] > buffered)
            return 0;
    }
    return 1;
}

/* Keep tm_sm.ldst_head in step with warp wi's buffer head. */
static void update_head(tm_sm *sm, unsigned wi)
{
    const tm_warp *w = &sm->warp[wi];
    for (unsigned u = 0; u < GPU_UNIT_COUNT; u++)
        sm->head_kind[u] &= ~(1ull << wi);
    if (w->count && !w->exited)
        sm->head_kind[w->buf[w->head].kind] |= 1ull << wi;
    if (w->count && !w->exited && w->buf[w->head].kind == GPU_UNIT_LDST) {
        sm->ldst_head |= 1ull << wi;
        sm->head_pm[wi] = w->buf[w->head].pred_miss;    /* OAWS (0 when off) */
        sm->head_div[wi] = w->buf[w->head].pred_div;
        if (sm->head_pm[wi] <= 1 && !sm->head_div[wi])
            sm->ldst_cheap |= 1ull << wi;
        else
            sm->ldst_cheap &= ~(1ull << wi);
    } else {
        sm->ldst_head &= ~(1ull << wi);
        sm->ldst_cheap &= ~(1ull << wi);
    }
}

/* The pc of the warp's next instruction in program order, or -1 when it is
 * not known yet (behind an unexecuted branch, barrier or exit, or at a
 * reconvergence point) or the warp has exited. */
/* The instruction cache (mem_l1i.c; always yes with an ideal one): may warp
 * w of sm fetch the instruction at pc now? No while an earlier miss of the
 * warp waits for its fill, and no when this fetch misses or is refused (the
 * fetch arbiter has moved on; the warp is asked again later). */
static inline int ifetch_ok(timing_gpu *g, const tm_sm *sm, unsigned w, uint32_t pc)
{
    if (!g->cfg.mem.l1i_sets)
        return 1;
    if (mem_ifetch_waiting(g->mem, sm->id, w))
        return 0;
    return mem_ifetch(g->mem, sm->id, w,
                      g->code_addr + (uint64_t)pc * g->cfg.mem.l1i_inst_bytes) == MEM_IFETCH_HIT;
}

static int64_t next_fetch_pc(const timing_gpu *g, const tm_warp *w)
{
    if (w->exited || !w->cta)
        return -1;
    if (g->src.ops->peek_ahead) {   /* the source knows the warp's future (traces) */
        const emu_inst_info *in = g->src.ops->peek_ahead(w->cta, w->widx, w->count);
        return in ? (int64_t)in->pc : -1;
    }
    if (w->count == 0) {
        const emu_inst_info *in = g->src.ops->peek(w->cta, w->widx);
        return in ? (int64_t)in->pc : -1;
    }
    const tm_entry *last = &w->buf[(w->head + w->count - 1) % SCHED_MAX_IBUF_DEPTH];
    uint32_t next = last->info->pc + 1;
    if (is_control(last->info) || next >= g->ncode || g->join[next])
        return -1;
    return next;
}

/* HAWS: the pool register a physical register is renamed to in the warp's
 * current episode (the latest mapping wins), else r itself. */
static unsigned ren_lookup(const tm_warp *w, unsigned r)
{
    for (unsigned i = w->nren; i-- > 0;)
        if (w->ren_from[i] == r)
            return w->ren_to[i];
    return r;
}

static void ren_add(tm_warp *w, unsigned from, unsigned to)
{
    if (w->nren < 2 * HAWS_RENAME_ENTRIES) {
        w->ren_from[w->nren] = (uint16_t)from;
        w->ren_to[w->nren] = (uint16_t)to;
        w->nren++;
    }
}

/* Map one register operand (with the alias table) to its core id. */
static uint8_t src_id(const timing_gpu *g, const tm_warp *w, unsigned slot, int is_pred, unsigned r)
{
    if (w->alias[slot] >= 0)
        return (uint8_t)w->alias[slot];
    return is_pred ? pred_id(g, r) : reg_id(g, r);
}

/* Decode the instruction at pc for warp w into a core push. Returns 0 when
 * pushed, 1 when held (more than three pending sources).
 *
 * HAWS (docs/haws.md, "Timing model"): `chain` is a hint-mode chain fetch —
 * sources read through the episode's renaming mirror, and a member whose
 * hint has the rename bit writes the pool register Dst (the core allocates
 * its scoreboard entry under Dst; the push names the original destination).
 * `rcu` is the return-pass kind of an in-order push at the RCU head: a copy
 * reads the renamed register `ren` (a core id) and writes the original. */
static int decode_push(timing_gpu *g, tm_sm *sm, unsigned wi, uint32_t pc, sched_push *p,
                       int chain, uint8_t rcu, uint8_t ren)
{
    tm_warp *w = &sm->warp[wi];
    const emu_inst_info *in = g->src.ops->inst_at(g->src.ctx, pc);
    uint8_t ids[20];
    unsigned n = 0;
    if (rcu == SCHED_RCU_COPY) {
        ids[n++] = ren;
    } else {
        for (unsigned i = 0; i < in->nsrc && i < 16; i++) {
            unsigned r = in->src[i];
            if (r == EMU_NO_REG || r > PTX_MAX_PHYS_REGS)
                continue;
            if (chain)
                r = ren_lookup(w, r);
            ids[n++] = src_id(g, w, r, 0, r);
        }
    }
    for (unsigned i = 0; i < in->nsrc_pred && i < 4 && rcu != SCHED_RCU_COPY; i++) {
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

    unsigned lat, ii;
    unsigned kind = timing_unit_of(&g->cfg, in, &lat, &ii);
    memset(p, 0, sizeof *p);
    p->valid = 1;
    p->warp = (uint8_t)wi;
    p->instr.pc = pc;
    p->instr.op = unit_op_class[kind];
    p->instr.long_lat = in->long_latency;
    p->instr.pred = in->nsrc_pred > 0;
    p->instr.hint = in->hint;
    p->rcu = rcu;
    for (unsigned i = 0; i < np; i++) {
        p->instr.src[i] = pick[i];
        p->instr.src_valid |= (uint8_t)(1u << i);
    }
    tm_entry e = { in, ++sm->seq, (uint8_t)kind, 0, 0, TM_HAWS_NONE, -1, 0, 0, (uint8_t)np,
                   { 0, 0, 0 }, (uint16_t)lat, (uint8_t)ii };
    memcpy(e.src, pick, np);
    if (g->oaws.mode) {
        /* OAWS: the stored prediction (docs/oaws.md; seed 001 §4.2): a
         * global/local load (generic = global) whose pc is in the DLC
         * predicts ceil(active lanes x rate); another one 1; all else 0 */
        int ld = in->op_class == EC_MEM && in->is_load && !in->is_atomic &&
                 (in->mem_space == SP_GLOBAL || in->mem_space == SP_LOCAL ||
                  in->mem_space == SP_GENERIC);
        unsigned lanes = ld ? sched_popcount64(g->src.ops->active_mask(w->cta, w->widx)) : 0;
        uint8_t div = 0;
        /* the DLC's read port of this warp's scheduler (port 0 is the
         * retiring load's) */
        int in_dlc = ld && dlc_lookup(sm->dlc, 1 + wi % g->cfg.num_schedulers, pc, NULL);
        unsigned pm = oaws_predict(&g->oaws, ld, in_dlc, lanes, &div);
        e.pred_miss = (uint8_t)(pm > 63 ? 63 : pm);   /* 6 bits; lanes <= 32 keeps it <= 32 */
        e.pred_div = div;
        p->instr.pred_miss = e.pred_miss;
        p->instr.pred_div = e.pred_div;
    }
    if (chain)
        e.haws = in->is_branch ? TM_HAWS_BRANCH : TM_HAWS_MEMBER;
    else if (rcu == SCHED_RCU_COPY)
        e.haws = TM_HAWS_COPY;
    else if (rcu == SCHED_RCU_REEXEC)
        e.haws = TM_HAWS_REEXEC;
    /* a renamed member writes the pool register Dst (and Dst+1 for the
     * second half of a 64-bit pair) instead of its own */
    int rename = chain && !haws_hint_is_branch(in->hint) && haws_hint_rename(in->hint) &&
                 in->ndst > 0 && in->dst[0] <= PTX_MAX_PHYS_REGS;
    unsigned ren_base = rename ? haws_hint_dst(in->hint) : 0;
    int primary_slot = -1;
    if (in->ndst > 0 && in->dst[0] <= PTX_MAX_PHYS_REGS) {
        e.has_dst = 1;
        e.dst = reg_id(g, rename ? ren_base : in->dst[0]);
        primary_slot = rename ? (int)ren_base : in->dst[0];
        if (rename)
            e.rename_to = (int16_t)ren_base;
    } else if (in->ndst_pred > 0 && in->dst_pred[0] < PTX_MAX_PRED_REGS) {
        e.has_dst = 1;
        e.dst = pred_id(g, in->dst_pred[0]);
        primary_slot = TM_PRED_BASE + in->dst_pred[0];
    }
    if (e.has_dst) {
        p->instr.dst_valid = 1;
        p->instr.dst = rename ? reg_id(g, in->dst[0]) : e.dst;
        w->pend[e.dst]++;
        w->alias[primary_slot] = -1;
        /* secondary destinations (64-bit pairs, vectors, extra predicates)
         * are released together with the primary one */
        for (unsigned i = 0; i < in->ndst && i < 8; i++) {
            unsigned d = in->dst[i];
            if (d > PTX_MAX_PHYS_REGS)
                continue;
            if (rename)
                d = ren_base + (d - in->dst[0]);
            if ((int)d != primary_slot) {
                w->alias[d] = e.dst;
                w->alias_seq[d] = e.seq;
            }
        }
        if (rename)
            for (unsigned i = 0; i < in->ndst && i < 2; i++)
                if (in->dst[i] <= PTX_MAX_PHYS_REGS)
                    ren_add(w, in->dst[i], ren_base + (in->dst[i] - in->dst[0]));
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

/* Release the aliases an instruction set at decode (only those still naming
 * it): its destinations' slots, or the pool registers a renamed member
 * wrote. */
static void release_aliases_of(tm_warp *w, const emu_inst_info *in, uint8_t id, uint32_t seq,
                               int rename_to)
{
    for (unsigned i = 0; i < in->ndst && i < 8; i++) {
        unsigned s = in->dst[i];
        if (s > PTX_MAX_PHYS_REGS)
            continue;
        if (rename_to >= 0)
            s = (unsigned)rename_to + (s - in->dst[0]);
        if (w->alias[s] == id && w->alias_seq[s] == seq)
            w->alias[s] = -1;
    }
    for (unsigned i = 0; i < in->ndst_pred && i < 2; i++) {
        unsigned s = TM_PRED_BASE + in->dst_pred[i];
        if (in->dst_pred[i] < PTX_MAX_PRED_REGS && w->alias[s] == id && w->alias_seq[s] == seq)
            w->alias[s] = -1;
    }
}

static void release_aliases(tm_warp *w, const tm_wb *b)
{
    release_aliases_of(w, b->info, b->id, b->seq, b->rename_to);
}

/* Empty warp wi's buffer shadow (the core emptied the buffer: the warp
 * finished, or HAWS entered or left hint mode). Returns the entries that
 * were chain members. */
static unsigned drop_buffer(tm_sm *sm, unsigned wi)
{
    tm_warp *w = &sm->warp[wi];
    unsigned members = 0;
    for (; w->count; w->count--, w->head = (w->head + 1) % SCHED_MAX_IBUF_DEPTH) {
        const tm_entry *e = &w->buf[w->head];
        if (e->has_dst && w->pend[e->dst])
            w->pend[e->dst]--;
        if (e->has_dst)
            release_aliases_of(w, e->info, e->dst, e->seq, e->rename_to);
        members += e->haws == TM_HAWS_MEMBER || e->haws == TM_HAWS_BRANCH;
    }
    update_head(sm, wi);
    return members;
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
 * result is ready: after the unit's latency, or `latency` when the
 * instruction source gives one (emu_inst_info.latency, traces) or the
 * per-opcode table does (unit.opcode_latency); the unit is busy for its
 * ii, or `ii` when not 0. */
static uint64_t unit_start(timing_gpu *g, tm_sm *sm, unsigned kind, unsigned s, uint64_t t,
                           unsigned latency, unsigned ii)
{
    const gpu_unit_config *uc = &g->cfg.unit[kind];
    uint64_t *nx = sm->unit_next[kind];
    int best = -1;
    for (uint32_t i = 0; i < uc->private_units; i++) {
        uint32_t k = s * uc->private_units + i;
        if (best < 0 || nx[k] < nx[best])
            best = (int)k;
    }
    /* a free private unit first: the shared ones free at t were offered to
     * the schedulers without one (tm_sm_back), and taking one here would
     * leave such a scheduler none */
    uint32_t base = uc->private_units * g->cfg.num_schedulers;
    for (uint32_t i = 0; i < uc->shared_units && !(best >= 0 && nx[best] <= t); i++) {
        uint32_t k = base + i;
        if (best < 0 || nx[k] < nx[best])
            best = (int)k;
    }
    uint64_t start = nx[best] > t ? nx[best] : t;
    nx[best] = start + (ii ? ii : uc->ii);
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
    return start + (latency ? latency : uc->latency);
}

/* Can a unit of `kind` accept an instruction from scheduler s at cycle t?
 * A private unit of s is free; or, for a kind with shared units, s was
 * offered one (offer_shared), or s has no warp whose buffer head needs the
 * kind (then the kind does not limit what s can issue). */
static inline int unit_free(const timing_gpu *g, const tm_sm *sm, unsigned kind, unsigned s,
                            uint64_t t)
{
    if (sm->priv_min[kind][s] <= t)
        return 1;
    if (!g->cfg.unit[kind].shared_units)
        return 0;
    return ((sm->shared_offer[kind] >> s) & 1) || !(sm->head_kind[kind] & g->sched_mask[s]);
}

/* Offer the shared units of each kind free at cycle t to the schedulers
 * that have a warp whose buffer head needs the kind and no private unit of
 * it free then, one unit to one scheduler, round-robin from a start that
 * moves every cycle: the schedulers issue in parallel, so a scheduler may
 * issue to a shared unit only if one is set aside for it (GPGPU-Sim's
 * schedulers take the shared pipeline registers one after another).
 *
 * The kinds mapped onto one core op class (DPU and INT: SCHED_OP_DP) are
 * offered from one start. The class is available to a scheduler only when
 * every kind its heads need is (tm_sm_back), so with a start per kind two
 * schedulers could each hold one kind's offer, in step, forever: on
 * fermi-gtx480 (one shared DPU, one shared INT) GPUDIAG's dpu kernel hung
 * when one warp's head needed INT and the others' the DPU. From one start,
 * the first scheduler in the order gets every kind that is free. */
static void offer_shared(const timing_gpu *g, tm_sm *sm, uint64_t t)
{
    unsigned ns = g->cfg.num_schedulers;
    unsigned moved = 0;                     /* op classes whose start moves */
    for (unsigned u = 0; u < GPU_UNIT_COUNT; u++) {
        const gpu_unit_config *uc = &g->cfg.unit[u];
        sm->shared_offer[u] = 0;
        if (u == GPU_UNIT_LDST || !uc->shared_units || sm->shared_min[u] > t)
            continue;
        unsigned c = unit_op_class[u];
        const uint64_t *nx = sm->unit_next[u] + uc->private_units * ns;
        unsigned nfree = 0;
        for (uint32_t i = 0; i < uc->shared_units; i++)
            nfree += nx[i] <= t;
        for (unsigned i = 0; i < ns && nfree; i++) {
            unsigned s = (sm->shared_rr[c] + i) % ns;
            if (sm->priv_min[u][s] <= t || !(sm->head_kind[u] & g->sched_mask[s]))
                continue;
            sm->shared_offer[u] |= 1u << s;
            nfree--;
        }
        moved |= 1u << c;
    }
    for (unsigned c = 0; c < SCHED_NUM_OP_CLASSES; c++)
        if (moved >> c & 1)
            sm->shared_rr[c] = (sm->shared_rr[c] + 1) % ns;
}

static int issue_one(timing_gpu *g, tm_sm *sm, unsigned s, const sched_issue *is, uint64_t t)
{
    unsigned wi = is->warp;
    tm_warp *w = &sm->warp[wi];
    if (!w->cta || w->count == 0) {
        g->fault = SMC_ERR_LAUNCH_FAILED;
        tm_set_msg(g, "timing model: SM %u scheduler %u issued warp %u which has no "
                "instruction (cycle %llu)", sm->id, s, wi, (unsigned long long)t);
        return -1;
    }
    tm_entry e = w->buf[w->head];
    w->head = (w->head + 1) % SCHED_MAX_IBUF_DEPTH;
    w->count--;
    update_head(sm, wi);
    int member = e.haws == TM_HAWS_MEMBER || e.haws == TM_HAWS_BRANCH;
    if (is->hinted != member || is->copy != (e.haws == TM_HAWS_COPY) || is->pc != e.info->pc) {
        g->fault = SMC_ERR_LAUNCH_FAILED;
        tm_set_msg(g, "timing model: SM %u scheduler %u issued warp %u pc %u (hinted %u, copy %u), "
                "but its buffer head is pc %u (hinted %d, copy %d) (cycle %llu)", sm->id, s, wi,
                is->pc, is->hinted, is->copy, e.info->pc, member, e.haws == TM_HAWS_COPY,
                (unsigned long long)t);
        return -1;
    }
    emu_exec_info x;
    x.pc = e.info->pc;       /* in case nothing executes */
    x.active = 0;
    int st;
    timing_haws_stats *hs = &g->st->haws;
    switch (e.haws) {
    case TM_HAWS_MEMBER:     /* executes now, ahead of program order */
        st = g->src.ops->execute_hinted(w->cta, w->widx, e.info->pc,
                                        g->src.ops->active_mask(w->cta, w->widx), e.rename_to, &x);
        hs->hinted_issues++;
        hs->renamed += e.rename_to >= 0;
        if (e.info->op_class == EC_MEM) {
            hs->hinted_mem++;
            hs->hinted_long_mem += e.info->is_load && e.info->long_latency;
        } else {
            hs->hinted_alu++;
        }
        break;
    case TM_HAWS_BRANCH: {   /* the guard decides where the chain goes (hbr) */
        uint32_t mask = g->src.ops->active_mask(w->cta, w->widx), taken = 0;
        st = g->src.ops->branch_ahead(w->cta, w->widx, e.info->pc, mask, &taken);
        x.active = mask;
        if (haws_hint_is_branch(e.info->hint) && !haws_hint_direct(e.info->hint))
            sm->hbr[s] = (sched_hbr){ 1, (uint8_t)wi, taken == mask, taken == mask || taken == 0 };
        hs->hinted_issues++;
        hs->hinted_branches++;
        break;
    }
    case TM_HAWS_COPY:       /* the renamed result into its own register */
        st = g->src.ops->commit(w->cta, w->widx);
        hs->copies++;
        break;
    default:                 /* in program order (a re-executed branch too) */
        st = g->src.ops->execute(w->cta, w->widx, &x);
        hs->reexec += e.haws == TM_HAWS_REEXEC;
        break;
    }
    if (st == EMU_FAULT) {
        const smc_fault *f = g->src.ops->fault(g->src.ctx);
        g->fault = f->status != SMC_OK ? f->status : SMC_ERR_LAUNCH_FAILED;
        tm_set_msg(g, "%s", f->message);
        return -1;
    }
    /* what the emulator executed (x.pc) is normally what was buffered */
    const emu_inst_info *actual = g->src.ops->inst_at(g->src.ctx, x.pc);
    if (x.pc != e.info->pc)
        g->st->fetch_redirects++;
    if (g->cfg.haws && actual && e.haws != TM_HAWS_COPY && e.haws != TM_HAWS_BRANCH) {
        if (actual->op_class == EC_MEM)
            hs->long_mem_insts += actual->is_load && actual->long_latency;
        else if (actual->op_class <= EC_SFU || actual->op_class == EC_WARP)
            hs->alu_insts++;
    }
    uint64_t ready;
    if (e.haws == TM_HAWS_COPY) {
        /* no unit: the register file writes the copy haws.copy_latency cycles
         * after issue (spec C.9 #18) */
        tm_wb b = { t + g->cfg.haws_copy_latency - 1, 0, e.seq, (uint8_t)wi, e.dst, -1, e.info };
        if (e.has_dst && wb_push(sm, b) != 0) {
            g->fault = SMC_ERR_OUT_OF_MEMORY;
            tm_set_msg(g, "timing model: out of host memory");
            return -1;
        }
        w->inflight += e.has_dst;
        return 0;
    }
    g->st->unit_insts[e.kind]++;
    int to_mem = e.kind == GPU_UNIT_LDST && actual && actual->op_class == EC_MEM && x.active &&
                 e.haws != TM_HAWS_BRANCH;
    /* OAWS: an LD/ST issue that never reaches the unit gives its eff back
     * at the next edge; one that does, when it leaves the unit (oaws_retire) */
    if (!to_mem)
        sm->oaws.unretired += is->eff_miss;
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
        if (g->det && rq.op == MEM_LOAD && rq.space == MEM_GLOBAL)
            tm_detect_access(g, w->cta_linear, rq.addr, x.active);
        int32_t slot = memrec_alloc(sm);
        if (slot < 0) {
            g->fault = SMC_ERR_OUT_OF_MEMORY;
            tm_set_msg(g, "timing model: out of host memory");
            return -1;
        }
        sm->mr[slot] = (tm_memrec){ e.info, e.seq, (uint8_t)wi, e.dst, e.has_dst, e.rename_to, -1,
                                    e.pred_div, is->eff_miss };
        sm->mem_out++;
        rq.tag = (uint64_t)slot;
        char err[256];
        mem_coalesce_info ci;
        int rc;
        if (tm_ldst_path_on(g)) {
            /* into ID_OC_MEM; the unit takes it later (ldst_path.c). The
             * DLC still learns the coalescing at issue (a pure function). */
            rc = g->oaws.mode ? mem_coalesce(g->mem, &rq, &ci, err, sizeof err) : 0;
            if (rc == 0) {
                tm_ldst_path_push(sm, &rq, x.pc, t);
                g->st->ldst_path_insts++;
            }
        } else {
            rc = mem_submit(g->mem, &rq, g->oaws.mode ? &ci : NULL, err, sizeof err);
        }
        if (rc != 0) {
            g->fault = SMC_ERR_LAUNCH_FAILED;
            tm_set_msg(g, "timing model: SM %u warp %u pc %u: memory request refused: %s",
                    sm->id, wi, x.pc, err);
            return -1;
        }
        w->inflight++;
        ready = 0;
        /* OAWS: a divergent global/local load occurrence enters or updates
         * the DLC (§4.2; #acc and #sets from the coalescer, #17) */
        if (g->oaws.mode && rq.op == MEM_LOAD && (rq.space == MEM_GLOBAL || rq.space == MEM_LOCAL)) {
            if (!ci.coherent && ci.transactions) {
                dlc_fill(sm->dlc, x.pc, ci.transactions, ci.sets);
                sm->dlc_fills++;
                sm->dlc_last_pc = x.pc;
                sm->dlc_last_acc = (uint8_t)(ci.transactions < DLC_FILL_MAX ? ci.transactions
                                                                           : DLC_FILL_MAX);
                sm->dlc_last_sets = (uint8_t)(ci.sets < DLC_FILL_MAX ? ci.sets : DLC_FILL_MAX);
            }
            if (e.pred_div) {
                timing_oaws_stats *os = &g->st->oaws;
                if (os->pred_div_loads++ == 0 || sm->oaws_avail < os->pred_div_min_avail)
                    os->pred_div_min_avail = sm->oaws_avail;
            }
        }
    } else {
        ready = unit_start(g, sm, e.kind, s, t, e.lat, e.ii);
    }
    if (!to_mem && e.has_dst) {
        tm_wb b = { ready - 1, 0, e.seq, (uint8_t)wi, e.dst, e.rename_to, e.info };
        if (wb_push(sm, b) != 0) {
            g->fault = SMC_ERR_OUT_OF_MEMORY;
            tm_set_msg(g, "timing model: out of host memory");
            return -1;
        }
        w->inflight++;
    }
    if (st == EMU_WAIT_BARRIER)
        sm->bar_mask |= 1ull << wi;
    else if (st == EMU_EXITED || g->src.ops->exited(w->cta, w->widx)) {
        w->exited = 1;
        sm->finish_next |= 1ull << wi;
        /* the core empties the buffer at finish; so does the shadow */
        drop_buffer(sm, wi);
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
        tm_wb b = { c->cycle > t + 1 ? c->cycle - 1 : t, 0, r.seq, r.warp, r.id, r.rename_to, r.info };
        return wb_push(sm, b);   /* inflight drops at the writeback */
    }
    if (--sm->warp[r.warp].inflight == 0 && sm->warp[r.warp].exited)
        sm->cta_check = 1;
    return 0;
}

/* ---- OAWS: the instruction that left the LD/ST unit ---------------------- */

/* The memory model's retire record of the last cycle (before its completion
 * can free the memory record): a global/local load updates the statistics
 * and, when divergent, the OCW estimation (§4.3.1, Fig. 7: triggered after a
 * divergent load's accesses are serviced by the L1D). */
static void oaws_retire(timing_gpu *g, tm_sm *sm)
{
    mem_ldst_retire r;
    if (!mem_ldst_retired(g->mem, sm->id, &r))
        return;
    const tm_memrec *mr = &sm->mr[(int32_t)r.tag];
    sm->oaws.unretired += mr->eff;     /* Miss_inflight's decrement (§4.1.1) */
    if (r.op != MEM_LOAD || (r.space != MEM_GLOBAL && r.space != MEM_LOCAL) || !r.transactions)
        return;
    timing_oaws_stats *os = &g->st->oaws;
    int fully = r.l1_misses == 0;
    if (mr->pred_div)
        os->pred_div_replay_mshr += r.replay_mshr;
    if (r.coherent) {
        os->coh_loads++;
        os->coh_fully_cached += fully;
        os->coh_replay_mshr += r.replay_mshr;
        os->coh_replay_icnt += r.replay_icnt;
        return;
    }
    os->div_loads++;
    os->div_fully_cached += fully;
    os->div_replay_mshr += r.replay_mshr;
    os->div_replay_icnt += r.replay_icnt;
    int sensitive = 0;
    dlc_lookup(sm->dlc, 0, mr->info->pc, &sensitive);   /* no entry: not sensitive */
    sm->ocw_event = (uint8_t)oaws_ocw_event(&g->oaws, fully, sensitive, &sm->ocw_half);
}

/* ---- one SM, one cycle -------------------------------------------------- */

/* Front half of cycle t: account the issue slots and execute what issued. */
int tm_sm_front(timing_gpu *g, tm_sm *sm, uint64_t t, int *issued)
{
    const sched_outputs *o = sched_get_outputs(sm->sched);
    unsigned ns = g->cfg.num_schedulers;
    int counted = sm->resident > 0;
    for (unsigned s = 0; s < ns; s++) {
        if (counted)
            sm->st.slots[o->stall_reason[s] < TS_COUNT ? o->stall_reason[s] : TS_NO_INSTR]++;
        else
            sm->st.idle_slots++;
    }
    if (counted)
        sm->st.active_cycles++;
    /* OAWS: the eff Eq. 1 charged to each LD/ST issue (given back when the
     * instruction leaves the LD/ST unit: issue_one, oaws_retire) */
    if (g->oaws.mode)
        for (unsigned s = 0; s < ns; s++)
            g->st->oaws.eff_issued += o->issue[s].eff_miss;
    if (o->haws_mode)
        g->st->haws.mode_warp_cycles += (uint64_t)__builtin_popcountll(o->haws_mode);
    for (unsigned s = 0; s < ns; s++) {
        if (!o->issue[s].valid)
            continue;
        if (issue_one(g, sm, s, &o->issue[s], t) != 0)
            return -1;
        *issued = 1;
    }
    return 0;
}

/* Back half of cycle t (mem_now() == t + 1): completions, the core's
 * inputs for the edge that ends it (into g->sched_in). */
int tm_sm_back(timing_gpu *g, tm_sm *sm, uint64_t t)
{
    const gpu_config *c = &g->cfg;
    unsigned ns = c->num_schedulers;
    if (g->oaws.mode)
        oaws_retire(g, sm);
    mem_completion done[32];
    size_t n;
    while ((n = mem_collect(g->mem, sm->id, done, 32)) > 0)
        for (size_t i = 0; i < n; i++)
            if (mem_done(sm, &done[i], t) != 0) {
                g->fault = SMC_ERR_OUT_OF_MEMORY;
                tm_set_msg(g, "timing model: out of host memory");
                return -1;
            }

    sched_inputs in;
    memset(&in, 0, sizeof in);
    in.policy = (uint8_t)g->sched_policy;
    in.group_prio = (uint8_t)g->group_prio;
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
        if (g->src.ops->ready(tw->cta, tw->widx) || g->src.ops->exited(tw->cta, tw->widx))
            sm->bar_mask &= ~(1ull << w);
    }
    in.barrier = sm->bar_mask;

    /* CTAs whose warps have all exited and drained leave the SM */
    for (uint32_t i = 0; sm->cta_check && i < c->max_ctas_per_sm; i++) {
        tm_cta *ct = &sm->cta[i];
        if (!ct->used || !g->src.ops->cta_done(ct->src))
            continue;
        int drained = 1;
        for (uint32_t j = 0; j < ct->nwarps && drained; j++)
            drained = sm->warp[ct->slot[j]].inflight == 0 && sm->warp[ct->slot[j]].exited;
        if (!drained)
            continue;
        for (uint32_t j = 0; j < ct->nwarps; j++) {
            tm_warp *tw = &sm->warp[ct->slot[j]];
            if (g->grouping != TM_GROUP_NONE)
                tm_group_release(sm, ct->slot[j]);
            tw->cta = NULL;
            tw->cta_slot = -1;
            sm->used_slots &= ~(1ull << ct->slot[j]);
        }
        g->src.ops->cta_finish(ct->src);
        ct->src = NULL;
        ct->used = 0;
        sm->resident--;
    }
    sm->cta_check = 0;

    in.launch = sm->launch_next;
    if (g->grouping != TM_GROUP_NONE)
        for (uint64_t l = in.launch; l; l &= l - 1)
            in.launch_group[__builtin_ctzll(l)] = sm->warp[__builtin_ctzll(l)].group;
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
        if (o->fetch_pc_valid[s]) {          /* HAWS: the chain's next member */
            if (!ifetch_ok(g, sm, w, o->fetch_pc[s]))
                continue;
            decode_push(g, sm, w, o->fetch_pc[s], &in.push[s], 1, 0, 0);
            continue;
        }
        int64_t pc = next_fetch_pc(g, tw);
        if (pc < 0 || !ifetch_ok(g, sm, w, (uint32_t)pc))
            continue;
        const sched_rcu_head *h = &o->fetch_rcu[s];
        if (h->kind != SCHED_RCU_NONE && (uint32_t)pc == h->pc) {
            /* HAWS return pass at the RCU head (spec C.5) */
            if (h->kind == SCHED_RCU_SKIP) {
                /* done ahead: stepped over now, so only on an empty buffer
                 * and not while the warp waits at a barrier (the emulator's
                 * pc must have reached it and be free to move; docs/haws.md) */
                if (tw->count || !g->src.ops->ready(tw->cta, tw->widx))
                    continue;
                if (g->src.ops->skip(tw->cta, tw->widx) != EMU_OK) {
                    const smc_fault *f = g->src.ops->fault(g->src.ctx);
                    g->fault = f->status != SMC_OK ? f->status : SMC_ERR_LAUNCH_FAILED;
                    tm_set_msg(g, "%s", f->message);
                    return -1;
                }
                in.push[s].valid = 1;
                in.push[s].warp = (uint8_t)w;
                in.push[s].rcu = SCHED_RCU_SKIP;
                in.push[s].instr.pc = (uint32_t)pc;
                g->st->haws.skips++;
                continue;
            }
            decode_push(g, sm, w, (uint32_t)pc, &in.push[s], 0, h->kind, h->ren);
            continue;
        }
        decode_push(g, sm, w, (uint32_t)pc, &in.push[s], 0, 0, 0);
    }

    /* unit availability for cycle t+1 */
    uint64_t t1 = t + 1;
    /* the LD/ST class: with the buffered path, offered while ID_OC_MEM has
     * room after the path's moves of t+1; without it, while the unit is free */
    int ldst_free;
    if (tm_ldst_path_on(g)) {
        ldst_free = tm_ldst_path_step(g, sm, t1);
        if (ldst_free < 0)
            return -1;
        g->st->ldst_path_full += ldst_free == 0;
    } else {
        ldst_free = mem_ldst_ready(g->mem, sm->id);
    }
    int ldst_ok = ldst_free > 0;
    int ldst_to = -1;
    /* OAWS's levels for t+1 and the eff of the instructions that left the
     * LD/ST unit (or never entered it) */
    uint64_t ldst_heads = sm->ldst_head;
    uint8_t ocw_next = 0;
    if ((in.launch | in.finish) && g->oaws.mode) {
        sm->core_alive = (sm->core_alive & ~in.finish) | in.launch;
        for (unsigned w = 0, n = 0; w < SCHED_MAX_WARPS; w++) {   /* GTO_gprio (§4.3.2) */
            sm->rank[w] = (uint8_t)n;
            n += (unsigned)(sm->core_alive >> w) & 1;
        }
    }
    if (g->oaws.mode) {
        uint32_t free_mshrs = mem_free_mshrs(g->mem, sm->id);
        in.oaws = (uint8_t)g->oaws.mode;
        in.mshr_avail = (uint8_t)(free_mshrs > 127 ? 127 : free_mshrs);
        /* the OCW logic's event of this edge, and OCW after it (the value
         * the core's Eq. 1 uses at t+1, for the LD/ST offer below) */
        in.ocw_event = sm->ocw_event;
        in.ocw_half = sm->ocw_half;
        in.ocw_min = (uint8_t)g->oaws.ocw_min;
        in.ocw_max = (uint8_t)g->oaws.ocw_max;
        in.cnt_max = (uint8_t)g->oaws.cnt_max;
        in.cnt_init = (uint8_t)g->oaws.cnt_init;
        ocw_next = o->ocw;
        uint8_t cnt_next = o->ocw_cnt;
        sched_oaws_ocw_step(&ocw_next, &cnt_next, in.ocw_event, in.ocw_half, in.ocw_min,
                            in.ocw_max, in.cnt_max, in.cnt_init);
        in.oaws_cap = (uint8_t)(c->mem.l1d_mshr_entries > 127 ? 127 : c->mem.l1d_mshr_entries);
        sm->oaws_avail = in.mshr_avail;
        if (sm->oaws.unretired) {
            unsigned r = sm->oaws.unretired > 127 ? 127 : sm->oaws.unretired;
            in.ldst_retire_miss = (uint8_t)r;
            sm->oaws.unretired -= r;
            g->st->oaws.eff_retired += r;
        }
    }
    if (g->cfg.peer) {                      /* CCWS, MASCAR (peers.c) */
        tm_peers_inputs(g, sm, &in);
        if (ldst_ok)
            ldst_heads = tm_peers_ldst_heads(g, sm, &in, ldst_heads);
    }
    /* one slot of the buffered path for several schedulers (GPGPU-Sim: the
     * first scheduler that issues a memory instruction takes it): offer it
     * where a head looks ready, if any does */
    uint64_t cand = sm->ldst_head;
    if (ldst_ok && tm_ldst_path_on(g) && ns > 1 && ldst_free < (int)ns) {
        uint64_t ready = 0;
        for (uint64_t m = ldst_heads; m; m &= m - 1) {
            unsigned w = (unsigned)__builtin_ctzll(m);
            if (head_sources_ready(&sm->warp[w]))
                ready |= 1ull << w;
        }
        if (ready)
            ldst_heads = ready;
        cand = ldst_heads;
    }
    if (ldst_ok && g->oaws.mode) {
        /* offer the unit only to schedulers with an LD/ST head that Eq. 1
         * lets issue at t+1 (the core's own rule, sched_oaws_eff, with the
         * levels just given and the Miss_inflight the edge uses, the
         * register before this edge's retirements); the first such
         * scheduler in round-robin order, else as without OAWS */
        unsigned inflight = o->miss_inflight;
        for (unsigned i = 0; i < ns; i++) {
            unsigned s = (sm->ldst_rr + i) % ns;
            uint64_t heads = cand & g->sched_mask[s];
            /* a head charging at most 1 fits any free MSHR: no need to look */
            if (in.mshr_avail && (heads & sm->ldst_cheap))
                heads = sm->ldst_cheap & heads;
            for (; heads; heads &= heads - 1) {
                unsigned w = (unsigned)__builtin_ctzll(heads);
                if (sched_oaws_eff(in.oaws, sm->head_pm[w], sm->head_div[w], sm->rank[w], ocw_next,
                                   in.oaws_cap) + inflight <= in.mshr_avail)
                    break;
            }
            if (heads) {
                if (i && (cand & g->sched_mask[sm->ldst_rr]))
                    g->st->oaws.offers_redirected++;
                ldst_heads = g->sched_mask[s] & cand;
                break;
            }
        }
    }
    uint32_t ldst_to_all = 0;
    if (ldst_free >= (int)ns && tm_ldst_path_on(g))
        ldst_to_all = (1u << ns) - 1;      /* room for every scheduler's issue */
    else if (ldst_ok)
        for (unsigned i = 0; i < ns; i++) {
            unsigned s = (sm->ldst_rr + i) % ns;
            if (ldst_heads & g->sched_mask[s]) {
                ldst_to = (int)s;
                sm->ldst_rr = (s + 1) % ns;
                break;
            }
        }
    /* an op class is available when every unit kind mapped onto it has a
     * unit free; LDST is the memory model's, offered to one scheduler */
    offer_shared(g, sm, t1);
    for (unsigned s = 0; s < ns; s++) {
        unsigned busy = 0;
#define UNIT_BUSY(kind, op_class) \
        if ((kind) != GPU_UNIT_LDST && !unit_free(g, sm, kind, s, t1)) busy |= 1u << (op_class);
        UNIT_OP_CLASSES(UNIT_BUSY)
#undef UNIT_BUSY
        uint8_t a = (uint8_t)(((1u << SCHED_OP_SP) | (1u << SCHED_OP_SFU) | (1u << SCHED_OP_DP)) & ~busy);
        if ((int)s == ldst_to || (ldst_to_all >> s & 1))
            a |= 1u << SCHED_OP_LDST;
        in.unit_avail[s] = a;
    }

    in.haws = (uint8_t)c->haws;
    memcpy(in.hbr, sm->hbr, sizeof in.hbr);
    memset(sm->hbr, 0, sizeof sm->hbr);

    /* a lockstep DLC compared its C model and RTL at every read this cycle */
    if (sm->dlc && dlc_failure(sm->dlc)[0]) {
        g->fault = SMC_ERR_LAUNCH_FAILED;
        tm_set_msg(g, "OAWS DLC of SM %u failed at cycle %llu: %s", sm->id,
                   (unsigned long long)t, dlc_failure(sm->dlc));
        return -1;
    }
    g->sched_in[sm->id] = in;   /* the edge: sched_group_step, all SMs at once (timing.c) */
    return 0;
}

/* After the edge ending cycle t (the core's outputs of t+1): what the C
 * side learns from the core's new state. */
int tm_sm_after(timing_gpu *g, tm_sm *sm, uint64_t t)
{
    const sched_inputs *in = &g->sched_in[sm->id];
    /* OAWS: the OCW logic moved at this edge (statistics of its values) */
    if (in->ocw_event == 1 || in->ocw_event == 2) {
        timing_oaws_stats *os = &g->st->oaws;
        unsigned ocw = sched_get_outputs(sm->sched)->ocw;
        os->ocw_events++;
        os->ocw_sum += ocw;
        if (ocw < os->ocw_min)
            os->ocw_min = ocw;
        if (ocw > os->ocw_max)
            os->ocw_max = ocw;
    }
    sm->ocw_event = 0;
    sm->ocw_half = 0;
    /* HAWS: a warp entered or left hint mode at this edge; the core emptied
     * its buffer (and dropped this edge's push for it): so does the shadow */
    uint64_t mode = sched_get_outputs(sm->sched)->haws_mode;
    for (uint64_t m = mode ^ sm->haws_mode; m; m &= m - 1) {
        unsigned w = (unsigned)__builtin_ctzll(m);
        tm_warp *tw = &sm->warp[w];
        unsigned members = drop_buffer(sm, w);
        if ((mode >> w) & 1) {
            g->st->haws.entries++;
            tw->nren = 0;
            if (g->src.ops->hint_begin(tw->cta, tw->widx) == EMU_FAULT) {
                const smc_fault *f = g->src.ops->fault(g->src.ctx);
                g->fault = f->status != SMC_OK ? f->status : SMC_ERR_LAUNCH_FAILED;
                tm_set_msg(g, "%s", f->message);
                return -1;
            }
        } else {
            g->st->haws.exits++;
            g->st->haws.flushed += members;
        }
    }
    sm->haws_mode = mode;
    tm_wave_step(g, sm, t);
    return 0;
}
