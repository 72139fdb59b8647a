/*
 * haws_rules.c — see haws_rules.h. The rules follow the spec's C.3 ("Chain
 * construction", "May-alias rules"); where this file decides otherwise the
 * comment says why and docs/haws.md "Hint pass" lists it.
 */
#include "haws_rules.h"

#include <stdlib.h>
#include <string.h>

#include "../csrc/util/fail.h"
#include "../csrc/ptx/ptx.h"
#include "../cosim/sched_if.h"

/* ---- register sets ---------------------------------------------------------- */
static void set_add(hk_set *s, uint32_t bit) { if (bit < 64 * HK_SET_WORDS) s->w[bit / 64] |= 1ull << (bit % 64); }
static bool set_has(const hk_set *s, uint32_t bit) { return bit < 64 * HK_SET_WORDS && (s->w[bit / 64] >> (bit % 64) & 1); }
#define PRED_BIT(p) (256u + (p))

static void add_reads(hk_set *s, const emu_inst_info *x)
{
    for (uint32_t i = 0; i < x->nsrc; i++) set_add(s, x->src[i]);
    for (uint32_t i = 0; i < x->nsrc_pred; i++) set_add(s, PRED_BIT(x->src_pred[i]));
}
static void add_writes(hk_set *s, const emu_inst_info *x)
{
    for (uint32_t i = 0; i < x->ndst; i++) set_add(s, x->dst[i]);
    for (uint32_t i = 0; i < x->ndst_pred; i++) set_add(s, PRED_BIT(x->dst_pred[i]));
}
static bool any_read_in(const hk_set *s, const emu_inst_info *x)
{
    for (uint32_t i = 0; i < x->nsrc; i++) if (set_has(s, x->src[i])) return true;
    for (uint32_t i = 0; i < x->nsrc_pred; i++) if (set_has(s, PRED_BIT(x->src_pred[i]))) return true;
    return false;
}
static bool any_write_in(const hk_set *s, const emu_inst_info *x)
{
    for (uint32_t i = 0; i < x->ndst; i++) if (set_has(s, x->dst[i])) return true;
    for (uint32_t i = 0; i < x->ndst_pred; i++) if (set_has(s, PRED_BIT(x->dst_pred[i]))) return true;
    return false;
}

/* ---- static facts ----------------------------------------------------------- */
static bool reads_clock(const ptx_insn *in)
{
    for (uint32_t i = 0; i < in->nops; i++) {
        const ptx_operand *o = &in->ops[i];
        if (o->kind != OK_SREG) continue;
        switch (o->reg) {
        case SR_CLOCK: case SR_CLOCK_HI: case SR_CLOCK64:
        case SR_GLOBALTIMER: case SR_GLOBALTIMER_LO: case SR_GLOBALTIMER_HI:
            return true;
        default: break;
        }
    }
    return false;
}

/* Why an instruction can never be a member (spec C.3 steps 1-3, C.9 #13,
 * #31): barriers (§5.3.4 L1033), instructions that end or leave the warp,
 * calls (vprintf, __assertfail, malloc, free: side effects outside the
 * registers), fences, atomics, volatile/strong accesses and clock reads. */
static uint8_t never_rule(const ptx_insn *in, const emu_inst_info *x)
{
    if (x->is_barrier) return HAWS_RULE_BARRIER_MEMBER;
    switch (in->op) {
    case OP_EXIT: case OP_RET: case OP_TRAP: case OP_BRKPT: case OP_CALL:
        return HAWS_RULE_EXIT_MEMBER;
    case OP_FENCE: case OP_MEMBAR:
        return HAWS_RULE_FENCE_MEMBER;
    default: break;
    }
    if (x->is_atomic) return HAWS_RULE_ATOMIC_MEMBER;
    if (in->flags & F_VOLATILE) return HAWS_RULE_VOLATILE_MEMBER;
    if (reads_clock(in)) return HAWS_RULE_CLOCK_MEMBER;
    /* the carry flag is per-warp state outside the registers, never renamed
     * (docs/haws.md "Emulator"): a member writing it could overtake a
     * skipped reader, one reading it a skipped writer */
    if ((in->flags & F_CC) || in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC)
        return HAWS_RULE_CARRY_MEMBER;
    return 0;
}

/* No path crosses these (spec C.3 step 1): the warp may end there, a call's
 * effects are outside the registers, and a fence orders memory. */
static uint8_t is_stop(const ptx_insn *in)
{
    switch (in->op) {
    case OP_EXIT: case OP_RET: case OP_TRAP: case OP_BRKPT: case OP_CALL:
    case OP_FENCE: case OP_MEMBAR:
        return 1;
    default:
        return 0;
    }
}

static void mem_facts(const ptx_insn *in, const emu_inst_info *x, hk_mem *m)
{
    memset(m, 0, sizeof *m);
    m->base = -1;
    if (x->op_class != EC_MEM) return;
    m->is_mem = 1;
    m->is_load = in->op == OP_LD || in->op == OP_LDU || in->op == OP_ATOM;
    m->is_store = in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED;
    m->space = in->space;
    m->readonly = !m->is_store && (in->space == SP_PARAM || in->space == SP_CONST);
    m->size = x->access_size ? x->access_size : 1;
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == OK_ADDR) {
            m->base = in->ops[i].reg;
            m->off = (int64_t)in->ops[i].imm;
            break;
        }
}

/* The pcs control may reach from pc: a branch's target; the next pc
 * unless the instruction ends the warp or is an unguarded branch. */
static uint32_t successors(const ptx_kernel *k, uint32_t pc, uint32_t succ[2])
{
    const ptx_insn *x = &k->code[pc];
    uint32_t n = k->ncode, nsucc = 0;
    bool ends = x->op == OP_EXIT || x->op == OP_RET || x->op == OP_TRAP;
    if (x->op == OP_BRA && x->target < n) succ[nsucc++] = x->target;
    if (!ends && !(x->op == OP_BRA && x->guard < 0) && pc + 1 < n) succ[nsucc++] = pc + 1;
    return nsucc;
}

/* Stall points (spec C.3 "Definitions", C.9 #34), first part: an
 * instruction with a source (guard included) whose reaching definition may
 * be a long-latency producer (is_load && long_latency && ndst > 0, what the
 * core marks long_lat). These end chains: in hint mode, ahead of a stall
 * point, every load it may wait for is still pending. Forward data flow
 * over virtual registers, one bit set per pc: LL[pc] = virtual registers
 * whose value at pc may come from a producer. */
static int find_stall_points(hk_kernel *K, char *err, size_t errlen)
{
    const ptx_kernel *k = K->k;
    uint32_t n = K->n, W = (k->nregs + 63) / 64;
    if (W == 0) return 0;
    uint64_t *in = calloc((size_t)n * W, sizeof *in), *out = calloc((size_t)n * W, sizeof *out);
    if (!in || !out) { free(in); free(out); return smc_fail(err, errlen, "kernel %s: out of memory", k->name); }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t pc = 0; pc < n; pc++) {
            const ptx_insn *x = &k->code[pc];
            const emu_inst_info *xi = emu_kernel_inst(K->ek, pc);
            uint64_t *I = in + (size_t)pc * W, *O = out + (size_t)pc * W;
            uint64_t tmp[W];
            memcpy(tmp, I, W * sizeof *tmp);
            int32_t d[8], s[16]; uint32_t nd, ns;
            ptx_insn_regs(x, d, &nd, s, &ns);
            bool producer = xi->is_load && xi->long_latency && xi->ndst > 0;
            for (uint32_t i = 0; i < nd; i++) {
                uint32_t r = (uint32_t)d[i];
                if (x->guard < 0) tmp[r / 64] &= ~(1ull << (r % 64));
                if (producer) tmp[r / 64] |= 1ull << (r % 64);
            }
            if (memcmp(tmp, O, W * sizeof *tmp)) { memcpy(O, tmp, W * sizeof *tmp); changed = true; }
            uint32_t succ[2], nsucc = successors(k, pc, succ);
            for (uint32_t j = 0; j < nsucc; j++) {
                uint64_t *SI = in + (size_t)succ[j] * W;
                for (uint32_t w = 0; w < W; w++)
                    if ((SI[w] | O[w]) != SI[w]) { SI[w] |= O[w]; changed = true; }
            }
        }
    }
    for (uint32_t pc = 0; pc < n; pc++) {
        int32_t d[8], s[16]; uint32_t nd, ns;
        ptx_insn_regs(&k->code[pc], d, &nd, s, &ns);
        const uint64_t *I = in + (size_t)pc * W;
        for (uint32_t i = 0; i < ns; i++)
            if (I[(uint32_t)s[i] / 64] >> ((uint32_t)s[i] % 64) & 1) { K->stall[pc] = 1; break; }
    }
    free(in); free(out);
    return 0;
}

/* Stall points, second part: every pc where the scheduler core can find
 * the warp's head blocked by a long-latency write, because there the core
 * may enter hint mode and read the pc's word as an entry hint. The core
 * blocks on its register ids (sched_reg_id: physical registers, folded when
 * RegIdWidth is small), on a destination as well as a source (WAW): a
 * producer's dead destination (an atomic whose result nobody reads) may
 * share its physical register with a later definition, which then waits
 * like a reader. Such a pc is a stall point, never a member of another
 * chain (found by kmeans_accumulate on fermi-gtx480, where the core
 * followed a member word's link from the wrong pc).
 *
 * Forward data flow over core ids: LL[pc] = ids that may be pending long
 * at pc. An instruction waits for every id it reads or writes (so none of
 * them is pending after it issues, guarded or not), then a producer makes
 * its destinations pending. A superset is safe: a stall point where the
 * core never blocks only ends chains earlier. */
static void core_ids(const hk_kernel *K, const emu_inst_info *x, hk_set *reads, hk_set *writes)
{
    unsigned w = K->reg_id_width;
    memset(reads, 0, sizeof *reads);
    memset(writes, 0, sizeof *writes);
    for (uint32_t i = 0; i < x->nsrc; i++) set_add(reads, sched_reg_id(w, x->src[i]));
    for (uint32_t i = 0; i < x->nsrc_pred; i++) set_add(reads, sched_pred_id(w, x->src_pred[i]));
    for (uint32_t i = 0; i < x->ndst; i++) set_add(writes, sched_reg_id(w, x->dst[i]));
    for (uint32_t i = 0; i < x->ndst_pred; i++) set_add(writes, sched_pred_id(w, x->dst_pred[i]));
}

static bool sets_meet(const hk_set *a, const hk_set *b)
{
    for (uint32_t i = 0; i < HK_SET_WORDS; i++) if (a->w[i] & b->w[i]) return true;
    return false;
}

static int find_core_blocks(hk_kernel *K, char *err, size_t errlen)
{
    const ptx_kernel *k = K->k;
    uint32_t n = K->n;
    if (n == 0) return 0;
    hk_set *in = calloc(n, sizeof *in), *out = calloc(n, sizeof *out);
    if (!in || !out) { free(in); free(out); return smc_fail(err, errlen, "kernel %s: out of memory", k->name); }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t pc = 0; pc < n; pc++) {
            const emu_inst_info *xi = emu_kernel_inst(K->ek, pc);
            hk_set rd, wr, tmp = in[pc];
            core_ids(K, xi, &rd, &wr);
            bool producer = xi->is_load && xi->long_latency && xi->ndst > 0;
            for (uint32_t w = 0; w < HK_SET_WORDS; w++) {
                tmp.w[w] &= ~(rd.w[w] | wr.w[w]);
                if (producer) tmp.w[w] |= wr.w[w];
            }
            if (memcmp(&tmp, &out[pc], sizeof tmp)) { out[pc] = tmp; changed = true; }
            uint32_t succ[2], nsucc = successors(k, pc, succ);
            for (uint32_t j = 0; j < nsucc; j++) {
                hk_set *SI = &in[succ[j]];
                for (uint32_t w = 0; w < HK_SET_WORDS; w++)
                    if ((SI->w[w] | out[pc].w[w]) != SI->w[w]) { SI->w[w] |= out[pc].w[w]; changed = true; }
            }
        }
    }
    for (uint32_t pc = 0; pc < n; pc++) {
        hk_set rd, wr;
        core_ids(K, emu_kernel_inst(K->ek, pc), &rd, &wr);
        if (sets_meet(&in[pc], &rd) || sets_meet(&in[pc], &wr)) K->stall[pc] = 1;
    }
    free(in); free(out);
    return 0;
}

int hk_kernel_init(hk_kernel *K, const emu_kernel *ek, unsigned reg_id_width, char *err, size_t errlen)
{
    memset(K, 0, sizeof *K);
    K->reg_id_width = reg_id_width;
    K->ek = ek;
    K->k = emu_kernel_ptx(ek);
    K->n = K->k->ncode;
    size_t n = K->n ? K->n : 1;
    K->stall = calloc(n, 1);
    K->never = calloc(n, 1);
    K->stop = calloc(n, 1);
    K->join = calloc(n, 1);
    K->mem = calloc(n, sizeof *K->mem);
    if (!K->stall || !K->never || !K->stop || !K->join || !K->mem) {
        hk_kernel_free(K);
        return smc_fail(err, errlen, "kernel %s: out of memory", K->k->name);
    }
    for (uint32_t pc = 0; pc < K->n; pc++) {
        const ptx_insn *in = &K->k->code[pc];
        const emu_inst_info *x = emu_kernel_inst(ek, pc);
        K->never[pc] = never_rule(in, x);
        K->stop[pc] = is_stop(in);
        if (x->is_branch && in->guard >= 0 && K->k->reconv && K->k->reconv[pc] < K->n)
            K->join[K->k->reconv[pc]] = 1;   /* (an unguarded branch never splits the warp) */
        mem_facts(in, x, &K->mem[pc]);
    }
    K->pool_base = haws_pool_base(K->k->regs_per_thread);
    K->pool_ok = K->pool_base + HAWS_POOL_REGS <= HAWS_POOL_LIMIT;
    if (find_stall_points(K, err, errlen) != 0 || find_core_blocks(K, err, errlen) != 0) {
        hk_kernel_free(K);
        return -1;
    }
    return 0;
}

void hk_kernel_free(hk_kernel *K)
{
    free(K->stall); free(K->never); free(K->stop); free(K->join); free(K->mem);
    K->stall = K->never = K->stop = K->join = NULL; K->mem = NULL;
}

/* ---- paths ------------------------------------------------------------------ */
bool hk_in_window(const hk_path *P, uint32_t pc)
{
    int64_t d = (int64_t)pc - (int64_t)P->s;
    return d >= HAWS_OFFSET_MIN && d <= HAWS_OFFSET_MAX;
}
static uint32_t win(const hk_path *P, uint32_t pc) { return (uint32_t)((int64_t)pc - (int64_t)P->s - HAWS_OFFSET_MIN); }
bool hk_visited(const hk_path *P, uint32_t pc)
{
    if (!hk_in_window(P, pc)) return false;
    uint32_t b = win(P, pc);
    return P->visited[b / 64] >> (b % 64) & 1;
}
void hk_visit(hk_path *P, uint32_t pc)
{
    if (!hk_in_window(P, pc)) return;
    uint32_t b = win(P, pc);
    P->visited[b / 64] |= 1ull << (b % 64);
}

/* Every instruction on the path that writes a virtual register ends the
 * "same base" disjointness of the skipped memory instructions using it. */
static void base_writes(const hk_kernel *K, hk_path *P, uint32_t pc)
{
    int32_t d[8], s[16]; uint32_t nd, ns;
    ptx_insn_regs(&K->k->code[pc], d, &nd, s, &ns);
    for (uint32_t i = 0; i < nd; i++)
        for (uint32_t j = 0; j < P->nmem; j++)
            if (K->mem[P->mem_pc[j]].base == d[i]) P->mem_stable[j] = 0;
}

void hk_skip(const hk_kernel *K, hk_path *P, uint32_t pc)
{
    const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
    add_reads(&P->skip_reads, x);
    add_writes(&P->skip_writes, x);
    if (x->is_barrier) P->past_barrier = 1;
    base_writes(K, P, pc);
    /* the skipped instruction's own base is as it reads it */
    if (K->mem[pc].is_mem && P->nmem < HK_MAX_MEM) {
        P->mem_pc[P->nmem] = (uint16_t)pc;
        P->mem_stable[P->nmem] = 1;
        P->nmem++;
    }
}

void hk_path_init(hk_path *P, const hk_kernel *K, uint32_t s)
{
    memset(P, 0, sizeof *P);
    P->s = s;
    hk_visit(P, s);
    /* The stall point is skipped: it runs on the return pass. The spec
     * starts skip-mem empty; a memory stall point (a store of the loaded
     * value) is added here, or a member load could pass the store it
     * must follow. */
    hk_skip(K, P, s);
}

void hk_member(const hk_kernel *K, hk_path *P, uint32_t pc, uint32_t renamed_to)
{
    const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
    P->members++;
    if (renamed_to != UINT32_MAX) {
        uint32_t w = hk_rename_width(K, pc);
        if (w == 0) w = 1;
        add_writes(&P->renamed_writes, x);
        P->ren_entries += w;
        for (uint32_t i = 0; i < w; i++) {
            uint32_t slot = renamed_to + i - K->pool_base;
            if (renamed_to >= K->pool_base && slot < 32) P->pool_used |= 1u << slot;
        }
    }
    if (x->is_branch) add_reads(&P->reexec_reads, x);   /* re-executed on return (C.9 #14) */
    base_writes(K, P, pc);
}

bool hk_may_alias(const hk_kernel *K, uint32_t a, uint32_t b, bool base_stable)
{
    const hk_mem *A = &K->mem[a], *B = &K->mem[b];
    if (!(A->is_store || B->is_store)) return false;          /* two loads never conflict */
    if (A->readonly || B->readonly) return false;             /* .param/.const: no store writes them */
    if (A->space == SP_GENERIC || B->space == SP_GENERIC) return true;
    if (A->space != B->space) return false;                   /* global, shared, local: disjoint */
    if (!base_stable || A->base != B->base) return true;
    /* same base register with the same value: compare byte ranges */
    return A->off < B->off + (int64_t)B->size && B->off < A->off + (int64_t)A->size;
}

int hk_member_rule(const hk_kernel *K, const hk_path *P, uint32_t pc)
{
    const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
    if (K->never[pc]) return K->never[pc];
    if (K->stall[pc]) return HAWS_RULE_STALL_MEMBER;
    /* RAW with a skipped instruction: the member would read the old value */
    if (any_read_in(&P->skip_writes, x)) return HAWS_RULE_RAW;
    const hk_mem *m = &K->mem[pc];
    if (m->is_mem && !m->readonly) {
        /* stores of other warps are seen only after a barrier (L1035);
         * .param/.const loads are exempt: nothing writes them */
        if (P->past_barrier) return HAWS_RULE_MEM_PAST_BARRIER;
        for (uint32_t j = 0; j < P->nmem; j++)
            if (hk_may_alias(K, P->mem_pc[j], pc, P->mem_stable[j])) return HAWS_RULE_MEM_ALIAS;
    }
    return 0;
}

bool hk_needs_rename(const hk_kernel *K, const hk_path *P, uint32_t pc)
{
    const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
    return any_write_in(&P->skip_reads, x) || any_write_in(&P->skip_writes, x) ||
           any_write_in(&P->reexec_reads, x) || any_write_in(&P->renamed_writes, x);
}

uint32_t hk_rename_width(const hk_kernel *K, uint32_t pc)
{
    const ptx_insn *in = &K->k->code[pc];
    const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
    if (in->guard >= 0 || x->ndst_pred > 0) return 0;
    int32_t d[8], s[16]; uint32_t nd, ns;
    ptx_insn_regs(in, d, &nd, s, &ns);
    if (nd != 1) return 0;
    uint8_t t = K->k->reg_type[d[0]];
    if (t == PT_PRED) return 0;
    if (ptx_type_size[t] == 8) return x->ndst == 2 && (x->dst[0] & 1) == 0 ? 2 : 0;
    return x->ndst == 1 ? 1 : 0;
}

uint32_t hk_pool_alloc(const hk_kernel *K, const hk_path *P, uint32_t width)
{
    if (!K->pool_ok || width == 0 || P->ren_entries + width > HAWS_RENAME_ENTRIES) return UINT32_MAX;
    for (uint32_t i = 0; i + width <= HAWS_POOL_REGS; i += width) {
        uint32_t m = ((1u << width) - 1) << i;
        if (!(P->pool_used & m)) return K->pool_base + i;
    }
    return UINT32_MAX;
}

uint32_t hk_dst_field(const hk_kernel *K, uint32_t pc)
{
    const emu_inst_info *x = emu_kernel_inst(K->ek, pc);
    return x->ndst ? x->dst[0] & 0xFFu : 0;
}
