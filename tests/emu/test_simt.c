/* test_simt.c — SIMT control flow (nested if/else, loops with break, early
 * exit, reconvergence), barriers (bar.sync, bar.arrive, bar.red, lanes
 * parked at a reconvergence point, deadlock), every guest fault kind with its
 * location, and the timing-model interface of emu.h (peek/execute, barrier
 * readiness, clock hook, %smid, out-of-order execute_ahead/skip). Kernels are hand-written PTX around tu_wrap()'s prelude:
 * %r1 = tid.x, %r4 = global thread id, %rd3 = &out[gid], %rd4 = &in[gid],
 * %r0 = n. Expected values are computed here in C. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../csrc/emu/emu.h"

typedef struct run { smc_device *dev; smc_kernel *k; uint64_t out, in; uint32_t *o; smc_status st; } run;

/* Build, load and launch a wrapped kernel with `grid` x `block` threads;
 * out[] and in[] have `n` words; out starts as 0xFFFFFFFF, in[i] = i. */
static run go(const char *decls, const char *body, uint32_t grid, uint32_t block, uint32_t n, uint64_t watchdog) {
    run r = { 0 };
    r.dev = tu_device(watchdog);
    char *src = tu_wrap(decls, body);
    smc_module *m = tu_load(r.dev, src);
    free(src);
    r.k = tu_kernel(m, "k");
    assert_int_equal(smc_malloc(r.dev, n * 4, SMC_MEM_MANAGED, &r.out), SMC_OK);
    assert_int_equal(smc_malloc(r.dev, n * 4, SMC_MEM_MANAGED, &r.in), SMC_OK);
    r.o = smc_host_ptr(r.dev, r.out, n * 4);
    uint32_t *iv = smc_host_ptr(r.dev, r.in, n * 4);
    for (uint32_t i = 0; i < n; i++) { r.o[i] = 0xFFFFFFFFu; iv[i] = i; }
    const void *args[] = { &r.out, &r.in, &n };
    r.st = tu_launch(r.dev, r.k, grid, block, 0, args, 3);
    return r;
}

static void test_nested_if_else(void **state) {
    (void)state;
    run r = go("",
        "\tand.b32 %r5, %r1, 1;\n\tsetp.eq.u32 %p1, %r5, 0;\n\t@%p1 bra EVEN;\n"
        "\tand.b32 %r6, %r1, 2;\n\tsetp.eq.u32 %p2, %r6, 0;\n\t@%p2 bra ODD_A;\n"
        "\tmov.u32 %r7, 30;\n\tbra ODD_END;\n"
        "ODD_A:\n\tmov.u32 %r7, 10;\n"
        "ODD_END:\n\tadd.u32 %r7, %r7, 1;\n\tbra END;\n"
        "EVEN:\n\tsetp.lt.u32 %p3, %r1, 16;\n\t@%p3 bra EVEN_LO;\n\tmov.u32 %r7, 200;\n\tbra END;\n"
        "EVEN_LO:\n\tmov.u32 %r7, 100;\n"
        "END:\n\tadd.u32 %r8, %r7, %r1;\n\tst.global.u32 [%rd3], %r8;\n",
        1, 64, 64, 0);
    TU_OK(r.dev, r.st);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t e = (t & 1) ? ((t & 2) ? 31 : 11) : (t < 16 ? 100 : 200);
        assert_int_equal(r.o[t], e + t);
    }
    /* reconvergence: per warp, the prelude (14), the two instructions after END
     * and ret run once each; thread_insts counts each lane once per path. */
    smc_launch_stats s;
    assert_int_equal(smc_launch_get_stats(r.dev, 0, &s), SMC_OK);
    /* warp 0: prelude 10, and/setp/bra 3, odd side: and/setp/bra 3, then
     * (mov,bra) 2 and ODD_A mov 1, ODD_END add/bra 2; even side: setp/bra 2,
     * (mov,bra) 2 and EVEN_LO mov 1; END add/st 2; ret 1 */
    uint64_t per_warp0 = 10 + 3 + 3 + 2 + 1 + 2 + 2 + 2 + 1 + 2 + 1;
    /* warp 1: tid >= 32, so the even side is uniform (mov, bra; no EVEN_LO) */
    uint64_t per_warp1 = 10 + 3 + 3 + 2 + 1 + 2 + 2 + 2 + 2 + 1;
    assert_int_equal(s.warp_insts, per_warp0 + per_warp1);
    smc_device_destroy(r.dev);
}

static void test_loop_with_break(void **state) {
    (void)state;
    run r = go("",
        "\tmov.u32 %r5, 0;\n\tmov.u32 %r6, 0;\n"
        "LOOP:\n\tsetp.ge.u32 %p1, %r5, %r1;\n\t@%p1 bra DONE;\n"
        "\tadd.u32 %r6, %r6, %r5;\n\tsetp.gt.u32 %p2, %r6, 50;\n\t@%p2 bra DONE;\n"
        "\tadd.u32 %r5, %r5, 1;\n\tbra LOOP;\n"
        "DONE:\n\tmad.lo.u32 %r7, %r6, 1000, %r5;\n\tst.global.u32 [%rd3], %r7;\n",
        1, 40, 40, 0);
    TU_OK(r.dev, r.st);
    for (uint32_t t = 0; t < 40; t++) {
        uint32_t i = 0, sum = 0;
        for (;;) {
            if (i >= t) break;
            sum += i;
            if (sum > 50) break;
            i++;
        }
        assert_int_equal(r.o[t], sum * 1000 + i);
    }
    smc_device_destroy(r.dev);
}

static void test_early_exit_then_barrier(void **state) {
    (void)state;
    /* threads < 5 exit, thread 40 returns from a divergent branch; the others
     * meet at a barrier (exited threads do not count) and exchange through
     * shared memory. */
    run r = go(".shared .align 4 .b32 sh[64];\n",
        "\tsetp.lt.u32 %p1, %r1, 5;\n\t@%p1 exit;\n"
        "\tsetp.eq.u32 %p2, %r1, 40;\n\t@%p2 bra BYE;\n"
        "\tmov.u32 %r5, sh;\n\tshl.b32 %r6, %r1, 2;\n\tadd.u32 %r7, %r5, %r6;\n"
        "\tmul.lo.u32 %r8, %r1, 3;\n\tst.shared.u32 [%r7], %r8;\n"
        "\tbar.sync 0;\n"
        "\txor.b32 %r9, %r1, 1;\n\tshl.b32 %r10, %r9, 2;\n\tadd.u32 %r11, %r5, %r10;\n"
        "\tld.shared.u32 %r12, [%r11];\n\tst.global.u32 [%rd3], %r12;\n\tbra END;\n"
        "BYE:\n\tst.global.u32 [%rd3], %r0;\n\tret;\n"
        "END:\n",
        1, 64, 64, 0);
    TU_OK(r.dev, r.st);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t e;
        if (t < 5) e = 0xFFFFFFFFu;
        else if (t == 40) e = 64;
        else if ((t ^ 1) < 5 || (t ^ 1) == 40) e = 0;     /* partner never wrote: shared starts zeroed */
        else e = (t ^ 1) * 3;
        assert_int_equal(r.o[t], e);
    }
    smc_device_destroy(r.dev);
}

static void test_barrier_with_parked_lanes(void **state) {
    (void)state;
    /* The common `if (t >= 20) return; s[t] = ...; __syncthreads(); ...` as
     * nvcc compiles it: the returning lanes branch to the final ret, which is
     * the reconvergence point, and wait there while lanes 0-19 of warp 0 reach
     * the barrier; warp 1 takes the branch uniformly and exits. The barrier
     * counts warps (PTX semantics for sm_6x and below). */
    run r = go(".shared .align 4 .b32 sh[64];\n",
        "\tsetp.ge.u32 %p1, %r1, 20;\n\t@%p1 bra RET;\n"
        "\tmov.u32 %r5, sh;\n\tshl.b32 %r6, %r1, 2;\n\tadd.u32 %r7, %r5, %r6;\n"
        "\tadd.u32 %r8, %r1, 500;\n\tst.shared.u32 [%r7], %r8;\n\tbar.sync 0;\n"
        "\tmov.u32 %r9, 19;\n\tsub.u32 %r10, %r9, %r1;\n\tshl.b32 %r11, %r10, 2;\n\tadd.u32 %r12, %r5, %r11;\n"
        "\tld.shared.u32 %r13, [%r12];\n\tst.global.u32 [%rd3], %r13;\n"
        "RET:\n",
        1, 64, 64, 0);
    TU_OK(r.dev, r.st);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(r.o[t], t < 20 ? 500 + (19 - t) : 0xFFFFFFFFu);
    smc_device_destroy(r.dev);
}

static void test_barrier_reductions_and_arrive(void **state) {
    (void)state;
    /* 4 warps. bar.red.popc over (tid % 3 == 0); bar.red.and over (tid < 200);
     * bar.red.or over (tid == 77). Then warps 0-1 produce into shared memory
     * and bar.arrive on barrier 1 (128 threads), warps 2-3 bar.sync on it and
     * consume. */
    run r = go(".shared .align 4 .b32 sh[128];\n",
        "\trem.u32 %r5, %r1, 3;\n\tsetp.eq.u32 %p1, %r5, 0;\n\tbar.red.popc.u32 %r6, 0, %p1;\n"
        "\tsetp.lt.u32 %p2, %r1, 200;\n\tbar.red.and.pred %p3, 0, %p2;\n"
        "\tsetp.eq.u32 %p4, %r1, 77;\n\tbar.red.or.pred %p5, 0, !%p4;\n"
        "\tselp.u32 %r7, 1000, 0, %p3;\n\tselp.u32 %r8, 10000, 0, %p5;\n"
        "\tadd.u32 %r9, %r6, %r7;\n\tadd.u32 %r9, %r9, %r8;\n"
        "\tmov.u32 %r10, sh;\n\tshl.b32 %r11, %r1, 2;\n\tadd.u32 %r12, %r10, %r11;\n"
        "\tsetp.ge.u32 %p6, %r1, 64;\n\t@%p6 bra CONSUME;\n"
        "\tst.shared.u32 [%r12], %r9;\n\tbar.arrive 1, 128;\n\tbra OUT;\n"
        "CONSUME:\n\tbar.sync 1, 128;\n"
        "\tsub.u32 %r13, %r12, 256;\n\tld.shared.u32 %r14, [%r13];\n\tadd.u32 %r9, %r14, 5;\n"
        "OUT:\n\tst.global.u32 [%rd3], %r9;\n",
        1, 128, 128, 0);
    TU_OK(r.dev, r.st);
    uint32_t popc = 0;
    for (uint32_t t = 0; t < 128; t++) popc += t % 3 == 0;
    uint32_t v = popc + 1000 + 10000;   /* and: all < 200; or of !(t==77): true */
    for (uint32_t t = 0; t < 128; t++) assert_int_equal(r.o[t], t < 64 ? v : v + 5);
    smc_device_destroy(r.dev);
}

static void expect_fault(run *r, smc_status st, uint32_t cta, uint32_t warp, uint32_t lane, const char *frag) {
    if (r->st != st) fail_msg("expected %s, got %s: %s", smc_status_name(st), smc_status_name(r->st), smc_last_message(r->dev));
    smc_fault f;
    smc_device_fault(r->dev, &f);
    assert_int_equal(f.status, st);
    assert_string_equal(f.kernel, "k");
    assert_int_equal(f.cta.x, cta);
    assert_int_equal(f.warp, warp);
    assert_int_equal(f.lane, lane);
    assert_true(f.ptx_line > 0);
    if (frag && !strstr(f.message, frag)) fail_msg("fault message '%s' lacks '%s'", f.message, frag);
    /* the host keeps running: the next call reports the sticky fault, reset clears it */
    assert_int_equal(smc_memset(r->dev, r->out, 0, 4), st);
    smc_device_reset(r->dev);
    smc_device_fault(r->dev, &f);
    assert_int_equal(f.status, SMC_OK);
    smc_device_destroy(r->dev);
}

static void test_fault_global_oob(void **state) {
    (void)state;
    /* CTA 2, thread 37 (warp 1, lane 5) stores one word past the end of out */
    run r = go("", "\tsetp.ne.u32 %p1, %r4, 165;\n\t@%p1 bra SKIP;\n\tmul.wide.u32 %rd5, %r0, 4;\n"
                   "\tadd.s64 %rd6, %rd0, %rd5;\n\tst.global.u32 [%rd6], %r4;\nSKIP:\n", 3, 64, 192, 0);
    smc_fault f; smc_device_fault(r.dev, &f);
    assert_int_equal(f.address, r.out + 192 * 4);
    assert_int_equal(f.ptx_line, 26);   /* tu_wrap's prelude ends at line 21 */
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 2, 1, 5, "global store");
}

static void test_fault_misaligned(void **state) {
    (void)state;
    run r = go("", "\tld.global.u32 %r5, [%rd4+2];\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_MISALIGNED_ADDRESS, 0, 0, 0, "misaligned 4-byte global load");
}

static void test_fault_shared_local_param_null(void **state) {
    (void)state;
    run r = go(".shared .align 4 .b32 sh[4];\n", "\tmov.u32 %r5, sh;\n\tst.shared.u32 [%r5+16], %r1;\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 0, 0, 0, "shared store");
    r = go("", "\t.local .align 4 .b8 dep[8];\n\tmov.u64 %rd5, dep;\n\tld.local.u32 %r5, [%rd5+8];\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 0, 0, 0, "local load");
    r = go("", "\tst.param.u32 [k_n], %r1;\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 0, 0, 0, "param store");
    r = go("", "\tmov.u64 %rd5, 0;\n\tld.u32 %r5, [%rd5];\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 0, 0, 0, "at 0x0");
    /* a generic pointer into the shared window, past the CTA's shared size */
    r = go(".shared .align 4 .b32 sh[4];\n", "\tmov.u64 %rd5, sh;\n\tcvta.shared.u64 %rd6, %rd5;\n\tld.u32 %r5, [%rd6+12];\n"
                                             "\tld.u32 %r6, [%rd6+16];\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 0, 0, 0, "shared load");
}

static void test_fault_trap_watchdog_illegal(void **state) {
    (void)state;
    run r = go("", "\tsetp.eq.u32 %p1, %r1, 9;\n\t@%p1 trap;\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ASSERT, 0, 0, 9, "trap");
    r = go("", "LOOP:\n\tadd.u32 %r5, %r5, 1;\n\tbra LOOP;\n", 1, 32, 32, 10000);
    expect_fault(&r, SMC_ERR_LAUNCH_TIMEOUT, 0, 0, 0, "watchdog");
    r = go("", "\tcvt.rn.bf16.f32 %r5, %f1;\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_ILLEGAL_INSTRUCTION, 0, 0, 0, "not supported");
}

static void test_fault_barriers(void **state) {
    (void)state;
    /* a barrier count that is never reached: deadlock */
    run r = go("", "\tbar.sync 1, 96;\n", 1, 64, 64, 0);
    expect_fault(&r, SMC_ERR_LAUNCH_TIMEOUT, 0, 0, 0, "deadlock");
}

/* ---- the timing-model interface --------------------------------------------- */
static uint64_t fake_clock(void *ctx, uint32_t smid) { return *(uint64_t *)ctx + smid; }

static void test_emu_interface(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    char *src = tu_wrap("",
        "\tld.global.u32 %r5, [%rd4];\n"                     /* pc 10 (prelude: 0-9) */
        "\tsetp.lt.u32 %p1, %r1, 8;\n"                       /* 11 */
        "\t@%p1 bra SMALL;\n"                                /* 12 */
        "\tadd.u32 %r5, %r5, 100;\n"                         /* 13 */
        "SMALL:\n\tbar.sync 0;\n"                            /* 14 */
        "\tmov.u32 %r6, %smid;\n\tmov.u64 %rd5, %clock64;\n" /* 15 16 */
        "\tcvt.u32.u64 %r7, %rd5;\n\tmad.lo.u32 %r8, %r6, 1000, %r5;\n"
        "\tadd.u32 %r8, %r8, %r7;\n\tst.global.u32 [%rd3], %r8;\n");
    smc_module *m = tu_load(dev, src);
    free(src);
    smc_kernel *k = tu_kernel(m, "k");
    uint32_t n = 128;
    uint64_t out, in;
    assert_int_equal(smc_malloc(dev, n * 4, SMC_MEM_MANAGED, &out), SMC_OK);
    assert_int_equal(smc_malloc(dev, n * 4, SMC_MEM_MANAGED, &in), SMC_OK);
    uint32_t *iv = smc_host_ptr(dev, in, n * 4), *ov = smc_host_ptr(dev, out, n * 4);
    for (uint32_t i = 0; i < n; i++) iv[i] = 7 * i;
    char params[32];
    const void *args[] = { &out, &in, &n };
    tu_pack(k, params, sizeof params, args, 3);
    uint64_t now = 5000;
    emu_launch_desc d = { .kernel = smc_kernel_emu(k), .grid = { 2, 1, 1 }, .block = { 64, 1, 1 },
                          .params = params, .param_bytes = 20, .mem = smc_device_mem(dev),
                          .num_sms = 14, .max_warps_per_sm = 64, .clock = fake_clock, .clock_ctx = &now };
    emu_launch *l = emu_launch_create(&d);
    assert_non_null(l);
    assert_int_equal(emu_launch_num_ctas(l), 2);
    emu_cta *c = emu_cta_create(l, 1, 3);      /* CTA 1 on SM 3 */
    assert_non_null(c);
    assert_int_equal(emu_cta_num_warps(c), 2);
    emu_exec_info x;
    /* run warp 0 up to the load; peek does not execute */
    for (int i = 0; i < 10; i++) assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);
    const emu_inst_info *p1 = emu_warp_peek(c, 0), *p2 = emu_warp_peek(c, 0);
    assert_ptr_equal(p1, p2);
    assert_int_equal(p1->pc, 10);
    assert_int_equal(p1->op_class, EC_MEM);
    assert_int_equal(p1->is_load, 1);
    assert_int_equal(p1->long_latency, 1);
    assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);
    assert_int_equal(x.pc, 10);
    assert_int_equal(x.active, 0xFFFFFFFFu);
    assert_int_equal(x.access_size, 4);
    assert_int_equal(x.mem_space, SP_GLOBAL);
    for (uint32_t lane = 0; lane < 32; lane++) assert_int_equal(x.addr[lane], in + (64 + lane) * 4);
    /* CTA 1's tids are 0..63 again: lanes 0-7 take the branch: divergence */
    assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);             /* setp */
    assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);             /* bra */
    assert_int_equal(x.branch_taken, 1);
    assert_int_equal(x.diverged, 1);
    assert_int_equal(x.active, 0xFFu);
    /* taken path first: lanes 0-7 reach SMALL = the reconvergence point,
     * then the fall-through path (lanes 8-31) runs the add */
    assert_int_equal(emu_warp_peek(c, 0)->pc, 13);
    assert_int_equal(emu_warp_pc(c, 0), 13);
    assert_int_equal(emu_warp_active_mask(c, 0), 0xFFFFFF00u);
    assert_int_equal(emu_warp_stack_depth(c, 0), 2);            /* reconvergence entry + fall-through path */
    assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);
    assert_int_equal(x.active, 0xFFFFFF00u);
    assert_int_equal(emu_warp_peek(c, 0)->pc, 14);
    assert_int_equal(emu_warp_peek(c, 0)->is_barrier, 1);
    assert_int_equal(emu_warp_execute(c, 0, &x), EMU_WAIT_BARRIER);
    assert_int_equal(x.active, 0xFFFFFFFFu);                             /* reconverged */
    assert_false(emu_warp_ready(c, 0));
    assert_true(emu_warp_ready(c, 1));
    /* warp 1 arrives: both may proceed */
    int st;
    while (!emu_warp_peek(c, 1)->is_barrier) assert_int_equal(emu_warp_execute(c, 1, &x), EMU_OK);
    assert_int_equal(emu_warp_execute(c, 1, &x), EMU_OK);     /* the last to arrive completes it */
    assert_true(emu_warp_ready(c, 0));
    assert_true(emu_warp_ready(c, 1));
    now = 90000;
    while ((st = emu_warp_execute(c, 0, &x)) == EMU_OK) {}
    assert_int_equal(st, EMU_EXITED);
    assert_null(emu_warp_peek(c, 0));
    assert_int_equal(emu_warp_pc(c, 0), PTX_NO_PC);
    assert_int_equal(emu_warp_active_mask(c, 0), 0);
    assert_true(emu_warp_exited(c, 0));
    assert_false(emu_cta_done(c));
    while ((st = emu_warp_execute(c, 1, &x)) == EMU_OK) {}
    assert_int_equal(st, EMU_EXITED);
    assert_true(emu_cta_done(c));
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t v = 7 * (64 + t) + (t < 8 ? 0 : 100);
        uint32_t e = 3 * 1000 + v + (uint32_t)(90000 + 3);
        assert_int_equal(ov[64 + t], e);
    }
    assert_int_equal(emu_launch_fault(l)->status, SMC_OK);
    emu_cta_destroy(c);
    emu_launch_destroy(l);
    smc_device_destroy(dev);
}

/* HAWS-style out-of-order issue: an independent instruction executed ahead
 * and skipped in order gives the right result; a dependent one executed
 * ahead (a wrong hint) gives a wrong result, as the brief requires. */
static void ooo_run(int wrong_hint, uint32_t *res) {
    smc_device *dev = tu_device(0);
    char *src = tu_wrap("",
        "\tld.global.u32 %r5, [%rd4];\n"        /* pc 10 */
        "\tadd.u32 %r6, %r5, 1;\n"              /* 11: depends on the load */
        "\tmul.lo.u32 %r7, %r1, 3;\n"           /* 12: independent */
        "\tadd.u32 %r8, %r6, %r7;\n"            /* 13 */
        "\tst.global.u32 [%rd3], %r8;\n");      /* 14 */
    smc_module *m = tu_load(dev, src);
    free(src);
    smc_kernel *k = tu_kernel(m, "k");
    uint32_t n = 32;
    uint64_t out, in;
    assert_int_equal(smc_malloc(dev, n * 4, SMC_MEM_MANAGED, &out), SMC_OK);
    assert_int_equal(smc_malloc(dev, n * 4, SMC_MEM_MANAGED, &in), SMC_OK);
    uint32_t *iv = smc_host_ptr(dev, in, n * 4);
    for (uint32_t i = 0; i < n; i++) iv[i] = 1000 + i;
    char params[32];
    const void *args[] = { &out, &in, &n };
    tu_pack(k, params, sizeof params, args, 3);
    emu_launch_desc d = { .kernel = smc_kernel_emu(k), .grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
                          .params = params, .param_bytes = 20, .mem = smc_device_mem(dev), .num_sms = 1 };
    emu_launch *l = emu_launch_create(&d);
    emu_cta *c = emu_cta_create(l, 0, 0);
    emu_exec_info x;
    for (int i = 0; i < 10; i++) assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);
    if (wrong_hint) {
        assert_int_equal(emu_warp_execute_ahead(c, 0, 11, 0xFFFFFFFFu, &x), EMU_OK);   /* before the load */
        assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);                          /* 10 */
        assert_int_equal(emu_warp_skip(c, 0), EMU_OK);                                 /* 11 */
        assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);                          /* 12 */
    } else {
        assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);                          /* 10 */
        assert_int_equal(emu_warp_execute_ahead(c, 0, 12, 0xFFFFFFFFu, &x), EMU_OK);   /* hoisted */
        assert_int_equal(x.pc, 12);
        assert_int_equal(emu_warp_pc(c, 0), 11);                                       /* the warp did not move */
        assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);                          /* 11 */
        assert_int_equal(emu_warp_skip(c, 0), EMU_OK);                                 /* 12 */
    }
    int st;
    while ((st = emu_warp_execute(c, 0, &x)) == EMU_OK) {}
    assert_int_equal(st, EMU_EXITED);
    memcpy(res, smc_host_ptr(dev, out, n * 4), n * 4);
    /* control instructions cannot be executed ahead */
    emu_cta_destroy(c);
    c = emu_cta_create(l, 0, 0);
    assert_int_equal(emu_warp_execute_ahead(c, 0, 15, 1, &x), EMU_FAULT);             /* ret/exit */
    assert_int_equal(emu_launch_fault(l)->status, SMC_ERR_LAUNCH_FAILED);
    emu_cta_destroy(c);
    emu_launch_destroy(l);
    smc_device_destroy(dev);
}

static void test_out_of_order_issue(void **state) {
    (void)state;
    uint32_t good[32], bad[32];
    ooo_run(0, good);
    ooo_run(1, bad);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(good[t], 1000 + t + 1 + 3 * t);
        assert_int_equal(bad[t], 0 + 1 + 3 * t);          /* the early add read the stale %r5 */
    }
}

/* ---- out-of-line calls (docs/emulator.md "Calls") ---------------------------- */
/* Three functions with one b32 parameter and result, called through a table
 * of their addresses (an address initializer). fc diverges inside and
 * returns from both paths. */
static const char calls_decls[] =
    ".func (.param .b32 fa_r) fa(.param .b32 fa_x)\n{\n\t.reg .b32 %a<3>;\n"
    "\tld.param.u32 %a1, [fa_x];\n\tadd.u32 %a2, %a1, 1000;\n\tst.param.b32 [fa_r], %a2;\n\tret;\n}\n"
    /* fb keeps 8 values live at once, so that its registers share physical
     * registers with the caller's live ones (what the verifier watches) */
    ".func (.param .b32 fb_r) fb(.param .b32 fb_x)\n{\n\t.reg .b32 %b<12>;\n\tld.param.u32 %b1, [fb_x];\n"
    "\tadd.u32 %b2, %b1, 1;\n\tadd.u32 %b3, %b1, 2;\n\tadd.u32 %b4, %b1, 3;\n\tadd.u32 %b5, %b1, 4;\n"
    "\tadd.u32 %b6, %b1, 5;\n\tadd.u32 %b7, %b1, 6;\n\tadd.u32 %b8, %b1, 7;\n"
    "\tadd.u32 %b9, %b2, %b3;\n\tadd.u32 %b9, %b9, %b4;\n\tadd.u32 %b9, %b9, %b5;\n\tadd.u32 %b9, %b9, %b6;\n"
    "\tadd.u32 %b9, %b9, %b7;\n\tadd.u32 %b9, %b9, %b8;\n\tadd.u32 %b9, %b9, %b1;\n"
    "\tst.param.b32 [fb_r], %b9;\n\tret;\n}\n"
    ".func (.param .b32 fc_r) fc(.param .b32 fc_x)\n{\n\t.reg .b32 %c<3>;\n\t.reg .pred %cq;\n"
    "\tld.param.u32 %c1, [fc_x];\n\tsetp.lt.u32 %cq, %c1, 16;\n\t@%cq bra SMALL;\n"
    "\tsub.u32 %c2, %c1, 7;\n\tst.param.b32 [fc_r], %c2;\n\tret;\n"
    "SMALL:\n\txor.b32 %c2, %c1, 85;\n\tst.param.b32 [fc_r], %c2;\n\tret;\n}\n"
    ".global .align 8 .u64 tab[3] = {fa, fb, fc};\n";

/* Warp 0: lane t calls tab[t % 3] (three interleaved groups); warp 1: all
 * lanes call fb. out[t] = result + 1, added after the call. */
static const char calls_body[] =
    "\trem.u32 %r5, %r1, 3;\n\tsetp.ge.u32 %p1, %r1, 32;\n\tselp.u32 %r5, 1, %r5, %p1;\n"
    "\tmul.wide.u32 %rd5, %r5, 8;\n\tmov.u64 %rd6, tab;\n\tadd.s64 %rd7, %rd6, %rd5;\n"
    "\tld.global.u64 %rd8, [%rd7];\n"
    "\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n\t.param .b32 rv;\n"
    "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "\tcall (rv), %rd8, (p0), proto;\n\tld.param.b32 %r6, [rv];\n\t}\n"
    "\tadd.u32 %r7, %r6, 1;\n\tst.global.u32 [%rd3], %r7;\n";

static uint32_t calls_want(uint32_t t) {
    uint32_t f = t >= 32 ? 1 : t % 3;
    uint32_t v = f == 0 ? t + 1000 : f == 1 ? 8 * t + 28 : t < 16 ? t ^ 85 : t - 7;
    return v + 1;
}

static void test_indirect_call_divergent(void **state) {
    (void)state;
    /* functionally (smc_launch) */
    run r = go(calls_decls, calls_body, 1, 64, 64, 0);
    TU_OK(r.dev, r.st);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(r.o[t], calls_want(t));
    /* step by step through emu.h, with the regalloc verifier on: warp 0's
     * call runs once per target group, lowest lane's group first, each group
     * alone in its callee; the warp reconverges after the call */
    for (uint32_t t = 0; t < 64; t++) r.o[t] = 0;
    uint32_t n = 64;
    char params[32];
    const void *args[] = { &r.out, &r.in, &n };
    tu_pack(r.k, params, sizeof params, args, 3);
    emu_launch_desc d = { .kernel = smc_kernel_emu(r.k), .grid = { 1, 1, 1 }, .block = { 64, 1, 1 },
                          .params = params, .param_bytes = 20, .mem = smc_device_mem(r.dev),
                          .num_sms = 1, .max_warps_per_sm = 64, .verify_regalloc = true };
    emu_launch *l = emu_launch_create(&d);
    emu_cta *c = emu_cta_create(l, 0, 0);
    assert_non_null(c);
    const ptx_kernel *pk = emu_kernel_ptx(d.kernel);
    emu_exec_info x;
    while (!emu_warp_peek(c, 0)->is_call) assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);
    uint32_t call_pc = emu_warp_pc(c, 0);
    assert_int_equal(emu_warp_peek(c, 0)->op_class, EC_BRANCH);
    assert_int_equal(emu_warp_stack_depth(c, 0), 1);
    const uint32_t g0 = 0x49249249u, g1 = 0x92492492u, g2 = 0x24924924u;   /* t % 3 == 0, 1, 2 */
    const uint32_t before[3] = { 0xFFFFFFFFu, g1 | g2, g2 }, group[3] = { g0, g1, g2 };
    uint32_t calls = 0;
    while (emu_warp_pc(c, 0) != call_pc + 1) {
        bool at_call = emu_warp_pc(c, 0) == call_pc;
        if (at_call) {
            assert_true(calls < 3);
            assert_int_equal(emu_warp_active_mask(c, 0), before[calls]);
        }
        assert_int_equal(emu_warp_execute(c, 0, &x), EMU_OK);
        if (at_call) {
            /* the group is alone at its target's first instruction */
            const ptx_kfunc *f = &pk->funcs[pk->kfunc_of[calls]];    /* fa, fb, fc: module functions 0-2 */
            assert_int_equal(x.next_pc, f->entry);
            assert_int_equal(emu_warp_active_mask(c, 0), group[calls]);
            calls++;
        } else {        /* inside a callee, or back at the call (next group) or after it */
            uint32_t pc = emu_warp_pc(c, 0);
            assert_true(pc >= pk->funcs[0].entry || pc == call_pc || pc == call_pc + 1);
        }
    }
    assert_int_equal(calls, 3);
    assert_int_equal(emu_warp_active_mask(c, 0), 0xFFFFFFFFu);
    assert_int_equal(emu_warp_stack_depth(c, 0), 1);
    /* warp 1 calls one target: the call runs once */
    while (!emu_warp_peek(c, 1)->is_call) assert_int_equal(emu_warp_execute(c, 1, &x), EMU_OK);
    assert_int_equal(emu_warp_execute(c, 1, &x), EMU_OK);
    assert_int_equal(emu_warp_active_mask(c, 1), 0xFFFFFFFFu);
    for (uint32_t w = 0; w < 2; w++) {
        int st;
        while ((st = emu_warp_execute(c, w, &x)) == EMU_OK) {}
        if (st != EMU_EXITED) fail_msg("warp %u: %s", w, emu_launch_fault(l)->message);
    }
    assert_int_equal(emu_warp_peek(c, 1), NULL);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(r.o[t], calls_want(t));
    emu_cta_destroy(c);
    emu_launch_destroy(l);
    smc_device_destroy(r.dev);
}

/* sumdown(prev, n): keeps n in a local array of its frame, passes a generic
 * pointer to it down to sumdown(&buf, n - 1) and checks after the call that
 * its own buf still holds n and that the caller's (through prev) holds n + 1.
 * Returns n(n+1)/2 + the number of activations that had a caller's buf. */
static const char rec_decls[] =
    ".func (.param .b32 sr) sumdown(.param .b64 sprev, .param .b32 sn)\n{\n"
    "\t.local .align 4 .b8 buf[8];\n\t.reg .b32 %s<8>;\n\t.reg .b64 %sd<4>;\n\t.reg .pred %sq;\n"
    "\tld.param.u64 %sd1, [sprev];\n\tld.param.u32 %s1, [sn];\n"
    "\tmov.u64 %sd2, buf;\n\tcvta.local.u64 %sd3, %sd2;\n\tst.local.u32 [buf], %s1;\n"
    "\tsetp.eq.u32 %sq, %s1, 0;\n\tmov.u32 %s2, 0;\n\t@%sq bra DONE;\n\tsub.u32 %s3, %s1, 1;\n"
    "\t{\n\t.param .b64 q0;\n\tst.param.b64 [q0], %sd3;\n\t.param .b32 q1;\n\tst.param.b32 [q1], %s3;\n"
    "\t.param .b32 qr;\n\tcall.uni (qr), sumdown, (q0, q1);\n\tld.param.b32 %s2, [qr];\n\t}\n"
    "DONE:\n\tld.local.u32 %s4, [buf];\n\tadd.u32 %s5, %s2, %s4;\n"
    "\tsetp.eq.u64 %sq, %sd1, 0;\n\t@%sq bra OUT;\n"
    "\tld.u32 %s6, [%sd1];\n\tsub.u32 %s6, %s6, %s1;\n\tadd.u32 %s5, %s5, %s6;\n"
    "OUT:\n\tst.param.b32 [sr], %s5;\n\tret;\n}\n";

/* n = in[gid] (the kernel's %r0 = n overrides it when non-zero: the overflow) */
static const char rec_body[] =
    "\tld.global.u32 %r5, [%rd4];\n\trem.u32 %r5, %r5, 20;\n"
    "\tsetp.ne.u32 %p1, %r0, 64;\n\tselp.u32 %r5, %r0, %r5, %p1;\n"
    "\t{\n\t.param .b64 k0;\n\tst.param.b64 [k0], 0;\n\t.param .b32 k1;\n\tst.param.b32 [k1], %r5;\n"
    "\t.param .b32 kr;\n\tcall.uni (kr), sumdown, (k0, k1);\n\tld.param.b32 %r6, [kr];\n\t}\n"
    "\tst.global.u32 [%rd3], %r6;\n";

static void test_recursion_frames(void **state) {
    (void)state;
    run r = go(rec_decls, rec_body, 1, 64, 64, 0);
    TU_OK(r.dev, r.st);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t n = t % 20;
        assert_int_equal(r.o[t], n * (n + 1) / 2 + n);
    }
    smc_device_destroy(r.dev);
}

static void test_stack_overflow(void **state) {
    (void)state;
    /* 100 000 deep: sumdown's frame is 48 bytes (sprev 8, sn 4, buf 8, the
     * call block's 16, rounded up to 16), the kernel inlines the first level,
     * so 16384 / 48 = 341 calls fit and the call at depth 342 overflows */
    run r = go(rec_decls, rec_body, 1, 64, 100000, 0);
    expect_fault(&r, SMC_ERR_LAUNCH_FAILED, 0, 0, 0, "stack overflow: call of 'sumdown' at call depth 342 ");
}

static void test_bad_indirect_calls(void **state) {
    (void)state;
    /* lanes 0-4 call fa; lane 5 on calls the in[] array: the fault names
     * lane 5 and the address */
    run r = go(calls_decls,
        "\tmov.u64 %rd6, tab;\n\tld.global.u64 %rd8, [%rd6];\n"
        "\tsetp.ge.u32 %p1, %r1, 5;\n\tselp.b64 %rd8, %rd1, %rd8, %p1;\n"
        "\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n\t.param .b32 rv;\n"
        "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "\tcall (rv), %rd8, (p0), proto;\n\t}\n", 1, 32, 32, 0);
    smc_fault f; smc_device_fault(r.dev, &f);
    assert_int_equal(f.address, r.in);
    expect_fault(&r, SMC_ERR_ILLEGAL_ADDRESS, 0, 0, 5, "not the address of a device function");
    /* a 64-bit argument for fa's 32-bit parameter */
    r = go(calls_decls,
        "\tmov.u64 %rd6, tab;\n\tld.global.u64 %rd8, [%rd6];\n"
        "\t{\n\t.param .b64 p0;\n\tst.param.b64 [p0], %rd1;\n\t.param .b32 rv;\n"
        "\tproto: .callprototype (.param .b32 _) _ (.param .b64 _);\n"
        "\tcall (rv), %rd8, (p0), proto;\n\t}\n", 1, 32, 32, 0);
    expect_fault(&r, SMC_ERR_LAUNCH_FAILED, 0, 0, 0, "call of 'fa': argument 0 is 8 bytes, the function's is 4 (prototype mismatch)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_if_else),
        cmocka_unit_test(test_loop_with_break),
        cmocka_unit_test(test_early_exit_then_barrier),
        cmocka_unit_test(test_barrier_with_parked_lanes),
        cmocka_unit_test(test_barrier_reductions_and_arrive),
        cmocka_unit_test(test_fault_global_oob),
        cmocka_unit_test(test_fault_misaligned),
        cmocka_unit_test(test_fault_shared_local_param_null),
        cmocka_unit_test(test_fault_trap_watchdog_illegal),
        cmocka_unit_test(test_fault_barriers),
        cmocka_unit_test(test_emu_interface),
        cmocka_unit_test(test_out_of_order_issue),
        cmocka_unit_test(test_indirect_call_divergent),
        cmocka_unit_test(test_recursion_frames),
        cmocka_unit_test(test_stack_overflow),
        cmocka_unit_test(test_bad_indirect_calls),
    };
    return cmocka_run_group_tests_name("emu_simt", tests, NULL, NULL);
}
