/*
 * verify_regalloc.c — the register-allocation verifier (launch option
 * verify_regalloc): an owner table per physical register and lane records
 * which virtual register wrote it last; a source whose physical register
 * holds another virtual register's value is a fault naming both.
 */
#include "exec_internal.h"

#include <stdio.h>

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
