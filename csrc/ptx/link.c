/*
 * link.c — inlining, symbol resolution, CFG, post-dominators, liveness and
 * register allocation for one kernel. See link.h and docs/emulator.md.
 */
#include "link.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INLINE_DEPTH 32

typedef struct binding { const char *name; uint8_t space; uint64_t value; uint64_t size; } binding;

typedef struct linker {
    const ptx_module *m;
    ptx_arena *arena;                 /* the kernel's: owns what the kernel keeps */
    jmp_buf fail;
    char *err; size_t errlen;
    ptx_var_addr_fn addr; void *ctx;
    ptx_insn *code; uint32_t ncode, code_cap;
    uint8_t *rtype; uint32_t nregs, reg_cap;
    struct { const ptx_var *v; uint32_t off; } *smap; uint32_t nsmap, smap_cap;
    uint64_t smem_top, local_top;
    const ptx_func *stack[MAX_INLINE_DEPTH]; uint32_t depth;
    uint32_t const_bytes;
    int32_t *ipdom;
    void *tmp[4 * MAX_INLINE_DEPTH + 8]; uint32_t ntmp;   /* freed on failure */
    /* out-of-line functions (docs/emulator.md "Calls"): requested ones are
     * emitted after the kernel's code, in order; kfunc_of[module index] */
    ptx_kfunc *kf; uint32_t nkf, kf_cap;
    int32_t *kfunc_of;
    ptx_callsite *cs; uint32_t ncs, cs_cap;
    int32_t fp;                       /* frame pointer of the out-of-line body being emitted, -1 */
    bool indirect;                    /* an indirect call was emitted */
    bool all_targets;                 /* every address-taken function was requested */
} linker;

static void lerr(linker *L, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));
static void lerr(linker *L, uint32_t line, uint32_t col, const char *fmt, ...) {
    int k = snprintf(L->err, L->errlen, "%s:%u:%u: error: ", L->m->name, line, col);
    if (k < 0) k = 0;
    if ((size_t)k < L->errlen) {
        va_list ap; va_start(ap, fmt);
        vsnprintf(L->err + k, L->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    longjmp(L->fail, 1);
}

static void *xrealloc(linker *L, void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) lerr(L, 0, 0, "out of memory");
    return q;
}

/* Temporary allocations of the inliner, released by tmp_free or on failure. */
static void *tmp_calloc(linker *L, size_t n, size_t sz) {
    if (L->ntmp >= sizeof L->tmp / sizeof L->tmp[0]) lerr(L, 0, 0, "internal: too many temporaries");
    void *p = calloc(n ? n : 1, sz);
    if (!p) lerr(L, 0, 0, "out of memory");
    L->tmp[L->ntmp++] = p;
    return p;
}
static void tmp_free(linker *L, void *p) {
    for (uint32_t i = L->ntmp; i-- > 0;)
        if (L->tmp[i] == p) { L->tmp[i] = L->tmp[--L->ntmp]; break; }
    free(p);
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

/* ---- operand roles ---------------------------------------------------------- */
static void add_op_regs(const ptx_operand *o, int32_t *v, uint32_t *n, uint32_t cap, bool addr_only) {
    if (o->kind == OK_REG && !addr_only) {
        if (*n < cap) v[(*n)++] = o->reg;
        if (o->reg2 >= 0 && *n < cap) v[(*n)++] = o->reg2;
    } else if (o->kind == OK_VEC && !addr_only) {
        for (uint32_t i = 0; i < o->nvec; i++)
            if (o->vec[i] >= 0 && *n < cap) v[(*n)++] = o->vec[i];
    } else if (o->kind == OK_ADDR && o->reg >= 0) {
        if (*n < cap) v[(*n)++] = o->reg;
    }
}

void ptx_insn_regs(const ptx_insn *in, int32_t *dst, uint32_t *nd, int32_t *src, uint32_t *ns) {
    *nd = 0; *ns = 0;
    bool has_dst;
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_EXIT: case OP_RET: case OP_TRAP:
    case OP_BRKPT: case OP_FENCE: case OP_MEMBAR: case OP_PREFETCH: case OP_NANOSLEEP:
    case OP_CALL:
        has_dst = false; break;
    case OP_BAR: case OP_BARRIER:
        has_dst = in->mode == MD_RED; break;
    default:
        has_dst = in->nops > 0; break;
    }
    if (in->guard >= 0) src[(*ns)++] = in->guard;
    for (uint32_t i = 0; i < in->nops; i++) {
        const ptx_operand *o = &in->ops[i];
        if (i == 0 && has_dst) {
            add_op_regs(o, dst, nd, 8, false);
            add_op_regs(o, src, ns, 16, true);   /* address base of a dst? never */
        } else if (in->op == OP_BRA) {
            /* label */
        } else {
            add_op_regs(o, src, ns, 16, false);
        }
    }
}

/* ---- symbol resolution ------------------------------------------------------ */
static uint32_t shared_offset(linker *L, const ptx_var *v) {
    for (uint32_t i = 0; i < L->nsmap; i++) if (L->smap[i].v == v) return L->smap[i].off;
    if (v->is_extern) lerr(L, v->line, 1, "internal: extern shared placed early");
    uint64_t off = align_up(L->smem_top, v->align);
    if (off + v->size > (1u << 30)) lerr(L, v->line, 1, "shared memory of '%s' too large", v->name);
    L->smem_top = off + v->size;
    if (L->nsmap >= L->smap_cap) {
        L->smap_cap = L->smap_cap ? 2 * L->smap_cap : 16;
        L->smap = xrealloc(L, L->smap, L->smap_cap * sizeof *L->smap);
    }
    L->smap[L->nsmap].v = v; L->smap[L->nsmap].off = (uint32_t)off; L->nsmap++;
    return (uint32_t)off;
}

typedef struct frame {
    const ptx_func *f;
    binding *b; uint32_t nb;     /* formals, rets and body variables of this copy */
    uint32_t has_dyn;            /* extern shared seen */
} frame;

/* How a function body is emitted: as the kernel (ret = exit), inlined at a
 * call (ret = branch to after the call) or out of line (ret stays ret). */
enum body_mode { BODY_ENTRY, BODY_INLINE, BODY_OUTLINE };

/* Resolve a name to (space, value). For .param in a .func or in a call
 * block the space is SP_LOCAL (the call frame lives in local memory). */
static bool resolve(linker *L, frame *F, const char *name, uint8_t *space, uint64_t *value) {
    for (uint32_t i = F->nb; i-- > 0;)
        if (!strcmp(F->b[i].name, name)) { *space = F->b[i].space; *value = F->b[i].value; return true; }
    const ptx_var *v = ptx_find_var(L->m, name);
    if (!v) return false;
    if (v->space == SP_SHARED) {
        *space = SP_SHARED;
        *value = v->is_extern ? UINT64_MAX : shared_offset(L, v);   /* patched later */
        if (v->is_extern) F->has_dyn = 1;
        return true;
    }
    *space = v->space;
    *value = L->addr(L->ctx, v);
    return true;
}

/* A .param slot of the current body (a call's argument or result):
 * its local-memory offset (frame-relative out of line) and size. */
static bool local_slot(const frame *F, const char *name, uint64_t *off, uint64_t *size) {
    for (uint32_t i = F->nb; i-- > 0;)
        if (!strcmp(F->b[i].name, name)) {
            if (F->b[i].space != SP_LOCAL) return false;
            *off = F->b[i].value; *size = F->b[i].size;
            return true;
        }
    return false;
}

/* Dynamic shared memory starts after all static shared memory; since the
 * static size is known only at the end, extern references are recorded and
 * patched. */
typedef struct dynref { uint32_t pc; uint8_t opi; uint8_t generic; } dynref;

static void emit(linker *L, const ptx_insn *in) {
    if (L->ncode >= L->code_cap) {
        L->code_cap = L->code_cap ? 2 * L->code_cap : 256;
        if (L->code_cap > (1u << 24)) lerr(L, in->line, in->col, "kernel too large after inlining");
        L->code = xrealloc(L, L->code, L->code_cap * sizeof *L->code);
    }
    L->code[L->ncode++] = *in;
}

typedef struct linkstate { dynref *dyn; uint32_t ndyn, dyn_cap; } linkstate;

static uint32_t func_index(const linker *L, const ptx_func *f) { return (uint32_t)(f - L->m->funcs); }

/* The ptx_kfunc index of g, requesting its out-of-line body (emitted after
 * the kernel's code) the first time. */
static uint32_t request_outline(linker *L, const ptx_func *g, uint32_t line, uint32_t col) {
    uint32_t mi = func_index(L, g);
    if (L->kfunc_of[mi] >= 0) return (uint32_t)L->kfunc_of[mi];
    if (!g->has_body) lerr(L, line, col, "function '%s' is declared but has no body", g->name);
    if (L->nkf >= L->kf_cap) {
        L->kf_cap = L->kf_cap ? 2 * L->kf_cap : 8;
        L->kf = xrealloc(L, L->kf, L->kf_cap * sizeof *L->kf);
    }
    memset(&L->kf[L->nkf], 0, sizeof *L->kf);
    L->kf[L->nkf].name = g->name;
    L->kf[L->nkf].module_index = mi;
    L->kfunc_of[mi] = (int32_t)L->nkf;
    return L->nkf++;
}

/* An out-of-line call: OP_CALL (mode MD_NONE) whose ops[0] is the callee
 * (OK_IMM kfunc index, or OK_REG with the code address) and whose target is
 * a ptx_callsite listing the caller's argument and result slots. */
static void emit_call(linker *L, const frame *F, const ptx_insn *src, int32_t kfi, int32_t reg) {
    const ptx_call *c = src->call;
    ptx_insn b; memset(&b, 0, sizeof b);
    b.op = OP_CALL; b.guard = -1; b.vec = 1; b.line = src->line; b.col = src->col;
    b.nops = 1;
    b.ops[0].reg = -1; b.ops[0].reg2 = -1;
    if (kfi >= 0) { b.ops[0].kind = OK_IMM; b.ops[0].imm = (uint64_t)kfi; }
    else { b.ops[0].kind = OK_REG; b.ops[0].reg = reg; L->indirect = true; }
    if (L->ncs >= L->cs_cap) {
        L->cs_cap = L->cs_cap ? 2 * L->cs_cap : 8;
        L->cs = xrealloc(L, L->cs, L->cs_cap * sizeof *L->cs);
    }
    ptx_callsite *cs = &L->cs[L->ncs];
    cs->nargs = c->nargs; cs->nrets = c->nrets;
    uint32_t n = c->nargs + c->nrets;
    cs->slot_off = ptx_arena_alloc(L->arena, (n + 1) * sizeof *cs->slot_off);
    cs->slot_size = ptx_arena_alloc(L->arena, (n + 1) * sizeof *cs->slot_size);
    if (!cs->slot_off || !cs->slot_size) lerr(L, src->line, src->col, "out of memory");
    const ptx_func *g = kfi >= 0 ? &L->m->funcs[L->kf[kfi].module_index] : NULL;
    for (uint32_t k = 0; k < n; k++) {
        const char *nm = k < c->nargs ? c->args[k] : c->rets[k - c->nargs];
        uint64_t off, size;
        if (!local_slot(F, nm, &off, &size))
            lerr(L, src->line, src->col, "call argument '%s' must be a .param variable declared in the caller", nm);
        if (g) {
            const ptx_var *formal = k < g->nparams ? &g->params[k] : &g->rets[k - g->nparams];
            if (formal->size != size)
                lerr(L, src->line, src->col, "call of '%s': %s %u is %llu bytes, the function's is %llu",
                     g->name, k < c->nargs ? "argument" : "result", k < c->nargs ? k : k - c->nargs,
                     (unsigned long long)size, (unsigned long long)formal->size);
        }
        cs->slot_off[k] = (uint32_t)off; cs->slot_size[k] = (uint32_t)size;
    }
    b.target = L->ncs++;
    emit(L, &b);
}

static void inline_func(linker *L, linkstate *S, const ptx_func *f, binding *formals, uint32_t nformals, enum body_mode mode) {
    if (!f->has_body) lerr(L, f->line, 1, "function '%s' is declared but has no body", f->name);
    L->stack[L->depth++] = f;

    /* registers of this copy */
    uint32_t rbase = L->nregs;
    if ((uint64_t)L->nregs + f->nregs > (1u << 24)) lerr(L, f->line, 1, "too many registers after inlining");
    if (L->nregs + f->nregs > L->reg_cap) {
        L->reg_cap = (L->nregs + f->nregs) * 2;
        L->rtype = xrealloc(L, L->rtype, L->reg_cap);
    }
    if (f->nregs) memcpy(L->rtype + L->nregs, f->reg_type, f->nregs);
    L->nregs += f->nregs;

    /* bindings: formals first, then body variables */
    frame F = { .f = f };
    F.nb = nformals + f->nvars;
    F.b = tmp_calloc(L, F.nb, sizeof *F.b);
    if (nformals) memcpy(F.b, formals, nformals * sizeof *formals);
    for (uint32_t i = 0; i < f->nvars; i++) {
        const ptx_var *v = &f->vars[i];
        binding *b = &F.b[nformals + i];
        b->name = v->name; b->size = v->size;
        if (v->space == SP_SHARED) {
            if (v->is_extern) { lerr(L, v->line, 1, "extern .shared inside a function is not supported"); }
            b->space = SP_SHARED; b->value = shared_offset(L, v);
        } else {
            b->space = SP_LOCAL;        /* .local arrays and call-frame .params */
            uint64_t off = align_up(L->local_top, v->align ? v->align : 1);
            L->local_top = off + v->size;
            if (L->local_top > (1u << 24)) lerr(L, v->line, 1, "local memory too large");
            b->value = off;
        }
    }

    uint32_t *pcmap = tmp_calloc(L, f->ncode + 1, sizeof *pcmap);
    uint32_t *mybra = tmp_calloc(L, f->ncode + 1, sizeof *mybra);   /* out pcs of this level's bra */
    uint32_t *myret = tmp_calloc(L, f->ncode + 1, sizeof *myret);
    uint32_t nbra = 0, nret = 0;

    for (uint32_t i = 0; i < f->ncode; i++) {
        const ptx_insn *src = &f->code[i];
        pcmap[i] = L->ncode;
        if (src->op == OP_CALL) {
            const ptx_call *c = src->call;
            if (src->guard >= 0) lerr(L, src->line, src->col, "predicated call is not supported");
            if (c->callee_reg >= 0) {        /* through a function address */
                emit_call(L, &F, src, -1, c->callee_reg + (int32_t)rbase);
                continue;
            }
            const ptx_func *g = ptx_find_func(L->m, c->callee);
            if (!g) lerr(L, src->line, src->col, "call of undefined function '%s'", c->callee);
            if (g->is_entry) lerr(L, src->line, src->col, "call of kernel '%s' is not allowed", c->callee);
            if (c->nargs != g->nparams || c->nrets != g->nrets)
                lerr(L, src->line, src->col, "call of '%s' with %u arguments and %u results; it takes %u and %u",
                     g->name, c->nargs, c->nrets, g->nparams, g->nrets);
            if (!g->has_body && (!strcmp(g->name, "vprintf") || !strcmp(g->name, "__assertfail") ||
                                 !strcmp(g->name, "malloc") || !strcmp(g->name, "free"))) {
                /* device-runtime builtins: a call instruction whose operands
                 * are the local-memory slots of the result and arguments */
                ptx_insn b; memset(&b, 0, sizeof b);
                b.op = OP_CALL; b.guard = -1; b.vec = 1; b.line = src->line; b.col = src->col;
                b.mode = !strcmp(g->name, "vprintf") ? MD_VPRINTF :
                         !strcmp(g->name, "malloc") ? MD_MALLOC :
                         !strcmp(g->name, "free") ? MD_FREE : MD_ASSERTFAIL;
                if (c->nargs + 1 > PTX_MAX_OPS) lerr(L, src->line, src->col, "too many arguments for %s", g->name);
                b.nops = (uint8_t)(1 + c->nargs);
                b.ops[0].reg = -1; b.ops[0].reg2 = -1;
                for (uint32_t a = 0; a <= c->nargs; a++) {
                    const char *nm = a == 0 ? (c->nrets ? c->rets[0] : NULL) : c->args[a - 1];
                    ptx_operand *o = &b.ops[a];
                    o->reg = -1; o->reg2 = -1;
                    if (!nm) continue;
                    uint8_t sp; uint64_t val;
                    if (!resolve(L, &F, nm, &sp, &val) || sp != SP_LOCAL)
                        lerr(L, src->line, src->col, "argument '%s' of %s must be a .param variable", nm, g->name);
                    o->kind = OK_ADDR; o->imm = val;
                    o->reg = L->fp;          /* out of line: relative to the frame */
                }
                emit(L, &b);
                continue;
            }
            /* a recursive call (g is being inlined already) or one nested
             * too deeply to inline: call g's out-of-line body */
            bool on_stack = L->depth >= MAX_INLINE_DEPTH;
            for (uint32_t i = 0; i < L->depth && !on_stack; i++) on_stack = L->stack[i] == g;
            if (on_stack) {
                emit_call(L, &F, src, (int32_t)request_outline(L, g, src->line, src->col), -1);
                continue;
            }
            uint32_t nfb = g->nparams + g->nrets;
            binding *fb = tmp_calloc(L, nfb, sizeof *fb);
            for (uint32_t k = 0; k < nfb; k++) {
                const char *actual = k < g->nparams ? c->args[k] : c->rets[k - g->nparams];
                const ptx_var *formal = k < g->nparams ? &g->params[k] : &g->rets[k - g->nparams];
                uint8_t sp; uint64_t val;
                if (!resolve(L, &F, actual, &sp, &val) || sp != SP_LOCAL) {
                    lerr(L, src->line, src->col, "call argument '%s' must be a .param variable declared in the caller", actual);
                }
                fb[k].name = formal->name; fb[k].space = SP_LOCAL; fb[k].value = val; fb[k].size = formal->size;
            }
            inline_func(L, S, g, fb, nfb, BODY_INLINE);
            tmp_free(L, fb);
            continue;
        }
        ptx_insn in = *src;
        in.call = NULL;
        if (in.guard >= 0) in.guard += (int32_t)rbase;
        for (uint32_t k = 0; k < in.nops; k++) {
            ptx_operand *o = &in.ops[k];
            if ((o->kind == OK_REG || o->kind == OK_ADDR) && o->reg >= 0) o->reg += (int32_t)rbase;
            if (o->kind == OK_REG && o->reg2 >= 0) o->reg2 += (int32_t)rbase;
            if (o->kind == OK_VEC)
                for (uint32_t e = 0; e < o->nvec; e++) if (o->vec[e] >= 0) o->vec[e] += (int32_t)rbase;
            if ((o->kind == OK_ADDR || o->kind == OK_SYM) && o->sym && in.op != OP_BRA) {
                uint8_t sp; uint64_t val;
                if (!resolve(L, &F, o->sym, &sp, &val)) {
                    const ptx_func *g = ptx_find_func(L->m, o->sym);
                    if (!g) lerr(L, in.line, in.col, "undefined symbol '%s'", o->sym);
                    if (o->kind != OK_SYM)
                        lerr(L, in.line, in.col, "function '%s' used as a memory address", o->sym);
                    o->kind = OK_IMM; o->imm += ptx_func_addr(L->m, g); o->fimm = 0; o->sym = NULL;
                    continue;
                }
                bool generic = false;
                if (o->kind == OK_ADDR) {
                    if (in.space == SP_PARAM && sp == SP_LOCAL) in.space = SP_LOCAL;
                    else if (in.space == SP_GENERIC && (sp == SP_SHARED || sp == SP_LOCAL)) generic = true;
                    else if (in.space == SP_PARAM && sp != SP_PARAM)
                        lerr(L, in.line, in.col, "'%s' is not a parameter", o->sym);
                }
                if (val == UINT64_MAX) {   /* dynamic shared: patch later */
                    if (S->ndyn >= S->dyn_cap) {
                        S->dyn_cap = S->dyn_cap ? 2 * S->dyn_cap : 8;
                        S->dyn = xrealloc(L, S->dyn, S->dyn_cap * sizeof *S->dyn);
                    }
                    S->dyn[S->ndyn++] = (dynref){ L->ncode, (uint8_t)k, generic };
                    val = 0;
                } else if (generic) {
                    val += sp == SP_SHARED ? SMC_SHARED_WINDOW : SMC_LOCAL_WINDOW;
                }
                if (sp == SP_LOCAL && L->fp >= 0) {
                    /* out of line, local memory is the frame's: the address
                     * is the frame pointer plus the offset */
                    if (o->kind == OK_ADDR) {
                        o->reg = L->fp; o->imm += val; o->sym = NULL;
                    } else if (in.op == OP_MOV && k == 1 && in.nops == 2) {
                        uint64_t off = o->imm + val;
                        in.op = OP_ADD;
                        in.type = ptx_type_size[in.type] == 8 ? PT_U64 : PT_U32;
                        memset(&in.ops[1], 0, 2 * sizeof in.ops[1]);
                        in.ops[1].kind = OK_REG; in.ops[1].reg = L->fp; in.ops[1].reg2 = -1;
                        in.ops[2].kind = OK_IMM; in.ops[2].imm = off; in.ops[2].reg = -1; in.ops[2].reg2 = -1;
                        in.nops = 3;
                    } else {
                        lerr(L, in.line, in.col, "the address of local variable '%s' is used by '%s' in '%s', which is "
                             "called out of line; only mov and memory operands may take it there",
                             o->sym, ptx_op_name[in.op], f->name);
                    }
                    continue;
                }
                if (o->kind == OK_ADDR) { o->imm += val; o->sym = NULL; }
                else { o->kind = OK_IMM; o->imm += val; o->fimm = 0; o->sym = NULL; }
            }
        }
        if (in.op == OP_RET) {
            if (mode == BODY_ENTRY) { in.op = OP_EXIT; }
            else if (mode == BODY_INLINE) {
                in.op = OP_BRA; in.nops = 0;
                myret[nret++] = L->ncode;
            }
        } else if (in.op == OP_BRA) {
            mybra[nbra++] = L->ncode;
            in.target = src->target;   /* index in f, mapped below */
            in.ops[0].sym = NULL;
        }
        emit(L, &in);
    }
    pcmap[f->ncode] = L->ncode;
    for (uint32_t i = 0; i < nbra; i++) L->code[mybra[i]].target = pcmap[L->code[mybra[i]].target];
    for (uint32_t i = 0; i < nret; i++) L->code[myret[i]].target = L->ncode;
    tmp_free(L, pcmap); tmp_free(L, mybra); tmp_free(L, myret); tmp_free(L, F.b);
    L->depth--;
}

/* ---- CFG, post-dominators ------------------------------------------------------ */
typedef struct cfg {
    uint32_t nb;               /* blocks; node nb is the virtual exit */
    uint32_t *start;           /* first pc of each block (nb+1 entries) */
    uint32_t *block_of;        /* pc -> block */
    int32_t (*succ)[2];        /* -1 none; nb = exit */
} cfg;

/* ret survives linking only in out-of-line bodies: the end of the function,
 * like exit is the end of the kernel (both lead to the virtual exit node, so
 * the post-dominators of an out-of-line body are its own). */
static bool ends_block(const ptx_insn *in) {
    return in->op == OP_BRA || in->op == OP_EXIT || in->op == OP_TRAP || in->op == OP_RET;
}

static void build_cfg(linker *L, const ptx_kernel *k, cfg *G) {
    uint32_t n = k->ncode;
    uint8_t *leader = calloc(n + 1, 1);
    G->block_of = calloc(n + 1, sizeof *G->block_of);
    if (!leader || !G->block_of) { free(leader); lerr(L, 0, 0, "out of memory"); }
    if (n) leader[0] = 1;
    for (uint32_t pc = 0; pc < n; pc++) {
        const ptx_insn *in = &k->code[pc];
        if (in->op == OP_BRA) { if (in->target < n) leader[in->target] = 1; }
        if (ends_block(in) && pc + 1 < n) leader[pc + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t pc = 0; pc < n; pc++) nb += leader[pc];
    G->nb = nb;
    G->start = calloc(nb + 1, sizeof *G->start);
    G->succ = calloc(nb + 1, sizeof *G->succ);
    if (!G->start || !G->succ) { free(leader); lerr(L, 0, 0, "out of memory"); }
    uint32_t b = 0;
    for (uint32_t pc = 0; pc < n; pc++) {
        if (leader[pc]) G->start[b++] = pc;
        G->block_of[pc] = b - 1;
    }
    G->start[nb] = n;
    G->block_of[n] = nb;
    free(leader);
    for (b = 0; b < nb; b++) {
        const ptx_insn *last = &k->code[G->start[b + 1] - 1];
        int32_t fall = (int32_t)(b + 1);     /* falling off the end = exit */
        G->succ[b][0] = G->succ[b][1] = -1;
        if (last->op == OP_BRA) {
            G->succ[b][0] = (int32_t)G->block_of[last->target];
            if (last->guard >= 0) G->succ[b][1] = fall;
        } else if (last->op == OP_EXIT || last->op == OP_TRAP || last->op == OP_RET) {
            G->succ[b][0] = (int32_t)nb;
            if (last->guard >= 0) G->succ[b][1] = fall;
        } else {
            G->succ[b][0] = fall;
        }
    }
}

static void free_cfg(cfg *G) { free(G->start); free(G->block_of); free(G->succ); }

/* Cooper-Harvey-Kennedy dominators on the reverse CFG, rooted at exit. */
static void postdominators(linker *L, const cfg *G, int32_t *ipdom) {
    uint32_t N = G->nb + 1, exitn = G->nb;
    /* predecessor lists in the CFG = successors in the reverse graph */
    uint32_t *npred = calloc(N, sizeof *npred), *poff = calloc(N + 1, sizeof *poff);
    uint32_t *order = calloc(N, sizeof *order), *po = calloc(N, sizeof *po);
    uint32_t *stack = calloc(N, sizeof *stack), *it = calloc(N, sizeof *it);
    uint32_t *preds = calloc(2 * N + 1, sizeof *preds);
    if (!npred || !poff || !order || !po || !stack || !it || !preds) {
        free(npred); free(poff); free(order); free(po); free(stack); free(it); free(preds);
        lerr(L, 0, 0, "out of memory");
    }
    for (uint32_t b = 0; b < G->nb; b++)
        for (int s = 0; s < 2; s++) if (G->succ[b][s] >= 0) npred[G->succ[b][s]]++;
    for (uint32_t v = 0; v < N; v++) poff[v + 1] = poff[v] + npred[v];
    memset(npred, 0, N * sizeof *npred);
    for (uint32_t b = 0; b < G->nb; b++)
        for (int s = 0; s < 2; s++) if (G->succ[b][s] >= 0) {
            uint32_t t = (uint32_t)G->succ[b][s];
            preds[poff[t] + npred[t]++] = b;
        }
    /* iterative DFS from exit over CFG predecessors: postorder */
    for (uint32_t v = 0; v < N; v++) { po[v] = UINT32_MAX; ipdom[v] = -1; }
    uint8_t *seen = calloc(N, 1);
    uint32_t sp = 0, cnt = 0;
    if (!seen) { lerr(L, 0, 0, "out of memory"); }
    stack[sp++] = exitn; seen[exitn] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (it[v] < npred[v]) {
            uint32_t w = preds[poff[v] + it[v]++];
            if (!seen[w]) { seen[w] = 1; stack[sp++] = w; }
        } else {
            po[v] = cnt; order[cnt++] = v; sp--;
        }
    }
    ipdom[exitn] = (int32_t)exitn;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = cnt; i-- > 0;) {
            uint32_t b = order[i];
            if (b == exitn) continue;
            int32_t nd = -1;
            for (int s = 0; s < 2; s++) {
                int32_t p = G->succ[b][s];
                if (p < 0 || ipdom[p] < 0) continue;
                if (nd < 0) { nd = p; continue; }
                int32_t a = p, c = nd;
                while (a != c) {
                    while (po[a] < po[c]) a = ipdom[a];
                    while (po[c] < po[a]) c = ipdom[c];
                }
                nd = a;
            }
            if (nd >= 0 && ipdom[b] != nd) { ipdom[b] = nd; changed = true; }
        }
    }
    free(seen); free(npred); free(poff); free(order); free(po); free(stack); free(it); free(preds);
}

/* ---- liveness and linear-scan allocation --------------------------------------- */
typedef uint64_t word;
#define WBITS 64

static void regalloc(linker *L, ptx_kernel *k, const cfg *G) {
    uint32_t R = k->nregs, W = (R + WBITS - 1) / WBITS, nb = G->nb;
    size_t bs = (size_t)nb * W;
    word *use = calloc(bs + 1, sizeof(word)), *def = calloc(bs + 1, sizeof(word));
    word *in = calloc(bs + 1, sizeof(word)), *out = calloc(bs + 1, sizeof(word));
    int64_t *lo = malloc((R + 1) * sizeof *lo), *hi = malloc((R + 1) * sizeof *hi);
    if (!use || !def || !in || !out || !lo || !hi) {
        free(use); free(def); free(in); free(out); free(lo); free(hi);
        lerr(L, 0, 0, "out of memory for register allocation (kernel too large)");
    }
    for (uint32_t r = 0; r < R; r++) { lo[r] = INT64_MAX; hi[r] = -1; }
    int32_t d[8], s[16]; uint32_t nd, ns;
    for (uint32_t b = 0; b < nb; b++) {
        word *U = use + (size_t)b * W, *D = def + (size_t)b * W;
        for (uint32_t pc = G->start[b]; pc < G->start[b + 1]; pc++) {
            const ptx_insn *x = &k->code[pc];
            ptx_insn_regs(x, d, &nd, s, &ns);
            for (uint32_t i = 0; i < ns; i++) {
                uint32_t r = (uint32_t)s[i];
                if (!(D[r / WBITS] >> (r % WBITS) & 1)) U[r / WBITS] |= (word)1 << (r % WBITS);
                if ((int64_t)pc < lo[r]) lo[r] = pc;
                if ((int64_t)pc > hi[r]) hi[r] = pc;
            }
            for (uint32_t i = 0; i < nd; i++) {
                uint32_t r = (uint32_t)d[i];
                if (x->guard < 0) D[r / WBITS] |= (word)1 << (r % WBITS);
                if ((int64_t)pc < lo[r]) lo[r] = pc;
                if ((int64_t)pc > hi[r]) hi[r] = pc;
            }
        }
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            word *O = out + (size_t)b * W, *I = in + (size_t)b * W;
            for (int t = 0; t < 2; t++) {
                int32_t sb = G->succ[b][t];
                if (sb < 0 || (uint32_t)sb >= nb) continue;
                word *SI = in + (size_t)sb * W;
                for (uint32_t w = 0; w < W; w++) O[w] |= SI[w];
            }
            const word *U = use + (size_t)b * W, *D = def + (size_t)b * W;
            for (uint32_t w = 0; w < W; w++) {
                word v = U[w] | (O[w] & ~D[w]);
                if (v != I[w]) { I[w] = v; changed = true; }
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++) {
        const word *I = in + (size_t)b * W, *O = out + (size_t)b * W;
        for (uint32_t w = 0; w < W; w++) {
            for (word v = I[w]; v; v &= v - 1) {
                uint32_t r = w * WBITS + (uint32_t)__builtin_ctzll(v);
                if ((int64_t)G->start[b] < lo[r]) lo[r] = G->start[b];
            }
            for (word v = O[w]; v; v &= v - 1) {
                uint32_t r = w * WBITS + (uint32_t)__builtin_ctzll(v);
                int64_t e = (int64_t)G->start[b + 1] - 1;
                if (e > hi[r]) hi[r] = e;
            }
        }
    }
    /* values live into the entry block are read before written: they still get a register */
    free(use); free(def); free(in); free(out);

    /* linear scan: intervals sorted by start */
    uint32_t *ord = malloc((R + 1) * sizeof *ord);
    if (!ord) { free(lo); free(hi); lerr(L, 0, 0, "out of memory"); }
    uint32_t n = 0;
    for (uint32_t r = 0; r < R; r++) { k->phys[r] = PTX_NO_PHYS; if (hi[r] >= 0) ord[n++] = r; }
    /* insertion sort would be quadratic; use qsort on (lo, r) */
    {
        int64_t *key = malloc((n + 1) * sizeof *key);
        if (!key) { free(ord); free(lo); free(hi); lerr(L, 0, 0, "out of memory"); }
        /* counting order by lo: lo < ncode */
        uint32_t *cnt = calloc(k->ncode + 2, sizeof *cnt);
        uint32_t *tmp = malloc((n + 1) * sizeof *tmp);
        if (!cnt || !tmp) { free(key); free(cnt); free(tmp); free(ord); free(lo); free(hi); lerr(L, 0, 0, "out of memory"); }
        for (uint32_t i = 0; i < n; i++) cnt[lo[ord[i]] + 1]++;
        for (uint32_t i = 0; i < k->ncode + 1; i++) cnt[i + 1] += cnt[i];
        for (uint32_t i = 0; i < n; i++) tmp[cnt[lo[ord[i]]]++] = ord[i];
        memcpy(ord, tmp, n * sizeof *ord);
        free(key); free(cnt); free(tmp);
    }
    int64_t busy_until[PTX_MAX_PHYS_REGS + 1];     /* last pc of the interval holding the reg */
    int64_t pbusy[PTX_MAX_PRED_REGS];
    for (int i = 0; i <= PTX_MAX_PHYS_REGS; i++) busy_until[i] = -1;
    for (int i = 0; i < PTX_MAX_PRED_REGS; i++) pbusy[i] = -1;
    uint32_t maxreg = 0, maxpred = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = ord[i];
        int64_t a = lo[r], e = hi[r];
        uint8_t t = k->reg_type[r];
        if (t == PT_PRED) {
            int p;
            for (p = 0; p < PTX_MAX_PRED_REGS; p++) if (pbusy[p] < a) break;
            if (p == PTX_MAX_PRED_REGS) {
                free(ord); free(lo); free(hi);
                lerr(L, k->code[a].line, k->code[a].col, "more than %d predicates live at once in kernel '%s'", PTX_MAX_PRED_REGS, k->name);
            }
            pbusy[p] = e; k->phys[r] = (uint16_t)p;
            if ((uint32_t)p + 1 > maxpred) maxpred = (uint32_t)p + 1;
            continue;
        }
        bool wide = ptx_type_size[t] == 8;
        int p;
        if (wide) {
            for (p = 0; p + 1 < PTX_MAX_PHYS_REGS; p += 2) if (busy_until[p] < a && busy_until[p + 1] < a) break;
            if (p + 1 >= PTX_MAX_PHYS_REGS) p = PTX_MAX_PHYS_REGS;
        } else {
            for (p = 0; p < PTX_MAX_PHYS_REGS; p++) if (busy_until[p] < a) break;
        }
        if (p >= PTX_MAX_PHYS_REGS) {
            free(ord); free(lo); free(hi);
            lerr(L, k->code[a].line, k->code[a].col, "register pressure exceeds %d 32-bit registers per thread in kernel '%s' (spilling is not implemented)",
                 PTX_MAX_PHYS_REGS, k->name);
        }
        busy_until[p] = e;
        if (wide) busy_until[p + 1] = e;
        k->phys[r] = (uint16_t)p;
        uint32_t top = (uint32_t)p + (wide ? 2 : 1);
        if (top > maxreg) maxreg = top;
    }
    free(ord); free(lo); free(hi);
    k->regs_per_thread = maxreg;
    k->pred_regs = maxpred;
}

/* ---- out-of-line bodies --------------------------------------------------------- */
static bool names_function(const linker *L, const char *sym) { return sym && ptx_find_func(L->m, sym); }

/* An indirect call may reach any function whose address the module takes
 * (in an initializer or an instruction of any function): request them all. */
static void request_address_taken(linker *L) {
    const ptx_module *m = L->m;
    uint8_t *taken = tmp_calloc(L, m->nfuncs + 1, 1);
    for (uint32_t i = 0; i < m->nvars; i++)
        for (uint32_t r = 0; r < m->vars[i].nrelocs; r++) {
            const ptx_func *g = ptx_find_func(m, m->vars[i].relocs[r].sym);
            if (g) taken[func_index(L, g)] = 1;
        }
    for (uint32_t i = 0; i < m->nfuncs; i++)
        for (uint32_t pc = 0; pc < m->funcs[i].ncode; pc++) {
            const ptx_insn *in = &m->funcs[i].code[pc];
            if (in->op == OP_CALL || in->op == OP_BRA) continue;
            for (uint32_t k = 0; k < in->nops; k++)
                if (in->ops[k].kind == OK_SYM && names_function(L, in->ops[k].sym))
                    taken[func_index(L, ptx_find_func(m, in->ops[k].sym))] = 1;
        }
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (taken[i] && m->funcs[i].has_body && !m->funcs[i].is_entry)
            request_outline(L, &m->funcs[i], m->funcs[i].line, 1);
    tmp_free(L, taken);
}

/* Emit the out-of-line body of kf[i]: a frame-pointer register, the formals
 * at the start of the frame, the body (calls in it inlined as usual), and a
 * ret in case the body falls off its end. */
static void emit_outline(linker *L, linkstate *S, uint32_t i) {
    const ptx_func *g = &L->m->funcs[L->kf[i].module_index];
    uint32_t n = g->nparams + g->nrets;
    uint32_t *off = ptx_arena_alloc(L->arena, (n + 1) * sizeof *off);
    uint32_t *size = ptx_arena_alloc(L->arena, (n + 1) * sizeof *size);
    if (!off || !size) lerr(L, g->line, 1, "out of memory");
    binding *fb = tmp_calloc(L, n + 1, sizeof *fb);
    uint64_t top = 0;
    for (uint32_t k = 0; k < n; k++) {
        const ptx_var *formal = k < g->nparams ? &g->params[k] : &g->rets[k - g->nparams];
        top = align_up(top, formal->align ? formal->align : 1);
        fb[k] = (binding){ formal->name, SP_LOCAL, top, formal->size };
        off[k] = (uint32_t)top; size[k] = (uint32_t)formal->size;
        top += formal->size;
        if (top > PTX_CALL_STACK_BYTES) lerr(L, formal->line, 1, "parameters of '%s' exceed the call stack", g->name);
    }
    /* the frame pointer: a virtual register of its own that the call sets */
    if (L->nregs + 1 > L->reg_cap) {
        L->reg_cap = (L->nregs + 1) * 2;
        L->rtype = xrealloc(L, L->rtype, L->reg_cap);
    }
    int32_t fp = (int32_t)L->nregs;
    L->rtype[L->nregs++] = PT_B64;
    L->fp = fp;
    L->local_top = top;
    uint32_t entry = L->ncode;
    inline_func(L, S, g, fb, n, BODY_OUTLINE);
    ptx_insn r; memset(&r, 0, sizeof r);
    r.op = OP_RET; r.guard = -1; r.vec = 1;
    r.line = L->code[L->ncode - 1].line;
    emit(L, &r);
    uint64_t frame = align_up(L->local_top < PTX_MIN_FRAME ? PTX_MIN_FRAME : L->local_top, 16);
    if (frame > PTX_CALL_STACK_BYTES)
        lerr(L, g->line, 1, "the frame of '%s' (%llu bytes) exceeds the call stack of %u bytes per thread",
             g->name, (unsigned long long)frame, PTX_CALL_STACK_BYTES);
    ptx_kfunc *K = &L->kf[i];       /* (inline_func may have grown kf) */
    K->entry = entry;
    K->vreg_base = (uint32_t)fp; K->nvregs = L->nregs - (uint32_t)fp;
    K->fp = fp;
    K->frame_bytes = (uint32_t)frame;
    K->nargs = g->nparams; K->nrets = g->nrets;
    K->arg_off = off; K->arg_size = size;
    L->fp = -1;
    tmp_free(L, fb);
}

uint64_t ptx_func_addr(const ptx_module *m, const ptx_func *f) {
    return SMC_CODE_WINDOW + SMC_CODE_ALIGN * ((uint64_t)(f - m->funcs) + 1);
}

int ptx_var_init(const ptx_module *m, const ptx_var *v, ptx_var_addr_fn addr, void *ctx,
                 uint8_t *dst, char *err, size_t errlen) {
    if (!v->has_init) { memset(dst, 0, v->size); return 0; }
    memcpy(dst, v->init, v->size);
    for (uint32_t i = 0; i < v->nrelocs; i++) {
        const ptx_reloc *r = &v->relocs[i];
        const ptx_var *t = ptx_find_var(m, r->sym);
        const ptx_func *f = ptx_find_func(m, r->sym);
        uint64_t a;
        if (t && (t->space == SP_GLOBAL || t->space == SP_CONST)) a = addr(ctx, t);
        else if (f) a = ptx_func_addr(m, f);
        else {
            snprintf(err, errlen, "%s:%u:%u: error: the initializer of '%s' takes the address of '%s', "
                     "which is not a .global/.const variable or a function of the module",
                     m->name, r->line, r->col, v->name, r->sym);
            return -1;
        }
        a += (uint64_t)r->addend;
        if (r->mask) a = (a & r->mask) >> __builtin_ctzll(r->mask);
        for (uint32_t b = 0; b < r->size; b++) dst[r->offset + b] = (uint8_t)(a >> (8 * b));
    }
    return 0;
}

/* ---- entry point ------------------------------------------------------------- */
ptx_kernel *ptx_link(const ptx_module *m, const ptx_func *entry, ptx_var_addr_fn addr,
                     void *ctx, char *err, size_t errlen) {
    char dummy[4];
    if (!err || !errlen) { err = dummy; errlen = sizeof dummy; }
    err[0] = 0;
    linker L0; memset(&L0, 0, sizeof L0);
    linker *L = &L0;
    L->m = m; L->err = err; L->errlen = errlen; L->addr = addr; L->ctx = ctx;
    L->fp = -1;
    linkstate S = { 0 };
    cfg G = { 0 };
    ptx_arena *a = ptx_arena_new();
    if (!a) { snprintf(err, errlen, "out of memory"); return NULL; }
    if (setjmp(L->fail)) {
        free(L->code); free(L->rtype); free(L->smap); free(S.dyn); free(L->ipdom); free(L->kf); free(L->cs);
        for (uint32_t i = 0; i < L->ntmp; i++) free(L->tmp[i]);
        free_cfg(&G);
        ptx_arena_free(a);
        return NULL;
    }
    if (!entry->is_entry) lerr(L, entry->line, 1, "'%s' is not a kernel (.entry)", entry->name);
    L->arena = a;
    ptx_kernel *k = ptx_arena_alloc(a, sizeof *k);
    L->kfunc_of = ptx_arena_alloc(a, (m->nfuncs + 1) * sizeof *L->kfunc_of);
    if (!k || !L->kfunc_of) lerr(L, 0, 0, "out of memory");
    for (uint32_t i = 0; i < m->nfuncs; i++) L->kfunc_of[i] = -1;
    k->arena = a;
    k->name = ptx_arena_strndup(a, entry->name, strlen(entry->name));
    /* kernel parameters */
    k->nparams = entry->nparams;
    k->params = ptx_arena_alloc(a, (entry->nparams + 1) * sizeof *k->params);
    binding *formals = tmp_calloc(L, entry->nparams + 1, sizeof *formals);
    uint64_t off = 0;
    for (uint32_t i = 0; i < entry->nparams; i++) {
        const ptx_var *p = &entry->params[i];
        off = align_up(off, p->align);
        k->params[i].name = p->name; k->params[i].offset = (uint32_t)off;
        k->params[i].size = (uint32_t)p->size; k->params[i].align = p->align;
        formals[i].name = p->name; formals[i].space = SP_PARAM; formals[i].value = off; formals[i].size = p->size;
        off += p->size;
        if (off > 32764) { lerr(L, p->line, 1, "kernel parameters exceed 32764 bytes"); }
    }
    k->param_bytes = (uint32_t)off;
    inline_func(L, &S, entry, formals, entry->nparams, BODY_ENTRY);
    tmp_free(L, formals);
    /* a kernel that falls off its end exits */
    ptx_insn ex; memset(&ex, 0, sizeof ex);
    ex.op = OP_EXIT; ex.guard = -1; ex.vec = 1;
    ex.line = L->ncode ? L->code[L->ncode - 1].line : entry->line;
    emit(L, &ex);
    /* out-of-line bodies after the kernel's code (each may request more) */
    uint64_t kernel_local = L->local_top;
    for (uint32_t i = 0;; i++) {
        if (L->indirect && !L->all_targets) { L->all_targets = true; request_address_taken(L); }
        if (i >= L->nkf) break;
        emit_outline(L, &S, i);
    }
    L->local_top = kernel_local;
    k->nfuncs = L->nkf;
    k->funcs = ptx_arena_alloc(a, (L->nkf + 1) * sizeof *k->funcs);
    k->ncalls = L->ncs;
    k->calls = ptx_arena_alloc(a, (L->ncs + 1) * sizeof *k->calls);
    if (!k->funcs || !k->calls) lerr(L, 0, 0, "out of memory");
    if (L->nkf) memcpy(k->funcs, L->kf, L->nkf * sizeof *k->funcs);
    if (L->ncs) memcpy(k->calls, L->cs, L->ncs * sizeof *k->calls);
    k->kfunc_of = L->kfunc_of; k->nmodule_funcs = m->nfuncs;
    k->stack_bytes = L->nkf ? PTX_CALL_STACK_BYTES : 0;
    /* dynamic shared memory after the static part */
    uint64_t dyn_base = align_up(L->smem_top, 16);
    for (uint32_t i = 0; i < S.ndyn; i++) {
        ptx_operand *o = &L->code[S.dyn[i].pc].ops[S.dyn[i].opi];
        o->imm += dyn_base + (S.dyn[i].generic ? SMC_SHARED_WINDOW : 0);
    }
    /* A CTA's shared memory ends where the dynamic part starts: the static
     * size includes the padding up to dyn_base when the kernel uses dynamic
     * shared memory, so that every user of static + dynamic (the CTA's
     * allocation, the launch limit, occupancy) covers the whole layout.
     * (ptxas would report the unpadded size; the difference is < 16 bytes.) */
    k->static_smem = (uint32_t)(S.ndyn ? dyn_base : L->smem_top);
    k->local_bytes = (uint32_t)align_up(L->local_top, 8);
    for (uint32_t i = 0; i < m->nvars; i++) if (m->vars[i].space == SP_CONST) L->const_bytes += (uint32_t)m->vars[i].size;
    k->const_bytes = L->const_bytes;
    memcpy(k->maxntid, entry->maxntid, sizeof k->maxntid);
    memcpy(k->reqntid, entry->reqntid, sizeof k->reqntid);
    k->minnctapersm = entry->minnctapersm;

    k->ncode = L->ncode;
    k->code = ptx_arena_alloc(a, (size_t)L->ncode * sizeof *k->code);
    memcpy(k->code, L->code, (size_t)L->ncode * sizeof *k->code);
    k->nregs = L->nregs;
    k->reg_type = ptx_arena_alloc(a, L->nregs + 1);
    if (L->nregs) memcpy(k->reg_type, L->rtype, L->nregs);
    k->phys = ptx_arena_alloc(a, (L->nregs + 1) * sizeof *k->phys);
    k->reconv = ptx_arena_alloc(a, (L->ncode + 1) * sizeof *k->reconv);
    if (!k->code || !k->reg_type || !k->phys || !k->reconv) lerr(L, 0, 0, "out of memory");

    /* operand sanity: destination kinds */
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const ptx_insn *x = &k->code[pc];
        if (x->op == OP_BRA && x->target > k->ncode) lerr(L, x->line, x->col, "bad branch target");
    }
    build_cfg(L, k, &G);
    L->ipdom = calloc(G.nb + 1, sizeof *L->ipdom);
    if (!L->ipdom) lerr(L, 0, 0, "out of memory");
    int32_t *ipdom = L->ipdom;
    postdominators(L, &G, ipdom);
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        uint32_t b = G.block_of[pc];
        int32_t p = ipdom[b];
        k->reconv[pc] = (p < 0 || (uint32_t)p >= G.nb) ? PTX_NO_PC : G.start[p];
    }
    regalloc(L, k, &G);
    free(ipdom); L->ipdom = NULL; free_cfg(&G);
    free(L->code); free(L->rtype); free(L->smap); free(S.dyn); free(L->kf); free(L->cs);
    return k;
}

void ptx_kernel_free(ptx_kernel *k) { if (k) ptx_arena_free(k->arena); }
