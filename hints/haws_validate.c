/*
 * haws_validate.c — the validator: any hint words (the pass's or a hint
 * file's) against the rules of haws_rules.c (docs/haws.md, "Validator").
 *
 * It replays every chain the words describe, as the scheduler core would
 * fetch it: from each stall point's entry hint to the member at s + offset,
 * then that member's successor(s), with the instructions in between (on the
 * straight-line path) skipped. Each member is checked against the path state
 * exactly as the pass builds it, so the pass's own output always passes and
 * a word that breaks a rule is named with kernel, pc, PTX line and rule.
 *
 * With check = 0 only what keeps the simulator safe is checked (offsets
 * inside the kernel); the walk still stops at a revisit or after 8 members
 * so that it ends on any input (the fuzz test feeds random words).
 */
#include "haws_rules.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csrc/util/fail.h"

static const char *const rule_names[HAWS_RULE_COUNT] = {
    [HAWS_RULE_OK] = "ok",
    [HAWS_RULE_OFFSET_KERNEL] = "offset-outside-kernel",
    [HAWS_RULE_OFFSET_RANGE] = "offset-range",
    [HAWS_RULE_FORMAT] = "format",
    [HAWS_RULE_ORPHAN] = "orphan-hint",
    [HAWS_RULE_STALL_MEMBER] = "stall-point-member",
    [HAWS_RULE_BARRIER_MEMBER] = "barrier-member",
    [HAWS_RULE_EXIT_MEMBER] = "exit-member",
    [HAWS_RULE_FENCE_MEMBER] = "fence-member",
    [HAWS_RULE_ATOMIC_MEMBER] = "atomic-member",
    [HAWS_RULE_VOLATILE_MEMBER] = "volatile-member",
    [HAWS_RULE_CLOCK_MEMBER] = "clock-member",
    [HAWS_RULE_CARRY_MEMBER] = "carry-member",
    [HAWS_RULE_SKIPPED_CONTROL] = "skipped-control",
    [HAWS_RULE_UNREACHABLE] = "unreachable",
    [HAWS_RULE_REVISIT] = "revisit",
    [HAWS_RULE_RAW] = "raw",
    [HAWS_RULE_MEM_PAST_BARRIER] = "memory-past-barrier",
    [HAWS_RULE_MEM_ALIAS] = "memory-alias",
    [HAWS_RULE_RENAME_MISSING] = "rename-missing",
    [HAWS_RULE_RENAME_INVALID] = "rename-invalid",
    [HAWS_RULE_RENAME_TARGET] = "rename-target",
    [HAWS_RULE_RENAME_TABLE] = "rename-table",
    [HAWS_RULE_CHAIN_LENGTH] = "chain-length",
    [HAWS_RULE_SHARED_PC] = "shared-pc",
};

const char *haws_rule_name(unsigned rule)
{
    return rule < HAWS_RULE_COUNT && rule_names[rule] ? rule_names[rule] : "?";
}

/* What a member-rule violation says (the rules of hk_member_rule). */
static const char *member_text(int rule)
{
    switch (rule) {
    case HAWS_RULE_BARRIER_MEMBER:  return "names a barrier (%s) as a chain member";
    case HAWS_RULE_EXIT_MEMBER:     return "names %s (ends the warp or calls) as a chain member";
    case HAWS_RULE_FENCE_MEMBER:    return "names a fence (%s) as a chain member";
    case HAWS_RULE_ATOMIC_MEMBER:   return "names an atomic (%s) as a chain member";
    case HAWS_RULE_VOLATILE_MEMBER: return "names a volatile/strong access (%s) as a chain member";
    case HAWS_RULE_CLOCK_MEMBER:    return "names a %%clock/%%globaltimer reader (%s) as a chain member";
    case HAWS_RULE_CARRY_MEMBER:    return "names a carry-flag user (%s) as a chain member";
    case HAWS_RULE_STALL_MEMBER:    return "names a stall point (%s, reads or overwrites a register a long-latency load may still be writing) as a chain member";
    case HAWS_RULE_RAW:             return "names %s as a member although it reads a skipped instruction's result (RAW)";
    case HAWS_RULE_MEM_PAST_BARRIER: return "names memory instruction %s as a member after a barrier on its chain";
    case HAWS_RULE_MEM_ALIAS:       return "names memory instruction %s as a member although it may alias a skipped memory instruction";
    default:                        return "names %s as a member against a rule";
    }
}

typedef struct vctx {
    const hk_kernel *K;
    const uint32_t *hint;
    int check;
    uint32_t *chain;            /* owner stall point per pc */
    haws_summary *sum;
    uint32_t regs_end;          /* highest renamed id + 1 */
    char *err; size_t errlen;
} vctx;

static int vfail(vctx *v, uint32_t pc, int rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int vfail(vctx *v, uint32_t pc, int rule, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const emu_inst_info *x = emu_kernel_inst(v->K->ek, pc);
    smc_fail(v->err, v->errlen, "kernel %s pc %u (line %u): HAWS hint %s [rule %s]",
             v->K->k->name, pc, x ? x->ptx_line : 0, msg, haws_rule_name((unsigned)rule));
    return rule;
}

/* Stop a walk: an error in check mode, silently (0) otherwise. */
#define STOP(v, pc, rule, ...) ((v)->check ? vfail((v), (pc), (rule), __VA_ARGS__) : 0)

static int vpath(vctx *v, hk_path *P, uint32_t start, int off, uint32_t from);

/* The member at pc: checks, then its successor(s). */
static int vmember(vctx *v, hk_path *P, uint32_t m)
{
    const hk_kernel *K = v->K;
    const emu_inst_info *x = emu_kernel_inst(K->ek, m);
    const char *name = x->name;
    uint32_t w = v->hint[m] & HAWS_HINT_MASK;
    if (P->members >= HAWS_RCU_DEPTH)
        return STOP(v, m, HAWS_RULE_CHAIN_LENGTH, "makes the chain of stall point %u longer than %u members",
                    P->s, HAWS_RCU_DEPTH);
    if (v->check) {
        int r = hk_member_rule(K, P, m);
        if (r) return vfail(v, m, r, member_text(r), name);
    }
    /* one word per pc: a member of two chains would need two */
    if (v->chain[m] != HAWS_NO_CHAIN && v->chain[m] != P->s)
        return STOP(v, m, HAWS_RULE_SHARED_PC, "makes pc %u a member of the chains of stall points %u and %u",
                    m, v->chain[m], P->s);
    uint32_t ren = UINT32_MAX;
    if (x->is_branch) {
        bool direct = K->k->code[m].guard < 0;
        if (v->check) {
            if (!haws_hint_is_branch(w))
                return vfail(v, m, HAWS_RULE_FORMAT, "on branch member %s is not format 2", name);
            if (haws_hint_direct(w) != direct)
                return vfail(v, m, HAWS_RULE_FORMAT, "type bit says %s branch but %s is %s",
                             haws_hint_direct(w) ? "direct" : "conditional", name,
                             direct ? "unguarded (direct)" : "guarded (conditional)");
            if (direct && haws_hint_fallthru(w) != 0)
                return vfail(v, m, HAWS_RULE_FORMAT, "of a direct branch has a fall-through offset");
        }
    } else {
        if (v->check) {
            if (haws_hint_is_branch(w))
                return vfail(v, m, HAWS_RULE_FORMAT, "on non-branch member %s is format 2", name);
            if (w & (0x1Fu << 18))
                return vfail(v, m, HAWS_RULE_FORMAT, "has bits 22:18 set (0x%06x)", w);
        }
        if (haws_hint_rename(w)) {
            uint32_t width = hk_rename_width(K, m), id = haws_hint_dst(w);
            if (v->check) {
                if (width == 0)
                    return vfail(v, m, HAWS_RULE_RENAME_INVALID, "renames %s, which has no single unguarded "
                                 "32/64-bit register destination", name);
                if (!K->pool_ok || id < K->pool_base || id + width > K->pool_base + HAWS_POOL_REGS ||
                    (width == 2 && (id & 1)))
                    return vfail(v, m, HAWS_RULE_RENAME_TARGET, "renames to r%u, outside the pool [%u, %u)%s",
                                 id, K->pool_base, K->pool_base + HAWS_POOL_REGS,
                                 width == 2 && (id & 1) ? " or not an even pair" : "");
                uint32_t mask = ((1u << width) - 1) << (id - K->pool_base);
                if (P->pool_used & mask)
                    return vfail(v, m, HAWS_RULE_RENAME_TARGET, "renames to r%u, which an earlier member of "
                                 "the chain of stall point %u already renamed to", id, P->s);
                if (P->ren_entries + width > HAWS_RENAME_ENTRIES)
                    return vfail(v, m, HAWS_RULE_RENAME_TABLE, "needs more than %u renaming-table entries",
                                 HAWS_RENAME_ENTRIES);
            }
            if (width == 0) width = 1;
            ren = id;
            if (id + width > v->regs_end) v->regs_end = id + width;
        } else if (v->check) {
            if (hk_needs_rename(K, P, m))
                return vfail(v, m, HAWS_RULE_RENAME_MISSING, "lets %s overwrite a register that a skipped "
                             "instruction (or a re-executed branch, or a renamed member's copy) before it "
                             "still uses on the return pass (WAR/WAW): the rename bit is missing", name);
            uint32_t d = haws_hint_dst(w);
            if (d != 0 && d != hk_dst_field(K, m))
                return vfail(v, m, HAWS_RULE_FORMAT, "has Dst r%u but %s writes r%u (rename = 0)", d, name,
                             hk_dst_field(K, m));
        }
    }
    if (v->chain[m] == HAWS_NO_CHAIN) {
        v->chain[m] = P->s;
        if (v->sum) {
            v->sum->hinted++;
            if (x->op_class == EC_MEM) v->sum->mem_members++;
            if (x->is_branch) v->sum->branch_members++;
            if (ren != UINT32_MAX) v->sum->renames++;
        }
    }
    hk_member(K, P, m, ren);
    if (v->sum && P->members > v->sum->max_members) v->sum->max_members = P->members;
    if (!x->is_branch) return vpath(v, P, m + 1, haws_hint_offset(w), m);
    const ptx_insn *in = &K->k->code[m];
    if (!haws_hint_is_branch(w)) return 0;                 /* unchecked: not followed */
    if (haws_hint_direct(w)) return vpath(v, P, in->target, haws_hint_taken(w), m);
    hk_path *side = malloc(sizeof *side);
    if (!side) return smc_fail(v->err, v->errlen, "kernel %s: out of memory", K->k->name);
    *side = *P;
    int rc = vpath(v, side, in->target, haws_hint_taken(w), m);
    free(side);
    if (rc) return rc;
    return vpath(v, P, m + 1, haws_hint_fallthru(w), m);
}

/* From `start` (the pc after the previous member, or a branch side's first
 * pc) straight on to the member at s + off; off 0 ends the path. */
static int vpath(vctx *v, hk_path *P, uint32_t start, int off, uint32_t from)
{
    const hk_kernel *K = v->K;
    if (off == 0) return 0;
    int64_t m = (int64_t)P->s + off;
    if (m < 0 || m >= (int64_t)K->n)
        return vfail(v, from, HAWS_RULE_OFFSET_KERNEL, "offset %d from stall point %u leads to pc %" PRId64
                     ", outside the kernel (%u instructions)", off, P->s, m, K->n);
    if (off < HAWS_OFFSET_MIN || off > HAWS_OFFSET_MAX)
        return STOP(v, from, HAWS_RULE_OFFSET_RANGE, "offset %d from stall point %u is outside [%d, %d]",
                    off, P->s, HAWS_OFFSET_MIN, HAWS_OFFSET_MAX);
    if ((uint32_t)m < start)
        return STOP(v, from, HAWS_RULE_UNREACHABLE, "names pc %" PRId64 " as the next member, which is not on "
                    "the straight-line path from pc %u", m, start);
    for (uint32_t pc = start; pc < (uint32_t)m; pc++) {
        if (hk_visited(P, pc))
            return STOP(v, from, HAWS_RULE_REVISIT, "leads the chain of stall point %u through pc %u twice",
                        P->s, pc);
        const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
        if (K->stop[pc] || x->is_branch)
            return STOP(v, from, HAWS_RULE_SKIPPED_CONTROL, "names pc %" PRId64 " as the next member, past "
                        "the skipped %s at pc %u (no chain crosses skipped control flow)", m, x->name, pc);
        if (K->join[pc])
            return STOP(v, from, HAWS_RULE_SKIPPED_CONTROL, "names pc %" PRId64 " as the next member, past "
                        "the reconvergence point at pc %u (the warp's lanes may change there)", m, pc);
        hk_visit(P, pc);
        hk_skip(K, P, pc);
    }
    if (hk_visited(P, (uint32_t)m))
        return STOP(v, from, HAWS_RULE_REVISIT, "leads the chain of stall point %u to pc %" PRId64 " twice",
                    P->s, m);
    if (K->join[m])
        return STOP(v, from, HAWS_RULE_SKIPPED_CONTROL, "names pc %" PRId64 ", a reconvergence point (the "
                    "warp's lanes may change there), as a member", m);
    hk_visit(P, (uint32_t)m);
    return vmember(v, P, (uint32_t)m);
}

int haws_validate_k(const hk_kernel *K, const uint32_t *hint, int check, uint32_t *chain_out,
                    haws_summary *sum, char *err, size_t errlen);

int haws_validate_k(const hk_kernel *K, const uint32_t *hint, int check, uint32_t *chain_out,
                    haws_summary *sum, char *err, size_t errlen)
{
    uint32_t n = K->n ? K->n : 1;
    uint32_t *chain = chain_out ? chain_out : malloc(n * sizeof *chain);
    hk_path *P = malloc(sizeof *P);
    if (!chain || !P) {
        if (!chain_out) free(chain);
        free(P);
        return smc_fail(err, errlen, "kernel %s: out of memory", K->k->name);
    }
    for (uint32_t pc = 0; pc < K->n; pc++) chain[pc] = HAWS_NO_CHAIN;
    if (sum) {
        memset(sum, 0, sizeof *sum);
        sum->ninsts = K->n;
        sum->regs_per_thread = K->k->regs_per_thread;
    }
    vctx v = { K, hint, check, chain, sum, 0, err, errlen };
    int rc = 0;
    for (uint32_t s = 0; s < K->n && rc == 0; s++) {
        if (!K->stall[s]) continue;
        if (sum) sum->stall_points++;
        uint32_t w = hint[s] & HAWS_HINT_MASK;
        if (w == 0) continue;
        const emu_inst_info *x = emu_kernel_inst(K->ek, s);
        if (x->is_branch || x->is_barrier || K->stop[s]) {
            if (check) rc = vfail(&v, s, HAWS_RULE_FORMAT, "on control stall point %s: its path is not "
                                  "known before it executes", x->name);
            continue;
        }
        if (haws_hint_is_branch(w) || haws_hint_rename(w) || haws_hint_dst(w) || (w & (0x1Fu << 18))) {
            if (check) rc = vfail(&v, s, HAWS_RULE_FORMAT, "entry word 0x%06x of a stall point must be "
                                  "format 1 with rename 0 and Dst 0", w);
            continue;
        }
        if (sum) sum->chains++;
        hk_path_init(P, K, s);
        rc = vpath(&v, P, s + 1, haws_hint_offset(w), s);
    }
    /* a word nobody reads is a mistake (a wrong pc in a hint file) */
    for (uint32_t pc = 0; pc < K->n && rc == 0 && check; pc++)
        if ((hint[pc] & HAWS_HINT_MASK) && !K->stall[pc] && chain[pc] == HAWS_NO_CHAIN)
            rc = vfail(&v, pc, HAWS_RULE_ORPHAN, "word 0x%06x is on pc %u, which is neither a stall point "
                       "nor a member of a chain", hint[pc] & HAWS_HINT_MASK, pc);
    if (sum) sum->regs_haws = v.regs_end > K->k->regs_per_thread ? v.regs_end : K->k->regs_per_thread;
    free(P);
    if (!chain_out) free(chain);
    return rc < 0 ? HAWS_RULE_COUNT : rc;
}

int haws_validate(const emu_kernel *ek, unsigned reg_id_width, const uint32_t *hint, int check,
                  uint32_t *chain, haws_summary *sum, char *err, size_t errlen)
{
    hk_kernel K;
    if (hk_kernel_init(&K, ek, reg_id_width, err, errlen) != 0) return HAWS_RULE_COUNT;
    int rc = haws_validate_k(&K, hint, check, chain, sum, err, errlen);
    hk_kernel_free(&K);
    return rc;
}
