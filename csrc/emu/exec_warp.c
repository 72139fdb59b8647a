/*
 * exec_warp.c — warp-level and CTA-level communication: shfl, vote, match,
 * activemask, and the barriers (bar/barrier .sync/.arrive/.red, barrier
 * release, deadlock detection). docs/emulator.md "Barriers".
 */
#include "exec_internal.h"

/* Release a barrier when every live warp has arrived (or the count is met). */
void emu_barrier_check(emu_cta *c, uint32_t id) {
    barrier *b = &c->bar[id];
    bool done = b->expected ? b->arrived_threads >= b->expected : b->arrived_warps >= c->live_warps;
    if (!done) return;
    uint64_t result = b->red_kind == MD_POPC ? b->popc : b->red_kind == MD_AND ? b->red_and : b->red_or;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        warp *w = &c->w[i];
        if (w->state != W_BAR || w->bar_id != id) continue;
        w->state = W_RUN;
        if (w->bar_dst >= 0) {
            uint64_t m = c->l->ek->rmask[w->bar_dst];
            LANES(w->bar_dst_mask) w->regs[(size_t)w->bar_dst * 32 + lane] = result & m;
            w->bar_dst = -1;
        }
    }
    memset(b, 0, sizeof *b);
    c->l->progress++;                  /* a barrier completing is progress */
}

/* A CTA in which no warp can run (each is at a barrier or has exited) while
 * some warp waits at a barrier that did not complete can never move again:
 * only its own warps could arrive at its barriers or exit. Report it the
 * moment it happens — the same in both modes — blamed on the first waiting
 * warp, at its barrier, lowest live lane. EMU_OK when the CTA can go on. */
int emu_deadlock_check(emu_cta *c) {
    uint32_t w0 = UINT32_MAX;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        if (c->w[i].state == W_RUN) return EMU_OK;
        if (c->w[i].state == W_BAR && w0 == UINT32_MAX) w0 = i;
    }
    if (w0 == UINT32_MAX) return EMU_OK;            /* every warp exited */
    const warp *w = &c->w[w0];
    uint32_t live = w->valid & ~w->exited;
    return emu_fault(c, w0, live ? __builtin_ctz(live) : 0, w->bar_pc, SMC_ERR_LAUNCH_TIMEOUT, 0,
                 "deadlock: every live warp of the CTA waits at a barrier that cannot complete");
}

/* shfl.sync: source lane j and predicate p as in the PTX pseudocode (p false:
 * own value). The member mask only synchronises. A source lane that does not
 * execute this shfl (diverged, exited, beyond the block, guarded off) gives 0,
 * as NVIDIA GPUs are reported to; an active lane outside the mask gives its
 * value (docs/isa-coverage.md, "Shuffle sources that do not execute"). */
int exec_shfl(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    uint64_t src[32] = { 0 };
    LANES(act) src[lane] = val(X, &o[1], (int)lane);
    uint64_t res[32]; uint8_t pv[32];
    LANES(act) {
        int32_t b = (int32_t)(val(X, &o[2], (int)lane) & 31);   /* b[4:0] */
        uint32_t c = (uint32_t)val(X, &o[3], (int)lane);
        int32_t cval = (int32_t)(c & 0x1f), seg = (int32_t)((c >> 8) & 0x1f);
        int32_t l = (int32_t)lane;
        int32_t maxl = (l & seg) | (cval & ~seg), minl = l & seg;
        int32_t j; bool p;
        switch (in->mode) {
        case MD_UP: j = l - b; p = j >= maxl; break;
        case MD_DOWN: j = l + b; p = j <= maxl; break;
        case MD_BFLY: j = l ^ b; p = j <= maxl; break;
        default: j = minl | (b & ~seg); p = j <= maxl; break;
        }
        if (!p || j < 0 || j > 31) j = l;
        res[lane] = src[j]; pv[lane] = p;
    }
    LANES(act) {
        wr(X, o[0].reg, (int)lane, res[lane]);
        if (o[0].reg2 >= 0) wr(X, o[0].reg2, (int)lane, pv[lane]);
    }
    return EMU_OK;
}

/* vote{.sync}: with .sync each lane's result is over the lanes named in its
 * own membermask (o[2]; lanes of a tiled partition pass different masks),
 * restricted to the lanes executing the instruction; without, over the
 * active lanes. A ballot only has bits of member lanes. */
int exec_vote(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    uint32_t ballot = 0;
    LANES(act) if (val(X, &o[1], (int)lane) & 1) ballot |= 1u << lane;
    LANES(act) {
        uint32_t m = act & (in->nops > 2 ? (uint32_t)val(X, &o[2], (int)lane) : 0xffffffffu);
        uint32_t b = ballot & m;
        uint64_t r;
        switch (in->mode) {
        case MD_ALL: r = b == m; break;
        case MD_ANY: r = b != 0; break;
        case MD_UNI: r = b == 0 || b == m; break;
        default: r = b; break;
        }
        wr(X, o[0].reg, (int)lane, r);
    }
    return EMU_OK;
}

/* match.any.sync / match.all.sync (PTX ISA 9.7.13.6), .b32 or .b64:
 *   any: d = the lanes of the member mask whose value equals this lane's;
 *   all: d = the member mask and p = 1 when all member lanes hold the same
 *        value, else d = 0 and p = 0 (`d|p`).
 * Member lanes that are not active (undefined in PTX) are left out. */
int exec_match(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    const ptx_operand *o = in->ops;
    uint64_t mask = in->type == PT_B64 || in->type == PT_U64 || in->type == PT_S64 ? ~0ull : 0xffffffffull;
    uint64_t v[32];
    LANES(act) v[lane] = val(X, &o[1], (int)lane) & mask;
    LANES(act) {
        uint32_t m = act & (uint32_t)val(X, &o[2], (int)lane);
        uint32_t same = 0;
        for (uint32_t l = 0; l < 32; l++)
            if ((m >> l & 1) && v[l] == v[lane]) same |= 1u << l;
        if (in->mode == MD_ANY) {
            wr(X, o[0].reg, (int)lane, same);
        } else {
            int all = same == m;
            wr(X, o[0].reg, (int)lane, all ? m : 0);
            if (o[0].reg2 >= 0) wr(X, o[0].reg2, (int)lane, (uint64_t)all);
        }
    }
    return EMU_OK;
}

/* activemask: the lanes executing it (guard or not: mask). */
int exec_activemask(ctx *X, uint32_t act, uint32_t mask) {
    LANES(act) wr(X, X->in->ops[0].reg, (int)lane, mask);
    return EMU_OK;
}
/* bar.sync / bar.arrive / bar.red / barrier.sync */
int exec_bar(ctx *X, uint32_t act) {
    const ptx_insn *in = X->in;
    emu_cta *c = X->c;
    warp *w = X->w;
    if (in->flags & F_WRAP) return EMU_OK;          /* bar.warp.sync: warps run in lockstep */
    bool red = in->mode == MD_RED;
    const ptx_operand *o = in->ops + (red ? 1 : 0);
    uint32_t nrest = in->nops - (red ? 1u : 0u);
    if (nrest < 1) return emu_fault(c, X->wi, -1, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "barrier needs an id");
    uint32_t lane0 = (uint32_t)__builtin_ctz(act ? act : 1);
    uint64_t id = val(X, &o[0], (int)lane0);
    if (id >= 16) return emu_fault(c, X->wi, (int)lane0, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "barrier id %llu out of range 0..15", (unsigned long long)id);
    /* Warp-granular arrival, as the PTX ISA defines it for sm_6x and below:
     * when any thread of a warp executes the barrier, all (non-exited) threads
     * of the warp count as arrived. Lanes parked at a reconvergence point
     * (the usual `if (i >= n) return; ... __syncthreads()`) therefore do not
     * block the CTA. */
    uint32_t live = w->valid & ~w->exited;
    if (!act) return EMU_OK;                        /* guarded off in every lane */
    barrier *b = &c->bar[id];
    uint32_t expected = 0;
    if ((red && nrest == 3) || (!red && nrest == 2)) {
        expected = (uint32_t)val(X, &o[1], (int)lane0);
        if (expected % 32 || expected == 0)
            return emu_fault(c, X->wi, (int)lane0, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "barrier thread count %u is not a non-zero multiple of 32", expected);
    }
    if (b->arrived_warps && b->expected != expected)
        return emu_fault(c, X->wi, (int)lane0, X->pc, SMC_ERR_ILLEGAL_INSTRUCTION, 0, "barrier %llu used with different thread counts", (unsigned long long)id);
    b->expected = expected;
    b->arrived_warps++;
    b->arrived_threads += (uint32_t)__builtin_popcount(live);
    if (red) {
        const ptx_operand *po = &o[nrest - 1];
        uint32_t pm = 0;
        LANES(act) if (val(X, po, (int)lane) & 1) pm |= 1u << lane;
        if (b->arrived_warps == 1) { b->red_and = 1; b->red_or = 0; b->popc = 0; b->red_kind = in->boolop; }
        b->popc += (uint32_t)__builtin_popcount(pm);
        if (pm != act) b->red_and = 0;
        if (pm) b->red_or = 1;
        w->bar_dst = in->ops[0].reg;
        w->bar_dst_mask = act;
    }
    if (in->mode == MD_ARRIVE) {
        emu_barrier_check(c, (uint32_t)id);
        return EMU_OK;
    }
    w->state = W_BAR;
    w->bar_id = (uint8_t)id;
    w->bar_pc = X->pc;
    emu_barrier_check(c, (uint32_t)id);
    if (w->state != W_BAR) return EMU_OK;
    return emu_deadlock_check(c) == EMU_FAULT ? EMU_FAULT : EMU_WAIT_BARRIER;
}
