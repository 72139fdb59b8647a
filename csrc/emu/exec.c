/*
 * exec.c — functional execution of pre-decoded PTX, one warp-instruction per
 * emu_warp_execute() call. See emu.h for the contract and docs/emulator.md
 * for the SIMT stack, address map and fault model.
 *
 * This file is the dispatcher: execute_at's switch maps each opcode to the
 * exec_* function of its family (exec_internal.h lists the files), after
 * the fast paths have had their try. The hot helpers the families share
 * are static inline in exec_internal.h.
 */
#include "exec_internal.h"

#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernel pre-decoding ----------------------------------------------------- */
static uint8_t class_of(const ptx_insn *in) {
    uint8_t t = in->type;
    bool f64 = t == PT_F64, fl = ptx_type_class[t] == TC_FLOAT;
    switch (in->op) {
    case OP_LD: case OP_LDU: case OP_ST: case OP_ATOM: case OP_RED:
        return EC_MEM;
    /* ret survives linking only in out-of-line functions, and a call with
     * mode MD_NONE is an out-of-line call (the others are builtins) */
    case OP_BRA: case OP_RET: return EC_BRANCH;
    case OP_CALL: return in->mode == MD_NONE ? EC_BRANCH : EC_NOP;
    case OP_BAR: case OP_BARRIER: return EC_BARRIER;
    case OP_EXIT: case OP_TRAP: case OP_BRKPT: return EC_EXIT;
    case OP_SHFL: case OP_VOTE: case OP_MATCH: case OP_ACTIVEMASK: return EC_WARP;
    case OP_FENCE: case OP_MEMBAR: case OP_PREFETCH: case OP_NANOSLEEP:
    case OP_PMEVENT: return EC_NOP;
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2:
    case OP_EX2: case OP_TANH:
        if (f64) return EC_FP64;
        return EC_SFU;
    case OP_DIV:
        if (f64) return EC_FP64;
        if (fl) return EC_SFU;
        return EC_INT;
    case OP_CVT:
        if (f64 || in->type2 == PT_F64) return EC_FP64;
        return fl || ptx_type_class[in->type2] == TC_FLOAT ? EC_FP32 : EC_INT;
    default:
        if (f64) return EC_FP64;
        return fl ? EC_FP32 : EC_INT;
    }
}

/* Float immediates: make their bits match the instruction's operand type. */
static void fix_imm(ptx_operand *o, uint8_t type) {
    if (o->kind != OK_IMM || !o->fimm) return;
    if (type == PT_F32 && o->fimm == 2) {
        double d; memcpy(&d, &o->imm, 8);
        float f = (float)d; uint32_t u; memcpy(&u, &f, 4); o->imm = u;
    } else if (type == PT_F64 && o->fimm == 1) {
        uint32_t u = (uint32_t)o->imm; float f; memcpy(&f, &u, 4);
        double d = f; memcpy(&o->imm, &d, 8);
    }
    o->fimm = 0;
}

/* Owner-table rows (emu_kernel.kf_rows) of each out-of-line function: what
 * a call saves and its return restores for the regalloc verifier. */
#define OWNER_ROWS (PTX_MAX_PHYS_REGS + 1 + PTX_MAX_PRED_REGS)
static bool kfunc_rows(emu_kernel *ek) {
    const ptx_kernel *k = ek->k;
    ek->kf_rows_off = calloc(k->nfuncs + 1, sizeof *ek->kf_rows_off);
    ek->kf_rows = calloc((size_t)k->nfuncs * OWNER_ROWS + 1, sizeof *ek->kf_rows);
    if (!ek->kf_rows_off || !ek->kf_rows) return false;
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->nfuncs; i++) {
        uint8_t used[OWNER_ROWS] = { 0 };
        const ptx_kfunc *f = &k->funcs[i];
        for (uint32_t v = f->vreg_base; v < f->vreg_base + f->nvregs; v++) {
            uint32_t p = k->phys[v];
            if (p == PTX_NO_PHYS) continue;
            if (k->reg_type[v] == PT_PRED) { used[PTX_MAX_PHYS_REGS + 1 + p] = 1; continue; }
            used[p] = 1;
            if (ptx_type_size[k->reg_type[v]] == 8) used[p + 1] = 1;
        }
        ek->kf_rows_off[i] = n;
        for (uint32_t r = 0; r < OWNER_ROWS; r++) if (used[r]) ek->kf_rows[n++] = (uint16_t)r;
    }
    ek->kf_rows_off[k->nfuncs] = n;
    return true;
}

emu_kernel *emu_kernel_create(ptx_kernel *k) {
    emu_kernel *ek = calloc(1, sizeof *ek);
    if (!ek) return NULL;
    ek->k = k;
    ek->info = calloc(k->ncode + 1, sizeof *ek->info);
    ek->rmask = calloc(k->nregs + 1, sizeof *ek->rmask);
    if (!ek->info || !ek->rmask || !kfunc_rows(ek)) {
        free(ek->info); free(ek->rmask); free(ek->kf_rows); free(ek->kf_rows_off); free(ek);
        return NULL;
    }
    for (uint32_t r = 0; r < k->nregs; r++) {
        uint32_t sz = ptx_type_size[k->reg_type[r]];
        ek->rmask[r] = k->reg_type[r] == PT_PRED ? 1 : sz >= 8 ? ~0ull : ((1ull << (8 * sz)) - 1);
    }
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        ptx_insn *in = &k->code[pc];
        for (uint32_t i = 0; i < in->nops; i++) {
            uint8_t t = in->type;
            if (in->op == OP_CVT && i > 0) t = in->type2;
            if (in->op == OP_SET && i > 0) t = in->type2;
            if (in->op == OP_SLCT && i == 3) t = in->type2;
            fix_imm(&in->ops[i], t);
        }
        emu_inst_info *x = &ek->info[pc];
        x->pc = pc; x->ptx_line = in->line; x->op = in->op;
        x->name = ptx_op_name[in->op];
        x->op_class = class_of(in);
        x->mem_space = in->space;
        emu_inst_flags(x);
        x->access_size = (uint8_t)(x->op_class == EC_MEM ? ptx_type_size[in->type] * in->vec : 0);
        int32_t d[8], s[16]; uint32_t nd, ns;
        ptx_insn_regs(in, d, &nd, s, &ns);
        for (uint32_t i = 0; i < nd; i++) {
            uint32_t r = (uint32_t)d[i];
            uint16_t p = k->phys[r];
            if (k->reg_type[r] == PT_PRED) { if (x->ndst_pred < 2) x->dst_pred[x->ndst_pred++] = p; continue; }
            if (x->ndst < 8) x->dst[x->ndst++] = p;
            if (ptx_type_size[k->reg_type[r]] == 8 && x->ndst < 8) x->dst[x->ndst++] = (uint16_t)(p + 1);
        }
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t r = (uint32_t)s[i];
            uint16_t p = k->phys[r];
            if (k->reg_type[r] == PT_PRED) { if (x->nsrc_pred < 4) x->src_pred[x->nsrc_pred++] = p; continue; }
            if (x->nsrc < 16) x->src[x->nsrc++] = p;
            if (ptx_type_size[k->reg_type[r]] == 8 && x->nsrc < 16) x->src[x->nsrc++] = (uint16_t)(p + 1);
        }
    }
    return ek;
}

void emu_kernel_destroy(emu_kernel *ek) {
    if (!ek) return;
    ptx_kernel_free(ek->k);
    free(ek->info); free(ek->rmask); free(ek->kf_rows); free(ek->kf_rows_off); free(ek);
}
const ptx_kernel *emu_kernel_ptx(const emu_kernel *ek) { return ek->k; }
void emu_inst_flags(emu_inst_info *x) {
    x->is_load = x->op == OP_LD || x->op == OP_LDU || x->op == OP_ATOM;
    x->is_store = x->op == OP_ST || x->op == OP_ATOM || x->op == OP_RED;
    x->is_atomic = x->op == OP_ATOM || x->op == OP_RED;
    x->long_latency = x->op_class == EC_MEM &&
        (x->mem_space == SP_GLOBAL || x->mem_space == SP_LOCAL || x->mem_space == SP_GENERIC ||
         x->mem_space == SP_CONST);
    x->is_branch = x->op == OP_BRA;
    x->is_call = (x->op == OP_CALL || x->op == OP_RET) && x->op_class == EC_BRANCH;
    x->is_barrier = x->op_class == EC_BARRIER;
    x->is_exit = x->op_class == EC_EXIT;
}

const emu_inst_info *emu_kernel_inst(const emu_kernel *ek, uint32_t pc) {
    return pc < ek->k->ncode ? &ek->info[pc] : NULL;
}
void emu_kernel_set_hints(emu_kernel *ek, const uint32_t *hint, uint32_t regs_per_thread_haws) {
    for (uint32_t pc = 0; pc < ek->k->ncode; pc++)
        ek->info[pc].hint = hint ? hint[pc] & 0xFFFFFFu : 0;
    ek->regs_haws = regs_per_thread_haws;
}
uint32_t emu_kernel_regs_haws(const emu_kernel *ek) {
    return ek->regs_haws > ek->k->regs_per_thread ? ek->regs_haws : ek->k->regs_per_thread;
}
emu_launch *emu_launch_create(const emu_launch_desc *d) {
    emu_launch *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->d = *d;
    l->ek = d->kernel;
    l->k = d->kernel->k;
    l->params = calloc(1, l->k->param_bytes + 8);
    if (!l->params) { free(l); return NULL; }
    if (d->params) memcpy(l->params, d->params, d->param_bytes < l->k->param_bytes ? d->param_bytes : l->k->param_bytes);
    l->nctas = d->grid.x * d->grid.y * d->grid.z;
    l->threads_per_cta = d->block.x * d->block.y * d->block.z;
    l->warps_per_cta = (l->threads_per_cta + 31) / 32;
    l->watchdog = d->watchdog ? d->watchdog : EMU_DEFAULT_WATCHDOG;
    l->fault.status = SMC_OK;
    return l;
}
void emu_launch_destroy(emu_launch *l) { if (l) { free(l->params); free(l); } }
uint32_t emu_launch_num_ctas(const emu_launch *l) { return l->nctas; }
const smc_fault *emu_launch_fault(const emu_launch *l) { return &l->fault; }
uint64_t emu_launch_warp_insts(const emu_launch *l) { return l->warp_insts; }
uint64_t emu_launch_thread_insts(const emu_launch *l) { return l->thread_insts; }
uint64_t emu_launch_progress(const emu_launch *l) { return l->progress; }

emu_cta *emu_cta_create(emu_launch *l, uint32_t linear, uint32_t smid) {
    if (linear >= l->nctas) return NULL;
    emu_cta *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->l = l; c->linear = linear; c->smid = smid;
    c->id.x = linear % l->d.grid.x;
    c->id.y = (linear / l->d.grid.x) % l->d.grid.y;
    c->id.z = linear / (l->d.grid.x * l->d.grid.y);
    c->nthreads = l->threads_per_cta;
    c->nwarps = l->warps_per_cta;
    c->live_warps = c->nwarps;
    c->smem_size = l->k->static_smem + l->d.dyn_smem;
    /* a kernel that calls out of line has its call stack after its own frame */
    c->local_size = l->k->stack_bytes ? (l->k->local_bytes + 15u) / 16u * 16u + l->k->stack_bytes
                                      : l->k->local_bytes;
    c->smem = calloc(1, c->smem_size + 16);
    c->local = calloc(1, (size_t)c->local_size * c->nthreads + 16);
    c->w = calloc(c->nwarps, sizeof *c->w);
    if (!c->smem || !c->local || !c->w) goto fail;
    size_t nr = (size_t)l->k->nregs * 32;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp *w = &c->w[i];
        uint32_t n = c->nthreads - i * 32;
        w->valid = n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
        w->regs = calloc(nr + 1, sizeof *w->regs);
        if (l->d.verify_regalloc) {
            w->owner = calloc((PTX_MAX_PHYS_REGS + 1 + PTX_MAX_PRED_REGS) * 32, sizeof *w->owner);
            if (!w->owner) goto fail;
        }
        w->cap = 8;
        w->stack = malloc(w->cap * sizeof *w->stack);
        if (!w->regs || !w->stack) goto fail;
        w->stack[0] = (simt_entry){ 0, PTX_NO_PC, w->valid, 0 };
        w->sp = 1;
        w->state = W_RUN;
        w->bar_dst = -1;
    }
    /* a CTA starting is progress: new work entered the machine (in the
     * functional runner it always follows the previous CTA's last exit) */
    l->progress++;
    return c;
fail:
    emu_cta_destroy(c);
    return NULL;
}

void emu_cta_destroy(emu_cta *c) {
    if (!c) return;
    if (c->w) for (uint32_t i = 0; i < c->nwarps; i++) {
        free(c->w[i].regs); free(c->w[i].stack); free(c->w[i].owner); free(c->w[i].haws);
        free(c->w[i].calls); free(c->w[i].save);
    }
    free(c->w); free(c->smem); free(c->local); free(c);
}
uint32_t emu_cta_num_warps(const emu_cta *c) { return c->nwarps; }
bool emu_cta_done(const emu_cta *c) { return c->live_warps == 0; }
bool emu_warp_exited(const emu_cta *c, uint32_t w) { return w >= c->nwarps || c->w[w].state == W_DONE; }
bool emu_warp_ready(const emu_cta *c, uint32_t w) {
    return w < c->nwarps && c->w[w].state == W_RUN && c->l->fault.status == SMC_OK;
}
uint64_t emu_warp_idle_insts(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].dog_epoch != c->l->progress) return 0;
    return c->w[w].dog_insts;
}
uint32_t emu_warp_pc(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].state == W_DONE) return PTX_NO_PC;
    return c->w[w].stack[c->w[w].sp - 1].pc;
}
uint32_t emu_warp_active_mask(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].state == W_DONE) return 0;
    return c->w[w].stack[c->w[w].sp - 1].mask;
}
uint32_t emu_warp_stack_depth(const emu_cta *c, uint32_t w) {
    return w < c->nwarps && c->w[w].state != W_DONE ? c->w[w].sp : 0;
}
const emu_inst_info *emu_warp_peek(const emu_cta *c, uint32_t w) {
    if (w >= c->nwarps || c->w[w].state == W_DONE) return NULL;
    const warp *W = &c->w[w];
    return emu_kernel_inst(c->l->ek, W->stack[W->sp - 1].pc);
}

/* ---- faults ---------------------------------------------------------------- */
int emu_fault(emu_cta *c, uint32_t wi, int lane, uint32_t pc, smc_status st, uint64_t addr,
              const char *fmt, ...) {
    emu_launch *l = c->l;
    if (l->fault.status != SMC_OK) return EMU_FAULT;
    smc_fault *f = &l->fault;
    f->status = st;
    snprintf(f->kernel, sizeof f->kernel, "%s", l->k->name);
    f->cta = c->id; f->warp = wi; f->lane = lane < 0 ? 0 : (uint32_t)lane;
    f->pc = pc; f->ptx_line = pc < l->k->ncode ? l->k->code[pc].line : 0;
    f->address = addr;
    char what[200];
    va_list ap; va_start(ap, fmt);
    int n = vsnprintf(what, sizeof what - 32, fmt, ap);
    va_end(ap);
    if (l->ahead_note && n >= 0)
        snprintf(what + strlen(what), 32, " (executed ahead by HAWS)");
    if (snprintf(f->message, sizeof f->message, "%s: %s in kernel %.60s, CTA (%u,%u,%u), warp %u, lane %d, pc %u (PTX line %u)",
                 smc_status_name(st), what, l->k->name, c->id.x, c->id.y, c->id.z, wi, lane, pc, f->ptx_line) < 0)
        f->message[0] = 0;
    return EMU_FAULT;
}

/* ---- register-allocation verifier ---------------------------------------- */
/* The owner row of a virtual register's half, and the owner value it must
 * hold (1 + the virtual register). Executed ahead (HAWS), a source half
 * whose physical id is in the renaming map and a renamed destination use
 * the pool register's row and the shadow owner 1 + nregs + pool index. */
static uint32_t *owner_slot(const ctx *X, uint32_t vreg, uint32_t half, bool is_dst, uint32_t *expect) {
    const ptx_kernel *k = X->c->l->k;
    uint32_t p = k->phys[vreg];
    if (p == PTX_NO_PHYS) return NULL;
    *expect = vreg + 1;
    if (k->reg_type[vreg] == PT_PRED) return &X->w->owner[(PTX_MAX_PHYS_REGS + 1 + p) * 32];
    const haws_redirect *hr = X->hr;
    uint32_t j = UINT32_MAX;
    if (hr && is_dst && hr->dst == (int32_t)vreg) j = hr->pool + half;
    else if (hr && !is_dst && p + half <= PTX_MAX_PHYS_REGS && hr->h->ren[p + half]) j = hr->h->ren[p + half] - 1u;
    if (j != UINT32_MAX) { *expect = k->nregs + j + 1; return &X->w->owner[(size_t)(hr->base + j) * 32]; }
    return &X->w->owner[(size_t)(p + half) * 32];
}

static void owner_name(const ptx_kernel *k, uint32_t o, char *buf, size_t cap) {
    if (o - 1 >= k->nregs) snprintf(buf, cap, "HAWS pool register %u", o - 1 - k->nregs);
    else snprintf(buf, cap, "virtual register %u", o - 1);
}

/* Before execution: each source's physical register(s) must hold that source
 * (or nothing yet) in every lane that reads it. */
int emu_verify_sources(ctx *X, uint32_t mask) {
    const ptx_kernel *k = X->c->l->k;
    int32_t d[8], s[16]; uint32_t nd, ns;
    ptx_insn_regs(X->in, d, &nd, s, &ns);
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t r = (uint32_t)s[i];
        uint32_t halves = ptx_type_size[k->reg_type[r]] == 8 ? 2 : 1;
        for (uint32_t h = 0; h < halves; h++) {
            uint32_t expect;
            uint32_t *o = owner_slot(X, r, h, false, &expect);
            if (!o) continue;
            LANES(mask) {
                if (o[lane] && o[lane] != expect) {
                    char a[48], b[48];
                    owner_name(k, expect, a, sizeof a);
                    owner_name(k, o[lane], b, sizeof b);
                    return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_LAUNCH_FAILED, 0,
                                 "register allocation conflict: %s (physical %u%s) was overwritten by %s",
                                 a, (uint32_t)(o - X->w->owner) / 32 - (k->reg_type[r] == PT_PRED ? PTX_MAX_PHYS_REGS + 1 : 0),
                                 k->reg_type[r] == PT_PRED ? ", predicate" : "", b);
                }
            }
        }
    }
    return EMU_OK;
}

void emu_record_dests(ctx *X, uint32_t act) {
    const ptx_kernel *k = X->c->l->k;
    int32_t d[8], s[16]; uint32_t nd, ns;
    ptx_insn_regs(X->in, d, &nd, s, &ns);
    for (uint32_t i = 0; i < nd; i++) {
        uint32_t r = (uint32_t)d[i];
        uint32_t halves = ptx_type_size[k->reg_type[r]] == 8 ? 2 : 1;
        for (uint32_t h = 0; h < halves; h++) {
            uint32_t expect;
            uint32_t *o = owner_slot(X, r, h, true, &expect);
            if (o) LANES(act) o[lane] = expect;
        }
    }
}

/* ---- fast paths ----------------------------------------------------------- */
/* The most frequent instructions (32/64-bit integer and f32 add/sub/mul/mad/
 * logic/shift, mov, setp, selp, without ftz/sat/rounding modifiers) run in
 * tight per-op loops over the active lanes. Operands are read through a
 * (pointer, stride) pair: a register row (stride 1) or the immediate
 * (stride 0). Returns false when the instruction needs the general path. */
typedef struct srcp { const uint64_t *p; uint32_t s; } srcp;

static inline bool fast_src(const ctx *X, const ptx_operand *o, srcp *r) {
    if (o->kind == OK_REG && !o->neg) { r->p = &X->w->regs[(size_t)o->reg * 32]; r->s = 1; return true; }
    if (o->kind == OK_IMM) { r->p = &o->imm; r->s = 0; return true; }
    return false;
}

#define FAST_LOOP(expr) do { \
        uint64_t *d_ = &X->w->regs[(size_t)dreg * 32]; \
        LANES(act) { uint64_t a = A.p[lane * A.s]; uint64_t b = B.p[lane * B.s]; (void)b; d_[lane] = (expr) & dm; } \
    } while (0)

static bool exec_fast(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    if (in->flags & (F_SAT | F_FTZ | F_CC) || in->rnd > RND_RN || in->nops < 2) return false;
    const ptx_operand *o = in->ops;
    if (o[0].kind != OK_REG || o[0].reg2 >= 0) return false;
    int32_t dreg = o[0].reg;
    uint64_t dm = X->rmask[dreg];
    srcp A, B = { NULL, 0 }, C = { NULL, 0 };
    static const uint64_t zero = 0;
    if (!fast_src(X, &o[1], &A)) return false;
    if (in->nops > 2) { if (!fast_src(X, &o[2], &B)) return false; } else { B.p = &zero; B.s = 0; }
    uint8_t t = in->type;
    unsigned tb = tbits(t);
    if (in->op == OP_MOV) { if (in->nops != 2) return false; FAST_LOOP(a); return true; }
    /* .f16x2 is a 32-bit "bits" type but holds two halves: general path */
    if (tb == 32 && ptx_type_class[t] != TC_FLOAT && t != PT_F16X2) {
        switch (in->op) {
        case OP_ADD: FAST_LOOP((uint32_t)(a + b)); return true;
        case OP_SUB: FAST_LOOP((uint32_t)(a - b)); return true;
        case OP_MUL:
            if (in->mode == MD_LO) { FAST_LOOP((uint32_t)(a * b)); return true; }
            if (in->mode == MD_WIDE && t == PT_U32) { FAST_LOOP((uint64_t)(uint32_t)a * (uint32_t)b); return true; }
            if (in->mode == MD_WIDE && t == PT_S32) { FAST_LOOP((uint64_t)((int64_t)(int32_t)a * (int32_t)b)); return true; }
            return false;
        case OP_MAD:
            if (in->mode != MD_LO || in->nops != 4 || !fast_src(X, &o[3], &C)) return false;
            {
                uint64_t *d_ = &X->w->regs[(size_t)dreg * 32];
                LANES(act) d_[lane] = (uint32_t)(A.p[lane * A.s] * B.p[lane * B.s] + C.p[lane * C.s]) & dm;
            }
            return true;
        case OP_AND: FAST_LOOP(a & b); return true;
        case OP_OR: FAST_LOOP(a | b); return true;
        case OP_XOR: FAST_LOOP((a ^ b) & 0xFFFFFFFFu); return true;
        case OP_SHL: FAST_LOOP((uint32_t)b >= 32 ? 0 : (uint32_t)(a << (uint32_t)b)); return true;
        case OP_SHR:
            if (t == PT_S32) { FAST_LOOP((uint32_t)((uint32_t)b >= 32 ? ((int32_t)a >> 31) : ((int32_t)a >> (uint32_t)b))); return true; }
            FAST_LOOP((uint32_t)b >= 32 ? 0 : ((uint32_t)a >> (uint32_t)b)); return true;
        default: return false;
        }
    }
    if (tb == 64 && ptx_type_class[t] != TC_FLOAT) {
        switch (in->op) {
        case OP_ADD: FAST_LOOP(a + b); return true;
        case OP_SUB: FAST_LOOP(a - b); return true;
        case OP_MUL: if (in->mode == MD_LO) { FAST_LOOP(a * b); return true; } return false;
        case OP_AND: FAST_LOOP(a & b); return true;
        case OP_OR: FAST_LOOP(a | b); return true;
        case OP_XOR: FAST_LOOP(a ^ b); return true;
        case OP_SHL: FAST_LOOP((uint32_t)b >= 64 ? 0 : a << (uint32_t)b); return true;
        default: return false;
        }
    }
    if (t == PT_F32) {
        switch (in->op) {
        case OP_ADD: FAST_LOOP(bf32(f32(a) + f32(b))); return true;
        case OP_SUB: FAST_LOOP(bf32(f32(a) - f32(b))); return true;
        case OP_MUL: FAST_LOOP(bf32(f32(a) * f32(b))); return true;
        case OP_FMA: case OP_MAD:
            if (in->nops != 4 || !fast_src(X, &o[3], &C)) return false;
            {
                uint64_t *d_ = &X->w->regs[(size_t)dreg * 32];
                LANES(act) d_[lane] = bf32(fmaf(f32(A.p[lane * A.s]), f32(B.p[lane * B.s]), f32(C.p[lane * C.s]))) & dm;
            }
            return true;
        default: return false;
        }
    }
    return false;
}

/* Control instructions: never executed ahead (refused_ahead). */
static bool is_control(const ptx_insn *in) {
    switch (in->op) {
    case OP_BRA: case OP_EXIT: case OP_RET: case OP_BAR: case OP_BARRIER: case OP_TRAP: case OP_BRKPT:
        return true;
    default:   /* an out-of-line call, or assert (it may end the launch) */
        return in->op == OP_CALL && (in->mode == MD_NONE || in->mode == MD_ASSERTFAIL);
    }
}

/* ---- the dispatcher ------------------------------------------------------- */
/* Execute the instruction at pc for the lanes in mask. In program order
 * (hr == NULL) pc/mask are the top of the SIMT stack and the warp advances;
 * ahead of order (HAWS, hr says how operands are redirected; the caller
 * swaps the values and refuses control instructions) nothing but the
 * registers and memory change. */
int emu_execute_at(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask, const haws_redirect *hr, emu_exec_info *out) {
    emu_launch *l = c->l;
    warp *w = &c->w[wi];
    const ptx_kernel *k = l->k;
    if (pc >= k->ncode) return emu_fault(c, wi, -1, pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "pc out of range");
    const ptx_insn *in = &k->code[pc];
    uint32_t act = guard_lanes(w, in, mask);
    ctx X = { c, w, wi, pc, in, l->ek->rmask, out, hr };
    if (out) {
        out->pc = pc; out->active = act; out->warp_mask = mask; out->status = EMU_OK;
        out->branch_taken = 0; out->diverged = 0; out->mem_space = in->space; out->access_size = 0;
    }
    l->warp_insts++;
    l->thread_insts += (uint32_t)__builtin_popcount(act);
    /* The watchdog counts per warp, so that the budget does not depend on
     * how many warps run side by side: a warp that executes more than
     * l->watchdog warp-instructions while no warp exits, no barrier
     * completes and no CTA starts anywhere in the launch is hung. */
    if (w->dog_epoch != l->progress) {
        w->dog_epoch = l->progress;
        w->dog_insts = 0;
    }
    if (++w->dog_insts > l->watchdog) {
        int lane0 = act ? __builtin_ctz(act) : mask ? __builtin_ctz(mask) : 0;
        return emu_fault(c, wi, lane0, pc, SMC_ERR_LAUNCH_TIMEOUT, 0,
                     "watchdog: %llu warp-instructions in this warp, no warp exited, no barrier "
                     "completed, no CTA started (gpu.watchdog_insts)",
                     (unsigned long long)l->watchdog);
    }
    int st = EMU_OK;
    bool advance = true;
    if (w->owner) {
        /* the guard is read by every lane of the warp; operands by the active ones */
        if (emu_verify_sources(&X, in->guard >= 0 ? mask : act) != EMU_OK) { if (out) out->status = EMU_FAULT; return EMU_FAULT; }
        emu_record_dests(&X, act);
    }
    if (exec_fast(&X, act)) goto done;
    switch (in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV:
    case OP_REM: case OP_MIN: case OP_MAX: case OP_ABS: case OP_NEG: case OP_ADDC:
    case OP_SUBC: case OP_MADC: case OP_MUL24: case OP_MAD24: case OP_SAD: case OP_COPYSIGN:
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_LG2:
    case OP_EX2: case OP_TANH:
        if (in->type == PT_PRED || (ptx_type_class[in->type] == TC_BITS && in->type != PT_F16X2 &&
                                    in->op != OP_ADDC && in->op != OP_SUBC))
            st = emu_fault(c, wi, -1, pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.%s is not supported", ptx_op_name[in->op], ptx_type_name[in->type]);
        else if (in->type == PT_F16 || in->type == PT_F16X2) st = exec_arith_half(&X, act);
        else if (ptx_type_class[in->type] == TC_FLOAT) st = exec_arith_float(&X, act);
        else st = exec_arith_int(&X, act);
        break;
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL:
    case OP_SHR: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE:
    case OP_BFI: case OP_PRMT: case OP_SHF: case OP_LOP3: case OP_BMSK: case OP_SZEXT:
    case OP_DP4A: case OP_DP2A: case OP_FNS:
        st = exec_logic(&X, act);
        break;
    case OP_SETP: case OP_SET: st = exec_compare(&X, act); break;
    case OP_SELP: case OP_SLCT: st = exec_select(&X, act); break;
    case OP_TESTP: st = exec_testp(&X, act); break;
    case OP_CVT: st = exec_cvt(&X, act); break;
    case OP_MOV: st = exec_mov(&X, act); break;
    case OP_CVTA: st = exec_cvta(&X, act); break;
    case OP_ISSPACEP: st = exec_isspacep(&X, act); break;
    case OP_LD: case OP_LDU: case OP_ST: st = exec_ldst(&X, act); break;
    case OP_ATOM: case OP_RED: st = exec_atom(&X, act); break;
    case OP_SHFL: st = exec_shfl(&X, act); break;
    case OP_VOTE: st = exec_vote(&X, act); break;
    case OP_MATCH: st = exec_match(&X, act); break;
    case OP_ACTIVEMASK: st = exec_activemask(&X, act, mask); break;
    case OP_FENCE: case OP_MEMBAR: case OP_PREFETCH: case OP_NANOSLEEP: case OP_PMEVENT: break;
    case OP_VADD2: case OP_VADD4: case OP_VSUB2: case OP_VSUB4: case OP_VABSDIFF2:
    case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4: case OP_VMAX2: case OP_VMAX4:
        st = exec_video(&X, act);
        break;
    case OP_CALL:
        if (in->mode != MD_NONE) { st = exec_builtin(&X, act); break; }
        advance = false;
        st = exec_call(&X, act);
        if (out) out->branch_taken = 1;
        break;
    case OP_BAR: case OP_BARRIER:
        st = exec_bar(&X, act);
        break;
    case OP_TRAP: case OP_BRKPT:
        if (act) st = emu_fault(c, wi, __builtin_ctz(act), pc, SMC_ERR_ASSERT, 0, "%s executed", ptx_op_name[in->op]);
        break;
    case OP_RET:
        advance = false;
        st = exec_ret(&X, act);
        if (out) out->branch_taken = act != 0;
        break;
    case OP_EXIT:
        advance = false;
        st = exec_exit(&X, act);
        break;
    case OP_BRA:
        advance = false;
        st = exec_bra(&X, act, mask);
        break;
    default:
        st = emu_fault(c, wi, -1, pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "instruction '%s' is not supported", ptx_op_name[in->op]);
    }
done:
    if (st == EMU_FAULT) { if (out) out->status = EMU_FAULT; return EMU_FAULT; }
    if (hr) {
        if (out) { out->status = (uint8_t)st; out->next_pc = w->stack[w->sp - 1].pc; }
        return st;
    }
    if (advance) {
        simt_entry *top = &w->stack[w->sp - 1];
        top->pc = pc + 1;
        reconverge(w);
    }
    if (out) {
        out->status = (uint8_t)st;
        out->next_pc = w->sp ? w->stack[w->sp - 1].pc : PTX_NO_PC;
    }
    return st;
}

int emu_warp_execute(emu_cta *c, uint32_t wi, emu_exec_info *out) {
    if (wi >= c->nwarps) return EMU_FAULT;
    warp *w = &c->w[wi];
    if (c->l->fault.status != SMC_OK) return EMU_FAULT;
    if (w->state == W_DONE) return EMU_EXITED;
    if (w->state == W_BAR) return EMU_WAIT_BARRIER;
    simt_entry *top = &w->stack[w->sp - 1];
    /* (HAWS: executing the ahead log's head here instead of skipping it is
     * not checked on this hot path — it costs bench-emu 2-3 %; the entry
     * left behind faults at the next skip/commit, episode or exit) */
    return emu_execute_at(c, wi, top->pc, top->mask, NULL, out);
}

/* ---- HAWS: execution ahead of order (emu.h; docs/haws.md "Emulator") ------ */
static warp_haws *haws_state(warp *w) {
    if (!w->haws) w->haws = calloc(1, sizeof *w->haws);
    return w->haws;
}

/* The renaming map lives for one episode: cleared when an episode begins
 * and when the ahead log drains (nothing renamed is pending any more). */
static void haws_clear_map(warp_haws *h) {
    memset(h->ren, 0, sizeof h->ren);
    memset(h->written, 0, sizeof h->written);
}

static uint32_t reg_halves(const ptx_kernel *k, uint32_t vreg) { return ptx_type_size[k->reg_type[vreg]] == 8 ? 2 : 1; }

/* Why the instruction may not be executed ahead (NULL: it may). The hint
 * pass never makes these chain members (haws-locality.md C.3); with the
 * validator off, a hint naming one ends here. */
static const char *refused_ahead(const ptx_insn *in) {
    if (in->op == OP_BRA) return "branch (evaluate it with emu_warp_branch_ahead)";
    if (in->op == OP_BAR || in->op == OP_BARRIER) return "barrier";
    if (is_control(in)) return "control instruction";
    if (in->op == OP_ATOM || in->op == OP_RED) return "atomic";
    if (in->op == OP_CALL) return "builtin call";
    if (in->op == OP_FENCE || in->op == OP_MEMBAR) return "memory fence";
    return NULL;
}

static int live_lanes_check(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask) {
    const warp *w = &c->w[wi];
    if (mask & ~(w->valid & ~w->exited))
        return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0, "execute ahead with lanes 0x%08x that have no live thread", mask);
    if (w->state == W_BAR)
        return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "HAWS: the warp waits at the barrier at pc %u; nothing may execute ahead of it", w->bar_pc);
    return EMU_OK;
}

int emu_warp_hint_begin(emu_cta *c, uint32_t wi) {
    if (wi >= c->nwarps || c->l->fault.status != SMC_OK) return EMU_FAULT;
    warp *w = &c->w[wi];
    if (w->state == W_DONE) return EMU_EXITED;
    uint32_t pc = w->stack[w->sp - 1].pc;
    warp_haws *h = haws_state(w);
    if (!h) return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0, "out of host memory");
    if (h->n)
        return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "HAWS: hint episode begins with %u unconsumed RCU entries (oldest: pc %u)", h->n, h->log[h->head].pc);
    haws_clear_map(h);
    return EMU_OK;
}

/* emu_warp_execute_hinted after the warp checks. The instruction runs on
 * the architectural register rows: a source read through the renaming map
 * gets the pool value swapped into its row for the execution, a renamed
 * destination's row is saved, its result moved to the pool and the row put
 * back, so every instruction kind works unchanged and the architectural
 * state changes exactly as the hardware's would. */
static int execute_hinted(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask, int rename_to, emu_exec_info *out) {
    const ptx_kernel *k = c->l->k;
    const uint64_t *rmask = c->l->ek->rmask;
    warp *w = &c->w[wi];
    if (live_lanes_check(c, wi, pc, mask) != EMU_OK) return EMU_FAULT;
    if (pc >= k->ncode) return emu_fault(c, wi, -1, pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "pc out of range");
    const ptx_insn *in = &k->code[pc];
    const char *why = refused_ahead(in);
    if (why) return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0, "HAWS: %s '%s' cannot be executed ahead", why, ptx_op_name[in->op]);
    warp_haws *h = haws_state(w);
    if (!h) return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0, "out of host memory");
    if (h->n >= AHEAD_LOG_MAX)
        return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "HAWS: more than %u instructions executed ahead without a return pass", AHEAD_LOG_MAX);
    uint32_t base = haws_pool_base(k->regs_per_thread);
    uint32_t act = guard_lanes(w, in, mask);
    int32_t d[8], s[16]; uint32_t nd, ns;
    ptx_insn_regs(in, d, &nd, s, &ns);
    haws_redirect hr = { h, base, -1, 0 };

    /* the destination: the architectural register or a pool register */
    if (rename_to >= 0) {
        int32_t dv = nd == 1 ? d[0] : -1;
        if (dv < 0 || k->reg_type[dv] == PT_PRED || k->phys[dv] == PTX_NO_PHYS)
            return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0,
                         "HAWS: rename of '%s', which has no single non-predicate register destination", ptx_op_name[in->op]);
        uint32_t r = (uint32_t)rename_to, n = reg_halves(k, (uint32_t)dv);
        if (r < base || r + n > base + HAWS_POOL_REGS || r + n - 1 > PTX_MAX_PHYS_REGS || (n == 2 && (r & 1)))
            return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0,
                         "HAWS: renamed id %u is not %s of the pool [%u, %u)", r, n == 2 ? "an even pair" : "a register",
                         base, base + HAWS_POOL_REGS);
        for (uint32_t i = 0; i < h->n; i++) {
            const ahead_entry *e = &h->log[(h->head + i) % AHEAD_LOG_MAX];
            if (e->renamed < 0) continue;
            uint32_t er = (uint32_t)e->renamed, en = reg_halves(k, (uint32_t)e->dst);
            if (r < er + en && er < r + n)
                return emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0,
                             "HAWS: renamed id %u still holds the result of pc %u, which is not committed yet", r, e->pc);
        }
        hr.dst = dv;
        hr.pool = r - base;
    }

    /* sources through the renaming map: check first, then swap in */
    int32_t red[16]; uint32_t nred = 0;
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t r = (uint32_t)s[i], p = k->phys[r];
        if (k->reg_type[r] == PT_PRED || p == PTX_NO_PHYS) continue;
        bool mapped = false, dup = false;
        for (uint32_t x = 0; x < nred; x++) dup |= red[x] == (int32_t)r;
        for (uint32_t hf = 0; hf < reg_halves(k, r) && !dup; hf++) {
            if (p + hf > PTX_MAX_PHYS_REGS || !h->ren[p + hf]) continue;
            uint32_t j = h->ren[p + hf] - 1u;
            if (act & ~h->written[j])
                return emu_fault(c, wi, __builtin_ctz(act & ~h->written[j]), pc, SMC_ERR_LAUNCH_FAILED, 0,
                             "HAWS: reads renamed id %u (for physical %u) in lanes 0x%08x it holds no value for",
                             base + j, p + hf, act & ~h->written[j]);
            mapped = true;
        }
        if (mapped) red[nred++] = (int32_t)r;
    }
    uint64_t save[17][32];
    for (uint32_t x = 0; x < nred; x++) {
        uint32_t r = (uint32_t)red[x], p = k->phys[r];
        uint64_t *row = &w->regs[(size_t)r * 32];
        memcpy(save[x], row, sizeof save[x]);
        for (uint32_t hf = 0; hf < reg_halves(k, r); hf++) {
            if (!h->ren[p + hf]) continue;
            const uint32_t *v = h->val[h->ren[p + hf] - 1u];
            uint64_t m = 0xFFFFFFFFull << (32 * hf);
            for (uint32_t lane = 0; lane < 32; lane++)
                row[lane] = ((row[lane] & ~m) | ((uint64_t)v[lane] << (32 * hf))) & rmask[r];
        }
    }
    if (hr.dst >= 0) memcpy(save[nred], &w->regs[(size_t)hr.dst * 32], sizeof save[nred]);

    int st = emu_execute_at(c, wi, pc, mask, &hr, out);

    /* put the architectural rows back (renamed result first, to the pool) */
    if (hr.dst >= 0) {
        uint64_t *row = &w->regs[(size_t)hr.dst * 32];
        for (uint32_t hf = 0; hf < reg_halves(k, (uint32_t)hr.dst); hf++)
            LANES(act) h->val[hr.pool + hf][lane] = (uint32_t)(row[lane] >> (32 * hf));
        memcpy(row, save[nred], sizeof save[nred]);
    }
    for (uint32_t x = nred; x-- > 0;) {
        uint64_t *row = &w->regs[(size_t)red[x] * 32];
        bool written = false;       /* also an architectural destination: keep its result */
        for (uint32_t i = 0; i < nd; i++) written |= d[i] == red[x] && d[i] != hr.dst;
        for (uint32_t lane = 0; lane < 32; lane++)
            if (!written || !(act >> lane & 1)) row[lane] = save[x][lane];
    }
    if (st == EMU_FAULT) return EMU_FAULT;

    if (hr.dst >= 0) {              /* latest mapping wins (§5.3.3) */
        uint32_t p = k->phys[hr.dst];
        for (uint32_t hf = 0; hf < reg_halves(k, (uint32_t)hr.dst); hf++) {
            h->ren[p + hf] = (uint8_t)(hr.pool + hf + 1);
            h->written[hr.pool + hf] = act;
        }
    }
    h->log[(h->head + h->n) % AHEAD_LOG_MAX] = (ahead_entry){ pc, mask, act, rename_to >= 0 ? rename_to : -1, hr.dst };
    h->n++;
    return st;
}

int emu_warp_execute_hinted(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask, int rename_to, emu_exec_info *out) {
    if (wi >= c->nwarps || c->l->fault.status != SMC_OK) return EMU_FAULT;
    if (c->w[wi].state == W_DONE) return EMU_EXITED;
    c->l->ahead_note = true;
    int st = execute_hinted(c, wi, pc, mask, rename_to, out);
    c->l->ahead_note = false;
    if (st == EMU_FAULT && out) out->status = EMU_FAULT;
    return st;
}

int emu_warp_execute_ahead(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask, emu_exec_info *out) {
    return emu_warp_execute_hinted(c, wi, pc, mask, -1, out);
}

int emu_warp_branch_ahead(emu_cta *c, uint32_t wi, uint32_t pc, uint32_t mask, uint32_t *taken_lanes) {
    if (wi >= c->nwarps || c->l->fault.status != SMC_OK) return EMU_FAULT;
    if (c->w[wi].state == W_DONE) return EMU_EXITED;
    const ptx_kernel *k = c->l->k;
    c->l->ahead_note = true;
    int st = live_lanes_check(c, wi, pc, mask);
    if (st == EMU_OK && (pc >= k->ncode || k->code[pc].op != OP_BRA))
        st = emu_fault(c, wi, -1, pc, SMC_ERR_LAUNCH_FAILED, 0, "HAWS: branch_ahead at '%s', which is not a branch",
                   pc < k->ncode ? ptx_op_name[k->code[pc].op] : "(pc out of range)");
    c->l->ahead_note = false;
    if (st != EMU_OK) return st;
    uint32_t t = guard_lanes(&c->w[wi], &k->code[pc], mask);
    if (taken_lanes) *taken_lanes = t;
    return EMU_OK;
}

/* In order at the ahead log's head: skip (commit == false) or commit it. */
static int ahead_consume(emu_cta *c, uint32_t wi, bool commit) {
    if (wi >= c->nwarps || c->l->fault.status != SMC_OK) return EMU_FAULT;
    warp *w = &c->w[wi];
    if (w->state == W_DONE) return EMU_EXITED;
    if (w->state == W_BAR) return EMU_WAIT_BARRIER;
    simt_entry *top = &w->stack[w->sp - 1];
    warp_haws *h = w->haws;
    const char *what = commit ? "commit" : "skip";
    if (!h || !h->n)
        return emu_fault(c, wi, -1, top->pc, SMC_ERR_LAUNCH_FAILED, 0, "HAWS: %s at pc %u, but nothing was executed ahead", what, top->pc);
    const ahead_entry *e = &h->log[h->head];
    if (e->pc != top->pc)
        return emu_fault(c, wi, -1, top->pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "HAWS: %s at pc %u (mask 0x%08x), but the oldest instruction executed ahead is pc %u (mask 0x%08x)",
                     what, top->pc, top->mask, e->pc, e->mask);
    if (e->mask != top->mask)
        return emu_fault(c, wi, -1, top->pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "HAWS: pc %u executed ahead with mask 0x%08x, reached in order with mask 0x%08x", e->pc, e->mask, top->mask);
    if (commit != (e->renamed >= 0))
        return emu_fault(c, wi, -1, top->pc, SMC_ERR_LAUNCH_FAILED, 0, "HAWS: %s at pc %u, which was executed ahead %s", what,
                     e->pc, e->renamed >= 0 ? "renamed (it needs a commit)" : "without renaming (it needs a skip)");
    if (commit) {
        /* the copy (§5.3.4): original destination <- pool register, the
         * entry's active lanes, at the destination's width */
        const ptx_kernel *k = c->l->k;
        uint32_t dv = (uint32_t)e->dst, j = (uint32_t)e->renamed - haws_pool_base(k->regs_per_thread);
        uint32_t n = reg_halves(k, dv);
        uint64_t *row = &w->regs[(size_t)dv * 32];
        LANES(e->act) {
            uint64_t v = h->val[j][lane];
            if (n == 2) v |= (uint64_t)h->val[j + 1][lane] << 32;
            row[lane] = v & c->l->ek->rmask[dv];
        }
        if (w->owner)
            for (uint32_t hf = 0; hf < n; hf++) {
                uint32_t *o = &w->owner[(size_t)(k->phys[dv] + hf) * 32];
                LANES(e->act) o[lane] = dv + 1;
            }
    }
    h->head = (h->head + 1) % AHEAD_LOG_MAX;
    if (--h->n == 0) haws_clear_map(h);
    top->pc++;
    reconverge(w);
    return EMU_OK;
}

int emu_warp_skip(emu_cta *c, uint32_t wi) { return ahead_consume(c, wi, false); }
int emu_warp_commit(emu_cta *c, uint32_t wi) { return ahead_consume(c, wi, true); }

uint32_t emu_warp_ahead_pending(const emu_cta *c, uint32_t wi) {
    return wi < c->nwarps && c->w[wi].haws ? c->w[wi].haws->n : 0;
}

bool emu_warp_ahead_head(const emu_cta *c, uint32_t wi, emu_ahead_entry *e) {
    if (emu_warp_ahead_pending(c, wi) == 0) return false;
    const warp_haws *h = c->w[wi].haws;
    const ahead_entry *x = &h->log[h->head];
    if (e) *e = (emu_ahead_entry){ x->pc, x->mask, x->act, x->renamed };
    return true;
}

int emu_launch_hang(emu_cta *c, uint32_t wi, const char *what) {
    if (c->l->fault.status != SMC_OK) return EMU_FAULT;
    uint32_t pc = 0, lane = 0;
    if (wi < c->nwarps && c->w[wi].state != W_DONE) {
        const warp *w = &c->w[wi];
        const simt_entry *top = &w->stack[w->sp - 1];
        pc = w->state == W_BAR ? w->bar_pc : top->pc;
        uint32_t m = top->mask ? top->mask : w->valid & ~w->exited;
        lane = m ? (uint32_t)__builtin_ctz(m) : 0;
    }
    return emu_fault(c, wi, (int)lane, pc, SMC_ERR_LAUNCH_TIMEOUT, 0, "%s", what);
}

/* ---- functional runner ----------------------------------------------------- */
#define QUANTUM 4096   /* warp-instructions per warp turn */

/* A cooperative grid: every CTA is created first (the device has checked
 * that they fit co-resident), then the warps of all CTAs take turns of
 * COOP_QUANTUM warp-instructions each, CTA by CTA, warp by warp, in a fixed
 * order: deterministic, and a warp spinning on a grid-wide barrier in global
 * memory lets the other CTAs arrive. */
#define COOP_QUANTUM 64
static smc_status run_cooperative(emu_launch *l) {
    emu_cta **cs = calloc(l->nctas ? l->nctas : 1, sizeof *cs);
    smc_status st = SMC_OK;
    if (!cs) {
        l->fault.status = SMC_ERR_OUT_OF_MEMORY;
        snprintf(l->fault.message, sizeof l->fault.message, "SMC_ERR_OUT_OF_MEMORY: cannot allocate the CTAs of kernel %.60s", l->k->name);
        return l->fault.status;
    }
    for (uint32_t i = 0; i < l->nctas; i++) {
        cs[i] = emu_cta_create(l, i, i % (l->d.num_sms ? l->d.num_sms : 1));
        if (!cs[i]) {
            l->fault.status = st = SMC_ERR_OUT_OF_MEMORY;
            snprintf(l->fault.message, sizeof l->fault.message, "SMC_ERR_OUT_OF_MEMORY: cannot allocate CTA %u of kernel %.60s", i, l->k->name);
            goto out;
        }
    }
    for (uint32_t live = l->nctas; live > 0;) {
        bool progress = false;
        live = 0;
        for (uint32_t i = 0; i < l->nctas; i++) {
            emu_cta *c = cs[i];
            if (emu_cta_done(c)) continue;
            for (uint32_t w = 0; w < c->nwarps; w++) {
                for (int q = 0; q < COOP_QUANTUM && emu_warp_ready(c, w); q++) {
                    int rs = emu_warp_execute(c, w, NULL);
                    progress = true;
                    if (rs == EMU_FAULT) { st = l->fault.status; goto out; }
                    if (rs != EMU_OK) break;
                }
            }
            if (!emu_cta_done(c)) live++;
        }
        if (!progress && live) {
            uint32_t i = 0;
            while (emu_cta_done(cs[i])) i++;
            emu_cta *c = cs[i];
            uint32_t w0 = 0;
            while (w0 < c->nwarps && c->w[w0].state != W_BAR) w0++;
            uint32_t pc = w0 < c->nwarps ? c->w[w0].bar_pc : 0;
            emu_fault(c, w0, 0, pc, SMC_ERR_LAUNCH_TIMEOUT, 0,
                  "deadlock: every live warp waits at a barrier that cannot complete");
            st = l->fault.status;
            goto out;
        }
    }
out:
    for (uint32_t i = 0; i < l->nctas; i++)
        if (cs[i]) emu_cta_destroy(cs[i]);
    free(cs);
    return st;
}

smc_status emu_run_functional(emu_launch *l) {
    if (l->d.cooperative) return run_cooperative(l);
    for (uint32_t i = 0; i < l->nctas; i++) {
        emu_cta *c = emu_cta_create(l, i, i % (l->d.num_sms ? l->d.num_sms : 1));
        if (!c) {
            l->fault.status = SMC_ERR_OUT_OF_MEMORY;
            snprintf(l->fault.message, sizeof l->fault.message, "SMC_ERR_OUT_OF_MEMORY: cannot allocate CTA %u of kernel %.60s", i, l->k->name);
            return l->fault.status;
        }
        while (!emu_cta_done(c)) {
            bool progress = false;
            for (uint32_t w = 0; w < c->nwarps; w++) {
                for (int q = 0; q < QUANTUM && emu_warp_ready(c, w); q++) {
                    int st = emu_warp_execute(c, w, NULL);
                    progress = true;
                    if (st == EMU_FAULT) { emu_cta_destroy(c); return l->fault.status; }
                    if (st != EMU_OK) break;
                }
            }
            if (!progress && !emu_cta_done(c)) {
                uint32_t w0 = 0;
                while (w0 < c->nwarps && c->w[w0].state != W_BAR) w0++;
                /* (deadlock_check reports this as it happens; kept as a net) */
                uint32_t pc = w0 < c->nwarps ? c->w[w0].bar_pc : 0;
                emu_fault(c, w0, 0, pc, SMC_ERR_LAUNCH_TIMEOUT, 0,
                      "deadlock: every live warp waits at a barrier that cannot complete");
                emu_cta_destroy(c);
                return l->fault.status;
            }
        }
        emu_cta_destroy(c);
    }
    return SMC_OK;
}
