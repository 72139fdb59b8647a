/*
 * exec.c — functional execution of pre-decoded PTX, one warp-instruction per
 * emu_warp_execute() call. See emu.h for the contract and docs/emulator.md
 * for the SIMT stack, address map and fault model.
 *
 * This file is the dispatcher: emu_execute_at's switch maps each opcode to the
 * exec_* function of its family (exec_internal.h lists the files), after
 * the fast paths have had their try. The hot helpers the families share
 * are static inline in exec_internal.h.
 */
#include "exec_internal.h"

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
