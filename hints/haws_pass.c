/*
 * haws_pass.c — the hint pass and its entry points (haws_pass.h).
 *
 * Chain construction (spec C.3; seed 000 §5.3.1-5.3.2): for each stall point
 * s in increasing pc order, unless s is control, walk forward from s + 1
 * along the control flow. Every instruction on the walk is either a member
 * (linked into the chain: the previous member's offset field, or s's entry
 * hint, gets its offset from s) or skipped (its reads and writes become
 * hazards for later members). The walk stops at the next stall point, at an
 * instruction that ends the warp, calls or fences, at a pc already on the
 * path, outside [s-256, s+255] or after 8 members, and after a skipped
 * branch (no chain crosses skipped control flow: HAWS stays non-speculative,
 * C.9 #20). A direct branch member continues at its target; a conditional
 * one continues on both sides, each with its own copy of the state, up to
 * the branch's reconvergence point.
 */
#include "haws_pass.h"
#include "haws_rules.h"

#include <stdlib.h>
#include <string.h>

#include "../csrc/util/fail.h"
#include "../csrc/config/gpu_config.h"

void haws_opts_default(haws_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mem_hints = 1;
    o->branch_hints = 1;
    o->cross_stall_points = 0;
    o->validate = 1;
    o->hints_file = NULL;
    o->reg_id_width = 8;
}

void haws_opts_from_config(haws_opts *o, const struct gpu_config *cfg)
{
    haws_opts_default(o);
    o->mem_hints = cfg->haws_mem_hints;
    o->branch_hints = cfg->haws_branch_hints;
    o->cross_stall_points = cfg->haws_cross_stall_points;
    o->validate = cfg->haws_validate;
    o->reg_id_width = cfg->reg_id_width;
    o->hints_file = cfg->haws_hints_file[0] ? cfg->haws_hints_file : NULL;
}

/* ---- the pass ---------------------------------------------------------------- */
enum { LINK_F1 = 0, LINK_TAKEN, LINK_FALL };
#define MAX_STOPS 16

typedef struct pass {
    const hk_kernel *K;
    const haws_opts *o;
    uint32_t *hint;
    uint32_t *owner;            /* per pc: stall point of the chain that claimed it */
} pass;

/* Write the offset of the next member into the link field of `pc`'s word. */
static void set_link(uint32_t *hint, uint32_t pc, int field, int off)
{
    uint32_t h = hint[pc];
    switch (field) {
    case LINK_F1:    h = (h & ~0x1FFu) | ((uint32_t)off & 0x1FFu); break;
    case LINK_TAKEN: h = (h & ~(0x7FFu << 1)) | (((uint32_t)off & 0x7FFu) << 1); break;
    default:         h = (h & ~(0x7FFu << 12)) | (((uint32_t)off & 0x7FFu) << 12); break;
    }
    hint[pc] = h;
}

/* May the options make pc a member at all? */
static bool allowed(const pass *A, uint32_t pc)
{
    const emu_inst_info *x = emu_kernel_inst(A->K->ek, pc);
    if (x->op_class == EC_MEM && !A->o->mem_hints) return false;
    if (x->is_branch && (!A->o->branch_hints || A->K->k->code[pc].target >= A->K->n)) return false;
    return true;
}

static void walk(pass *A, hk_path *P, uint32_t pc, const uint32_t *stops, uint32_t nstops,
                 uint32_t link_pc, int link_field)
{
    const hk_kernel *K = A->K;
    const uint32_t s = P->s;
    for (;;) {
        if (pc >= K->n) return;
        for (uint32_t i = 0; i < nstops; i++) if (pc == stops[i]) return;
        if (!hk_in_window(P, pc) || hk_visited(P, pc)) return;
        if (P->members >= HAWS_RCU_DEPTH) return;
        if (K->stop[pc]) return;
        /* a reconvergence point: lanes that went another way may rejoin
         * here, so an instruction from here on could run ahead with fewer
         * lanes than in order (found by CUB's transform kernel) */
        if (K->join[pc]) return;
        if (K->stall[pc] && !A->o->cross_stall_points) return;   /* C.9 #33 */
        hk_visit(P, pc);
        const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
        bool member = false;
        uint32_t ren = UINT32_MAX;
        if (A->owner[pc] == HAWS_NO_CHAIN && allowed(A, pc) && hk_member_rule(K, P, pc) == 0) {
            member = true;
            if (hk_needs_rename(K, P, pc)) {
                ren = hk_pool_alloc(K, P, hk_rename_width(K, pc));
                if (ren == UINT32_MAX) member = false;          /* cannot rename: skipped */
            }
        }
        if (!member) {
            hk_skip(K, P, pc);
            if (x->is_branch) return;                           /* skipped control flow */
            pc++;
            continue;
        }
        set_link(A->hint, link_pc, link_field, (int)pc - (int)s);
        A->owner[pc] = s;
        hk_member(K, P, pc, ren);
        if (x->is_branch) {
            const ptx_insn *in = &K->k->code[pc];
            bool direct = in->guard < 0;
            A->hint[pc] = haws_hint_f2(direct, 0, 0);
            if (direct) {
                walk(A, P, in->target, stops, nstops, pc, LINK_TAKEN);
            } else {
                /* both sides up to the reconvergence point (and every
                 * enclosing side's), each with its own state */
                uint32_t st[MAX_STOPS], ns = 0;
                for (uint32_t i = 0; i < nstops && ns < MAX_STOPS - 1; i++) st[ns++] = stops[i];
                st[ns++] = K->k->reconv[pc];
                hk_path *side = malloc(sizeof *side);
                if (side) {
                    *side = *P;
                    walk(A, side, in->target, st, ns, pc, LINK_TAKEN);
                    free(side);
                }
                walk(A, P, pc + 1, st, ns, pc, LINK_FALL);
            }
            /* A branch with no member after it on either side would only
             * cost an RCU entry and a re-execution: the chain ends before
             * it instead (our decision, docs/haws.md). */
            if (haws_hint_taken(A->hint[pc]) == 0 && haws_hint_fallthru(A->hint[pc]) == 0) {
                A->hint[pc] = 0;
                A->owner[pc] = HAWS_NO_CHAIN;
                set_link(A->hint, link_pc, link_field, 0);
            }
            return;
        }
        A->hint[pc] = haws_hint_f1(0, ren != UINT32_MAX, ren != UINT32_MAX ? ren : hk_dst_field(K, pc));
        link_pc = pc; link_field = LINK_F1;
        pc++;
    }
}

/* The pass over one kernel: hint words into hint[n] (zeroed by the caller). */
static int run_pass(const hk_kernel *K, const haws_opts *o, uint32_t *hint, char *err, size_t errlen)
{
    pass A = { K, o, hint, malloc((K->n ? K->n : 1) * sizeof(uint32_t)) };
    if (!A.owner) return smc_fail(err, errlen, "kernel %s: out of memory", K->k->name);
    for (uint32_t pc = 0; pc < K->n; pc++) A.owner[pc] = HAWS_NO_CHAIN;
    hk_path *P = malloc(sizeof *P);
    if (!P) { free(A.owner); return smc_fail(err, errlen, "kernel %s: out of memory", K->k->name); }
    for (uint32_t s = 0; s < K->n; s++) {
        if (!K->stall[s]) continue;
        const emu_inst_info *x = emu_kernel_inst(K->ek, s);
        /* a control stall point gets no hint (C.3): the warp's path
         * after it is not known before it executes */
        if (x->is_branch || x->is_barrier || K->stop[s]) continue;
        hk_path_init(P, K, s);
        walk(&A, P, s + 1, NULL, 0, s, LINK_F1);
    }
    free(P);
    free(A.owner);
    return 0;
}

/* ---- compute, validate, install ----------------------------------------------- */
int haws_validate_k(const hk_kernel *K, const uint32_t *hint, int check, uint32_t *chain,
                    haws_summary *sum, char *err, size_t errlen);   /* haws_validate.c */

void haws_result_free(haws_result *r)
{
    if (!r) return;
    free(r->hint); free(r->stall); free(r->chain);
    memset(r, 0, sizeof *r);
}

int haws_compute(const emu_kernel *ek, const haws_opts *o, haws_result *out, char *err, size_t errlen)
{
    haws_opts def;
    if (!o) { haws_opts_default(&def); o = &def; }
    memset(out, 0, sizeof *out);
    hk_kernel K;
    if (hk_kernel_init(&K, ek, o->reg_id_width, err, errlen) != 0) return -1;
    uint32_t n = K.n ? K.n : 1;
    out->n = K.n;
    out->hint = calloc(n, sizeof *out->hint);
    out->stall = calloc(n, 1);
    out->chain = calloc(n, sizeof *out->chain);
    int rc = -1;
    if (!out->hint || !out->stall || !out->chain) {
        smc_fail(err, errlen, "kernel %s: out of memory", K.k->name);
        goto done;
    }
    memcpy(out->stall, K.stall, K.n);
    int from_file = 0;
    if (o->hints_file && *o->hints_file) {
        haws_file *f = haws_file_load(o->hints_file, err, errlen);
        if (!f) goto done;
        if (haws_file_has_kernel(f, K.k->name)) {
            from_file = 1;
            if (haws_file_words(f, ek, out->hint, err, errlen) != 0) { haws_file_free(f); goto done; }
        }
        haws_file_free(f);
    }
    if (!from_file && run_pass(&K, o, out->hint, err, errlen) != 0) goto done;
    if (haws_validate_k(&K, out->hint, o->validate ? 1 : 0, out->chain, &out->sum, err, errlen) != 0)
        goto done;
    out->sum.from_file = (uint32_t)from_file;
    rc = 0;
done:
    hk_kernel_free(&K);
    if (rc != 0) haws_result_free(out);
    return rc;
}

/* ---- the launch-time cache --------------------------------------------------- */
/* haws_prepare_kernel runs once per kernel content and options. The key is
 * a 64-bit FNV-1a hash of everything the pass reads (instructions, operand
 * registers and offsets, physical ids, reconvergence points, register
 * types), not the emu_kernel pointer, so that a kernel freed and another
 * allocated at the same address never reuses stale hints. */
typedef struct cache_entry {
    uint64_t key;
    uint32_t n, regs_haws;
    uint32_t *hint;
} cache_entry;
#define CACHE_SIZE 64
static cache_entry cache[CACHE_SIZE];
static uint32_t cache_next;

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) { h ^= b[i]; h *= 0x100000001b3ull; }
    return h;
}
#define FNV(h, v) ((h) = fnv((h), &(v), sizeof(v)))

static uint64_t kernel_key(const emu_kernel *ek, const haws_opts *o)
{
    const ptx_kernel *k = emu_kernel_ptx(ek);
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, k->name, strlen(k->name) + 1);
    FNV(h, k->ncode); FNV(h, k->nregs); FNV(h, k->regs_per_thread);
    h = fnv(h, k->reg_type, k->nregs);
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const ptx_insn *in = &k->code[pc];
        FNV(h, in->op); FNV(h, in->type); FNV(h, in->space); FNV(h, in->vec); FNV(h, in->mode);
        FNV(h, in->nops); FNV(h, in->flags); FNV(h, in->guard); FNV(h, in->target); FNV(h, k->reconv[pc]);
        for (uint32_t i = 0; i < in->nops && i < PTX_MAX_OPS; i++) {
            const ptx_operand *op = &in->ops[i];
            FNV(h, op->kind); FNV(h, op->reg); FNV(h, op->reg2); FNV(h, op->imm); FNV(h, op->nvec);
            h = fnv(h, op->vec, sizeof op->vec);
        }
        const emu_inst_info *x = emu_kernel_inst(ek, pc);
        FNV(h, x->ndst); FNV(h, x->nsrc); FNV(h, x->ndst_pred); FNV(h, x->nsrc_pred);
        h = fnv(h, x->dst, sizeof x->dst); h = fnv(h, x->src, sizeof x->src);
        h = fnv(h, x->dst_pred, sizeof x->dst_pred); h = fnv(h, x->src_pred, sizeof x->src_pred);
    }
    FNV(h, o->mem_hints); FNV(h, o->branch_hints); FNV(h, o->cross_stall_points); FNV(h, o->validate);
    FNV(h, o->reg_id_width);
    const char *f = o->hints_file ? o->hints_file : "";
    h = fnv(h, f, strlen(f) + 1);
    return h;
}

int haws_prepare_kernel(emu_kernel *ek, const haws_opts *o, char *err, size_t errlen)
{
    haws_opts def;
    if (!o) { haws_opts_default(&def); o = &def; }
    uint64_t key = kernel_key(ek, o);
    uint32_t n = emu_kernel_ptx(ek)->ncode;
    for (uint32_t i = 0; i < CACHE_SIZE; i++)
        if (cache[i].hint && cache[i].key == key && cache[i].n == n) {
            emu_kernel_set_hints(ek, cache[i].hint, cache[i].regs_haws);
            return 0;
        }
    haws_result r;
    if (haws_compute(ek, o, &r, err, errlen) != 0) return -1;
    emu_kernel_set_hints(ek, r.hint, r.sum.regs_haws);
    cache_entry *e = &cache[cache_next];
    cache_next = (cache_next + 1) % CACHE_SIZE;
    free(e->hint);
    e->key = key; e->n = n; e->regs_haws = r.sum.regs_haws;
    e->hint = r.hint;                  /* the cache keeps the words */
    r.hint = NULL;
    haws_result_free(&r);
    return 0;
}
