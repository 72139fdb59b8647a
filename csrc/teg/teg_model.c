/*
 * teg_model.c — TEG's estimate of one launch: issue engines, warps, units,
 * registers, barriers and CTA dispatch (../shared/design/teg.md §5.3,
 * "Normative algorithm"; docs/teg.md).
 *
 * Time advances from issue slot to issue slot, never cycle by cycle: each
 * engine knows the next slot at which it will look at its warps, the engine
 * with the earliest slot goes next (ties: lower SM, then lower engine), and
 * an engine that finds no eligible warp sleeps until the earliest time one
 * of its warps can become eligible (rounded up to its slot grid). An issue
 * on an SM wakes that SM's other engines (a barrier released, a CTA
 * started); a global access that waits in a queue wakes its warp when the
 * memory system's next transaction completes (teg_mem.c).
 *
 * Every time is an integer cycle; the order of everything is fixed, so two
 * runs give the same result.
 */
#include <stdlib.h>
#include <string.h>

#include "teg_internal.h"
#include "../config/gpu_config.h"
#include "../timing/units.h"

#define NEVER UINT64_MAX

typedef struct teg_warp {
    inst_cta *cta;            /* NULL: the slot is free */
    uint32_t  cta_slot;       /* index into the SM's CTAs */
    uint32_t  w;              /* warp within its CTA */
    uint32_t  gen;            /* bumped when the slot gets a new warp */
    uint64_t  age;            /* GTO: start order */
    uint64_t  busy_until;     /* same-warp issue latency, barrier release */
    int       at_bar, exited;
    /* its next instruction, looked at once until something of the warp's
     * changes (its issue, a global access's completion, a barrier's release):
     * known, none (it has no more), class, and when its registers and the
     * warp are ready (NEVER: a register waits for a queued access) */
    uint8_t   known, none, unit;
    uint64_t  ready_at;
    uint64_t  regs_at, sb_at; /* its parts: registers, a scoreboard entry */
    uint64_t *reg, *pred;     /* ready time per register / predicate id */
    uint32_t  nreg, npred;
    /* the scoreboard (teg.sb_entries > 0): when each entry's write lands
     * (an entry is free from then on; NEVER: a queued global access) */
    uint64_t  sb[TEG_SB_MAX];
} teg_warp;

typedef struct teg_cta {
    inst_cta *c;              /* NULL: free */
    uint32_t  nwarps;
    uint32_t  at_bar;         /* its warps waiting at a barrier */
    uint32_t  slot[64];       /* its warps' slots */
} teg_cta;

typedef struct teg_sm {
    teg_warp *warp;           /* [max_warps] */
    teg_cta  *cta;            /* [ctas_per_sm] */
    uint64_t *unit_free;      /* per unit kind: engines x private, then shared */
    uint32_t  unit_base[TEG_UNIT_COUNT];
    uint64_t *next_slot;      /* [engines] */
    uint64_t *covered;        /* [engines] slots before this are counted */
    uint8_t  *reason;         /* [engines] what the slots since then went to */
    uint8_t  *regbank_left;   /* [engines] slots the kepler4 rule took after an issue */
    uint32_t *last;           /* [engines] LRR/GTO: last issued slot (UINT32_MAX: none) */
} teg_sm;

typedef struct teg_pc_info {
    uint8_t  known;           /* 0: not looked up yet */
    uint8_t  cls, unit;       /* enum teg_class, unit kind */
    uint32_t exec, accept;
} teg_pc_info;

typedef struct teg_heap_ent { uint64_t slot; uint32_t k; } teg_heap_ent;

typedef struct teg_run {
    const teg_params *p;
    const teg_opts *o;
    const inst_source *src;
    teg_result *r;
    teg_mem mem;
    teg_sm *sm;
    uint32_t wpc, ctas_per_sm;
    uint64_t next_cta, num_ctas, ctas_done, age;
    uint64_t end;             /* last completion */
    teg_pc_info *pc;          /* per pc: pc_info's cache */
    uint32_t npc;
    teg_load_ev *ev;          /* --load: SM 0's unit events */
    size_t nev, capev;
    int ev_oom;
    teg_heap_ent *heap;       /* the engines by next slot (set_slot) */
    uint32_t *pos, nheap;
    char *err;
    size_t errlen;
} teg_run;

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

static uint64_t round_up(uint64_t t, uint32_t q)
{
    return t == NEVER ? NEVER : (t + q - 1) / q * q;
}

/* What TEG needs of an instruction: its class, and the unit, exec and
 * accept it runs with. From the class's parameters, or, under
 * teg_params.units_cfg (from-config), for a non-memory instruction from the
 * cycle model's own rule (timing_unit_of: per opcode under
 * unit.opcode_latency = g321), so that both models time it alike. */
static teg_pc_info pc_lookup(const teg_params *p, const emu_inst_info *in)
{
    teg_pc_info x = { 1, (uint8_t)teg_class_of(in), 0, 0, 0 };
    const teg_class_params *k = &p->cls[x.cls];
    x.unit = (uint8_t)k->unit;
    x.exec = p->exec_from_source && in->latency ? in->latency : k->exec;
    x.accept = k->accept;
    const gpu_config *cfg = p->units_cfg;
    if (cfg && in->op_class != EC_MEM && (p->exec_from_source || !in->unit)) {
        unsigned lat, ii, u = timing_unit_of(cfg, in, &lat, &ii);
        if (u >= TEG_UNIT_COUNT) return x;
        u = teg_config_unit(cfg, u);
        x.unit = (uint8_t)u;
        x.exec = lat ? lat : cfg->unit[u].latency;
        x.accept = ii ? ii : cfg->unit[u].ii ? cfg->unit[u].ii : 1;
    }
    return x;
}

/* pc_lookup, once per pc. */
static teg_pc_info pc_info(teg_run *R, const emu_inst_info *in)
{
    if (in->pc >= R->npc) {
        uint32_t n = R->npc ? R->npc : 256;
        while (n <= in->pc) n *= 2;
        teg_pc_info *c = realloc(R->pc, n * sizeof *c);
        if (!c) return pc_lookup(R->p, in);   /* no cache: still right */
        memset(c + R->npc, 0, (n - R->npc) * sizeof *c);
        R->pc = c;
        R->npc = n;
    }
    if (!R->pc[in->pc].known) R->pc[in->pc] = pc_lookup(R->p, in);
    return R->pc[in->pc];
}

/* ---- the engines' heap --------------------------------------------------- */

/* The engines in order of their next slot: a binary min-heap of (slot,
 * engine number sm * engines + e), pos[number] its index. */
static int heap_less(const teg_heap_ent *a, const teg_heap_ent *b)
{
    return a->slot < b->slot || (a->slot == b->slot && a->k < b->k);
}

static void heap_swap(teg_run *R, uint32_t i, uint32_t j)
{
    teg_heap_ent t = R->heap[i];
    R->heap[i] = R->heap[j];
    R->heap[j] = t;
    R->pos[R->heap[i].k] = i;
    R->pos[R->heap[j].k] = j;
}

static void set_slot(teg_run *R, uint32_t smi, uint32_t e, uint64_t t)
{
    R->sm[smi].next_slot[e] = t;
    uint32_t i = R->pos[smi * R->p->engines + e];
    R->heap[i].slot = t;
    while (i > 0 && heap_less(&R->heap[i], &R->heap[(i - 1) / 2])) {
        heap_swap(R, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < R->nheap && heap_less(&R->heap[l], &R->heap[m])) m = l;
        if (r < R->nheap && heap_less(&R->heap[r], &R->heap[m])) m = r;
        if (m == i) break;
        heap_swap(R, i, m);
        i = m;
    }
}

/* ---- --load: SM 0's unit workload ------------------------------------------ */

static void load_event(teg_run *R, uint32_t smi, uint32_t unit, uint64_t t, int32_t delta)
{
    if (!R->o->load || smi != 0) return;
    if (R->nev == R->capev) {
        size_t nc = R->capev ? R->capev * 2 : 1024;
        teg_load_ev *n = realloc(R->ev, nc * sizeof *n);
        if (!n) {
            R->ev_oom = 1;
            return;
        }
        R->ev = n;
        R->capev = nc;
    }
    R->ev[R->nev++] = (teg_load_ev){ t, delta, unit };
}

static int ev_cmp(const void *a, const void *b)
{
    const teg_load_ev *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t ? 1 : 0;
}

/* The rows of --load: after the events of a cycle, every load_every. */
static void load_write(teg_run *R, uint64_t cycles)
{
    FILE *f = R->o->load;
    uint64_t every = R->o->load_every ? R->o->load_every : 1;
    int64_t n[TEG_UNIT_COUNT] = { 0 };
    qsort(R->ev, R->nev, sizeof *R->ev, ev_cmp);
    fprintf(f, "cycle,sp,sfu,dpu,int,ldst,branch\n");
    size_t i = 0;
    for (uint64_t t = 0; t <= cycles; t += every) {
        while (i < R->nev && R->ev[i].t <= t) {
            n[R->ev[i].unit] += R->ev[i].delta;
            i++;
        }
        fprintf(f, "%llu,%lld,%lld,%lld,%lld,%lld,%lld\n", (unsigned long long)t, (long long)n[0],
                (long long)n[1], (long long)n[2], (long long)n[3], (long long)n[4], (long long)n[5]);
    }
}

/* ---- registers ------------------------------------------------------------- */

static int reg_grow(uint64_t **a, uint32_t *n, uint32_t id)
{
    if (id < *n) return 0;
    uint32_t nn = *n ? *n : 64;
    while (nn <= id) nn *= 2;
    uint64_t *na = realloc(*a, nn * sizeof *na);
    if (!na) return -1;
    memset(na + *n, 0, (nn - *n) * sizeof *na);
    *a = na;
    *n = nn;
    return 0;
}

static uint64_t reg_ready(const uint64_t *a, uint32_t n, uint32_t id) { return id < n ? a[id] : 0; }

/* When every register the instruction reads or writes is ready (G6: sources
 * and destinations); NEVER while one waits for a queued global access. */
static uint64_t regs_ready_at(const teg_warp *w, const emu_inst_info *in)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < in->nsrc; i++) t = umax(t, reg_ready(w->reg, w->nreg, in->src[i]));
    for (unsigned i = 0; i < in->ndst; i++) t = umax(t, reg_ready(w->reg, w->nreg, in->dst[i]));
    for (unsigned i = 0; i < in->nsrc_pred; i++)
        t = umax(t, reg_ready(w->pred, w->npred, in->src_pred[i]));
    for (unsigned i = 0; i < in->ndst_pred; i++)
        t = umax(t, reg_ready(w->pred, w->npred, in->dst_pred[i]));
    return t;
}

static int regs_write(teg_warp *w, const emu_inst_info *in, uint64_t when)
{
    for (unsigned i = 0; i < in->ndst; i++) {
        if (reg_grow(&w->reg, &w->nreg, in->dst[i]) != 0) return -1;
        w->reg[in->dst[i]] = when;
    }
    for (unsigned i = 0; i < in->ndst_pred; i++) {
        if (reg_grow(&w->pred, &w->npred, in->dst_pred[i]) != 0) return -1;
        w->pred[in->dst_pred[i]] = when;
    }
    return 0;
}

/* teg_mem calls this when a global access's last transaction has departed. */
void teg_model_load_done(void *run, const teg_mem_rec *rec, uint64_t when)
{
    teg_run *R = run;
    teg_warp *w = &R->sm[rec->sm].warp[rec->slot];
    R->end = umax(R->end, when);
    load_event(R, rec->sm, rec->unit, when, -1);
    if (!w->cta || w->gen != rec->gen) return;   /* the warp has gone */
    for (unsigned i = 0; i < rec->ndst; i++)
        if (rec->dst[i] < w->nreg) w->reg[rec->dst[i]] = when;
    if (rec->sb >= 0) w->sb[rec->sb] = when;
    w->known = 0;
}

/* ---- units ------------------------------------------------------------------ */

/* The instance of `unit` that engine e may use and that is free earliest:
 * its private ones, then the SM's shared ones. */
static uint64_t *unit_pick(teg_run *R, teg_sm *s, uint32_t unit, uint32_t e)
{
    const teg_unit_params *u = &R->p->unit[unit];
    uint64_t *base = s->unit_free + s->unit_base[unit], *best = NULL;
    for (uint32_t i = 0; i < u->private_units; i++) {
        uint64_t *f = &base[e * u->private_units + i];
        if (!best || *f < *best) best = f;
    }
    base += (size_t)R->p->engines * u->private_units;
    for (uint32_t i = 0; i < u->shared_units; i++)
        if (!best || base[i] < *best) best = &base[i];
    return best;
}

/* ---- CTAs ------------------------------------------------------------------- */

static void wake_sm(teg_run *R, uint32_t smi, uint64_t t)
{
    teg_sm *s = &R->sm[smi];
    for (uint32_t e = 0; e < R->p->engines; e++) {
        uint64_t slot = round_up(t, R->p->issue_interval);
        if (s->next_slot[e] > slot) set_slot(R, smi, e, slot);
    }
}

static int cta_after(teg_run *R, uint32_t smi, uint32_t ci, uint64_t t);

static int cta_start(teg_run *R, uint32_t smi, uint64_t t)
{
    if (R->next_cta >= R->num_ctas) return 0;
    teg_sm *s = &R->sm[smi];
    uint32_t ci = 0;
    while (ci < R->ctas_per_sm && s->cta[ci].c) ci++;
    if (ci == R->ctas_per_sm) return 0;
    uint64_t linear = R->next_cta++;
    inst_cta *c = R->src->ops->cta_start(R->src->ctx, (uint32_t)linear, smi);
    if (!c) {
        snprintf(R->err, R->errlen, "CTA %llu: out of host memory", (unsigned long long)linear);
        return -1;
    }
    teg_cta *tc = &s->cta[ci];
    tc->c = c;
    tc->nwarps = R->src->ops->cta_warps(c);
    tc->at_bar = 0;
    uint32_t slot = 0;
    for (uint32_t w = 0; w < tc->nwarps; w++) {
        while (s->warp[slot].cta) slot++;          /* occupancy leaves room */
        teg_warp *x = &s->warp[slot];
        x->cta = c;
        x->cta_slot = ci;
        x->w = w;
        x->gen++;
        x->age = R->age++;
        x->busy_until = t;
        x->at_bar = 0;
        x->known = 0;
        x->exited = R->src->ops->exited(c, w);
        memset(x->sb, 0, sizeof x->sb);
        if (x->reg) memset(x->reg, 0, x->nreg * sizeof *x->reg);
        if (x->pred) memset(x->pred, 0, x->npred * sizeof *x->pred);
        tc->slot[w] = slot;
    }
    wake_sm(R, smi, t);
    R->r->ctas++;
    /* a CTA whose warps have nothing to run is done at once */
    if (R->src->ops->cta_done(c)) return cta_after(R, smi, ci, t);
    return 0;
}

/* After an instruction of CTA ci on SM smi at time t: barriers released,
 * the CTA finished (a new one starts in the same cycle). */
static int cta_after(teg_run *R, uint32_t smi, uint32_t ci, uint64_t t)
{
    teg_sm *s = &R->sm[smi];
    teg_cta *tc = &s->cta[ci];
    int released = 0;
    for (uint32_t w = 0; w < tc->nwarps && tc->at_bar; w++) {   /* (none waits: nothing to look at) */
        teg_warp *x = &s->warp[tc->slot[w]];
        if (x->at_bar && R->src->ops->ready(tc->c, w)) {   /* G17 */
            x->at_bar = 0;
            tc->at_bar--;
            x->known = 0;
            x->busy_until = umax(x->busy_until, t + R->p->barrier_lat);
            R->end = umax(R->end, t + R->p->barrier_lat);
            released = 1;
        }
    }
    if (released) wake_sm(R, smi, t + 1);   /* warps of the SM's other engines may go */
    if (!R->src->ops->cta_done(tc->c)) return 0;
    for (uint32_t w = 0; w < tc->nwarps; w++) s->warp[tc->slot[w]].cta = NULL;
    R->src->ops->cta_finish(tc->c);
    tc->c = NULL;
    R->ctas_done++;
    return cta_start(R, smi, t);
}

/* ---- one issue slot ------------------------------------------------------ */

/* Can warp x of engine e issue at t? 1 yes (*unit_out the instance), 0 no
 * (*wake: the earliest time it might). */
static int eligible(teg_run *R, teg_sm *s, uint32_t e, teg_warp *x, uint64_t t,
                    uint64_t **unit_out, uint64_t *wake, uint8_t *why)
{
    *wake = NEVER;
    *why = TEG_SLOT_NO_INSTR;
    if (!x->cta || x->exited) return 0;
    if (x->at_bar) {
        *why = TEG_SLOT_BARRIER;
        return 0;
    }
    if (!x->known) {
        const emu_inst_info *in = R->src->ops->peek(x->cta, x->w);
        x->known = 1;
        x->none = in == NULL;
        if (in) {
            x->unit = pc_info(R, in).unit;
            x->regs_at = regs_ready_at(x, in);
            x->sb_at = 0;
            if (R->p->sb_entries && (in->ndst || in->ndst_pred)) {
                /* a destination needs a free entry: the earliest one frees */
                uint64_t first_free = NEVER;
                for (uint32_t k = 0; k < R->p->sb_entries && first_free; k++)
                    if (x->sb[k] < first_free) first_free = x->sb[k] <= t ? 0 : x->sb[k];
                x->sb_at = first_free;
            }
            x->ready_at = umax(umax(x->busy_until, x->regs_at), x->sb_at);
        }
    }
    if (x->none) return 0;
    uint64_t ready = x->ready_at;
    uint64_t *u = unit_pick(R, s, x->unit, e);
    if (ready <= t && *u <= t) {
        *unit_out = u;
        return 1;
    }
    /* what holds it: the latest of its conditions */
    if (ready <= t) *why = TEG_SLOT_UNIT_BUSY;
    else if (x->regs_at == NEVER) *why = TEG_SLOT_DEP_MEM;
    else if (x->sb_at == ready) *why = TEG_SLOT_SCOREBOARD;
    else if (x->regs_at == ready) *why = TEG_SLOT_DEPENDENCY;
    else *why = TEG_SLOT_WARP_BUSY;
    if (ready == NEVER) ready = teg_mem_next_event(&R->mem, t);
    *wake = umax(ready, *u);
    return 0;
}

/* Count engine e's slots up to t (not t itself): the kepler4 rule's extra
 * slots after an issue first, the rest to the reason of its last look. */
static void slots_until(teg_run *R, teg_sm *s, uint32_t e, uint64_t t)
{
    uint32_t q = R->p->issue_interval;
    if (t <= s->covered[e]) return;
    uint64_t gap = (t - s->covered[e]) / q, rb = s->regbank_left[e] < gap ? s->regbank_left[e] : gap;
    R->r->slots[TEG_SLOT_REGBANK] += rb;
    R->r->slots[s->reason[e]] += gap - rb;
    s->regbank_left[e] = 0;
    s->covered[e] = t;
}

static int issue(teg_run *R, uint32_t smi, uint32_t e, uint32_t slot, uint64_t *unit_free, uint64_t t)
{
    const teg_params *p = R->p;
    teg_sm *s = &R->sm[smi];
    teg_warp *x = &s->warp[slot];
    const emu_inst_info *in = R->src->ops->peek(x->cta, x->w);
    teg_pc_info pi = pc_info(R, in);
    enum teg_class c = (enum teg_class)pi.cls;
    emu_exec_info ex;
    memset(&ex, 0, sizeof ex);
    int st = R->src->ops->execute(x->cta, x->w, &ex);
    x->known = 0;
    if (st == EMU_FAULT) {
        const smc_fault *f = R->src->ops->fault(R->src->ctx);
        snprintf(R->err, R->errlen, "%s", f && f->message[0] ? f->message : "the source faulted");
        return -1;
    }
    /* a generic access is timed where it went */
    if (in->op_class == EC_MEM && c != TEG_CONST) {
        if (ex.mem_space == SP_SHARED) c = TEG_SMEM;
        else if (ex.mem_space == SP_LOCAL) c = TEG_LMEM;
    }
    const teg_class_params *k = &p->cls[c];
    uint32_t unit = pi.unit, exec = pi.exec, accept = pi.accept;
    if (c != pi.cls) {                         /* a generic access: its space's class */
        unit = k->unit;
        exec = k->exec;
        accept = k->accept;
    }
    uint64_t extra = 0, ready = t + exec;
    teg_result *r = R->r;
    r->warp_insts++;
    r->thread_insts += (uint64_t)__builtin_popcount(ex.active);
    r->class_insts[c]++;
    if (c == TEG_SMEM) {
        extra = teg_mem_smem_extra(p, &ex, in, R->o->whatif, &r->smem_extra_passes);
        ready = t + p->smem_latency + extra;
    }
    *unit_free = t + accept + extra;
    r->unit[unit].issued++;
    load_event(R, smi, unit, t, +1);
    r->unit[unit].busy += accept + extra;
    x->busy_until = t + k->warp_busy;
    uint32_t d = 1;
    if (p->regbank == TEG_REGBANK_KEPLER4 || (R->o->whatif & TEG_WHATIF_REGBANK)) {
        d = teg_regbank_degree(in);
        r->regbank_conflicts[d > 3 ? 3 : d]++;
    }
    s->last[e] = slot;
    R->r->slots[TEG_SLOT_ISSUE]++;
    s->covered[e] = t + p->issue_interval;
    s->regbank_left[e] = (uint8_t)(d - 1);
    s->reason[e] = TEG_SLOT_NO_INSTR;         /* only a run's end reaches past the rule's slots */
    if (R->o->pc_trace)
        fprintf(R->o->pc_trace, "%llu,%u,%u,%u\n", (unsigned long long)t, smi, slot, in->pc);

    int sb = -1;                               /* the scoreboard entry it takes */
    if (p->sb_entries && (in->ndst || in->ndst_pred) && c != TEG_GSTORE) {
        for (uint32_t k = 0; k < p->sb_entries && sb < 0; k++)
            if (x->sb[k] <= t) sb = (int)k;
    }
    if (c == TEG_GLOAD || c == TEG_GSTORE || c == TEG_LMEM) {
        teg_mem_rec rec = { smi, slot, x->gen, 0, { 0 }, -1, unit };
        if (sb >= 0) {
            x->sb[sb] = NEVER;                 /* until its last transaction departs */
            rec.sb = sb;
        }
        if (c != TEG_GSTORE)
            for (unsigned i = 0; i < in->ndst && rec.ndst < 8; i++) rec.dst[rec.ndst++] = in->dst[i];
        for (unsigned i = 0; i < rec.ndst; i++) {
            if (reg_grow(&x->reg, &x->nreg, rec.dst[i]) != 0) goto oom;
            x->reg[rec.dst[i]] = NEVER;        /* until its last transaction departs */
        }
        if (teg_mem_global(&R->mem, p, &rec, &ex, in, R->o->whatif, t, r) != 0) goto oom;
    } else {
        if (regs_write(x, in, ready) != 0) goto oom;
        if (sb >= 0) x->sb[sb] = ready;
        load_event(R, smi, unit, ready, -1);
        R->end = umax(R->end, ready);
    }
    R->end = umax(R->end, t);
    if (st == EMU_WAIT_BARRIER) {
        x->at_bar = 1;
        s->cta[x->cta_slot].at_bar++;
    }
    if (st == EMU_EXITED) x->exited = 1;
    /* The SM's other engines sleep until their own warps can go: an issue
     * here changes nothing of theirs but a barrier's release or a new CTA
     * (cta_after and cta_start wake them); a shared unit taken here is
     * found taken when they look. */
    set_slot(R, smi, e, t + (uint64_t)p->issue_interval * d);
    return cta_after(R, smi, x->cta_slot, t);
oom:
    snprintf(R->err, R->errlen, "out of host memory");
    return -1;
}

/* Engine e of SM smi at its slot t: issue one warp-instruction, or sleep. */
static int engine_step(teg_run *R, uint32_t smi, uint32_t e, uint64_t t)
{
    const teg_params *p = R->p;
    teg_sm *s = &R->sm[smi];
    uint32_t E = p->engines, n = (p->max_warps + E - 1 - e) / E;   /* its warp slots */
    uint64_t wake = NEVER, wk;
    uint64_t *unit = NULL;
    uint32_t pick = UINT32_MAX;
    uint8_t why, reason = TEG_SLOT_NO_INSTR;
    slots_until(R, s, e, t);
    /* a warp that cannot issue: the one nearest to it gives the reason */
#define NOTE_WAIT()                                                           \
    do {                                                                      \
        if (wk < wake) { wake = wk; reason = why; }                           \
        else if (wake == NEVER && why == TEG_SLOT_BARRIER) reason = why;      \
    } while (0)
    if (p->policy == TEG_POLICY_LRR) {
        /* from the last issued warp + 1, the first eligible (003 L1227) */
        uint32_t start = s->last[e] == UINT32_MAX ? 0 : s->last[e] / E + 1;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t slot = ((start + i) % n) * E + e;
            if (eligible(R, s, e, &s->warp[slot], t, &unit, &wk, &why)) { pick = slot; break; }
            NOTE_WAIT();
        }
    } else {
        /* greedy: the last issued warp while it can; then the oldest */
        if (s->last[e] != UINT32_MAX &&
            eligible(R, s, e, &s->warp[s->last[e]], t, &unit, &wk, &why))
            pick = s->last[e];
        uint64_t best_age = NEVER;
        for (uint32_t i = 0; i < n && pick == UINT32_MAX; i++) {
            uint32_t slot = i * E + e;
            uint64_t *u;
            if (eligible(R, s, e, &s->warp[slot], t, &u, &wk, &why)) {
                if (s->warp[slot].age < best_age) { best_age = s->warp[slot].age; unit = u; }
            } else {
                NOTE_WAIT();
            }
        }
        if (pick == UINT32_MAX && best_age != NEVER)
            for (uint32_t i = 0; i < n; i++)
                if (s->warp[i * E + e].cta && s->warp[i * E + e].age == best_age) pick = i * E + e;
    }
#undef NOTE_WAIT
    if (pick != UINT32_MAX) return issue(R, smi, e, pick, unit, t);
    /* no busy waiting: the earliest time something can change for it */
    R->r->slots[reason]++;
    s->covered[e] = t + p->issue_interval;
    s->reason[e] = reason;
    set_slot(R, smi, e, round_up(wake <= t ? t + 1 : wake, p->issue_interval));
    return 0;
}

/* ---- the launch ------------------------------------------------------------ */

static uint32_t occupancy(const teg_params *p, const timing_kernel_req *req, uint32_t wpc)
{
    uint32_t n = p->max_ctas;
    if (p->max_warps / wpc < n) n = p->max_warps / wpc;
    uint64_t regs = (uint64_t)req->regs_per_thread * 32u * wpc;
    if (regs && p->regs / regs < n) n = (uint32_t)(p->regs / regs);
    if (req->smem_per_cta && p->smem_bytes / req->smem_per_cta < n) n = p->smem_bytes / req->smem_per_cta;
    return n;
}

static void run_free(teg_run *R)
{
    if (!R->sm) return;
    for (uint32_t i = 0; i < R->p->sms; i++) {
        teg_sm *s = &R->sm[i];
        if (s->warp)
            for (uint32_t w = 0; w < R->p->max_warps; w++) {
                free(s->warp[w].reg);
                free(s->warp[w].pred);
            }
        if (s->cta)
            for (uint32_t c = 0; c < R->ctas_per_sm; c++)
                if (s->cta[c].c) R->src->ops->cta_finish(s->cta[c].c);
        free(s->warp);
        free(s->cta);
        free(s->unit_free);
        free(s->next_slot);
        free(s->covered);
        free(s->reason);
        free(s->regbank_left);
        free(s->last);
    }
    free(R->sm);
    free(R->pc);
    free(R->ev);
    free(R->heap);
    free(R->pos);
    teg_mem_free(&R->mem);
}

int teg_run_source(const teg_params *p, const teg_opts *o, const inst_source *src,
                   const char *kernel_name, const timing_kernel_req *req,
                   smc_dim3 grid, smc_dim3 block, teg_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel_name ? kernel_name : "?");
    if (teg_params_check(p, err, errlen) != 0) return -1;
    teg_opts no_opts = { 0, NULL, NULL, 0 };
    teg_run R = { 0 };
    R.p = p;
    R.o = o ? o : &no_opts;
    R.src = src;
    R.r = out;
    R.err = err;
    R.errlen = errlen;
    R.num_ctas = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    R.wpc = (uint32_t)((threads + 31) / 32);
    if (R.wpc == 0 || R.wpc > 64 || R.wpc > p->max_warps) {
        snprintf(err, errlen, "kernel %s: %llu threads per CTA do not fit sm.max_warps = %u",
                 out->kernel, (unsigned long long)threads, p->max_warps);
        return -1;
    }
    R.ctas_per_sm = occupancy(p, req, R.wpc);
    if (R.ctas_per_sm == 0) {
        snprintf(err, errlen, "kernel %s: a CTA (%u warps, %u registers per thread, %u bytes of "
                 "shared memory) does not fit one SM (sm.regs = %u, sm.smem_bytes = %u)",
                 out->kernel, R.wpc, req->regs_per_thread, req->smem_per_cta, p->regs, p->smem_bytes);
        return -1;
    }
    out->ctas_per_sm = R.ctas_per_sm;
    if (teg_mem_init(&R.mem, p, &R, err, errlen) != 0) return -1;
    R.sm = calloc(p->sms, sizeof *R.sm);
    if (!R.sm) goto oom;
    uint32_t per_unit_total = 0, base[TEG_UNIT_COUNT];
    for (uint32_t u = 0; u < TEG_UNIT_COUNT; u++) {
        base[u] = per_unit_total;
        per_unit_total += p->engines * p->unit[u].private_units + p->unit[u].shared_units;
    }
    for (uint32_t i = 0; i < p->sms; i++) {
        teg_sm *s = &R.sm[i];
        s->warp = calloc(p->max_warps, sizeof *s->warp);
        s->cta = calloc(R.ctas_per_sm, sizeof *s->cta);
        s->unit_free = calloc(per_unit_total ? per_unit_total : 1, sizeof *s->unit_free);
        s->next_slot = calloc(p->engines, sizeof *s->next_slot);
        s->covered = calloc(p->engines, sizeof *s->covered);
        s->reason = malloc(p->engines);
        s->regbank_left = calloc(p->engines, 1);
        s->last = malloc(p->engines * sizeof *s->last);
        if (!s->warp || !s->cta || !s->unit_free || !s->next_slot || !s->last || !s->covered ||
            !s->reason || !s->regbank_left)
            goto oom;
        memset(s->reason, TEG_SLOT_NO_INSTR, p->engines);
        memcpy(s->unit_base, base, sizeof base);
        for (uint32_t e = 0; e < p->engines; e++) {
            s->next_slot[e] = NEVER;
            s->last[e] = UINT32_MAX;
        }
    }
    R.nheap = p->sms * p->engines;
    R.heap = malloc(R.nheap * sizeof *R.heap);
    R.pos = malloc(R.nheap * sizeof *R.pos);
    if (!R.heap || !R.pos) goto oom;
    for (uint32_t k = 0; k < R.nheap; k++) {      /* all NEVER: in order */
        R.heap[k].slot = NEVER;
        R.heap[k].k = k;
        R.pos[k] = k;
    }
    /* round-robin dispatch while N_slot allows (G13) */
    for (uint32_t k = 0; k < R.ctas_per_sm; k++)
        for (uint32_t i = 0; i < p->sms; i++)
            if (cta_start(&R, i, 0) != 0) goto fail;

    while (R.ctas_done < R.num_ctas) {
        uint32_t k = R.heap[0].k, smi = k / p->engines, e = k % p->engines;
        uint64_t t = R.heap[0].slot;
        if (t == NEVER) {
            snprintf(err, errlen, "kernel %s: no warp can issue and %llu of %llu CTAs are not done "
                     "(a barrier that not every warp reaches?)", out->kernel,
                     (unsigned long long)(R.num_ctas - R.ctas_done), (unsigned long long)R.num_ctas);
            goto fail;
        }
        if (teg_mem_advance(&R.mem, t) != 0) goto oom;
        if (engine_step(&R, smi, e, t) != 0) goto fail;
    }
    if (teg_mem_advance(&R.mem, NEVER) != 0) goto oom;   /* the last accesses complete */
    out->cycles = R.end;
    for (uint32_t i = 0; i < p->sms; i++)                 /* every slot to the end */
        for (uint32_t e = 0; e < p->engines; e++)
            slots_until(&R, &R.sm[i], e, round_up(R.end, p->issue_interval));
    if (R.ev_oom) goto oom;
    if (R.o->load) load_write(&R, R.end);
    run_free(&R);
    return 0;
oom:
    snprintf(err, errlen, "out of host memory");
fail:
    run_free(&R);
    return -1;
}
