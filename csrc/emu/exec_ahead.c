/*
 * exec_ahead.c — HAWS execution ahead of order (emu.h; docs/haws.md
 * "Emulator"): an instruction executed before the warp reaches it, its
 * destination possibly renamed to a pool register, logged until in-order
 * execution skips or commits it.
 */
#include "exec_internal.h"

#include <stdlib.h>

/* Control instructions: never executed ahead (refused_ahead). */
static bool is_control(const ptx_insn *in) {
    switch (in->op) {
    case OP_BRA: case OP_EXIT: case OP_RET: case OP_BAR: case OP_BARRIER: case OP_TRAP: case OP_BRKPT:
        return true;
    default:   /* an out-of-line call, or assert (it may end the launch) */
        return in->op == OP_CALL && (in->mode == MD_NONE || in->mode == MD_ASSERTFAIL);
    }
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
