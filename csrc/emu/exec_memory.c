/*
 * exec_memory.c — data movement and memory: the translation of guest
 * addresses (address map and faults: docs/emulator.md), mov (with vector
 * pack/unpack), cvta, isspacep, ld/ldu/st, atom/red.
 */
#include "exec_internal.h"

/* ---- memory ------------------------------------------------------------------ */
/* Translate a guest address; NULL after recording a fault. */
void *emu_xlate(const ctx *X, int lane, uint8_t space, uint64_t addr, uint32_t size,
                bool write, uint8_t *resolved) {
    emu_cta *c = X->c;
    emu_launch *l = c->l;
    const char *acc = write ? "store" : "load";
    if (size > 1 && (addr & (size - 1))) {
        emu_fault(c, X->wi, lane, X->pc, SMC_ERR_MISALIGNED_ADDRESS, addr,
              "misaligned %u-byte %s %s at 0x%llx", size, ptx_space_name[space], acc, (unsigned long long)addr);
        return NULL;
    }
    if (space == SP_GENERIC) {
        if (addr - SMC_SHARED_WINDOW < SMC_WINDOW_SIZE) { space = SP_SHARED; addr -= SMC_SHARED_WINDOW; }
        else if (addr - SMC_LOCAL_WINDOW < SMC_WINDOW_SIZE) { space = SP_LOCAL; addr -= SMC_LOCAL_WINDOW; }
        else space = SP_GLOBAL;
    }
    if (resolved) *resolved = space;
    switch (space) {
    case SP_GLOBAL: case SP_CONST:
        if (write && space == SP_CONST) break;
        if (devmem_find(l->d.mem, addr, size) >= 0) return (void *)(uintptr_t)addr;
        break;
    case SP_SHARED:
        if (addr < c->smem_size && size <= c->smem_size - addr) return c->smem + addr;
        break;
    case SP_LOCAL:
        if (addr < c->local_size && size <= c->local_size - addr)
            return c->local + (size_t)(X->wi * 32 + (uint32_t)lane) * c->local_size + addr;
        break;
    case SP_PARAM:
        if (!write && addr < l->k->param_bytes && size <= l->k->param_bytes - addr) return l->params + addr;
        break;
    }
    emu_fault(c, X->wi, lane, X->pc, SMC_ERR_ILLEGAL_ADDRESS, addr, "illegal %u-byte %s %s at 0x%llx",
          size, ptx_space_name[space], acc, (unsigned long long)addr);
    return NULL;
}

int exec_mov(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *d = &in->ops[0], *s = &in->ops[1];
    if (d->kind == OK_VEC) {                  /* unpack: mov.b64 {a,b}, %rd */
        unsigned eb = tbits(in->type) / d->nvec;
        LANES(act) {
            uint64_t v = val(X, s, (int)lane);
            for (unsigned i = 0; i < d->nvec; i++) wr(X, d->vec[i], (int)lane, (v >> (i * eb)) & zmask(eb));
        }
        return EMU_OK;
    }
    if (s->kind == OK_VEC) {                  /* pack */
        unsigned eb = tbits(in->type) / s->nvec;
        LANES(act) {
            uint64_t v = 0;
            for (unsigned i = 0; i < s->nvec; i++)
                if (s->vec[i] >= 0) v |= (X->w->regs[(size_t)s->vec[i] * 32 + lane] & zmask(eb)) << (i * eb);
            wr(X, d->reg, (int)lane, v);
        }
        return EMU_OK;
    }
    LANES(act) wr(X, d->reg, (int)lane, val(X, s, (int)lane));
    return EMU_OK;
}

int exec_cvta(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    uint64_t base = in->space == SP_SHARED ? SMC_SHARED_WINDOW : in->space == SP_LOCAL ? SMC_LOCAL_WINDOW : 0;
    if (in->space == SP_PARAM || in->space == SP_CONST)
        return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "cvta.%s is not supported", ptx_space_name[in->space]);
    LANES(act) {
        uint64_t a = val(X, &in->ops[1], (int)lane);
        uint64_t r = in->mode == MD_TO ? a - base : a + base;
        if (in->mode == MD_TO && base && a - base >= SMC_WINDOW_SIZE) r = a;   /* not in the window: keep */
        wr(X, in->ops[0].reg, (int)lane, r);
    }
    return EMU_OK;
}

int exec_isspacep(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    LANES(act) {
        uint64_t a = val(X, &in->ops[1], (int)lane);
        bool sh = a - SMC_SHARED_WINDOW < SMC_WINDOW_SIZE, lo = a - SMC_LOCAL_WINDOW < SMC_WINDOW_SIZE;
        bool r = in->space == SP_SHARED ? sh : in->space == SP_LOCAL ? lo : !sh && !lo;
        wr(X, in->ops[0].reg, (int)lane, r);
    }
    return EMU_OK;
}

int exec_ldst(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    bool st = in->op == OP_ST;
    const ptx_operand *ao = st ? &in->ops[0] : &in->ops[1];
    const ptx_operand *vo = st ? &in->ops[1] : &in->ops[0];
    uint32_t es = ptx_type_size[in->type], n = in->vec;
    if (ao->kind != OK_ADDR) return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s needs an address operand", ptx_op_name[in->op]);
    if (X->out) X->out->access_size = (uint8_t)(es * n);
    LANES(act) {
        uint64_t a = addr_of(X, ao, (int)lane);
        uint8_t sp = in->space;
        uint8_t *p = emu_xlate(X, (int)lane, sp, a, es * n, st, &sp);
        if (!p) return EMU_FAULT;
        if (X->out) { X->out->addr[lane] = a; X->out->mem_space = sp; }
        for (uint32_t i = 0; i < n; i++) {
            int32_t r = vo->kind == OK_VEC ? vo->vec[i] : vo->reg;
            if (st) {
                uint64_t v = vo->kind == OK_VEC ? (r >= 0 ? X->w->regs[(size_t)r * 32 + lane] : 0) : val(X, vo, (int)lane);
                store_bytes(p + i * es, v, es);
            } else if (r >= 0) {
                wr(X, r, (int)lane, ext_load(load_bytes(p + i * es, es), in->type));
            }
        }
    }
    return EMU_OK;
}

int exec_atom(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    bool red = in->op == OP_RED;
    const ptx_operand *ao = red ? &in->ops[0] : &in->ops[1];
    const ptx_operand *bo = red ? &in->ops[1] : &in->ops[2];
    const ptx_operand *co = red ? NULL : (in->nops > 3 ? &in->ops[3] : NULL);
    uint8_t t = in->type;
    uint32_t es = ptx_type_size[t];
    unsigned bits = es * 8;
    bool sgn = ptx_type_class[t] == TC_SINT, fl = ptx_type_class[t] == TC_FLOAT;
    /* 16-bit atomics: cas.b16 (atomicCAS on unsigned short) and add.f16;
     * add.f16x2 adds each half (atomicAdd on __half / __half2; the PTX's
     * .noftz is what f16 atomics always do: no flush) */
    bool half = t == PT_F16 || t == PT_F16X2;
    bool ok16 = es == 2 && (in->mode == MD_CAS || (in->mode == MD_ADD && t == PT_F16) ||
                            in->mode == MD_EXCH);
    if ((es != 4 && es != 8 && !ok16) || (half && in->mode != MD_ADD))
        return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "%s.%s is not supported", ptx_op_name[in->op], ptx_type_name[t]);
    if (in->mode == MD_CAS && !co) return emu_fault(X->c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "atom.cas needs 4 operands");
    if (X->out) X->out->access_size = (uint8_t)es;
    LANES(act) {                      /* lanes in order: deterministic */
        uint64_t a = addr_of(X, ao, (int)lane);
        uint8_t sp = in->space;
        uint8_t *p = emu_xlate(X, (int)lane, sp, a, es, true, &sp);
        if (!p) return EMU_FAULT;
        if (X->out) { X->out->addr[lane] = a; X->out->mem_space = sp; }
        uint64_t old = load_bytes(p, es), b = val(X, bo, (int)lane) & zmask(bits), r = old;
        switch (in->mode) {
        case MD_ADD:
            if (half) {   /* per half: exact sum in double, one rounding */
                r = 0;
                for (unsigned h = 0; h < es / 2; h++) {
                    uint16_t x = (uint16_t)(old >> (16 * h)), y = (uint16_t)(b >> (16 * h));
                    uint16_t z = emu_f16_round((double)emu_f16_to_float(x) + (double)emu_f16_to_float(y), RND_RN);
                    r |= (uint64_t)z << (16 * h);
                }
                break;
            }
            /* .f32 on global memory flushes subnormal inputs and the result
             * to a signed zero (PTX ISA); on shared memory it does not */
            if (fl && es == 4 && sp == SP_GLOBAL) r = bf32(ftz32(ftz32(f32(old)) + ftz32(f32(b))));
            else if (fl) r = es == 4 ? bf32(f32(old) + f32(b)) : bf64(f64(old) + f64(b));
            else r = old + b;
            break;
        case MD_MIN:
            if (fl) r = es == 4 ? bf32(fminf(f32(old), f32(b))) : bf64(fmin(f64(old), f64(b)));
            else r = sgn ? (sext(old, bits) < sext(b, bits) ? old : b) : (old < b ? old : b);
            break;
        case MD_MAX:
            if (fl) r = es == 4 ? bf32(fmaxf(f32(old), f32(b))) : bf64(fmax(f64(old), f64(b)));
            else r = sgn ? (sext(old, bits) > sext(b, bits) ? old : b) : (old > b ? old : b);
            break;
        case MD_INC: r = old >= b ? 0 : old + 1; break;
        case MD_DEC: r = (old == 0 || old > b) ? b : old - 1; break;
        case MD_AND: r = old & b; break;
        case MD_OR: r = old | b; break;
        case MD_XOR: r = old ^ b; break;
        case MD_EXCH: r = b; break;
        case MD_CAS: r = old == b ? (val(X, co, (int)lane) & zmask(bits)) : old; break;
        default:
            return emu_fault(X->c, X->wi, (int)lane, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "unsupported atomic operation");
        }
        store_bytes(p, r, es);
        if (!red) wr(X, in->ops[0].reg, (int)lane, old);
    }
    return EMU_OK;
}
