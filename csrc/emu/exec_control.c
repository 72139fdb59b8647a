/*
 * exec_control.c — control flow: the SIMT stack (push, lanes exiting), bra,
 * exit, and out-of-line calls and their ret (docs/emulator.md "SIMT stack"
 * and "Calls").
 */
#include "exec_internal.h"

#include <stdlib.h>

/* ---- SIMT stack ------------------------------------------------------------- */
/* (65536 entries: room for the deepest call stack, PTX_CALL_STACK_BYTES /
 * PTX_MIN_FRAME calls, with a few divergent branches open in each) */
int emu_simt_push(ctx *X, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t depth) {
    warp *w = X->w;
    if (w->sp >= w->cap) {
        if (w->cap >= 65536) return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_LAUNCH_FAILED, 0, "SIMT stack overflow");
        simt_entry *n = realloc(w->stack, 2 * w->cap * sizeof *n);
        if (!n) return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_LAUNCH_FAILED, 0, "out of host memory");
        w->stack = n; w->cap *= 2;
    }
    w->stack[w->sp++] = (simt_entry){ pc, rpc, mask, depth };
    return EMU_OK;
}

void emu_lanes_exit(emu_cta *c, uint32_t wi, uint32_t mask) {
    warp *w = &c->w[wi];
    w->exited |= mask;
    for (uint32_t i = 0; i < w->sp; i++) w->stack[i].mask &= ~mask;
    reconverge(w);
    calls_trim(w);
    if (w->sp == 0) {
        w->state = W_DONE;
        c->live_warps--;
        c->l->progress++;              /* a warp exiting is progress */
        for (uint32_t b = 0; b < 16; b++) if (c->bar[b].arrived_warps) emu_barrier_check(c, b);
    }
}

/* bra: the lanes whose guard holds branch. A divergent branch makes the
 * top entry wait at the reconvergence point and pushes the fall-through
 * lanes, then the taken lanes on top (they run first). */
int exec_bra(ctx *X, uint32_t act, uint32_t mask) {
    warp *w = X->w;
    const ptx_insn *in = X->in;
    simt_entry *top = &w->stack[w->sp - 1];
    uint32_t taken = act;
    if (X->out) { X->out->branch_taken = taken != 0; }
    if (taken == mask) top->pc = in->target;
    else if (taken == 0) top->pc = X->pc + 1;
    else {
        uint32_t r = X->c->l->k->reconv[X->pc], depth = top->depth;
        top->pc = r;
        if (X->out) X->out->diverged = 1;
        if (emu_simt_push(X, X->pc + 1, r, mask & ~taken, depth) != EMU_OK ||
            emu_simt_push(X, in->target, r, taken, depth) != EMU_OK) return EMU_FAULT;
    }
    reconverge(w);
    return EMU_OK;
}

/* exit: the lanes whose guard holds leave; the warp is done (EMU_EXITED)
 * when none is left, which may leave the CTA deadlocked at a barrier. */
int exec_exit(ctx *X, uint32_t act) {
    emu_cta *c = X->c;
    warp *w = X->w;
    w->stack[w->sp - 1].pc = X->pc + 1;
    if (act) emu_lanes_exit(c, X->wi, act);
    else reconverge(w);
    if (w->state == W_DONE && w->haws && w->haws->n)
        return emu_fault(c, X->wi, -1, X->pc, SMC_ERR_LAUNCH_FAILED, 0, "HAWS: warp exited with %u unconsumed RCU entries (oldest: pc %u)",
                     w->haws->n, w->haws->log[w->haws->head].pc);
    if (w->state == W_DONE) return emu_deadlock_check(c) == EMU_FAULT ? EMU_FAULT : EMU_EXITED;
    return EMU_OK;
}

/* ---- out-of-line calls (docs/emulator.md "Calls") ------------------------- */
/* Room for n more bytes on the warp's save stack; NULL after a fault. */
static uint8_t *save_reserve(ctx *X, size_t n) {
    warp *w = X->w;
    if (w->save_top + n > w->save_cap) {
        size_t cap = w->save_cap ? w->save_cap : 4096;
        while (cap < w->save_top + n) cap *= 2;
        uint8_t *p = realloc(w->save, cap);
        if (!p) { emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_LAUNCH_FAILED, 0, "out of host memory"); return NULL; }
        w->save = p; w->save_cap = cap;
    }
    uint8_t *p = w->save + w->save_top;
    w->save_top += n;
    return p;
}

/* The out-of-line function a lane calls: the call's own (direct) or the one
 * whose code address the lane's register holds. -1 after a fault. */
static int32_t call_target(ctx *X, uint32_t lane) {
    const ptx_kernel *k = X->c->l->k;
    const ptx_operand *o = &X->in->ops[0];
    if (o->kind == OK_IMM) return (int32_t)o->imm;
    uint64_t a = val(X, o, (int)lane);
    uint64_t i = (a - SMC_CODE_WINDOW) / SMC_CODE_ALIGN;
    if (a >= SMC_CODE_WINDOW && a % SMC_CODE_ALIGN == 0 && i >= 1 && i <= k->nmodule_funcs &&
        k->kfunc_of[i - 1] >= 0)
        return k->kfunc_of[i - 1];
    emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_ADDRESS, a,
          "indirect call to 0x%llx, which is not the address of a device function of this module",
          (unsigned long long)a);
    return -1;
}

/* Copy n bytes of one lane's local memory from offset src to offset dst. */
static bool local_copy(ctx *X, uint32_t lane, uint64_t dst, uint64_t src, uint32_t n) {
    const uint8_t *s = emu_xlate(X, (int)lane, SP_LOCAL, src, 1, false, NULL);
    uint8_t *d = s ? emu_xlate(X, (int)lane, SP_LOCAL, dst, 1, true, NULL) : NULL;
    if (!d || !emu_xlate(X, (int)lane, SP_LOCAL, src + n - 1, 1, false, NULL) ||
        !emu_xlate(X, (int)lane, SP_LOCAL, dst + n - 1, 1, true, NULL))
        return false;
    memmove(d, s, n);
    return true;
}

/* call: the active lanes are grouped by target; the group of the lowest
 * lane calls now, the others execute the call again when it has returned
 * (an entry {pc, pc + 1, others} under the callee's), and all reconverge
 * after the call. The call sets up the callee's frame above the caller's,
 * copies the arguments into its formals and sets its frame pointer. */
int exec_call(ctx *X, uint32_t act) {
    emu_cta *c = X->c;
    warp *w = X->w;
    const emu_kernel *ek = c->l->ek;
    const ptx_kernel *k = ek->k;
    simt_entry *top = &w->stack[w->sp - 1];
    uint32_t depth = top->depth;
    top->pc = X->pc + 1;
    if (!act) return EMU_OK;
    int32_t target[32];
    LANES(act) if ((target[lane] = call_target(X, lane)) < 0) return EMU_FAULT;
    uint32_t lead = (uint32_t)__builtin_ctz(act), grp = 0;
    LANES(act) if (target[lane] == target[lead]) grp |= 1u << lane;
    const ptx_kfunc *f = &k->funcs[target[lead]];
    const ptx_callsite *cs = &k->calls[X->in->target];
    if (cs->nargs != f->nargs || cs->nrets != f->nrets)
        return emu_fault(c, X->wi, (int)lead, X->pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "call of '%.80s' with %u arguments and %u results; it takes %u and %u (prototype mismatch)",
                     f->name, cs->nargs, cs->nrets, f->nargs, f->nrets);
    for (uint32_t i = 0; i < cs->nargs + cs->nrets; i++)
        if (cs->slot_size[i] != f->arg_size[i])
            return emu_fault(c, X->wi, (int)lead, X->pc, SMC_ERR_LAUNCH_FAILED, 0,
                         "call of '%.80s': %s %u is %u bytes, the function's is %u (prototype mismatch)",
                         f->name, i < cs->nargs ? "argument" : "result", i < cs->nargs ? i : i - cs->nargs,
                         cs->slot_size[i], f->arg_size[i]);
    /* the callee's frame: above the caller's (the kernel's frame is its locals) */
    uint32_t caller_base = depth ? w->calls[depth - 1].base : 0;
    uint32_t caller_frame = depth ? k->funcs[w->calls[depth - 1].kf].frame_bytes : (k->local_bytes + 15u) / 16u * 16u;
    uint64_t base = (uint64_t)caller_base + caller_frame;
    if (base + f->frame_bytes > c->local_size)
        return emu_fault(c, X->wi, (int)lead, X->pc, SMC_ERR_LAUNCH_FAILED, 0,
                     "stack overflow: call of '%.80s' at call depth %u needs %llu bytes of call stack per thread, "
                     "the stack has %u (docs/emulator.md \"Calls\")", f->name, depth + 1,
                     (unsigned long long)(base + f->frame_bytes - (c->local_size - k->stack_bytes)), k->stack_bytes);
    if (w->ncalls >= w->calls_cap) {
        uint32_t cap = w->calls_cap ? 2 * w->calls_cap : 8;
        call_rec *n = realloc(w->calls, cap * sizeof *n);
        if (!n) return emu_fault(c, X->wi, -1, X->pc, SMC_ERR_LAUNCH_FAILED, 0, "out of host memory");
        w->calls = n; w->calls_cap = cap;
    }
    call_rec r = { (uint32_t)target[lead], X->in->target, (uint32_t)base, caller_base, false, w->save_top };
    /* a function active further down the stack (recursion): its registers
     * hold that activation's values, which its return restores */
    for (uint32_t i = 0; i < depth && !r.saved_regs; i++) r.saved_regs = w->calls[i].kf == r.kf;
    if (r.saved_regs) {
        size_t n = (size_t)f->nvregs * 32 * sizeof *w->regs;
        uint8_t *p = save_reserve(X, n);
        if (!p) return EMU_FAULT;
        memcpy(p, &w->regs[(size_t)f->vreg_base * 32], n);
    }
    if (w->owner) {     /* the verifier: the callee saves the rows it uses */
        uint32_t a = ek->kf_rows_off[r.kf], b = ek->kf_rows_off[r.kf + 1];
        uint8_t *p = save_reserve(X, (size_t)(b - a) * 32 * sizeof *w->owner);
        if (!p) return EMU_FAULT;
        for (uint32_t i = a; i < b; i++)
            memcpy(p + (size_t)(i - a) * 32 * sizeof *w->owner, &w->owner[(size_t)ek->kf_rows[i] * 32],
                   32 * sizeof *w->owner);
    }
    LANES(grp) {
        for (uint32_t i = 0; i < cs->nargs; i++)
            if (!local_copy(X, lane, base + f->arg_off[i], caller_base + cs->slot_off[i], cs->slot_size[i]))
                return EMU_FAULT;
        wr(X, f->fp, (int)lane, base);
    }
    if (w->owner && k->phys[f->fp] != PTX_NO_PHYS)
        LANES(grp) {
            w->owner[(size_t)k->phys[f->fp] * 32 + lane] = (uint32_t)f->fp + 1;
            w->owner[(size_t)(k->phys[f->fp] + 1) * 32 + lane] = (uint32_t)f->fp + 1;
        }
    w->calls[w->ncalls++] = r;
    uint32_t rest = act & ~grp;
    if (rest && emu_simt_push(X, X->pc, X->pc + 1, rest, depth) != EMU_OK) return EMU_FAULT;
    return emu_simt_push(X, f->entry, PTX_NO_PC, grp, depth + 1);
}

/* ret of an out-of-line function: the returning lanes copy the results
 * into the caller's slots, get back saved values, and leave the
 * activation's SIMT entries; when none is left the call has returned and
 * the caller's entry (at the instruction after the call) is on top. */
int exec_ret(ctx *X, uint32_t act) {
    emu_cta *c = X->c;
    warp *w = X->w;
    const emu_kernel *ek = c->l->ek;
    const ptx_kernel *k = ek->k;
    simt_entry *top = &w->stack[w->sp - 1];
    uint32_t depth = top->depth;
    top->pc = X->pc + 1;      /* lanes whose guard kept them here */
    if (!act) { reconverge(w); return EMU_OK; }
    const call_rec *r = &w->calls[depth - 1];
    const ptx_kfunc *f = &k->funcs[r->kf];
    const ptx_callsite *cs = &k->calls[r->site];
    LANES(act)
        for (uint32_t j = cs->nargs; j < cs->nargs + cs->nrets; j++)
            if (!local_copy(X, lane, r->caller_base + cs->slot_off[j], (uint64_t)r->base + f->arg_off[j], cs->slot_size[j]))
                return EMU_FAULT;
    const uint8_t *p = w->save + r->save_off;
    if (r->saved_regs) {
        const uint64_t *v = (const uint64_t *)(const void *)p;
        for (uint32_t i = 0; i < f->nvregs; i++)
            LANES(act) w->regs[(size_t)(f->vreg_base + i) * 32 + lane] = v[(size_t)i * 32 + lane];
        p += (size_t)f->nvregs * 32 * sizeof *w->regs;
    }
    if (w->owner) {
        const uint32_t *o = (const uint32_t *)(const void *)p;
        uint32_t a = ek->kf_rows_off[r->kf], b = ek->kf_rows_off[r->kf + 1];
        for (uint32_t i = a; i < b; i++)
            LANES(act) w->owner[(size_t)ek->kf_rows[i] * 32 + lane] = o[(size_t)(i - a) * 32 + lane];
    }
    for (uint32_t i = w->sp; i-- > 0 && w->stack[i].depth == depth;) w->stack[i].mask &= ~act;
    reconverge(w);
    calls_trim(w);
    return EMU_OK;
}
