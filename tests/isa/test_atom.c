/*
 * test_atom.c — atomics and reductions on global and shared memory under
 * contention: every thread of several CTAs hits one address (global, also
 * through its generic address) or one address per CTA (shared). The final value must equal the fold of all
 * operands, and the returned old values must be consistent with some
 * serialization: for add a chain old_k + v_k = old_{k+1}; for inc/dec/exch
 * and a CAS-loop counter the exact multiset; for a single-shot CAS exactly
 * one winner; for and/or/min/max each old lies between the initial and the
 * final value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_util.h"

#define CTAS 4
#define TPB  100            /* 3 full warps and a partial one */
#define NT   (CTAS * TPB)

enum chk { C_ADD, C_FADD, C_MIN_U, C_MAX_U, C_MIN_S, C_MAX_S, C_AND, C_OR,
           C_XOR, C_INC, C_DEC, C_EXCH, C_CAS_ONE, C_CAS_LOOP };

typedef struct atom_case {
    const char *name;          /* isa_case_head */
    const char *space;         /* "global" or "shared" */
    const char *type;          /* register/memory type: u32 s32 u64 f32 f64 b32 b64 */
    const char *insn;          /* e.g. "atom.add.u32"; the space is inserted */
    int         is_red;        /* red.* : no returned value */
    enum chk    chk;
    uint64_t    init;
    uint64_t    bound;         /* inc/dec bound operand */
} atom_case;

/* The operand of thread g (global index), as bits of `type`. Written again
 * in PTX by operand_ptx(); the two must agree. */
static uint64_t operand(const atom_case *tc, unsigned g)
{
    switch (tc->chk) {
    case C_ADD:
        return isa_type_size(tc->type) == 8 ? (uint64_t)g * 0x100000001ull + 1 : g + 1;
    case C_FADD:
        if (tc->type[1] == '3') { float f = (float)(g + 1); return isa_bits32(f); }
        return isa_bits64((double)(g + 1));
    case C_MIN_U: case C_MAX_U: case C_MIN_S: case C_MAX_S:
        /* a scrambled permutation, with negatives for the signed variants */
        return isa_type_size(tc->type) == 8
                   ? ((uint64_t)((g * 7919u) % NT) << 32) - 0x80000000ull * (g & 1)
                   : (uint32_t)(((g * 7919u) % NT) - (g & 1) * 3000u);
    case C_AND: return ~(1ull << (g % 61)) & (isa_type_size(tc->type) == 8 ? ~0ull : 0xffffffffu);
    case C_OR:  return 1ull << (g % (isa_type_size(tc->type) == 8 ? 61 : 29));
    case C_XOR: return (uint64_t)g * 0x9e3779b97f4a7c15ull & (isa_type_size(tc->type) == 8 ? ~0ull : 0xffffffffu);
    case C_EXCH: case C_CAS_ONE: return (uint64_t)g + 1000;
    default: return 0;
    }
}

static const char *operand_ptx(const atom_case *tc)
{
    int w = (int)isa_type_size(tc->type) * 8;
    switch (tc->chk) {
    case C_ADD:
        return w == 64 ? "\tmul.wide.u32 %v, %r4, 1;\n\tmad.lo.u64 %v, %v, 0x100000001, 1;\n"
                       : "\tadd.u32 %v, %r4, 1;\n";
    case C_FADD:
        return w == 32 ? "\tadd.u32 %r9, %r4, 1;\n\tcvt.rn.f32.u32 %v, %r9;\n"
                       : "\tadd.u32 %r9, %r4, 1;\n\tcvt.rn.f64.u32 %v, %r9;\n";
    case C_MIN_U: case C_MAX_U: case C_MIN_S: case C_MAX_S:
        return w == 64
            ? "\tmul.lo.u32 %r9, %r4, 7919;\n\trem.u32 %r9, %r9, 400;\n"
              "\tcvt.u64.u32 %v, %r9;\n\tshl.b64 %v, %v, 32;\n"
              "\tand.b32 %r10, %r4, 1;\n\tmul.wide.u32 %rd9, %r10, 0x80000000;\n"
              "\tsub.u64 %v, %v, %rd9;\n"
            : "\tmul.lo.u32 %r9, %r4, 7919;\n\trem.u32 %r9, %r9, 400;\n"
              "\tand.b32 %r10, %r4, 1;\n\tmul.lo.u32 %r10, %r10, 3000;\n"
              "\tsub.u32 %v, %r9, %r10;\n";
    case C_AND:
        return w == 64
            ? "\trem.u32 %r9, %r4, 61;\n\tshl.b64 %v, 1, %r9;\n\tnot.b64 %v, %v;\n"
            : "\trem.u32 %r9, %r4, 61;\n\tshl.b32 %v, 1, %r9;\n\tnot.b32 %v, %v;\n";
    case C_OR:
        return w == 64 ? "\trem.u32 %r9, %r4, 61;\n\tshl.b64 %v, 1, %r9;\n"
                       : "\trem.u32 %r9, %r4, 29;\n\tshl.b32 %v, 1, %r9;\n";
    case C_XOR:
        return w == 64 ? "\tcvt.u64.u32 %v, %r4;\n\tmul.lo.u64 %v, %v, 0x9e3779b97f4a7c15;\n"
                       : "\tmul.lo.u32 %v, %r4, 0x7f4a7c15;\n";
    case C_EXCH: case C_CAS_ONE:
        return w == 64 ? "\tcvt.u64.u32 %v, %r4;\n\tadd.u64 %v, %v, 1000;\n"
                       : "\tadd.u32 %v, %r4, 1000;\n";
    default:
        return "";
    }
}

/* The atomic instruction itself, with the state space put in. */
static void atom_text(const atom_case *tc, char *buf, size_t cap)
{
    const char *dot = strchr(tc->insn, '.');
    char head[16];
    snprintf(head, sizeof head, "%.*s", (int)(dot - tc->insn), tc->insn);
    /* global: the global window; generic: the same buffer through its
     * generic address (no space in the opcode); shared: the CTA's variable */
    int generic = strcmp(tc->space, "generic") == 0;
    const char *addr = strcmp(tc->space, "shared") == 0 ? "[sv]"
                     : generic ? "[%rd7]" : "[%rd2]";
    char sp[16];   /* ".global", ".shared" or "" */
    snprintf(sp, sizeof sp, "%s%s", generic ? "" : ".", generic ? "" : tc->space);
    const char *bits = isa_type_size(tc->type) == 8 ? "64" : "32";
    switch (tc->chk) {
    case C_INC: case C_DEC:
        snprintf(buf, cap, "\t%s%s%s %%o, %s, %llu;\n", head, sp, dot,
                 addr, (unsigned long long)tc->bound);
        break;
    case C_CAS_ONE:
        snprintf(buf, cap, "\t%s%s%s %%o, %s, %llu, %%v;\n", head, sp, dot,
                 addr, (unsigned long long)tc->init);
        break;
    case C_CAS_LOOP:
        /* retry until our CAS wins; %o = the value we replaced */
        snprintf(buf, cap,
                 "\tld.volatile%s.b%s %%o, %s;\n"
                 "RETRY:\n\tadd.u%s %%v, %%o, 1;\n"
                 "\t%s%s%s %%w, %s, %%o, %%v;\n"
                 "\tsetp.ne.b%s %%p3, %%w, %%o;\n\tmov.b%s %%o, %%w;\n\t@%%p3 bra RETRY;\n",
                 sp, bits, addr, bits, head, sp, dot, addr, bits, bits);
        break;
    default:
        if (tc->is_red)   /* no old value: store zeros */
            snprintf(buf, cap, "\t%s%s%s %s, %%v;\n\tmov.b%s %%o, 0;\n", head,
                     sp, dot, addr, bits);
        else
            snprintf(buf, cap, "\t%s%s%s %%o, %s, %%v;\n", head, sp, dot, addr);
        break;
    }
}

static void build(isa_ctx *c, const atom_case *tc)
{
    char insn[512];
    atom_text(tc, insn, sizeof insn);
    size_t w = isa_type_size(tc->type);
    const char *rt = w == 8 ? "b64" : "b32";
    const char *ft = tc->chk == C_FADD ? tc->type : rt;
    int shared = strcmp(tc->space, "shared") == 0;
    char shared_prologue[512] = "", shared_epilogue[512] = "";
    if (shared) {
        /* thread 0 sets the CTA's variable, all hit it, thread 0 publishes */
        snprintf(shared_prologue, sizeof shared_prologue,
                 "\tsetp.eq.u32 %%p1, %%r1, 0;\n\tmov.b%s %%t, %llu;\n"
                 "\t@%%p1 st.shared.b%s [sv], %%t;\n\tbar.sync 0;\n",
                 w == 8 ? "64" : "32", (unsigned long long)tc->init, w == 8 ? "64" : "32");
        snprintf(shared_epilogue, sizeof shared_epilogue,
                 "\tbar.sync 0;\n\t@%%p1 ld.shared.b%s %%t, [sv];\n"
                 "\tmul.wide.u32 %%rd6, %%r2, %zu;\n\tadd.u64 %%rd6, %%rd2, %%rd6;\n"
                 "\t@%%p1 st.global.b%s [%%rd6], %%t;\n",
                 w == 8 ? "64" : "32", w, w == 8 ? "64" : "32");
    }
    isa_loadf(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 paddr, .param .u64 polds)\n{\n"
        "\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<16>;\n"
        "\t.reg .%s %%v, %%o, %%w;\n\t.reg .%s %%t;\n"
        "%s"
        "\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%ctaid.x;\n\tmov.u32 %%r3, %%ntid.x;\n"
        "\tmad.lo.u32 %%r4, %%r2, %%r3, %%r1;\n\tcvt.u64.u32 %%rd1, %%r4;\n"
        "\tld.param.u64 %%rd7, [paddr];\n\tcvta.to.global.u64 %%rd2, %%rd7;\n"
        "\tld.param.u64 %%rd3, [polds];\n\tcvta.to.global.u64 %%rd3, %%rd3;\n"
        "%s%s%s%s"
        "\tmad.lo.u64 %%rd5, %%rd1, %zu, %%rd3;\n\tst.global.%s [%%rd5], %%o;\n"
        "\tret;\n}\n",
        ft, rt, shared ? (w == 8 ? "\t.shared .align 8 .b64 sv;\n"
                                 : "\t.shared .align 4 .b32 sv;\n") : "",
        operand_ptx(tc), shared_prologue, insn, shared_epilogue, w, ft);
}

/* ---- checks ------------------------------------------------------------ */

static uint64_t mask_of(const atom_case *tc)
{
    return isa_type_size(tc->type) == 8 ? ~0ull : 0xffffffffu;
}

static int64_t as_signed(const atom_case *tc, uint64_t v)
{
    return isa_type_size(tc->type) == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

static double as_float(const atom_case *tc, uint64_t v)
{
    return tc->type[1] == '3' ? (double)isa_f32((uint32_t)v) : isa_f64(v);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* (old, operand) bits; for positive floats the bit order is the value order */
typedef struct pair { uint64_t old, v; } pair;
static int cmp_pair(const void *a, const void *b)
{
    uint64_t x = ((const pair *)a)->old, y = ((const pair *)b)->old;
    return x < y ? -1 : x > y;
}

/* One group of n threads (g0..g0+n-1) that all hit one location. */
static void check_group(isa_ctx *c, const atom_case *tc, unsigned g0, unsigned n,
                        const uint64_t *olds, uint64_t final)
{
    uint64_t m = mask_of(tc), init = tc->init & m;
    uint64_t *s = isa_calloc(c, n + 1, sizeof *s);
    pair *pr = isa_calloc(c, n, sizeof *pr);
    uint64_t acc = init;
    switch (tc->chk) {
    case C_ADD:
    case C_FADD: {
        /* sort (old, v) by old: a chain from init to final */
        /* float operands are small integers: every partial sum is exact */
        int fl = tc->chk == C_FADD;
        double facc = as_float(tc, init);
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = operand(tc, g0 + i) & m;
            acc = (acc + v) & m;
            facc += fl ? as_float(tc, v) : 0;
            pr[i].v = v;
            pr[i].old = olds[i] & m;
        }
        if (fl)
            assert_true(as_float(tc, final) == facc);
        else
            assert_int_equal(final, acc);
        if (tc->is_red)
            break;
        /* integer sums may wrap: order by distance from init instead */
        for (unsigned i = 0; i < n && !fl; i++)
            pr[i].old = (pr[i].old - init) & m;
        qsort(pr, n, sizeof *pr, cmp_pair);
        uint64_t cur = fl ? init : 0;
        for (unsigned i = 0; i < n; i++) {
            if (pr[i].old != cur)
                fail_msg("%s: returned values do not chain: expected old 0x%llx, got 0x%llx",
                         tc->name, (unsigned long long)(fl ? cur : (cur + init) & m),
                         (unsigned long long)(fl ? pr[i].old : (pr[i].old + init) & m));
            if (fl) {
                double next = as_float(tc, cur) + as_float(tc, pr[i].v);
                cur = tc->type[1] == '3' ? isa_bits32((float)next) : isa_bits64(next);
            } else {
                cur = (cur + pr[i].v) & m;
            }
        }
        break;
    }
    case C_MIN_U: case C_MAX_U: case C_MIN_S: case C_MAX_S: {
        int is_min = tc->chk == C_MIN_U || tc->chk == C_MIN_S;
        int sgn = tc->chk == C_MIN_S || tc->chk == C_MAX_S;
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = operand(tc, g0 + i) & m;
            int less = sgn ? as_signed(tc, v) < as_signed(tc, acc) : v < acc;
            int more = sgn ? as_signed(tc, v) > as_signed(tc, acc) : v > acc;
            if ((is_min && less) || (!is_min && more))
                acc = v;
        }
        assert_int_equal(final, acc);
        if (tc->is_red)
            break;
        int saw_init = 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t o = olds[i] & m;
            saw_init |= o == init;
            /* final <= old <= init (for min; reversed for max) */
            int ok = sgn ? (is_min ? as_signed(tc, final) <= as_signed(tc, o) && as_signed(tc, o) <= as_signed(tc, init)
                                   : as_signed(tc, final) >= as_signed(tc, o) && as_signed(tc, o) >= as_signed(tc, init))
                         : (is_min ? final <= o && o <= init : final >= o && o >= init);
            if (!ok)
                fail_msg("%s: old 0x%llx outside [init, final]", tc->name, (unsigned long long)o);
        }
        assert_true(saw_init);
        break;
    }
    case C_AND: case C_OR: case C_XOR: {
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = operand(tc, g0 + i) & m;
            acc = tc->chk == C_AND ? acc & v : tc->chk == C_OR ? acc | v : acc ^ v;
        }
        assert_int_equal(final, acc);
        if (tc->is_red || tc->chk == C_XOR)
            break;
        for (unsigned i = 0; i < n; i++) {
            uint64_t o = olds[i] & m;
            int ok = tc->chk == C_OR ? (o & init) == init && (o | final) == final
                                     : (o | init) == init && (o & final) == final;
            if (!ok)
                fail_msg("%s: old 0x%llx not between init and final", tc->name,
                         (unsigned long long)o);
        }
        break;
    }
    case C_INC: case C_DEC: {
        /* the sequence of states does not depend on the order */
        for (unsigned i = 0; i < n; i++) {
            s[i] = acc;
            if (tc->chk == C_INC)
                acc = acc >= tc->bound ? 0 : acc + 1;
            else
                acc = (acc == 0 || acc > tc->bound) ? tc->bound : acc - 1;
        }
        assert_int_equal(final, acc);
        if (tc->is_red)
            break;
        uint64_t *o = isa_calloc(c, n, sizeof *o);
        memcpy(o, olds, n * sizeof *o);
        qsort(o, n, sizeof *o, cmp_u64);
        qsort(s, n, sizeof *s, cmp_u64);
        for (unsigned i = 0; i < n; i++)
            if (o[i] != s[i]) {
                fail_msg("%s: multiset of returned values differs at %u", tc->name, i);
            }
        break;
    }
    case C_EXCH: {
        /* olds plus final = init plus all operands, as multisets */
        for (unsigned i = 0; i < n; i++) s[i] = operand(tc, g0 + i) & m;
        s[n] = init;
        uint64_t *o = isa_calloc(c, n + 1, sizeof *o);
        memcpy(o, olds, n * sizeof *o);
        o[n] = final;
        qsort(o, n + 1, sizeof *o, cmp_u64);
        qsort(s, n + 1, sizeof *s, cmp_u64);
        int same = memcmp(o, s, (n + 1) * sizeof *o) == 0;
        if (!same)
            fail_msg("%s: returned values + final are not a permutation of init + operands",
                     tc->name);
        break;
    }
    case C_CAS_ONE: {
        unsigned winners = 0;
        for (unsigned i = 0; i < n; i++) {
            if (olds[i] == init) {
                winners++;
                assert_int_equal(final, operand(tc, g0 + i) & m);
            } else {
                assert_int_equal(olds[i], final);
            }
        }
        assert_int_equal(winners, 1);
        break;
    }
    case C_CAS_LOOP: {
        assert_int_equal(final, (init + n) & m);
        uint64_t *o = isa_calloc(c, n, sizeof *o);
        memcpy(o, olds, n * sizeof *o);
        qsort(o, n, sizeof *o, cmp_u64);
        for (unsigned i = 0; i < n; i++)
            if (o[i] != ((init + i) & m)) {
                fail_msg("%s: CAS counter tickets are not init..init+n-1", tc->name);
            }
        break;
    }
    }
}

static void run_atom(void **state)
{
    isa_ctx *c = *state;
    const atom_case *tc = c->tcase;
    build(c, tc);
    size_t w = isa_type_size(tc->type);
    int shared = strcmp(tc->space, "shared") == 0;
    unsigned char init[CTAS * 8];
    for (int i = 0; i < CTAS; i++)
        memcpy(init + i * w, &tc->init, w);
    uint64_t daddr = isa_alloc_copy(c, init, CTAS * w);
    uint64_t dolds = isa_alloc(c, NT * w);
    isa_launch_ok(c, "k", (smc_dim3){ CTAS, 1, 1 }, (smc_dim3){ TPB, 1, 1 }, 0,
                  2, (uint64_t[]){ daddr, dolds });
    unsigned char raw[NT * 8], fin[CTAS * 8];
    isa_read(c, raw, dolds, NT * w);
    isa_read(c, fin, daddr, CTAS * w);
    uint64_t olds[NT];
    for (unsigned i = 0; i < NT; i++) {
        olds[i] = 0;
        memcpy(&olds[i], raw + i * w, w);
    }
    if (shared) {
        for (unsigned b = 0; b < CTAS; b++) {
            uint64_t f = 0;
            memcpy(&f, fin + b * w, w);
            check_group(c, tc, b * TPB, TPB, olds + b * TPB, f);
        }
    } else {
        uint64_t f = 0;
        memcpy(&f, fin, w);
        check_group(c, tc, 0, NT, olds, f);
    }
}

#define G "global"
#define S "shared"
static const atom_case cases[] = {
    { "atom.global.add.u32", G, "u32", "atom.add.u32", 0, C_ADD, 5, 0 },
    { "atom.global.add.u64", G, "u64", "atom.add.u64", 0, C_ADD, 0xfffffff0ull, 0 },
    { "atom.global.add.f32", G, "f32", "atom.add.f32", 0, C_FADD, 0x3f800000 /* 1.0 */, 0 },
    { "atom.global.add.f64", G, "f64", "atom.add.f64", 0, C_FADD, 0x4000000000000000ull, 0 },
    { "atom.global.min.u32", G, "u32", "atom.min.u32", 0, C_MIN_U, 350, 0 },
    { "atom.global.max.u32", G, "u32", "atom.max.u32", 0, C_MAX_U, 7, 0 },
    { "atom.global.min.s32", G, "s32", "atom.min.s32", 0, C_MIN_S, 100, 0 },
    { "atom.global.max.s32", G, "s32", "atom.max.s32", 0, C_MAX_S, 0xfffff000u, 0 },
    { "atom.global.min.u64", G, "u64", "atom.min.u64", 0, C_MIN_U, ~0ull, 0 },
    { "atom.global.max.s64", G, "s64", "atom.max.s64", 0, C_MAX_S, 0x8000000000000000ull, 0 },
    { "atom.global.and.b32", G, "b32", "atom.and.b32", 0, C_AND, 0xffffffffu, 0 },
    { "atom.global.or.b32", G, "b32", "atom.or.b32", 0, C_OR, 0x40000000u, 0 },
    { "atom.global.xor.b32", G, "b32", "atom.xor.b32", 0, C_XOR, 0x12345678u, 0 },
    { "atom.global.and.b64", G, "b64", "atom.and.b64", 0, C_AND, ~0ull, 0 },
    { "atom.global.or.b64", G, "b64", "atom.or.b64", 0, C_OR, 1ull << 62, 0 },
    { "atom.global.inc.u32 (wraps)", G, "u32", "atom.inc.u32", 0, C_INC, 3, 16 },
    { "atom.global.inc.u32 (no wrap)", G, "u32", "atom.inc.u32", 0, C_INC, 10, 1000000 },
    { "atom.global.dec.u32 (wraps)", G, "u32", "atom.dec.u32", 0, C_DEC, 2, 9 },
    { "atom.global.dec.u32 (start above bound)", G, "u32", "atom.dec.u32", 0, C_DEC, 500, 20 },
    { "atom.global.exch.b32", G, "b32", "atom.exch.b32", 0, C_EXCH, 77, 0 },
    { "atom.global.exch.b64", G, "b64", "atom.exch.b64", 0, C_EXCH, 1ull << 40, 0 },
    { "atom.global.cas.b32 (one winner)", G, "b32", "atom.cas.b32", 0, C_CAS_ONE, 12345, 0 },
    { "atom.global.cas.b64 (one winner)", G, "b64", "atom.cas.b64", 0, C_CAS_ONE, 1ull << 33, 0 },
    { "atom.global.cas.b32 (counter loop)", G, "b32", "atom.cas.b32", 0, C_CAS_LOOP, 40, 0 },
    { "atom.global.cas.b64 (counter loop)", G, "b64", "atom.cas.b64", 0, C_CAS_LOOP, 0xffffffffull - 100, 0 },
    { "red.global.add.u32", G, "u32", "red.add.u32", 1, C_ADD, 1, 0 },
    { "red.global.add.f32", G, "f32", "red.add.f32", 1, C_FADD, 0, 0 },
    { "red.global.min.s32", G, "s32", "red.min.s32", 1, C_MIN_S, 0, 0 },
    { "red.global.or.b64", G, "b64", "red.or.b64", 1, C_OR, 0, 0 },
    { "red.global.xor.b32", G, "b32", "red.xor.b32", 1, C_XOR, 0, 0 },
    { "red.global.add.u64", G, "u64", "red.add.u64", 1, C_ADD, 3, 0 },
    { "atom.add.u32 (generic address of global)", "generic", "u32", "atom.add.u32", 0, C_ADD, 5, 0 },
    { "atom.cas.b32 (generic, counter loop)", "generic", "b32", "atom.cas.b32", 0, C_CAS_LOOP, 7, 0 },
    { "atom.exch.b64 (generic)", "generic", "b64", "atom.exch.b64", 0, C_EXCH, 3, 0 },
    { "red.add.u32 (generic)", "generic", "u32", "red.add.u32", 1, C_ADD, 2, 0 },
    { "atom.shared.add.u32", S, "u32", "atom.add.u32", 0, C_ADD, 9, 0 },
    { "atom.shared.add.u64", S, "u64", "atom.add.u64", 0, C_ADD, 0xffffffffull, 0 },
    { "atom.shared.add.f32", S, "f32", "atom.add.f32", 0, C_FADD, 0x40400000 /* 3.0 */, 0 },
    { "atom.shared.min.s32", S, "s32", "atom.min.s32", 0, C_MIN_S, 5, 0 },
    { "atom.shared.max.u32", S, "u32", "atom.max.u32", 0, C_MAX_U, 0, 0 },
    { "atom.shared.and.b32", S, "b32", "atom.and.b32", 0, C_AND, 0xffffffffu, 0 },
    { "atom.shared.or.b32", S, "b32", "atom.or.b32", 0, C_OR, 0, 0 },
    { "atom.shared.xor.b64", S, "b64", "atom.xor.b64", 0, C_XOR, 99, 0 },
    { "atom.shared.inc.u32", S, "u32", "atom.inc.u32", 0, C_INC, 0, 7 },
    { "atom.shared.dec.u32", S, "u32", "atom.dec.u32", 0, C_DEC, 4, 30 },
    { "atom.shared.exch.b32", S, "b32", "atom.exch.b32", 0, C_EXCH, 1, 0 },
    { "atom.shared.cas.b32 (one winner)", S, "b32", "atom.cas.b32", 0, C_CAS_ONE, 8, 0 },
    { "atom.shared.cas.b32 (counter loop)", S, "b32", "atom.cas.b32", 0, C_CAS_LOOP, 0, 0 },
    { "atom.shared.cas.b64 (counter loop)", S, "b64", "atom.cas.b64", 0, C_CAS_LOOP, 1ull << 50, 0 },
    { "red.shared.add.u32", S, "u32", "red.add.u32", 1, C_ADD, 0, 0 },
    { "red.shared.max.s32", S, "s32", "red.max.s32", 1, C_MAX_S, 0x80000000u, 0 },
};

/* ---- f32 add: subnormals ---------------------------------------------------- */

/* atom/red.add.f32 on global memory flush subnormal inputs and results to a
 * zero of the same sign (PTX ISA); on shared memory subnormals are kept. One
 * thread, one location per case; operands are loaded from g[8..]. */
static void test_atom_add_f32_subnormal(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pg)\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .f32 %f<16>;\n\t.reg .b64 %rd<8>;\n"
        "\t.shared .align 4 .f32 sv;\n"
        "\tld.param.u64 %rd1, [pg];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tld.global.f32 %f1, [%rd2+32];\n\tld.global.f32 %f2, [%rd2+36];\n"
        "\tld.global.f32 %f3, [%rd2+40];\n\tld.global.f32 %f4, [%rd2+44];\n"
        "\tld.global.f32 %f5, [%rd2+48];\n"
        "\tatom.global.add.f32 %f10, [%rd2], %f1;\n"
        "\tred.global.add.f32 [%rd2+4], %f2;\n"
        "\tatom.add.f32 %f11, [%rd1+8], %f3;\n"          /* generic -> global */
        "\tred.global.add.f32 [%rd2+12], %f4;\n"
        "\tst.shared.f32 [sv], %f5;\n"
        "\tatom.shared.add.f32 %f12, [sv], %f5;\n"
        "\tld.shared.f32 %f13, [sv];\n\tst.global.f32 [%rd2+16], %f13;\n"
        "\tret;\n}\n");
    const uint32_t sub = 0x000116c2;                 /* 1e-40f, subnormal */
    uint32_t g[13] = {
        sub, 0x00800000 /* 2^-126 */, 0x00c00000 /* 1.5 * 2^-126 */, 0x80000000 | sub, 0,
        0, 0, 0,
        sub, 0x80400000 /* -2^-127 */, 0x80800000 /* -2^-126 */, 0x80000000 | sub, sub,
    };
    uint64_t dg = isa_alloc_copy(c, g, sizeof g);
    isa_launch_ok(c, "k", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 1, 1, 1 }, 0, 1, &dg);
    isa_read(c, g, dg, sizeof g);
    assert_int_equal(g[0], 0x00000000);    /* 1e-40 + 1e-40: both flushed */
    assert_int_equal(g[1], 0x00800000);    /* 2^-126 + (-2^-127 -> -0) */
    assert_int_equal(g[2], 0x00000000);    /* result 2^-127 flushed to +0 */
    assert_int_equal(g[3], 0x80000000);    /* -0 + -0 */
    assert_int_equal(g[4], 2 * sub);       /* shared: subnormals add exactly */
}

/* 16-bit atomics as nvcc 13 emits them for sm_75: atomicAdd on __half and
 * __half2 (inline asm `atom.add.noftz.f16` / `.f16x2`) and atomicCAS on an
 * unsigned short (`atom.global.cas.b16`). One thread, hand-derived values:
 *   f16:  1.0 + 2^-24 = 1.0 (rounds to nearest even), 2048 + 3 = 2052
 *         (2051 lies halfway between 2050 and 2052: even mantissa wins);
 *   f16x2: (1.5, -2.0) + (0.25, 0.5) = (1.75, -1.5);
 *   cas.b16: 0x1234 -> 0xbeef where it matched, unchanged where it did not,
 *         and the neighbouring 16 bits untouched. */
static void test_atom_16bit(void **state)
{
    isa_ctx *c = *state;
    isa_load(c, ISA_PTX_HEADER
        ".visible .entry k(.param .u64 pg, .param .u64 pout)\n{\n"
        "\t.reg .b16 %rs<12>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
        "\tld.param.u64 %rd1, [pg];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tld.param.u64 %rd3, [pout];\n\tcvta.to.global.u64 %rd3, %rd3;\n"
        "\tmov.b16 %rs1, 0x0001;\n"
        "\t{ atom.add.noftz.f16 %rs2,[%rd1],%rs1; }\n"
        "\tmov.b16 %rs3, 0x4200;\n"                      /* 3.0 */
        "\tatom.global.add.noftz.f16 %rs4, [%rd2+2], %rs3;\n"
        "\tmov.b32 %r1, 0x38003400;\n"                   /* (0.25, 0.5) */
        "\t{ atom.add.noftz.f16x2 %r2,[%rd1+4],%r1; }\n"
        "\tatom.global.cas.b16 %rs5, [%rd2+8], 0x1234, 0xbeef;\n"
        "\tatom.global.cas.b16 %rs6, [%rd2+10], 0x1234, 0xbeef;\n"
        "\tst.global.u16 [%rd3], %rs2;\n\tst.global.u16 [%rd3+2], %rs4;\n"
        "\tst.global.u32 [%rd3+4], %r2;\n"
        "\tst.global.u16 [%rd3+8], %rs5;\n\tst.global.u16 [%rd3+10], %rs6;\n"
        "\tret;\n}\n");
    uint16_t g[8] = { 0x3c00 /* 1.0 */, 0x6800 /* 2048 */, 0x3e00 /* 1.5 */, 0xc000 /* -2 */,
                      0x1234, 0x5678, 0xaaaa, 0x5555 };
    uint16_t out[6] = { 0 };
    uint64_t args[2] = { isa_alloc_copy(c, g, sizeof g), isa_alloc(c, sizeof out) };
    isa_launch_ok(c, "k", (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 1, 1, 1 }, 0, 2, args);
    isa_read(c, g, args[0], sizeof g);
    isa_read(c, out, args[1], sizeof out);
    assert_int_equal(g[0], 0x3c00);            /* 1.0 + 2^-24 = 1.0 */
    assert_int_equal(g[1], 0x6802);            /* 2048 + 3 = 2052 (mantissa 2) */
    assert_int_equal(g[2], 0x3f00);            /* 1.5 + 0.25 = 1.75 */
    assert_int_equal(g[3], 0xbe00);            /* -2 + 0.5 = -1.5 */
    assert_int_equal(g[4], 0xbeef);            /* matched: swapped */
    assert_int_equal(g[5], 0x5678);            /* did not match: unchanged */
    assert_int_equal(g[6], 0xaaaa);            /* neighbours untouched */
    assert_int_equal(g[7], 0x5555);
    assert_int_equal(out[0], 0x3c00);          /* the old values come back */
    assert_int_equal(out[1], 0x6800);
    assert_int_equal(out[2], 0x3e00);
    assert_int_equal(out[3], 0xc000);
    assert_int_equal(out[4], 0x1234);
    assert_int_equal(out[5], 0x5678);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_atom_add_f32_subnormal, isa_setup, isa_teardown),
        cmocka_unit_test_setup_teardown(test_atom_16bit, isa_setup, isa_teardown),
    };
    int rc = isa_run_group("isa_atom_f32", tests, sizeof tests / sizeof tests[0]);
    rc |= isa_run_table("isa_atom", run_atom, cases, sizeof cases[0],
                        sizeof cases / sizeof cases[0]);
    return rc;
}
