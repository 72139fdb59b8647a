/*
 * kernel.c — pre-decoding a linked kernel for the emulator: per instruction
 * its static information for the timing model (emu_inst_info: class,
 * memory space, physical registers read and written), float immediates
 * made to match the operand type, register width masks, and the verifier's
 * owner-table rows of each out-of-line function. See emu.h.
 */
#include "exec_internal.h"

#include <stdlib.h>

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
