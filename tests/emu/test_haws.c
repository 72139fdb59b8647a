/* test_haws.c — the emulator's execution ahead of order for HAWS
 * (emu.h "Out-of-order issue"; docs/haws.md "Emulator"): hinted execution
 * then skip, renaming with commit, reading through the renaming map, 64-bit
 * renames, the ahead-log checks (mask mismatch across a divergent branch,
 * episode begun with entries left, skip/commit of the wrong kind or at the
 * wrong pc, exit with entries left), branch_ahead, the refused
 * instructions, and that every class of wrong hint the emulator can see is
 * a wrong result or a fault: a missed virtual-register WAR or WAW and a
 * load hoisted over an aliasing store give a wrong value, a missed
 * physical-only WAR a register allocation conflict under the verifier.
 *
 * The kernels are hand-written PTX around tu_wrap()'s prelude (pcs 0-9):
 * %r1 = tid.x, %r4 = global thread id, %rd3 = &out[gid] (u32), %rd4 =
 * &in[gid] (u32), %r0 = n, %rd0 = out. in[i] = 1000 + i. The test drives
 * one warp of 32 threads through emu.h the way the timing model will and
 * checks memory against values computed here in C. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../csrc/emu/emu.h"
#include "../../hints/haws_hint.h"

#define NWORDS 256u            /* out[] and in[] in u32 words */
#define FULL   0xFFFFFFFFu

typedef struct hk {
    smc_device *dev;
    smc_kernel *k;
    const emu_kernel *ek;
    emu_launch *l;
    emu_cta *c;
    uint64_t out, in;
    uint32_t *o;
    char params[32];
    uint32_t pool;             /* first pool id: haws_pool_base(regs_per_thread) */
} hk;

static void hk_open(hk *h, const char *body, uint32_t threads, bool verify) {
    memset(h, 0, sizeof *h);
    h->dev = tu_device(0);
    char *src = tu_wrap("", body);
    smc_module *m = tu_load(h->dev, src);
    free(src);
    h->k = tu_kernel(m, "k");
    h->ek = smc_kernel_emu(h->k);
    h->pool = haws_pool_base(emu_kernel_ptx(h->ek)->regs_per_thread);
    assert_int_equal(smc_malloc(h->dev, NWORDS * 4, SMC_MEM_MANAGED, &h->out), SMC_OK);
    assert_int_equal(smc_malloc(h->dev, NWORDS * 4, SMC_MEM_MANAGED, &h->in), SMC_OK);
    h->o = smc_host_ptr(h->dev, h->out, NWORDS * 4);
    uint32_t *iv = smc_host_ptr(h->dev, h->in, NWORDS * 4);
    for (uint32_t i = 0; i < NWORDS; i++) { h->o[i] = 0; iv[i] = 1000 + i; }
    uint32_t n = NWORDS;
    const void *args[] = { &h->out, &h->in, &n };
    tu_pack(h->k, h->params, sizeof h->params, args, 3);
    emu_launch_desc d = { .kernel = h->ek, .grid = { 1, 1, 1 }, .block = { threads, 1, 1 },
                          .params = h->params, .param_bytes = 20, .mem = smc_device_mem(h->dev),
                          .num_sms = 1, .verify_regalloc = verify };
    h->l = emu_launch_create(&d);
    assert_non_null(h->l);
    h->c = emu_cta_create(h->l, 0, 0);
    assert_non_null(h->c);
}

static void hk_close(hk *h) {
    emu_cta_destroy(h->c);
    emu_launch_destroy(h->l);
    smc_device_destroy(h->dev);
}

/* Execute warp 0 in order until its pc is `pc`. */
static void hk_run_to(hk *h, uint32_t pc) {
    while (emu_warp_pc(h->c, 0) != pc) assert_int_equal(emu_warp_execute(h->c, 0, NULL), EMU_OK);
}

/* Execute warp 0 in order to the end; returns the last status. */
static int hk_finish(hk *h) {
    int st;
    while ((st = emu_warp_execute(h->c, 0, NULL)) == EMU_OK) {}
    return st;
}

static void expect_op(hk *h, uint32_t pc, const char *name) {
    const emu_inst_info *x = emu_kernel_inst(h->ek, pc);
    assert_non_null(x);
    if (strcmp(x->name, name)) fail_msg("pc %u is '%s', the test expects '%s'", pc, x->name, name);
}

static void expect_fault(hk *h, const char *text) {
    const smc_fault *f = emu_launch_fault(h->l);
    assert_int_equal(f->status, SMC_ERR_LAUNCH_FAILED);
    if (!strstr(f->message, text)) fail_msg("fault '%s' does not contain '%s'", f->message, text);
}

/* The same kernel run functionally through smcosim.h: its output and
 * statistics (the in-order reference). */
static void functional(const char *body, uint32_t *res, smc_launch_stats *s) {
    smc_device *dev = tu_device(0);
    char *src = tu_wrap("", body);
    smc_module *m = tu_load(dev, src);
    free(src);
    smc_kernel *k = tu_kernel(m, "k");
    uint64_t out, in;
    assert_int_equal(smc_malloc(dev, NWORDS * 4, SMC_MEM_MANAGED, &out), SMC_OK);
    assert_int_equal(smc_malloc(dev, NWORDS * 4, SMC_MEM_MANAGED, &in), SMC_OK);
    uint32_t *o = smc_host_ptr(dev, out, NWORDS * 4), *iv = smc_host_ptr(dev, in, NWORDS * 4);
    for (uint32_t i = 0; i < NWORDS; i++) { o[i] = 0; iv[i] = 1000 + i; }
    uint32_t n = NWORDS;
    const void *args[] = { &out, &in, &n };
    TU_OK(dev, tu_launch(dev, k, 1, 32, 0, args, 3));
    memcpy(res, o, NWORDS * 4);
    assert_int_equal(smc_launch_get_stats(dev, 0, s), SMC_OK);
    smc_device_destroy(dev);
}

/* ---- hinted execution, then skip: the same as in order ------------------ */
static const char *k_skip =
    "\tld.global.u32 %r5, [%rd4];\n"          /* 10: the long-latency load */
    "\tadd.u32 %r6, %r5, 7;\n"                /* 11: stall point */
    "\tmul.lo.u32 %r7, %r1, 5;\n"             /* 12: member */
    "\tst.global.u32 [%rd3+128], %r7;\n"      /* 13: member (a store, other words) */
    "\tst.global.u32 [%rd3], %r6;\n";         /* 14: skipped */

static void test_hinted_then_skip(void **state) {
    (void)state;
    hk h;
    hk_open(&h, k_skip, 32, true);
    expect_op(&h, 12, "mul");
    expect_op(&h, 13, "st");
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
    emu_exec_info x;
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 12, FULL, -1, &x), EMU_OK);
    assert_int_equal(x.pc, 12);
    assert_int_equal(x.active, FULL);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, -1, &x), EMU_OK);
    assert_int_equal(x.access_size, 4);
    assert_int_equal(x.addr[3], h.out + 128 + 3 * 4);           /* the coalescer sees it now */
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(h.o[32 + t], 5 * t);   /* stored at issue */
    assert_int_equal(emu_warp_pc(h.c, 0), 11);                   /* the warp did not move */
    assert_int_equal(emu_warp_ahead_pending(h.c, 0), 2);
    emu_ahead_entry e;
    assert_true(emu_warp_ahead_head(h.c, 0, &e));
    assert_int_equal(e.pc, 12); assert_int_equal(e.mask, FULL); assert_int_equal(e.active, FULL);
    assert_int_equal(e.renamed, -1);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 11 */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_OK);             /* 12 */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_OK);             /* 13 */
    assert_int_equal(emu_warp_ahead_pending(h.c, 0), 0);
    assert_false(emu_warp_ahead_head(h.c, 0, &e));
    assert_int_equal(hk_finish(&h), EMU_EXITED);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(h.o[t], 1000 + t + 7);
        assert_int_equal(h.o[32 + t], 5 * t);
    }
    /* the same memory and the same instruction counts as in order */
    uint32_t ref[NWORDS];
    smc_launch_stats s;
    functional(k_skip, ref, &s);
    assert_memory_equal(ref, h.o, NWORDS * 4);
    assert_int_equal(emu_launch_warp_insts(h.l), 10 + 5 + 1);    /* prelude, body, ret */
    assert_int_equal(emu_launch_warp_insts(h.l), s.warp_insts);
    assert_int_equal(emu_launch_thread_insts(h.l), s.thread_insts);
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
    hk_close(&h);
}

/* ---- virtual-register WAR: renaming, reading through the map, commit ---- */
static const char *k_war =
    "\tmov.u32 %r7, 3;\n"                     /* 10 */
    "\tld.global.u32 %r5, [%rd4];\n"          /* 11: load */
    "\tadd.u32 %r6, %r5, %r7;\n"              /* 12: stall point, reads the old %r7 */
    "\tmul.lo.u32 %r7, %r1, 10;\n"            /* 13: member, WAR on %r7 with 12 */
    "\tadd.u32 %r8, %r7, 1;\n"                /* 14: member, reads the new %r7 */
    "\tadd.u32 %r9, %r6, %r7;\n"              /* 15: skipped (reads %r6) */
    "\tst.global.u32 [%rd3], %r9;\n"          /* 16 */
    "\tst.global.u32 [%rd3+128], %r8;\n";     /* 17 */

/* 0: renamed; 1: the rename missing (a wrong hint) */
static void war_run(hk *h, int wrong) {
    hk_open(h, k_war, 32, true);
    expect_op(h, 13, "mul");
    hk_run_to(h, 12);
    assert_int_equal(emu_warp_hint_begin(h->c, 0), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h->c, 0, 13, FULL, wrong ? -1 : (int)h->pool, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h->c, 0, 14, FULL, -1, NULL), EMU_OK);
    emu_ahead_entry e;
    assert_true(emu_warp_ahead_head(h->c, 0, &e));
    assert_int_equal(e.renamed, wrong ? -1 : (int)h->pool);
    assert_int_equal(emu_warp_execute(h->c, 0, NULL), EMU_OK);                  /* 12 */
    assert_int_equal(wrong ? emu_warp_skip(h->c, 0) : emu_warp_commit(h->c, 0), EMU_OK);   /* 13 */
    assert_int_equal(emu_warp_skip(h->c, 0), EMU_OK);                           /* 14 */
    assert_int_equal(hk_finish(h), EMU_EXITED);
}

static void test_rename_commit(void **state) {
    (void)state;
    hk h;
    war_run(&h, 0);
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);     /* the verifier is on */
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t in = 1000 + t;
        assert_int_equal(h.o[t], in + 3 + 10 * t);    /* 12 read the old %r7, 15 the committed one */
        assert_int_equal(h.o[32 + t], 10 * t + 1);    /* 14 read the renamed %r7 through the map */
    }
    uint32_t ref[NWORDS];
    smc_launch_stats s;
    functional(k_war, ref, &s);
    assert_memory_equal(ref, h.o, NWORDS * 4);
    assert_int_equal(emu_launch_warp_insts(h.l), s.warp_insts);  /* a commit is not an instruction */
    assert_int_equal(emu_launch_thread_insts(h.l), s.thread_insts);
    hk_close(&h);
}

static void test_missing_rename_is_wrong(void **state) {
    (void)state;
    hk h;
    war_run(&h, 1);
    /* the verifier cannot see a virtual WAR (one virtual register); the
     * result shows it: 12 read 10*t instead of 3 */
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t in = 1000 + t;
        assert_int_equal(h.o[t], in + 10 * t + 10 * t);
        if (t != 0) assert_int_not_equal(h.o[t], in + 3 + 10 * t);
    }
    hk_close(&h);
}

/* A member that writes a renamed register without renaming (a missed
 * WAW): it reads the renamed value through the map and writes the
 * architectural register at once, as the hardware would, so the skipped
 * reader 12 sees it (WAR) and 13's commit later overwrites it (WAW). */
static const char *k_waw =
    "\tmov.u32 %r7, 3;\n"                     /* 10 */
    "\tld.global.u32 %r5, [%rd4];\n"          /* 11: load */
    "\tadd.u32 %r6, %r5, %r7;\n"              /* 12: stall point, reads the old %r7 */
    "\tmul.lo.u32 %r7, %r1, 10;\n"            /* 13: member, renamed */
    "\tadd.u32 %r7, %r7, 1;\n"                /* 14: member, should be renamed too */
    "\tadd.u32 %r9, %r6, %r7;\n"              /* 15 */
    "\tst.global.u32 [%rd3], %r9;\n";         /* 16 */

static void test_missing_waw_rename_is_wrong(void **state) {
    (void)state;
    for (int wrong = 0; wrong < 2; wrong++) {
        hk h;
        hk_open(&h, k_waw, 32, true);
        expect_op(&h, 14, "add");
        hk_run_to(&h, 12);
        assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
        assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, (int)h.pool, NULL), EMU_OK);
        assert_int_equal(emu_warp_execute_hinted(h.c, 0, 14, FULL, wrong ? -1 : (int)h.pool + 1, NULL), EMU_OK);
        assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 12 */
        assert_int_equal(emu_warp_commit(h.c, 0), EMU_OK);           /* 13 */
        assert_int_equal(wrong ? emu_warp_skip(h.c, 0) : emu_warp_commit(h.c, 0), EMU_OK);  /* 14 */
        assert_int_equal(hk_finish(&h), EMU_EXITED);
        assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t in = 1000 + t, right = in + 3 + 10 * t + 1;
            if (!wrong) assert_int_equal(h.o[t], right);
            else assert_int_equal(h.o[t], (in + 10 * t + 1) + 10 * t);   /* 12 saw 14's value, 13's copy won */
        }
        hk_close(&h);
    }
}

/* A load hoisted over a skipped store to the same address (a wrong
 * may-alias answer): it reads memory at its issue, before the store. */
static const char *k_alias =
    "\tld.global.u32 %r5, [%rd4];\n"          /* 10: load */
    "\tst.global.u32 [%rd3], %r5;\n"          /* 11: stall point, stores out[gid] */
    "\tld.global.u32 %r6, [%rd3];\n"          /* 12: member, aliases 11 */
    "\tst.global.u32 [%rd3+128], %r6;\n";     /* 13 */

static void test_alias_hoist_is_wrong(void **state) {
    (void)state;
    hk h;
    hk_open(&h, k_alias, 32, true);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 12, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 11 */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_OK);             /* 12 */
    assert_int_equal(hk_finish(&h), EMU_EXITED);
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(h.o[t], 1000 + t);
        assert_int_equal(h.o[32 + t], 0);                        /* in order: 1000 + t */
    }
    hk_close(&h);
}

/* ---- physical-only WAR: two virtual registers on one physical register -- */
static const char *k_pwar =
    "\tld.global.u32 %r5, [%rd4];\n"          /* 10: load */
    "\tmov.u32 %r20, 7;\n"                    /* 11 */
    "\tadd.u32 %r6, %r5, %r20;\n"             /* 12: stall point; last reads of %r5, %r20 */
    "\tmul.lo.u32 %r21, %r1, 3;\n"            /* 13: member; %r21 reuses a physical register 12 reads */
    "\tadd.u32 %r9, %r6, %r21;\n"             /* 14 */
    "\tst.global.u32 [%rd3], %r9;\n";         /* 15 */

static void pwar_run(hk *h, int rename) {
    hk_open(h, k_pwar, 32, true);
    /* the premise: the allocator gave 13's destination a physical register
     * that 12 reads (asserted, so an allocator change cannot make this test
     * vacuous) */
    const emu_inst_info *s = emu_kernel_inst(h->ek, 12), *m = emu_kernel_inst(h->ek, 13);
    assert_int_equal(m->ndst, 1);
    bool shared = false;
    for (uint32_t i = 0; i < s->nsrc; i++) shared |= s->src[i] == m->dst[0];
    if (!shared) fail_msg("premise: pc 13 writes physical %u, which pc 12 does not read", m->dst[0]);
    hk_run_to(h, 12);
    assert_int_equal(emu_warp_hint_begin(h->c, 0), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h->c, 0, 13, FULL, rename ? (int)h->pool + 3 : -1, NULL), EMU_OK);
}

static void test_physical_war_caught(void **state) {
    (void)state;
    hk h;
    pwar_run(&h, 0);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_FAULT);   /* 12 finds its register overwritten */
    expect_fault(&h, "register allocation conflict");
    expect_fault(&h, "overwritten by virtual register");
    assert_int_equal(emu_launch_fault(h.l)->pc, 12);
    hk_close(&h);
    /* renamed, the verifier sees the write under the pool id: no conflict */
    pwar_run(&h, 1);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);      /* 12 */
    assert_int_equal(emu_warp_commit(h.c, 0), EMU_OK);             /* 13 */
    assert_int_equal(hk_finish(&h), EMU_EXITED);
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(h.o[t], 1000 + t + 7 + 3 * t);
    hk_close(&h);
}

/* ---- a 64-bit renamed value (even pool pair) ---------------------------- */
static const char *k_wide =
    "\tmul.wide.u32 %rd20, %r4, 8;\n"                 /* 10 */
    "\tadd.s64 %rd21, %rd0, %rd20;\n"                 /* 11: &out64[gid] */
    "\tmov.u64 %rd10, 4294967299;\n"                  /* 12: 2^32 + 3 */
    "\tld.global.u32 %r5, [%rd4];\n"                  /* 13: load */
    "\tcvt.u64.u32 %rd11, %r5;\n"                     /* 14: stall point */
    "\tadd.s64 %rd12, %rd11, %rd10;\n"                /* 15: skipped (reads %rd11), old %rd10 */
    "\tmul.wide.u32 %rd10, %r1, 1000000000;\n"        /* 16: member, WAR on %rd10: renamed */
    "\tadd.s64 %rd13, %rd10, 1;\n"                    /* 17: member, 64-bit read through the map */
    "\tadd.s64 %rd14, %rd12, %rd10;\n"                /* 18: skipped */
    "\tst.global.u64 [%rd21], %rd14;\n"               /* 19 */
    "\tst.global.u64 [%rd21+256], %rd13;\n";          /* 20 */

static void test_rename_64bit(void **state) {
    (void)state;
    hk h;
    hk_open(&h, k_wide, 32, true);
    expect_op(&h, 16, "mul");
    expect_op(&h, 17, "add");
    hk_run_to(&h, 14);
    assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
    uint32_t p = h.pool + 2;                                     /* an even pair */
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 16, FULL, (int)p, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 17, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 14 */
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 15 */
    assert_int_equal(emu_warp_commit(h.c, 0), EMU_OK);           /* 16 */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_OK);             /* 17 */
    assert_int_equal(hk_finish(&h), EMU_EXITED);
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
    const uint64_t *o64 = (const uint64_t *)h.o;
    for (uint64_t t = 0; t < 32; t++) {
        uint64_t in = 1000 + t, big = t * 1000000000ull;
        assert_true(t < 5 || big >> 32);                         /* high halves matter */
        assert_int_equal(o64[t], in + 4294967299ull + big);
        assert_int_equal(o64[32 + t], big + 1);
    }
    hk_close(&h);
    /* an odd pool id for a 64-bit destination is refused */
    hk_open(&h, k_wide, 32, false);
    hk_run_to(&h, 14);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 16, FULL, (int)h.pool + 1, NULL), EMU_FAULT);
    expect_fault(&h, "is not an even pair of the pool");
    expect_fault(&h, "(executed ahead by HAWS)");
    hk_close(&h);
}

/* ---- a chain across a divergent branch: the ahead-log mask check -------- */
static const char *k_div =
    "\tld.global.u32 %r5, [%rd4];\n"          /* 10: load */
    "\tadd.u32 %r6, %r5, 1;\n"                /* 11: stall point */
    "\tsetp.lt.u32 %p1, %r1, 16;\n"           /* 12: member */
    "\t@%p1 bra L;\n"                         /* 13: divergent */
    "\tmul.lo.u32 %r7, %r1, 3;\n"             /* 14 */
    "\tbra END;\n"                            /* 15 */
    "L:\n\tmul.lo.u32 %r8, %r1, 5;\n"         /* 16: wrongly executed ahead for the whole warp */
    "END:\n\tst.global.u32 [%rd3], %r6;\n";   /* 17 */

static void test_mask_mismatch(void **state) {
    (void)state;
    hk h;
    hk_open(&h, k_div, 32, false);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 12, FULL, -1, NULL), EMU_OK);
    uint32_t taken = 0;
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 13, FULL, &taken), EMU_OK);
    assert_int_equal(taken, 0x0000FFFFu);                        /* divergent: a timing model stops here */
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 16, FULL, -1, NULL), EMU_OK);   /* ... this one did not */
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 11 */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_OK);             /* 12 */
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 13: taken side first */
    assert_int_equal(emu_warp_pc(h.c, 0), 16);
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_FAULT);
    expect_fault(&h, "HAWS: pc 16 executed ahead with mask 0xffffffff, reached in order with mask 0x0000ffff");
    hk_close(&h);
}

/* ---- branch_ahead: uniform taken, uniform not taken, divergent ---------- */
static const char *k_br =
    "\tsetp.lt.u32 %p1, %r1, 16;\n"           /* 10 */
    "\tsetp.lt.u32 %p2, %r1, 100;\n"          /* 11: true in every lane */
    "\t@%p1 bra L1;\n"                        /* 12 */
    "L1:\n\t@%p2 bra L2;\n"                   /* 13 */
    "L2:\n\t@!%p2 bra L3;\n"                  /* 14 */
    "L3:\n\tbra L4;\n"                        /* 15: unguarded */
    "L4:\n\tadd.u32 %r6, %r1, 1;\n";          /* 16 */

static void test_branch_ahead(void **state) {
    (void)state;
    hk h;
    hk_open(&h, k_br, 32, false);
    hk_run_to(&h, 12);
    uint64_t wi = emu_launch_warp_insts(h.l);
    uint32_t t = 1;
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 12, FULL, &t), EMU_OK);
    assert_int_equal(t, 0x0000FFFFu);                            /* divergent */
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 12, 0xFFFF0000u, &t), EMU_OK);
    assert_int_equal(t, 0);                                      /* uniform not taken for these lanes */
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 13, FULL, &t), EMU_OK);
    assert_int_equal(t, FULL);                                   /* uniform taken */
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 14, FULL, &t), EMU_OK);
    assert_int_equal(t, 0);                                      /* uniform not taken (negated guard) */
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 15, 0x00F0F00Fu, &t), EMU_OK);
    assert_int_equal(t, 0x00F0F00Fu);                            /* unguarded */
    /* not counted, not logged, the warp did not move */
    assert_int_equal(emu_launch_warp_insts(h.l), wi);
    assert_int_equal(emu_warp_ahead_pending(h.c, 0), 0);
    assert_int_equal(emu_warp_pc(h.c, 0), 12);
    assert_int_equal(emu_warp_stack_depth(h.c, 0), 1);
    assert_int_equal(emu_warp_branch_ahead(h.c, 0, 16, FULL, &t), EMU_FAULT);
    expect_fault(&h, "HAWS: branch_ahead at 'add', which is not a branch");
    hk_close(&h);
}

/* ---- the ahead log's other checks --------------------------------------- */
static void test_log_checks(void **state) {
    (void)state;
    hk h;
    /* an episode may not begin while entries are left */
    hk_open(&h, k_skip, 32, false);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 12, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_FAULT);
    expect_fault(&h, "HAWS: hint episode begins with 1 unconsumed RCU entries (oldest: pc 12)");
    hk_close(&h);
    /* the head executed again in order instead of skipped: the entry left
     * behind faults at the next skip */
    hk_open(&h, k_skip, 32, false);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 12, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 11 */
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 12 again (a timing-model bug) */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_FAULT);          /* at 13 */
    expect_fault(&h, "HAWS: skip at pc 13 (mask 0xffffffff), but the oldest instruction executed ahead is pc 12");
    hk_close(&h);
    /* skip where nothing was executed ahead; skip at another pc than the head */
    hk_open(&h, k_skip, 32, false);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_FAULT);
    expect_fault(&h, "HAWS: skip at pc 11, but nothing was executed ahead");
    hk_close(&h);
    hk_open(&h, k_skip, 32, false);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_FAULT);          /* the warp is at 11 */
    expect_fault(&h, "the oldest instruction executed ahead is pc 13");
    hk_close(&h);
    /* a renamed entry must be committed, a plain one skipped */
    hk_open(&h, k_war, 32, false);
    hk_run_to(&h, 12);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, (int)h.pool, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 12 */
    assert_int_equal(emu_warp_skip(h.c, 0), EMU_FAULT);
    expect_fault(&h, "renamed (it needs a commit)");
    hk_close(&h);
    hk_open(&h, k_war, 32, false);
    hk_run_to(&h, 12);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, -1, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);    /* 12 */
    assert_int_equal(emu_warp_commit(h.c, 0), EMU_FAULT);
    expect_fault(&h, "without renaming (it needs a skip)");
    hk_close(&h);
    /* a pool id still holding an uncommitted result is not reused */
    hk_open(&h, k_war, 32, false);
    hk_run_to(&h, 12);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, (int)h.pool + 5, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 14, FULL, (int)h.pool + 5, NULL), EMU_FAULT);
    expect_fault(&h, "still holds the result of pc 13, which is not committed yet");
    hk_close(&h);
    /* ids outside the pool, renaming a store */
    hk_open(&h, k_war, 32, false);
    hk_run_to(&h, 12);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, FULL, (int)h.pool + 8, NULL), EMU_FAULT);
    expect_fault(&h, "is not a register of the pool");
    hk_close(&h);
    hk_open(&h, k_war, 32, false);
    hk_run_to(&h, 12);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 16, FULL, (int)h.pool, NULL), EMU_FAULT);
    expect_fault(&h, "HAWS: rename of 'st'");
    hk_close(&h);
    /* a renamed value read in lanes it was not written for (a guarded or
     * narrower renamed write read by the whole warp) */
    hk_open(&h, k_war, 32, false);
    hk_run_to(&h, 12);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 13, 0x0000FFFFu, (int)h.pool, NULL), EMU_OK);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 14, FULL, -1, NULL), EMU_FAULT);
    expect_fault(&h, "in lanes 0xffff0000 it holds no value for");
    hk_close(&h);
    /* a warp may not exit with entries left */
    hk_open(&h, k_skip, 32, false);
    hk_run_to(&h, 14);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 12, FULL, -1, NULL), EMU_OK);
    assert_int_equal(hk_finish(&h), EMU_FAULT);
    expect_fault(&h, "HAWS: warp exited with 1 unconsumed RCU entries (oldest: pc 12)");
    hk_close(&h);
}

/* ---- refused instructions and faults raised ahead ----------------------- */
static const char *k_refuse =
    "\tld.global.u32 %r5, [%rd4];\n"                  /* 10 */
    "\tsetp.lt.u32 %p1, %r1, 16;\n"                   /* 11 */
    "\t@%p1 bra L;\n"                                 /* 12 */
    "L:\n\tbar.sync 0;\n"                             /* 13 */
    "\tatom.global.add.u32 %r6, [%rd4], 1;\n"         /* 14 */
    "\tmembar.gl;\n"                                  /* 15 */
    "\tld.global.u32 %r7, [%rd4+40960000];\n"         /* 16: out of bounds */
    "\tmov.u32 %r8, %r5;\n";                          /* 17; 18 is ret */

static void refuse_one(uint32_t pc, const char *op, const char *text, int rename) {
    hk h;
    hk_open(&h, k_refuse, 32, false);
    expect_op(&h, pc, op);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, pc, FULL, rename, NULL), EMU_FAULT);
    const smc_fault *f = emu_launch_fault(h.l);
    if (!strstr(f->message, text) || !strstr(f->message, "(executed ahead by HAWS)"))
        fail_msg("pc %u: fault '%s' lacks '%s' or the HAWS note", pc, f->message, text);
    assert_int_equal(f->pc, pc);
    assert_int_equal(emu_warp_ahead_pending(h.c, 0), 0);          /* nothing logged */
    hk_close(&h);
}

static void test_refused(void **state) {
    (void)state;
    refuse_one(12, "bra", "HAWS: branch", -1);
    refuse_one(13, "bar", "HAWS: barrier 'bar' cannot be executed ahead", -1);
    refuse_one(14, "atom", "HAWS: atomic 'atom' cannot be executed ahead", -1);
    refuse_one(15, "membar", "HAWS: memory fence", -1);
    refuse_one(18, "exit", "HAWS: control instruction 'exit' cannot be executed ahead", -1);
    refuse_one(16, "ld", "illegal 4-byte global load", -1);       /* its own fault, marked */
    /* no live thread in the mask; a warp waiting at a barrier */
    hk h;
    hk_open(&h, k_refuse, 16, false);
    hk_run_to(&h, 11);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 17, FULL, -1, NULL), EMU_FAULT);
    expect_fault(&h, "that have no live thread");
    hk_close(&h);
    hk_open(&h, k_refuse, 64, false);
    hk_run_to(&h, 13);
    assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_WAIT_BARRIER);
    assert_int_equal(emu_warp_execute_hinted(h.c, 0, 17, FULL, -1, NULL), EMU_FAULT);
    expect_fault(&h, "HAWS: the warp waits at the barrier at pc 13");
    hk_close(&h);
}

/* ---- two episodes in a loop: the map is per episode, counts match ------- */
static const char *k_loop =
    "\tmov.u32 %r10, 0;\n"                            /* 10: i */
    "\tmov.u32 %r11, 0;\n"                            /* 11: acc */
    "L:\n\tld.global.u32 %r5, [%rd4];\n"              /* 12: load */
    "\tadd.u32 %r11, %r11, %r5;\n"                    /* 13: stall point, reads acc and the load */
    "\tadd.u32 %r12, %r10, %r11;\n"                   /* 14: skipped (reads acc) */
    "\tadd.u32 %r10, %r10, 1;\n"                      /* 15: member, WAR on i with 14: renamed */
    "\tsetp.lt.u32 %p1, %r10, 3;\n"                   /* 16: member, reads i through the map */
    "\t@%p1 bra L;\n"                                 /* 17 */
    "\tadd.u32 %r13, %r12, %r11;\n"                   /* 18 */
    "\tst.global.u32 [%rd3], %r13;\n";                /* 19 */

static void test_loop_episodes(void **state) {
    (void)state;
    hk h;
    hk_open(&h, k_loop, 32, true);
    hk_run_to(&h, 12);
    for (int it = 0; it < 3; it++) {
        assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);                 /* 12 */
        assert_int_equal(emu_warp_pc(h.c, 0), 13);
        assert_int_equal(emu_warp_hint_begin(h.c, 0), EMU_OK);
        assert_int_equal(emu_warp_execute_hinted(h.c, 0, 15, FULL, (int)h.pool + (uint32_t)it, NULL), EMU_OK);
        assert_int_equal(emu_warp_execute_hinted(h.c, 0, 16, FULL, -1, NULL), EMU_OK);
        uint32_t taken;
        assert_int_equal(emu_warp_branch_ahead(h.c, 0, 17, FULL, &taken), EMU_OK);
        assert_int_equal(taken, it < 2 ? FULL : 0);
        assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);                 /* 13 */
        assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);                 /* 14: old i */
        assert_int_equal(emu_warp_commit(h.c, 0), EMU_OK);                        /* 15 */
        assert_int_equal(emu_warp_skip(h.c, 0), EMU_OK);                          /* 16 */
        assert_int_equal(emu_warp_execute(h.c, 0, NULL), EMU_OK);                 /* 17, again in order */
    }
    assert_int_equal(hk_finish(&h), EMU_EXITED);
    assert_int_equal(emu_launch_fault(h.l)->status, SMC_OK);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t in = 1000 + t, acc = 3 * in, r12 = 2 + acc;     /* last iteration: i = 2 */
        assert_int_equal(h.o[t], r12 + acc);
    }
    uint32_t ref[NWORDS];
    smc_launch_stats s;
    functional(k_loop, ref, &s);
    assert_memory_equal(ref, h.o, NWORDS * 4);
    assert_int_equal(emu_launch_warp_insts(h.l), s.warp_insts);
    assert_int_equal(emu_launch_thread_insts(h.l), s.thread_insts);
    hk_close(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hinted_then_skip),
        cmocka_unit_test(test_rename_commit),
        cmocka_unit_test(test_missing_rename_is_wrong),
        cmocka_unit_test(test_missing_waw_rename_is_wrong),
        cmocka_unit_test(test_alias_hoist_is_wrong),
        cmocka_unit_test(test_physical_war_caught),
        cmocka_unit_test(test_rename_64bit),
        cmocka_unit_test(test_mask_mismatch),
        cmocka_unit_test(test_branch_ahead),
        cmocka_unit_test(test_log_checks),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_loop_episodes),
    };
    return cmocka_run_group_tests_name("emu_haws", tests, NULL, NULL);
}
