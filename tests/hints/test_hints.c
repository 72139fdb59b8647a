/*
 * test_hints.c — the HAWS hint pass, validator and hint files (hints/,
 * docs/haws.md "Hint pass").
 *
 * The kernels of tests/hints/ptx/hints.ptx carry, per instruction, the pc
 * and what the pass must make of it, worked out by hand from the rules; the
 * tests check the pass's words against those. The validator is checked on
 * the pass's own output for every PTX file of the repository and on one
 * hand-made wrong word per rule; random words and random hint-file text
 * must never crash it.
 *
 * Usage: test_hints [REPO_ROOT]   (default: the current directory)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smcosim.h"
#include "../../csrc/emu/emu.h"
#include "../../hints/haws_pass.h"
#include "../../csrc/ptx/ptx.h"

static smc_device *dev;
static smc_module *hints_mod;
static char err[1024];

static const emu_kernel *kernel_of(smc_module *m, const char *name)
{
    smc_kernel *k;
    if (smc_module_get_kernel(m, name, &k) != SMC_OK) fail_msg("no kernel %s", name);
    return smc_kernel_emu(k);
}
static const emu_kernel *hk(const char *name) { return kernel_of(hints_mod, name); }

static haws_opts opts(void) { haws_opts o; haws_opts_default(&o); return o; }

static void compute(const emu_kernel *ek, const haws_opts *o, haws_result *r)
{
    if (haws_compute(ek, o, r, err, sizeof err) != 0) fail_msg("haws_compute: %s", err);
}

/* pc is a format-1 member (or, when s == pc, the entry) whose next member is
 * `next` (0 = end of chain). */
static void f1(const haws_result *r, uint32_t s, uint32_t pc, uint32_t next)
{
    uint32_t w = r->hint[pc];
    if (haws_hint_is_branch(w)) fail_msg("pc %u: format 2, want format 1", pc);
    int want = next ? (int)next - (int)s : 0;
    if (haws_hint_offset(w) != want) fail_msg("pc %u: offset %d, want %d", pc, haws_hint_offset(w), want);
    if (pc == s) {
        assert_true(r->stall[pc]);
        assert_int_equal(haws_hint_rename(w), 0);
        assert_int_equal(haws_hint_dst(w), 0);
    } else {
        assert_int_equal(r->chain[pc], s);
    }
}
/* Nothing hinted at pc. */
static void none(const haws_result *r, uint32_t pc)
{
    if (r->hint[pc] != 0) fail_msg("pc %u: word 0x%06x, want 0", pc, r->hint[pc]);
    assert_int_equal(r->chain[pc], HAWS_NO_CHAIN);
}

/* ---- the pass on hand-checked kernels ----------------------------------------- */
static void test_fig53(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("fig53"), &o, &r);
    f1(&r, 3, 3, 4);          /* I3's entry hint names I4 (§5.3.2) */
    f1(&r, 3, 4, 6);          /* I4 -> I6 */
    none(&r, 5);              /* I5 depends on I3: skipped */
    f1(&r, 3, 6, 0);
    assert_int_equal(haws_hint_rename(r.hint[4]) | haws_hint_rename(r.hint[6]), 0);
    assert_true(r.stall[7]);  /* a second stall point: the chain ends there */
    none(&r, 7); none(&r, 8); none(&r, 9);
    assert_int_equal(r.sum.stall_points, 2);
    assert_int_equal(r.sum.chains, 1);
    assert_int_equal(r.sum.hinted, 2);
    assert_int_equal(r.sum.renames, 0);
    assert_int_equal(r.sum.regs_haws, r.sum.regs_per_thread);
    haws_result_free(&r);
}

static void test_war_rename(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    const emu_kernel *ek = hk("war_rename");
    compute(ek, &o, &r);
    f1(&r, 7, 7, 9);
    none(&r, 8);
    /* 9 writes %rd1, which the skipped store 8 reads: renamed into the
     * pool, an even pair (a 64-bit value) */
    uint32_t w = r.hint[9];
    assert_int_equal(haws_hint_rename(w), 1);
    uint32_t base = haws_pool_base(emu_kernel_ptx(ek)->regs_per_thread);
    assert_int_equal(haws_hint_dst(w), base);
    assert_int_equal(haws_hint_offset(w), 10 - 7);
    f1(&r, 7, 10, 11);
    f1(&r, 7, 11, 12);
    /* the loop branch: conditional, format 2; its taken side wraps to 5
     * (offset -2), then the load 6 (may alias the skipped store: skipped)
     * and the stall point itself end it; the fall-through side is at the
     * reconvergence point */
    assert_true(haws_hint_is_branch(r.hint[12]));
    assert_int_equal(haws_hint_direct(r.hint[12]), 0);
    assert_int_equal(haws_hint_taken(r.hint[12]), 5 - 7);
    assert_int_equal(haws_hint_fallthru(r.hint[12]), 0);
    assert_int_equal(r.chain[12], 7);
    f1(&r, 7, 5, 0);
    none(&r, 6);
    assert_int_equal(r.sum.hinted, 5);
    assert_int_equal(r.sum.branch_members, 1);
    assert_true(r.sum.renames >= 1);
    assert_true(r.sum.regs_haws >= base + 2);
    haws_result_free(&r);

    /* without branch hints the chain ends before the branch */
    o.branch_hints = 0;
    compute(ek, &o, &r);
    f1(&r, 7, 11, 0);
    none(&r, 12);
    none(&r, 5);
    haws_result_free(&r);
}

/* A conditional branch with nothing to hint on either side is not made a
 * member: the chain ends before it. */
static void test_branch_trim(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("branch_trim"), &o, &r);
    f1(&r, 3, 3, 4);
    f1(&r, 3, 4, 0);
    none(&r, 5);
    none(&r, 6);
    haws_result_free(&r);
}

static void test_barrier_shadow(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("barrier_shadow"), &o, &r);
    f1(&r, 3, 3, 4);
    f1(&r, 3, 4, 6);          /* over the barrier */
    none(&r, 5);              /* the barrier is never a member */
    f1(&r, 3, 6, 0);          /* ALU past the barrier: a member */
    none(&r, 7);              /* memory past the barrier: skipped */
    haws_result_free(&r);
}

static void test_mem_alias(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    const emu_kernel *ek = hk("mem_alias");
    compute(ek, &o, &r);
    f1(&r, 4, 4, 6);          /* a store as stall point is itself skipped memory */
    none(&r, 5);              /* reads the bytes the skipped store writes */
    assert_int_equal(r.chain[6], 4);                       /* disjoint, same base */
    assert_int_equal(haws_hint_offset(r.hint[6]), 8 - 4);
    none(&r, 7);              /* another base: may alias */
    assert_int_equal(r.chain[8], 4);                       /* .param never aliases */
    assert_int_equal(haws_hint_offset(r.hint[8]), 0);
    none(&r, 9);
    haws_result_free(&r);

    /* memory hints off: only ALU members; 6 and 8 are loads */
    o.mem_hints = 0;
    compute(ek, &o, &r);
    none(&r, 6); none(&r, 8);
    assert_int_equal(r.hint[4], 0);
    assert_int_equal(r.sum.mem_members, 0);
    haws_result_free(&r);
}

static void test_direct_branch(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("direct_branch"), &o, &r);
    f1(&r, 3, 3, 4);
    uint32_t w = r.hint[4];
    assert_true(haws_hint_is_branch(w));
    assert_int_equal(haws_hint_direct(w), 1);
    assert_int_equal(haws_hint_taken(w), 6 - 3);
    assert_int_equal(haws_hint_fallthru(w), 0);
    assert_int_equal(r.chain[6], 3);
    none(&r, 5);
    haws_result_free(&r);
}

static void test_never_members(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("never_members"), &o, &r);
    f1(&r, 3, 3, 7);
    none(&r, 4);              /* atom */
    none(&r, 5);              /* %clock */
    none(&r, 6);              /* ld.volatile */
    f1(&r, 3, 7, 0);
    none(&r, 9);              /* past the membar: the chain ended there */
    haws_result_free(&r);
}

static void test_carry_members(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("carry_members"), &o, &r);
    f1(&r, 3, 3, 6);
    none(&r, 4);              /* add.cc */
    none(&r, 5);              /* addc: reads the carry, independent otherwise */
    assert_int_equal(haws_hint_offset(r.hint[6]), 9 - 3);
    f1(&r, 3, 9, 0);
    haws_result_free(&r);
}

static void test_join_stop(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("join_stop"), &o, &r);
    f1(&r, 6, 6, 7);
    f1(&r, 6, 7, 0);          /* ends before the reconvergence point 8 */
    none(&r, 8);
    haws_result_free(&r);
}

/* A producer's dead destination shares its physical register with a later
 * definition: the definition is a stall point (the core blocks it on the
 * scoreboard, WAW) and never a member of the earlier chain, whose word the
 * core would otherwise read as an entry hint from the wrong pc. */
static void test_dead_waw(void **state)
{
    (void)state;
    const emu_kernel *ek = hk("dead_waw");
    /* the premise: %r3 (dead) and %r4 share a physical register */
    assert_int_equal(emu_kernel_inst(ek, 4)->dst[0], emu_kernel_inst(ek, 5)->dst[0]);
    haws_opts o = opts();
    haws_result r;
    compute(ek, &o, &r);
    assert_true(r.stall[3]);
    assert_int_equal(r.hint[3], 0);       /* 4 skipped, 5 a stall point: no chain */
    none(&r, 4);
    assert_true(r.stall[5]);
    f1(&r, 5, 5, 6);
    f1(&r, 5, 6, 7);
    f1(&r, 5, 7, 0);
    none(&r, 8);
    assert_true(r.stall[9]);
    haws_result_free(&r);
}

static void test_eight_members(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    compute(hk("eight_members"), &o, &r);
    f1(&r, 3, 3, 4);
    for (uint32_t pc = 4; pc < 11; pc++) f1(&r, 3, pc, pc + 1);
    f1(&r, 3, 11, 0);         /* the 8th member ends the chain */
    none(&r, 12);
    none(&r, 13);
    assert_int_equal(r.sum.max_members, 8);
    haws_result_free(&r);
}

/* A kernel with `gap` dependent instructions between the stall point (pc 3)
 * and one independent one: it is a member only within 255 of the stall
 * point (9-bit signed offset). */
static smc_module *gap_module(uint32_t gap)
{
    size_t cap = 128 * (size_t)gap + 2048;
    char *t = malloc(cap);
    assert_non_null(t);
    int n = snprintf(t, cap, ".version 9.0\n.target sm_75\n.address_size 64\n"
                     ".visible .entry gap(.param .u64 p_out, .param .u64 p_in)\n{\n"
                     "\t.reg .f32 %%f<4>;\n\t.reg .b64 %%rd<4>;\n"
                     "\tld.param.u64 %%rd0, [p_out];\n\tld.param.u64 %%rd1, [p_in];\n"
                     "\tld.global.f32 %%f1, [%%rd1];\n\tadd.f32 %%f2, %%f1, 0f3F800000;\n");
    for (uint32_t i = 0; i < gap; i++)
        n += snprintf(t + n, cap - (size_t)n, "\tadd.f32 %%f2, %%f2, 0f3F800000;\n");
    n += snprintf(t + n, cap - (size_t)n, "\tadd.s64 %%rd2, %%rd0, 4;\n\tst.global.f32 [%%rd2], %%f2;\n"
                  "\tst.global.f32 [%%rd0], %%f1;\n\tret;\n}\n");
    smc_module *m;
    if (smc_module_load_ptx(dev, "gap.ptx", t, (size_t)n, &m) != SMC_OK) fail_msg("%s", smc_last_message(dev));
    free(t);
    return m;
}

static void test_offset_range(void **state)
{
    (void)state;
    haws_opts o = opts();
    haws_result r;
    /* member at offset 255: the largest a 9-bit signed offset holds */
    smc_module *m = gap_module(254);
    compute(kernel_of(m, "gap"), &o, &r);
    f1(&r, 3, 3, 3 + 255);
    assert_int_equal(r.chain[3 + 255], 3);
    haws_result_free(&r);
    smc_module_unload(m);
    /* one further: out of range, no chain */
    m = gap_module(255);
    compute(kernel_of(m, "gap"), &o, &r);
    assert_int_equal(r.hint[3], 0);
    assert_int_equal(r.sum.hinted, 0);
    haws_result_free(&r);
    smc_module_unload(m);
}

/* ---- the pass on the benchmarks, and the validator on all PTX ---------------- */
static void test_bench_chains(void **state)
{
    (void)state;
    static const char *const want[][2] = {
        { "bench/ptx/matmul.ptx", "matmul_naive" },
        { "bench/ptx/gemm.ptx", "gemm" },
        { "bench/ptx/2mm.ptx", "mm2_kernel1" },
        { "bench/ptx/2mm.ptx", "mm2_kernel2" },
    };
    haws_opts o = opts();
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        smc_module *m;
        if (smc_module_load_ptx_file(dev, want[i][0], &m) != SMC_OK) fail_msg("%s", smc_last_message(dev));
        haws_result r;
        compute(kernel_of(m, want[i][1]), &o, &r);
        if (r.sum.chains == 0 || r.sum.hinted == 0) fail_msg("%s %s: no chain", want[i][0], want[i][1]);
        haws_result_free(&r);
        smc_module_unload(m);
    }
}

/* haws.cross_stall_points=1 (C.9 #33): in matmul_naive's unrolled loop the
 * chain of the first fma (pc 39) no longer ends at the second fma (43, a
 * stall point: skipped) and takes the next address add (44, which needs
 * only member 40's %rd22 and the loop-invariant %rd5). */
static void test_cross_stall_points(void **state)
{
    (void)state;
    smc_module *m;
    if (smc_module_load_ptx_file(dev, "bench/ptx/matmul.ptx", &m) != SMC_OK) fail_msg("%s", smc_last_message(dev));
    const emu_kernel *ek = kernel_of(m, "matmul_naive");
    assert_int_equal(emu_kernel_inst(ek, 43)->op, emu_kernel_inst(ek, 39)->op);   /* both fma */
    haws_opts o = opts();
    haws_result r;
    compute(ek, &o, &r);
    assert_true(r.stall[39] && r.stall[43]);
    assert_int_equal(r.chain[44], 43);        /* default: 44 belongs to the next chain */
    assert_int_equal(haws_hint_offset(r.hint[42]), 0);
    haws_result_free(&r);
    o.cross_stall_points = 1;
    compute(ek, &o, &r);
    assert_int_equal(r.chain[44], 39);
    assert_int_equal(haws_hint_offset(r.hint[42]), 44 - 39);
    assert_int_equal(r.chain[43], HAWS_NO_CHAIN);
    haws_result_free(&r);
    smc_module_unload(m);
}

/* The validator accepts the pass's output for every kernel of every PTX
 * file under bench/ptx, tests/emu/ptx, tests/isa/ptx and tests/hints/ptx,
 * under each option set (D.1 #7). */
static void test_validator_accepts_pass(void **state)
{
    (void)state;
    static const char *const dirs[] = { "bench/ptx", "tests/emu/ptx", "tests/isa/ptx", "tests/hints/ptx" };
    uint32_t files = 0, kernels = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) fail_msg("cannot open %s", dirs[d]);
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t l = strlen(e->d_name);
            if (l < 5 || strcmp(e->d_name + l - 4, ".ptx")) continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            smc_module *m;
            if (smc_module_load_ptx_file(dev, path, &m) != SMC_OK) continue;   /* malformed on purpose */
            files++;
            for (uint32_t i = 0; i < smc_module_kernel_count(m); i++) {
                const emu_kernel *ek = smc_kernel_emu(smc_module_kernel_at(m, i));
                for (int variant = 0; variant < 4; variant++) {
                    haws_opts o = opts();
                    o.mem_hints = variant != 1;
                    o.branch_hints = variant != 2;
                    o.cross_stall_points = variant == 3;
                    haws_result r;
                    if (haws_compute(ek, &o, &r, err, sizeof err) != 0)
                        fail_msg("%s variant %d: %s", path, variant, err);
                    /* and the validator alone, on the same words */
                    if (haws_validate(ek, 8, r.hint, 1, NULL, NULL, err, sizeof err) != 0)
                        fail_msg("%s: %s", path, err);
                    assert_true(r.sum.hinted <= r.sum.ninsts);
                    assert_true(r.sum.chains <= r.sum.stall_points);
                    haws_result_free(&r);
                }
                kernels++;
            }
            smc_module_unload(m);
        }
        closedir(dir);
    }
    print_message("validator: pass output of %u kernels in %u files accepted\n", kernels, files);
    assert_true(files >= 18 + 6);
}

/* ---- an independent oracle: the reordered execution reads what program
 * order reads ------------------------------------------------------------------
 *
 * For every path of every chain the pass emits, replay two orders on
 * register *versions* (which path instruction wrote the value): program
 * order, and the HAWS order (members first, in path order, writing renamed
 * ids and reading through the renaming map; then the return pass: skipped
 * instructions in order, a copy at each renamed member, hinted branches
 * re-executed). Every instruction must read the same versions in both, and
 * the kernel's registers must end equal. Memory instructions moved ahead of
 * a skipped one must be provably disjoint from it (or both loads), none may
 * follow a barrier, and never-members never appear. This shares no code with
 * the pass's rules (hints/haws_rules.c): it checks their outcome. */
#define OR_REGS (256 + 32)
#define OR_MAX 1100
typedef struct opath { uint32_t n, pc[OR_MAX]; uint8_t member[OR_MAX]; int32_t ren[OR_MAX]; } opath;

static int or_reads(const emu_inst_info *x, uint32_t *r)
{
    int n = 0;
    for (uint32_t i = 0; i < x->nsrc; i++) r[n++] = x->src[i];
    for (uint32_t i = 0; i < x->nsrc_pred; i++) r[n++] = 256 + x->src_pred[i];
    return n;
}
static int or_writes(const emu_inst_info *x, uint32_t *w)
{
    int n = 0;
    for (uint32_t i = 0; i < x->ndst; i++) w[n++] = x->dst[i];
    for (uint32_t i = 0; i < x->ndst_pred; i++) w[n++] = 256 + x->dst_pred[i];
    return n;
}
static int32_t or_addr_base(const ptx_insn *in, int64_t *off)
{
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == OK_ADDR) { *off = (int64_t)in->ops[i].imm; return in->ops[i].reg; }
    *off = 0;
    return -1;
}
static bool or_vreg_written(const ptx_kernel *k, const opath *P, uint32_t from, uint32_t to, int32_t v)
{
    for (uint32_t i = from; i < to; i++) {
        int32_t d[8], sr[16]; uint32_t nd, ns;
        ptx_insn_regs(&k->code[P->pc[i]], d, &nd, sr, &ns);
        for (uint32_t j = 0; j < nd; j++) if (d[j] == v) return true;
    }
    return false;
}

static uint32_t oracle_paths;

static char oracle_msg[512];
#define OFAIL(...) do { snprintf(oracle_msg, sizeof oracle_msg, __VA_ARGS__); return -1; } while (0)

/* 0, or -1 with the first difference in oracle_msg. */
static int oracle_check(const emu_kernel *ek, const opath *P, const char *where)
{
    const ptx_kernel *k = emu_kernel_ptx(ek);
    static int32_t cur[OR_REGS], prog_rd[OR_MAX][24], haws_rd[OR_MAX][24];
    static int32_t map[OR_REGS];
    uint32_t r[24], w[16];
    oracle_paths++;
    /* program order */
    for (uint32_t i = 0; i < OR_REGS; i++) cur[i] = -1 - (int32_t)i;
    for (uint32_t i = 0; i < P->n; i++) {
        const emu_inst_info *x = emu_kernel_inst(ek, P->pc[i]);
        int nr = or_reads(x, r), nw = or_writes(x, w);
        for (int j = 0; j < nr; j++) prog_rd[i][j] = cur[r[j]];
        for (int j = 0; j < nw; j++) cur[w[j]] = (int32_t)i;
    }
    int32_t final_prog[OR_REGS];
    memcpy(final_prog, cur, sizeof cur);
    /* HAWS order: members ahead, through the renaming map */
    for (uint32_t i = 0; i < OR_REGS; i++) { cur[i] = -1 - (int32_t)i; map[i] = (int32_t)i; }
    for (uint32_t i = 0; i < P->n; i++) {
        if (!P->member[i]) continue;
        const emu_inst_info *x = emu_kernel_inst(ek, P->pc[i]);
        int nr = or_reads(x, r), nw = or_writes(x, w);
        for (int j = 0; j < nr; j++) haws_rd[i][j] = cur[map[r[j]]];
        for (int j = 0; j < nw; j++) {
            if (P->ren[i] >= 0) {
                uint32_t to = (uint32_t)P->ren[i] + (uint32_t)j;
                if (to >= 256 || w[j] >= 256) OFAIL("%s: pc %u: rename of a predicate or beyond 255", where, P->pc[i]);
                cur[to] = (int32_t)i; map[w[j]] = (int32_t)to;
            } else {
                cur[w[j]] = (int32_t)i; map[w[j]] = (int32_t)w[j];
            }
        }
    }
    /* the return pass: original ids, copies in place of renamed members */
    for (uint32_t i = 0; i < P->n; i++) {
        const emu_inst_info *x = emu_kernel_inst(ek, P->pc[i]);
        int nr = or_reads(x, r), nw = or_writes(x, w);
        if (!P->member[i]) {
            for (int j = 0; j < nr; j++) haws_rd[i][j] = cur[r[j]];
            for (int j = 0; j < nw; j++) cur[w[j]] = (int32_t)i;
        } else if (P->ren[i] >= 0) {
            for (int j = 0; j < nw; j++) cur[w[j]] = cur[(uint32_t)P->ren[i] + (uint32_t)j];
        } else if (x->is_branch) {
            int32_t again[24];
            for (int j = 0; j < nr; j++) again[j] = cur[r[j]];
            for (int j = 0; j < nr; j++)
                if (again[j] != prog_rd[i][j])
                    OFAIL("%s: re-executed branch pc %u reads another value of r%u", where, P->pc[i], r[j]);
        }
    }
    for (uint32_t i = 0; i < P->n; i++) {
        const emu_inst_info *x = emu_kernel_inst(ek, P->pc[i]);
        int nr = or_reads(x, r);
        for (int j = 0; j < nr; j++)
            if (haws_rd[i][j] != prog_rd[i][j])
                OFAIL("%s: pc %u (%s) reads id %u written by path step %d, in program order by %d",
                         where, P->pc[i], P->member[i] ? "member" : "skipped", r[j], haws_rd[i][j], prog_rd[i][j]);
    }
    for (uint32_t id = 0; id < OR_REGS; id++) {
        if (id < 256 && id >= k->regs_per_thread) continue;      /* the pool */
        if (cur[id] != final_prog[id])
            OFAIL("%s: id %u ends with the value of step %d, in program order %d", where, id, cur[id], final_prog[id]);
    }
    /* memory and never-members */
    bool barrier = false;
    for (uint32_t j = 0; j < P->n; j++) {
        const emu_inst_info *x = emu_kernel_inst(ek, P->pc[j]);
        const ptx_insn *in = &k->code[P->pc[j]];
        if (x->is_barrier) barrier = true;
        if (!P->member[j]) continue;
        if (x->is_barrier || x->is_exit || x->is_atomic || in->op == OP_CALL || in->op == OP_FENCE ||
            in->op == OP_MEMBAR || (in->flags & F_VOLATILE))
            OFAIL("%s: pc %u (%s) is a member", where, P->pc[j], x->name);
        for (uint32_t o = 0; o < in->nops; o++)
            if (in->ops[o].kind == OK_SREG && (in->ops[o].reg == SR_CLOCK || in->ops[o].reg == SR_CLOCK64 ||
                in->ops[o].reg == SR_CLOCK_HI || in->ops[o].reg == SR_GLOBALTIMER ||
                in->ops[o].reg == SR_GLOBALTIMER_LO || in->ops[o].reg == SR_GLOBALTIMER_HI))
                OFAIL("%s: pc %u reads a clock and is a member", where, P->pc[j]);
        if (x->op_class != EC_MEM) continue;
        bool ro = !x->is_store && (in->space == SP_PARAM || in->space == SP_CONST);
        if (ro) continue;
        if (barrier) OFAIL("%s: memory member pc %u after a barrier", where, P->pc[j]);
        for (uint32_t i = 0; i < j; i++) {
            if (P->member[i]) continue;                  /* order kept */
            const emu_inst_info *y = emu_kernel_inst(ek, P->pc[i]);
            const ptx_insn *iy = &k->code[P->pc[i]];
            if (y->op_class != EC_MEM || (!x->is_store && !y->is_store)) continue;
            if (!y->is_store && (iy->space == SP_PARAM || iy->space == SP_CONST)) continue;
            if (in->space != SP_GENERIC && iy->space != SP_GENERIC && in->space != iy->space) continue;
            int64_t ox, oy;
            int32_t bx = or_addr_base(in, &ox), by = or_addr_base(iy, &oy);
            bool disjoint = in->space == iy->space && in->space != SP_GENERIC && bx == by &&
                            !(bx >= 0 && or_vreg_written(k, P, i, j, bx)) &&
                            (ox + x->access_size <= oy || oy + y->access_size <= ox);
            if (!disjoint) OFAIL("%s: memory member pc %u moved ahead of skipped pc %u it may alias", where, P->pc[j], P->pc[i]);
        }
    }
    return 0;
}

/* Enumerate the paths the words describe and check each. */
static void oracle_walk(const emu_kernel *ek, const uint32_t *h, uint32_t s, opath *P, uint32_t start, int off,
                        const char *where)
{
    const ptx_kernel *k = emu_kernel_ptx(ek);
    for (;;) {
        if (off == 0) { if (oracle_check(ek, P, where) != 0) fail_msg("%s", oracle_msg); return; }
        uint32_t m = (uint32_t)((int)s + off);
        assert_true(m < k->ncode && m >= start);
        for (uint32_t pc = start; pc <= m; pc++) {
            const emu_inst_info *x = emu_kernel_inst(ek, pc);
            if (pc < m && (x->is_branch || x->is_exit || x->is_call || k->code[pc].op == OP_CALL))
                fail_msg("%s: the path to member %u crosses %s at %u", where, m, x->name, pc);
            assert_true(P->n < OR_MAX);
            P->pc[P->n] = pc; P->member[P->n] = pc == m;
            P->ren[P->n] = pc == m && !haws_hint_is_branch(h[m]) && haws_hint_rename(h[m]) ? (int32_t)haws_hint_dst(h[m]) : -1;
            P->n++;
        }
        uint32_t w = h[m];
        if (!emu_kernel_inst(ek, m)->is_branch) { start = m + 1; off = haws_hint_offset(w); continue; }
        if (haws_hint_direct(w)) { start = k->code[m].target; off = haws_hint_taken(w); continue; }
        opath *side = malloc(sizeof *side);
        assert_non_null(side);
        *side = *P;
        oracle_walk(ek, h, s, side, k->code[m].target, haws_hint_taken(w), where);
        free(side);
        start = m + 1; off = haws_hint_fallthru(w);
    }
}

static void oracle_kernel(const emu_kernel *ek, const haws_opts *o, const char *file)
{
    haws_result r;
    compute(ek, o, &r);
    char where[300];
    opath *P = malloc(sizeof *P);
    assert_non_null(P);
    for (uint32_t s = 0; s < r.n; s++) {
        if (!r.stall[s] || !r.hint[s]) continue;
        snprintf(where, sizeof where, "%s kernel %s chain %u", file, emu_kernel_ptx(ek)->name, s);
        P->n = 1; P->pc[0] = s; P->member[0] = 0; P->ren[0] = -1;
        oracle_walk(ek, r.hint, s, P, s + 1, haws_hint_offset(r.hint[s]), where);
    }
    free(P);
    haws_result_free(&r);
}

static void test_reorder_oracle(void **state)
{
    (void)state;
    static const char *const files[] = {
        "bench/ptx/2mm.ptx", "bench/ptx/atax.ptx", "bench/ptx/bfs.ptx", "bench/ptx/bicg.ptx",
        "bench/ptx/bitonic.ptx", "bench/ptx/conv2d.ptx", "bench/ptx/fwt.ptx", "bench/ptx/gemm.ptx",
        "bench/ptx/histogram.ptx", "bench/ptx/jacobi2d.ptx", "bench/ptx/kmeans.ptx", "bench/ptx/matmul.ptx",
        "bench/ptx/mvt.ptx", "bench/ptx/scalarprod.ptx", "bench/ptx/scan.ptx", "bench/ptx/spmv.ptx",
        "bench/ptx/transpose.ptx", "bench/ptx/vectoradd.ptx", "tests/hints/ptx/hints.ptx",
        "tests/emu/ptx/apps.ptx", "tests/emu/ptx/basics.ptx", "tests/emu/ptx/feat.ptx",
        "tests/emu/ptx/math.ptx", "tests/emu/ptx/runtime.ptx", "tests/emu/ptx/bench.ptx",
        "tests/hints/ptx/devcxx.ptx",
    };
    oracle_paths = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        smc_module *m;
        if (smc_module_load_ptx_file(dev, files[f], &m) != SMC_OK) fail_msg("%s", smc_last_message(dev));
        for (uint32_t i = 0; i < smc_module_kernel_count(m); i++)
            for (int cross = 0; cross < 2; cross++) {
                haws_opts o = opts();
                o.cross_stall_points = (uint32_t)cross;
                oracle_kernel(smc_kernel_emu(smc_module_kernel_at(m, i)), &o, files[f]);
            }
        smc_module_unload(m);
    }
    print_message("oracle: %u chain paths replayed, program order = HAWS order\n", oracle_paths);
    assert_true(oracle_paths > 100);
}

/* The oracle itself catches a wrong word: a rename bit cleared (WAR) and a
 * RAW member (the oracle must be able to fail). */
static void test_oracle_detects(void **state)
{
    (void)state;
    const emu_kernel *ek = hk("war_rename");
    haws_opts o = opts();
    haws_result r;
    compute(ek, &o, &r);
    /* replay by hand with the rename dropped: the skipped store 8 then
     * reads the member 9's %rd1 */
    opath P = { 0 };
    uint32_t seq[] = { 7, 8, 9 };
    for (uint32_t i = 0; i < 3; i++) { P.pc[i] = seq[i]; P.member[i] = seq[i] == 9; P.ren[i] = -1; }
    P.n = 3;
    assert_int_equal(oracle_check(ek, &P, "mutant"), -1);
    assert_non_null(strstr(oracle_msg, "pc 8 (skipped) reads id"));
    /* and with the rename as the pass made it, the same steps pass */
    P.ren[2] = (int32_t)haws_hint_dst(r.hint[9]);
    if (oracle_check(ek, &P, "pass") != 0) fail_msg("%s", oracle_msg);
    /* a RAW member: 8 (reads the stall point's %f1) run ahead */
    P.member[1] = 1; P.member[2] = 0; P.ren[2] = -1;
    assert_int_equal(oracle_check(ek, &P, "raw"), -1);
    haws_result_free(&r);
}

/* ---- wrong hints, one per rule ------------------------------------------------- */
/* Validate the pass's words of kernel `name` after `edit` changed them;
 * expect rule `rule` and a message naming kernel, pc and rule. */
typedef void (*edit_fn)(uint32_t *h, const emu_kernel *ek);
static void expect_rule(const char *name, edit_fn edit, int rule, uint32_t pc)
{
    const emu_kernel *ek = hk(name);
    haws_opts o = opts();
    haws_result r;
    compute(ek, &o, &r);
    edit(r.hint, ek);
    int got = haws_validate(ek, 8, r.hint, 1, NULL, NULL, err, sizeof err);
    if (got != rule)
        fail_msg("%s: rule %s, want %s (%s)", name, haws_rule_name((unsigned)got), haws_rule_name((unsigned)rule), err);
    char want[128];
    snprintf(want, sizeof want, "kernel %s pc %u (line %u): HAWS hint", name, pc, emu_kernel_inst(ek, pc)->ptx_line);
    if (!strstr(err, want)) fail_msg("message '%s' lacks '%s'", err, want);
    snprintf(want, sizeof want, "[rule %s]", haws_rule_name((unsigned)rule));
    if (!strstr(err, want)) fail_msg("message '%s' lacks '%s'", err, want);
    haws_result_free(&r);
}

/* fig53: I5 (reads I3's result) named as a member: 3 -> 4 -> 5 -> 6 */
static void e_raw(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[4] = haws_hint_f1(5 - 3, 0, haws_hint_dst(h[4]));
    h[5] = haws_hint_f1(6 - 3, 0, 0);
}
/* war_rename: the rename bit of 9 cleared */
static void e_war(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[9] = haws_hint_f1(haws_hint_offset(h[9]), 0, 0);
}
/* barrier_shadow: the bar.sync at 5 named as a member */
static void e_barrier(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[4] = haws_hint_f1(5 - 3, 0, haws_hint_dst(h[4]));
    h[5] = haws_hint_f1(6 - 3, 0, 0);
}
/* barrier_shadow: the load 7 after the barrier named as a member */
static void e_past_barrier(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[6] = haws_hint_f1(7 - 3, 0, haws_hint_dst(h[6]));
    h[7] = haws_hint_f1(0, 0, 0);
}
/* never_members: the atom at 4 named as the first member */
static void e_atomic(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[3] = haws_hint_f1(4 - 3, 0, 0);
    h[4] = haws_hint_f1(7 - 3, 0, 0);
}
/* never_members: the %clock reader */
static void e_clock(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[3] = haws_hint_f1(5 - 3, 0, 0);
    h[5] = haws_hint_f1(7 - 3, 0, 0);
}
/* never_members: the ld.volatile at 6 */
static void e_volatile(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[3] = haws_hint_f1(6 - 3, 0, 0);
    h[6] = haws_hint_f1(7 - 3, 0, 0);
}
/* carry_members: the addc at 5 (independent but for the carry) named */
static void e_carry(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[3] = haws_hint_f1(5 - 3, 0, 0);
    h[5] = haws_hint_f1(6 - 3, 0, 0);
}
/* join_stop: the chain continued to pc 8, the reconvergence point */
static void e_join(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[7] = (h[7] & ~0x1FFu) | (uint32_t)(8 - 6);   /* keeps 7's own rename */
    h[8] = haws_hint_f1(0, 0, 0);
}
/* never_members: past the membar at 8 */
static void e_fence(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[7] = haws_hint_f1(9 - 3, 0, haws_hint_dst(h[7]));
    h[9] = haws_hint_f1(0, 0, 0);
}
/* mem_alias: the load 5 of the bytes the skipped store 4 writes */
static void e_alias(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[4] = haws_hint_f1(5 - 4, 0, 0);
    h[5] = haws_hint_f1(0, 0, 0);
}
/* fig53: the entry offset leads past the end of the kernel */
static void e_outside(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[3] = haws_hint_f1(200, 0, 0);
}
/* war_rename: the renamed id below the pool (a register of the kernel) */
static void e_rename_low(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[9] = haws_hint_f1(haws_hint_offset(h[9]), 1, 0);
}
/* war_rename: a 64-bit value renamed to an odd id */
static void e_rename_odd(uint32_t *h, const emu_kernel *ek)
{
    h[9] = haws_hint_f1(haws_hint_offset(h[9]), 1, haws_pool_base(emu_kernel_ptx(ek)->regs_per_thread) + 1);
}
/* eight_members: a 9th member */
static void e_nine(uint32_t *h, const emu_kernel *ek)
{
    (void)ek;
    h[11] = haws_hint_f1(12 - 3, 0, haws_hint_dst(h[11]));
    h[12] = haws_hint_f1(0, 0, 0);
}
/* fig53: a word on pc 9, which no chain reaches */
static void e_orphan(uint32_t *h, const emu_kernel *ek) { (void)ek; h[9] = haws_hint_f1(0, 0, 0) | 1u; }
/* fig53: format 2 on the ALU member 4 */
static void e_format(uint32_t *h, const emu_kernel *ek) { (void)ek; h[4] = haws_hint_f2(1, 6 - 3, 0); }
/* direct_branch: the type bit says conditional */
static void e_type(uint32_t *h, const emu_kernel *ek) { (void)ek; h[4] = haws_hint_f2(0, 6 - 3, 0); }
/* war_rename: a member beyond a skipped branch (the chain of 7 jumping from
 * 11 to 13 past the loop branch 12) */
static void e_control(uint32_t *h, const emu_kernel *ek) { (void)ek; h[11] = haws_hint_f1(13 - 7, 0, haws_hint_dst(h[11])); }
/* fig53: the stall point 7 named as a member */
static void e_stall(uint32_t *h, const emu_kernel *ek) { (void)ek; h[6] = haws_hint_f1(7 - 3, 0, haws_hint_dst(h[6])); }
/* eight_members: a physical-only WAR (5 writes the register the stall
 * point read) with its rename bit cleared */
static void e_phys_war(uint32_t *h, const emu_kernel *ek) { (void)ek; h[5] = haws_hint_f1(haws_hint_offset(h[5]), 0, 0); }

static void test_wrong_hints(void **state)
{
    (void)state;
    expect_rule("fig53", e_raw, HAWS_RULE_RAW, 5);
    expect_rule("war_rename", e_war, HAWS_RULE_RENAME_MISSING, 9);
    expect_rule("barrier_shadow", e_barrier, HAWS_RULE_BARRIER_MEMBER, 5);
    expect_rule("barrier_shadow", e_past_barrier, HAWS_RULE_MEM_PAST_BARRIER, 7);
    expect_rule("never_members", e_atomic, HAWS_RULE_ATOMIC_MEMBER, 4);
    expect_rule("never_members", e_clock, HAWS_RULE_CLOCK_MEMBER, 5);
    expect_rule("never_members", e_volatile, HAWS_RULE_VOLATILE_MEMBER, 6);
    expect_rule("carry_members", e_carry, HAWS_RULE_CARRY_MEMBER, 5);
    expect_rule("join_stop", e_join, HAWS_RULE_SKIPPED_CONTROL, 7);
    expect_rule("never_members", e_fence, HAWS_RULE_SKIPPED_CONTROL, 7);
    expect_rule("mem_alias", e_alias, HAWS_RULE_MEM_ALIAS, 5);
    expect_rule("fig53", e_outside, HAWS_RULE_OFFSET_KERNEL, 3);
    expect_rule("war_rename", e_rename_low, HAWS_RULE_RENAME_TARGET, 9);
    expect_rule("war_rename", e_rename_odd, HAWS_RULE_RENAME_TARGET, 9);
    expect_rule("eight_members", e_nine, HAWS_RULE_CHAIN_LENGTH, 12);
    expect_rule("fig53", e_orphan, HAWS_RULE_ORPHAN, 9);
    expect_rule("fig53", e_format, HAWS_RULE_FORMAT, 4);
    expect_rule("direct_branch", e_type, HAWS_RULE_FORMAT, 4);
    expect_rule("war_rename", e_control, HAWS_RULE_SKIPPED_CONTROL, 11);
    expect_rule("fig53", e_stall, HAWS_RULE_STALL_MEMBER, 7);
    expect_rule("eight_members", e_phys_war, HAWS_RULE_RENAME_MISSING, 5);
    /* the example message of the brief's form */
    assert_non_null(strstr(err, "kernel eight_members pc 5 (line "));
}

/* With the validator off only an offset outside the kernel is refused (the
 * simulator could not fetch it); wrong hints otherwise pass, so that tests
 * can show they give wrong results. */
static void test_unchecked(void **state)
{
    (void)state;
    const emu_kernel *ek = hk("barrier_shadow");
    haws_opts o = opts();
    haws_result r;
    compute(ek, &o, &r);
    e_barrier(r.hint, ek);
    assert_int_equal(haws_validate(ek, 8, r.hint, 0, NULL, NULL, err, sizeof err), 0);
    r.hint[3] = haws_hint_f1(-10, 0, 0);   /* pc -7 */
    assert_int_equal(haws_validate(ek, 8, r.hint, 0, NULL, NULL, err, sizeof err), HAWS_RULE_OFFSET_KERNEL);
    assert_non_null(strstr(err, "kernel barrier_shadow pc 3"));
    assert_non_null(strstr(err, "outside the kernel"));
    haws_result_free(&r);
}

/* ---- hint files ------------------------------------------------------------------ */
static char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/smc_hints_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void expect_parse_error(const char *text, const char *where, const char *what)
{
    haws_file *f = haws_file_parse(text, "h.txt", err, sizeof err);
    if (f) { haws_file_free(f); fail_msg("'%s' parsed", text); }
    if (!strstr(err, where) || !strstr(err, what)) fail_msg("message '%s' lacks '%s' / '%s'", err, where, what);
}

static void test_hint_file(void **state)
{
    (void)state;
    /* fig53 by hand, the thesis's chain (I3 -> I4 -> I6) written readably
     * and as raw words; war_rename not named keeps the pass's hints */
    char *path = write_tmp("# Fig. 5.3 by hand\n"
                           "fig53 3 offset=1          # entry: I4\n"
                           "fig53 4 offset=3\n"
                           "fig53 6 0x000000\n"
                           "direct_branch 3 offset=1\n"
                           "direct_branch 4 branch=direct taken=3\n"
                           "direct_branch 6 offset=0 rename=6\n");
    haws_opts o = opts();
    o.hints_file = path;
    haws_result r;
    compute(hk("fig53"), &o, &r);
    assert_int_equal(r.sum.from_file, 1);
    f1(&r, 3, 3, 4); f1(&r, 3, 4, 6); f1(&r, 3, 6, 0);
    assert_int_equal(r.sum.hinted, 2);
    haws_result_free(&r);
    compute(hk("direct_branch"), &o, &r);
    assert_int_equal(r.sum.from_file, 1);
    assert_int_equal(r.hint[4], haws_hint_f2(1, 3, 0));
    assert_int_equal(r.hint[6], haws_hint_f1(0, 1, 6));
    haws_result_free(&r);
    compute(hk("war_rename"), &o, &r);
    assert_int_equal(r.sum.from_file, 0);
    assert_int_equal(r.sum.renames, 1);
    haws_result_free(&r);
    unlink(path);

    /* a wrong hand hint is rejected at load, naming kernel, pc and rule */
    path = write_tmp("barrier_shadow 3 offset=1\nbarrier_shadow 4 offset=2\nbarrier_shadow 5 offset=0\n");
    o.hints_file = path;
    assert_int_equal(haws_compute(hk("barrier_shadow"), &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "kernel barrier_shadow pc 5"));
    assert_non_null(strstr(err, "[rule barrier-member]"));
    /* ... unless the validator is off */
    o.validate = 0;
    compute(hk("barrier_shadow"), &o, &r);
    assert_int_equal(r.chain[5], 3);
    haws_result_free(&r);
    unlink(path);
    /* a pc outside the kernel names the file and line */
    path = write_tmp("# x\nfig53 99 offset=1\n");
    o.hints_file = path;
    assert_int_equal(haws_compute(hk("fig53"), &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2: field 'pc'"));
    unlink(path);
    o.hints_file = "/nonexistent/h.txt";
    assert_int_equal(haws_compute(hk("fig53"), &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/h.txt"));

    /* malformed lines: file, line and field */
    expect_parse_error("k 1 offset=1\nk x offset=1\n", "h.txt:2:", "field 'pc'");
    expect_parse_error("k 1 offset=300\n", "h.txt:1:", "field 'offset'");
    expect_parse_error("k 1 offset=-257\n", "h.txt:1:", "field 'offset'");
    expect_parse_error("k 1 offset=1 rename=256\n", "h.txt:1:", "field 'rename'");
    expect_parse_error("k 1 0x1000000\n", "h.txt:1:", "field 'word'");
    expect_parse_error("k 1 zz\n", "h.txt:1:", "field 'word'");
    expect_parse_error("k 1 branch=maybe taken=1\n", "h.txt:1:", "field 'branch'");
    expect_parse_error("k 1 branch=direct taken=1 fall=2\n", "h.txt:1:", "field 'fall'");
    expect_parse_error("k 1 branch=cond fall=2\n", "h.txt:1:", "field 'taken'");
    expect_parse_error("k 1 colour=red\n", "h.txt:1:", "field 'colour'");
    expect_parse_error("k 1\n", "h.txt:1:", "expected");
    expect_parse_error("k 1 offset=1\n\n# c\nk 1 offset=2\n", "h.txt:4:", "given twice (first at line 1)");
    haws_file *f = haws_file_parse("# only comments\n\n   \n", "h.txt", err, sizeof err);
    assert_non_null(f);
    assert_int_equal(haws_file_has_kernel(f, "k"), 0);
    haws_file_free(f);
}

/* ---- the launch entry point ------------------------------------------------------ */
static void test_prepare_kernel(void **state)
{
    (void)state;
    emu_kernel *ek = (emu_kernel *)hk("war_rename");
    haws_opts o = opts();
    haws_result r;
    compute(ek, &o, &r);
    assert_int_equal(haws_prepare_kernel(ek, &o, err, sizeof err), 0);
    for (uint32_t pc = 0; pc < r.n; pc++) assert_int_equal(emu_kernel_inst(ek, pc)->hint, r.hint[pc]);
    assert_int_equal(emu_kernel_regs_haws(ek), r.sum.regs_haws);
    assert_true(emu_kernel_regs_haws(ek) > emu_kernel_ptx(ek)->regs_per_thread);
    /* other options, other words */
    haws_opts o2 = opts();
    o2.branch_hints = 0;
    assert_int_equal(haws_prepare_kernel(ek, &o2, err, sizeof err), 0);
    assert_int_equal(emu_kernel_inst(ek, 12)->hint, 0);
    /* the first options again: the same words, from the cache */
    assert_int_equal(haws_prepare_kernel(ek, &o, err, sizeof err), 0);
    assert_int_equal(emu_kernel_inst(ek, 12)->hint, r.hint[12]);
    assert_int_not_equal(r.hint[12], 0);
    haws_result_free(&r);

    /* computed once per kernel and options: a hint file changed after the
     * first launch is not read again (docs/haws.md) */
    emu_kernel *fk = (emu_kernel *)hk("fig53");
    char *path = write_tmp("fig53 3 offset=1\nfig53 4 offset=0\n");
    char keep[64];
    snprintf(keep, sizeof keep, "%s", path);
    o.hints_file = keep;
    assert_int_equal(haws_prepare_kernel(fk, &o, err, sizeof err), 0);
    assert_int_equal(emu_kernel_inst(fk, 3)->hint, haws_hint_f1(1, 0, 0));
    FILE *fp = fopen(keep, "w");
    fputs("fig53 3 offset=3\nfig53 6 offset=0\n", fp);
    fclose(fp);
    assert_int_equal(haws_prepare_kernel(fk, &o, err, sizeof err), 0);
    assert_int_equal(emu_kernel_inst(fk, 3)->hint, haws_hint_f1(1, 0, 0));
    unlink(keep);

    /* an unsafe file is an error and installs nothing new */
    path = write_tmp("fig53 3 offset=2\nfig53 5 offset=0\n");
    snprintf(keep, sizeof keep, "%s", path);
    o.hints_file = keep;
    assert_int_equal(haws_prepare_kernel(fk, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "[rule raw]"));
    unlink(keep);
}

/* ---- robustness ------------------------------------------------------------------ */
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)rng; }

/* Random words (and words near the pass's) through the validator, checked
 * and unchecked: it always returns, never reads outside the kernel. Run
 * under ASan/UBSan by `make test` (SAN_SUITES). */
static void fuzz_rounds(int words, int texts)
{
    static const char *const names[] = { "fig53", "war_rename", "barrier_shadow", "mem_alias",
                                         "direct_branch", "never_members", "eight_members", "branch_trim" };
    uint32_t rejected = 0, accepted = 0;
    for (int it = 0; it < words; it++) {
        const emu_kernel *ek = hk(names[it % 8]);
        haws_opts o = opts();
        haws_result r;
        compute(ek, &o, &r);
        uint32_t nmut = 1 + rnd() % 4;
        for (uint32_t j = 0; j < nmut; j++) {
            uint32_t pc = rnd() % r.n;
            switch (rnd() % 4) {
            case 0: r.hint[pc] = rnd() & HAWS_HINT_MASK; break;
            case 1: r.hint[pc] ^= 1u << (rnd() % 24); break;
            case 2: r.hint[pc] = haws_hint_f1((int)(rnd() % 21) - 10, rnd() & 1, rnd() & 0xFF); break;
            default: r.hint[pc] = haws_hint_f2(rnd() & 1, (int)(rnd() % 21) - 10, (int)(rnd() % 21) - 10); break;
            }
        }
        uint32_t chain[64];
        haws_summary sum;
        int rc = haws_validate(ek, 8, r.hint, (int)(it & 1), r.n <= 64 ? chain : NULL, &sum, err, sizeof err);
        assert_true(rc >= 0 && rc < HAWS_RULE_COUNT);
        if (rc) { rejected++; assert_non_null(strstr(err, "[rule ")); } else accepted++;
        assert_true(sum.hinted <= r.n);
        haws_result_free(&r);
    }
    if (words >= 1000) assert_true(rejected > 0 && accepted > 0);
    /* random hint-file text */
    static const char alphabet[] = "fig53 0123456789x=#\n\t -offsetrenamedstbranchtakenfallcondirect";
    for (int it = 0; it < texts; it++) {
        char text[200];
        uint32_t n = rnd() % (sizeof text - 1);
        for (uint32_t i = 0; i < n; i++) text[i] = alphabet[rnd() % (sizeof alphabet - 1)];
        text[n] = '\0';
        haws_file *f = haws_file_parse(text, "fuzz", err, sizeof err);
        if (f) {
            uint32_t h[16];
            const emu_kernel *ek = hk("fig53");
            if (haws_file_words(f, ek, h, err, sizeof err) == 0)
                (void)haws_validate(ek, 8, h, 1, NULL, NULL, err, sizeof err);
            haws_file_free(f);
        } else {
            assert_non_null(strstr(err, "fuzz:"));
        }
    }
}

static void test_fuzz_validator(void **state)
{
    (void)state;
    fuzz_rounds(3000, 2000);
}

static int setup(void **state)
{
    (void)state;
    if (smc_device_create(NULL, &dev) != SMC_OK) return -1;
    if (smc_module_load_ptx_file(dev, "tests/hints/ptx/hints.ptx", &hints_mod) != SMC_OK) {
        fprintf(stderr, "%s\n", smc_last_message(dev));
        return -1;
    }
    return 0;
}
static int teardown(void **state)
{
    (void)state;
    smc_device_destroy(dev);
    return 0;
}

int main(int argc, char **argv)
{
    /* test_hints --fuzz SECONDS: only the random-input loop, that long
     * (make fuzz-hints, under the sanitizers) */
    if (argc > 2 && !strcmp(argv[1], "--fuzz")) {
        if (setup(NULL) != 0) return 1;
        long secs = atol(argv[2]), rounds = 0;
        time_t end = time(NULL) + secs;
        while (time(NULL) < end) { fuzz_rounds(1000, 1000); rounds++; }
        printf("fuzz-hints: %ld rounds of 1000 random hint-word sets and 1000 hint-file texts, no crash\n", rounds);
        teardown(NULL);
        return 0;
    }
    if (argc > 1 && chdir(argv[1]) != 0) { perror(argv[1]); return 1; }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig53),
        cmocka_unit_test(test_war_rename),
        cmocka_unit_test(test_branch_trim),
        cmocka_unit_test(test_barrier_shadow),
        cmocka_unit_test(test_mem_alias),
        cmocka_unit_test(test_direct_branch),
        cmocka_unit_test(test_never_members),
        cmocka_unit_test(test_carry_members),
        cmocka_unit_test(test_join_stop),
        cmocka_unit_test(test_dead_waw),
        cmocka_unit_test(test_eight_members),
        cmocka_unit_test(test_offset_range),
        cmocka_unit_test(test_bench_chains),
        cmocka_unit_test(test_cross_stall_points),
        cmocka_unit_test(test_validator_accepts_pass),
        cmocka_unit_test(test_reorder_oracle),
        cmocka_unit_test(test_oracle_detects),
        cmocka_unit_test(test_wrong_hints),
        cmocka_unit_test(test_unchecked),
        cmocka_unit_test(test_hint_file),
        cmocka_unit_test(test_prepare_kernel),
        cmocka_unit_test(test_fuzz_validator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
