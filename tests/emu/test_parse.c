/* test_parse.c — the PTX loader: every directive nvcc emits, error messages
 * (file:line:col and the offending token) for bad input, robustness against
 * truncated and huge input, and register allocation. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../csrc/emu/emu.h"
#include "../../csrc/ptx/ptx.h"

/* A module that uses every directive and operand form listed in the issue. */
static const char *directives_ptx =
    "//\n// header comment\n/* block\n comment */\n"
    ".version 9.0\n"
    ".target sm_75, texmode_independent\n"
    ".address_size 64\n"
    ".file 1 \"/tmp/x.cu\"\n"
    ".global .align 4 .u32 gv = 7;\n"
    ".global .attribute(.managed) .align 4 .u32 mv = 5;\n"
    ".global .align 8 .b8 gbytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
    ".const .align 4 .f32 cf[2] = {0f3F800000, 0f40000000};\n"
    ".const .align 8 .f64 cd = 0d4000000000000000;\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".weak .func (.param .b32 r) twice(.param .b32 x)\n"
    "{\n\t.reg .b32 t<2>;\n\tld.param.b32 t0, [x];\n\tadd.s32 t1, t0, t0;\n\tst.param.b32 [r], t1;\n\tret;\n}\n"
    ".visible .entry k(.param .u64 k_out, .param .align 8 .b8 k_s[16])\n"
    ".maxntid 64, 1, 1\n.minnctapersm 2\n"
    "{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<10>;\n\t.reg .f32 %f<8>;\n"
    "\t.local .align 8 .b8 __local_depot0[16];\n"
    "\t.shared .align 4 .b8 sarr[256];\n"
    "\t.pragma \"nounroll\";\n"
    "prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "\t.loc 1 10 3\n"
    "\tld.param.u64 %rd1, [k_out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tld.param.u32 %r2, [k_s+4];\n"                 /* struct field */
    "\tmov.u64 %rd3, gv;\n"
    "\tld.global.nc.u32 %r3, [%rd3];\n"              /* 7 */
    "\tld.global.v4.u8 {%r4, %r5, %r6, _}, [gbytes+4];\n"   /* 5 6 7 */
    "\tmov.u64 %rd4, cf;\n"
    "\tld.const.v2.f32 {%f1, %f2}, [%rd4];\n"       /* 1.0 2.0 */
    "\tadd.f32 %f3, %f1, 0f40400000;\n"              /* 4.0 */
    "\tcvt.rzi.s32.f32 %r7, %f3;\n"
    "\t{\n\t.reg .b32 %r1;\n\tmov.u32 %r1, 100;\n\tadd.s32 %r7, %r7, %r1;\n\t}\n"   /* shadowing: 104 */
    "\tadd.s32 %r8, %r7, %r1;\n"                     /* 104 + tid */
    "\t{ // callseq\n\t.reg .b32 temp_param_reg;\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r8;\n"
    "\t.param .b32 retval0;\n\tcall.uni (retval0), \n\ttwice, \n\t(\n\tparam0\n\t);\n"
    "\tld.param.b32 %r9, [retval0+0];\n\t}\n"       /* 2*(104+tid) */
    "\tmov.u64 %rd5, __local_depot0;\n\tcvta.local.u64 %rd6, %rd5;\n"
    "\tst.local.u32 [%rd5+4], %r9;\n\tld.u32 %r10, [%rd6+4];\n"        /* generic local */
    "\tmov.u32 %r11, sarr;\n\tshl.b32 %r12, %r1, 2;\n\tadd.s32 %r13, %r11, %r12;\n"
    "\tst.shared.cs.u32 [%r13], %r10;\n\tbar.sync 0;\n"
    "\tld.shared.cg.u32 %r14, [%r13];\n"
    "\tmov.u32 %r15, dyn;\n\tst.shared.u32 [%r15], %r3;\n"
    "\tsetp.ne.s32 %p1, %r1, 0;\n"
    "\t@!%p1 bra $L_zero;\n"
    "\tbra.uni $L_done;\n"
    "$L_zero:\n"
    "\tadd.s32 %r14, %r14, %r2;\n"                   /* thread 0 adds struct field */
    "$L_done:\n"
    "\tmul.wide.u32 %rd7, %r1, 4;\n\tadd.s64 %rd8, %rd2, %rd7;\n"
    "\tst.global.wb.u32 [%rd8], %r14;\n"
    "\tadd.s32 %r16, %r4, %r5;\n\tadd.s32 %r16, %r16, %r6;\n"
    "\tst.global.u32 [%rd2+256], %r16;\n"             /* 18 */
    "\tret;\n"
    "}\n"
    ".section .debug_str\n{\n$L__info_string0:\n.b8 95\n}\n";

static void test_all_directives(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load(dev, directives_ptx);
    smc_kernel *k = tu_kernel(m, "k");
    smc_kernel_info in;
    smc_kernel_get_info(k, &in);
    assert_int_equal(in.max_threads_per_block, 64);
    assert_int_equal(in.static_smem_bytes, 256);
    assert_int_equal(in.param_bytes, 24);
    assert_int_equal(in.num_params, 2);
    uint32_t off, sz;
    assert_int_equal(smc_kernel_param(k, 1, &off, &sz), SMC_OK);
    assert_int_equal(off, 8); assert_int_equal(sz, 16);
    assert_int_equal(in.const_bytes, 16);
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 260, SMC_MEM_MANAGED, &d), SMC_OK);
    struct { uint64_t out; uint32_t s[4]; } p = { d, { 0, 1000, 0, 0 } };
    smc_dim3 g = { 1, 1, 1 }, b = { 64, 1, 1 };
    smc_status st = smc_launch(dev, k, g, b, 16, 0, &p, sizeof p, NULL);
    if (st != SMC_OK) fail_msg("launch: %s", smc_last_message(dev));
    uint32_t *o = smc_host_ptr(dev, d, 260);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(o[t], 2 * (104 + t) + (t == 0 ? 1000 : 0));
    assert_int_equal(o[64], 18);
    /* a __managed__ variable is host-dereferenceable at its device address */
    uint64_t ma; size_t ms;
    assert_int_equal(smc_module_get_global(m, "mv", &ma, &ms), SMC_OK);
    assert_int_equal(ms, 4);
    assert_int_equal(*(uint32_t *)smc_host_ptr(dev, ma, 4), 5);
    smc_device_destroy(dev);
}

/* Expect a load failure whose message contains all of the given fragments. */
static void expect_error(const char *ptx, const char *frag1, const char *frag2) {
    smc_device *dev = tu_device(0);
    smc_module *m = NULL;
    smc_status st = smc_module_load_ptx(dev, "bad.ptx", ptx, strlen(ptx), &m);
    const char *msg = smc_last_message(dev);
    if (st != SMC_ERR_INVALID_PTX) fail_msg("expected SMC_ERR_INVALID_PTX, got %s (%s)", smc_status_name(st), msg);
    assert_null(m);
    if (frag1 && !strstr(msg, frag1)) fail_msg("message '%s' lacks '%s'", msg, frag1);
    if (frag2 && !strstr(msg, frag2)) fail_msg("message '%s' lacks '%s'", msg, frag2);
    smc_device_destroy(dev);
}

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static void test_errors(void **state) {
    (void)state;
    expect_error(HDR ".entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n", "bad.ptx:6:2:", "'frobnicate.u32'");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.u32 %r1, %r1, %r9;\n}\n", "bad.ptx:7:", "undeclared register '%r9'");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.u32 %r1, %r1 %r0;\n}\n", "bad.ptx:7:", "'%r0'");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.u32 %r1, %r1;\n}\n", "bad.ptx:7:", "takes 3 operands");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.bogus.u32 %r1, %r1, 1;\n}\n", "unsupported modifier '.bogus'", "bad.ptx:7:");
    expect_error(HDR ".entry k()\n{\n\tbra $L_nowhere;\n}\n", "undefined label '$L_nowhere'", "bad.ptx:6:");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<99999999999>;\n}\n", "bad.ptx:6:", "register count");
    expect_error(HDR ".global .b8 big[99999999999999999999];\n", "bad.ptx:4:", "99999999999999999999");
    expect_error(HDR ".global .b8 big[4294967296][4294967296];\n", "too large", NULL);
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 123456789012345678901234567890;\n}\n", "bad.ptx:7:", "out-of-range integer");
    expect_error(".version 9.0\n.target sm_75\n.address_size 32\n", "bad.ptx:3:15:", "only .address_size 64");
    expect_error(".target sm_75\n", "missing .version", NULL);
    expect_error(".version 12.0\n", "unsupported PTX ISA version", "'12.0'");
    expect_error(HDR ".entry k()\n{\n\tret;\n", "unexpected end of file", "'k'");
    expect_error(HDR ".entry k(\n", "bad.ptx:5:1:", "end of file");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, \"str\";\n}\n", "bad.ptx:7:", "bad operand");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 0f3F80;\n}\n", "exactly 8 hex digits", "'0f3F80'");
    expect_error(HDR "\x01\n", "bad.ptx:4:1:", "unexpected character");
    expect_error(HDR ".texref t;\n", "bad.ptx:4:1:", "'.texref'");
    /* calls out of line (recursion, indirect calls) and address initializers */
    expect_error(HDR ".func f(.param .b32 a)\n{\n\t{\n\t.param .b64 p;\n\tcall.uni f, (p);\n\t}\n\tret;\n}\n"
                 ".entry k()\n{\n\t{\n\t.param .b32 q;\n\tcall.uni f, (q);\n\t}\n\tret;\n}\n",
                 "call of 'f': argument 0 is 8 bytes, the function's is 4", "bad.ptx:8:");
    expect_error(HDR ".func f()\n{\n\t.local .b8 d[8];\n\t.reg .b64 %rd<2>;\n\tcvta.local.u64 %rd1, d;\n\tcall.uni f, ();\n\tret;\n}\n"
                 ".entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n", "address of local variable 'd' is used by 'cvta'", NULL);
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tcall.uni %r1, (), proto;\n}\n", "needs a 64-bit register", "'%r1'");
    expect_error(HDR ".entry k()\n{\n\t.reg .b64 %rd<2>;\n\tcall.uni %rd1, ();\n}\n", "needs a prototype label", NULL);
    expect_error(HDR ".func f()\n{\n\tret;\n}\n.global .u32 p = f;\n", "needs 64-bit integer elements", "bad.ptx:8:");
    expect_error(HDR ".global .u64 p[2] = {0, generic(nosuch)+8};\n", "takes the address of 'nosuch'", "bad.ptx:4:");
    expect_error(HDR ".global .u64 p = generic(q;\n", "expected ')'", NULL);
    expect_error(HDR ".entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, nosuch;\n}\n", "undefined symbol 'nosuch'", "bad.ptx:7:");
    expect_error(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .pred %p<2>;\n\t@%r1 bra L;\nL:\n\tret;\n}\n", "guard must be a predicate", "bad.ptx:8:");
}

/* Every prefix of a real module either loads or fails with a located message. */
/* Every 7th prefix of real modules: nvcc's basics, and device-side C++
 * (address initializers, indirect calls, recursion). */
static void test_truncated_input(void **state) {
    (void)state;
    static const char *const files[] = { "tests/emu/ptx/basics.ptx", "tests/hints/ptx/devcxx.ptx" };
    for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
        FILE *f = fopen(files[fi], "rb");
        assert_non_null(f);
        static char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        assert_true(n > 1000);
        smc_device *dev = tu_device(0);
        size_t failed = 0;
        for (size_t len = 0; len < n; len += 7) {
            smc_module *m = NULL;
            smc_status st = smc_module_load_ptx(dev, "cut.ptx", buf, len, &m);
            if (st == SMC_OK) { smc_module_unload(m); continue; }
            assert_int_equal(st, SMC_ERR_INVALID_PTX);
            if (!strstr(smc_last_message(dev), "cut.ptx:"))
                fail_msg("%s, len %zu: unlocated message '%s'", files[fi], len, smc_last_message(dev));
            failed++;
        }
        assert_true(failed > 0);
        smc_module *m = NULL;
        assert_int_equal(smc_module_load_ptx(dev, "full.ptx", buf, n, &m), SMC_OK);
        smc_device_destroy(dev);
    }
}

/* ---- register allocation ---------------------------------------------------- */
static const emu_inst_info *inst(smc_kernel *k, uint32_t pc) {
    const emu_inst_info *x = emu_kernel_inst(smc_kernel_emu(k), pc);
    assert_non_null(x);
    return x;
}

static void test_regalloc_counts(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    /* pc0: r1 = tid; pc1: rd1 = wide(r1); pc2: r2 = r1 + 1; pc3: rd2 = rd1 + rd1;
     * pc4: p1 = r2 < 5; pc5: st [rd2], r2 guarded by p1; pc6: exit.
     * Live at once: r1, rd1 (pair) at pc1-2; r2, rd1 at pc2-3; r2, rd2 at 3-5. */
    const char *ptx = HDR ".entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd1, %r1, 4;\n\tadd.u32 %r2, %r1, 1;\n"
        "\tadd.s64 %rd2, %rd1, %rd1;\n\tsetp.lt.u32 %p1, %r2, 5;\n\t@%p1 st.global.u32 [%rd2], %r2;\n\tret;\n}\n";
    smc_module *m = tu_load(dev, ptx);
    smc_kernel *k = tu_kernel(m, "k");
    smc_kernel_info in;
    smc_kernel_get_info(k, &in);
    /* r1 -> 0; rd1 needs an even pair -> 2,3; r2 reuses 0? no: r1 is read at pc2
     * where r2 is defined, so r2 -> 1; rd2 (defined at pc3, rd1's last use)
     * takes a fresh pair 4,5 because intervals are closed. Total 6. */
    assert_int_equal(in.regs_per_thread, 6);
    assert_int_equal(in.pred_regs, 1);
    const emu_inst_info *x = inst(k, 1);           /* mul.wide: dst pair, src r1 */
    assert_int_equal(x->ndst, 2);
    assert_int_equal(x->dst[0] % 2, 0);
    assert_int_equal(x->dst[1], x->dst[0] + 1);
    assert_int_equal(x->nsrc, 1);
    assert_int_equal(x->src[0], inst(k, 0)->dst[0]);
    x = inst(k, 5);                                 /* guarded store */
    assert_int_equal(x->op_class, EC_MEM);
    assert_int_equal(x->mem_space, SP_GLOBAL);
    assert_int_equal(x->is_store, 1);
    assert_int_equal(x->long_latency, 1);
    assert_int_equal(x->access_size, 4);
    assert_int_equal(x->nsrc_pred, 1);
    assert_int_equal(x->src_pred[0], inst(k, 4)->dst_pred[0]);
    assert_int_equal(x->nsrc, 3);                   /* rd2 pair + r2 */
    assert_int_equal(x->ndst, 0);
    assert_int_equal(inst(k, 6)->is_exit, 1);
    smc_device_destroy(dev);
}

/* 300 values, each dead right after use: the file is reused, not exhausted. */
static void test_regalloc_reuse_and_pressure(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    size_t cap = 1 << 20;
    char *s = malloc(cap);
    size_t n = (size_t)snprintf(s, cap, HDR ".entry k(.param .u64 o)\n{\n\t.reg .b32 %%r<400>;\n\t.reg .b64 %%rd<2>;\n"
                                "\tld.param.u64 %%rd1, [o];\n\tmov.u32 %%r0, 0;\n");
    for (int i = 1; i < 300; i++) n += (size_t)snprintf(s + n, cap - n, "\tadd.u32 %%r%d, %%r%d, %d;\n", i, i - 1, i);
    n += (size_t)snprintf(s + n, cap - n, "\tst.global.u32 [%%rd1], %%r299;\n\tret;\n}\n");
    smc_module *m = tu_load(dev, s);
    smc_kernel *k = tu_kernel(m, "k");
    smc_kernel_info in;
    smc_kernel_get_info(k, &in);
    assert_true(in.regs_per_thread <= 4);
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 4, SMC_MEM_MANAGED, &d), SMC_OK);
    const void *args[] = { &d };
    assert_int_equal(tu_launch(dev, k, 1, 1, 0, args, 1), SMC_OK);
    assert_int_equal(*(uint32_t *)smc_host_ptr(dev, d, 4), 299 * 300 / 2);
    /* 300 values all live until the end: exceeds 255 registers -> clear error */
    n = (size_t)snprintf(s, cap, HDR ".entry k(.param .u64 o)\n{\n\t.reg .b32 %%r<400>;\n\t.reg .b64 %%rd<2>;\n"
                         "\tld.param.u64 %%rd1, [o];\n");
    for (int i = 0; i < 300; i++) n += (size_t)snprintf(s + n, cap - n, "\tmov.u32 %%r%d, %%tid.x;\n", i);
    for (int i = 0; i < 300; i++) n += (size_t)snprintf(s + n, cap - n, "\tst.global.u32 [%%rd1], %%r%d;\n", i);
    snprintf(s + n, cap - n, "\tret;\n}\n");
    smc_module *m2 = NULL;
    assert_int_equal(smc_module_load_ptx(dev, "pressure.ptx", s, strlen(s), &m2), SMC_ERR_INVALID_PTX);
    assert_non_null(strstr(smc_last_message(dev), "register pressure exceeds 255"));
    assert_non_null(strstr(smc_last_message(dev), "pressure.ptx:"));
    free(s);
    smc_device_destroy(dev);
}

/* Values live around a loop keep their registers through the back edge. */
static void test_regalloc_loop(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    const char *ptx = HDR ".entry k(.param .u64 o)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<2>;\n"
        "\tld.param.u64 %rd1, [o];\n\tmov.u32 %r1, 0;\n\tmov.u32 %r2, 0;\n\tmov.u32 %r5, 3;\n"
        "L1:\n\tadd.u32 %r3, %r1, 7;\n\tmul.lo.u32 %r4, %r3, %r5;\n\tadd.u32 %r2, %r2, %r4;\n"
        "\tadd.u32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, 10;\n\t@%p1 bra L1;\n"
        "\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
    smc_module *m = tu_load(dev, ptx);
    smc_kernel *k = tu_kernel(m, "k");
    /* r5 is defined before the loop and read inside: it must not share a
     * register with r3/r4, which are defined inside the loop. */
    uint16_t r5 = inst(k, 3)->dst[0], r3 = inst(k, 4)->dst[0], r4 = inst(k, 5)->dst[0];
    assert_true(r5 != r3 && r5 != r4);
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 4, SMC_MEM_MANAGED, &d), SMC_OK);
    const void *args[] = { &d };
    assert_int_equal(tu_launch(dev, k, 1, 1, 0, args, 1), SMC_OK);
    uint32_t e = 0;
    for (uint32_t i = 0; i < 10; i++) e += (i + 7) * 3;
    assert_int_equal(*(uint32_t *)smc_host_ptr(dev, d, 4), e);
    smc_device_destroy(dev);
}

static void test_reqntid_and_activemask(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    /* .reqntid 64: other block shapes are refused. activemask / vote.uni inside
     * a divergent branch see only the lanes on that path. */
    const char *ptx = HDR ".visible .entry k(.param .u64 o)\n.reqntid 64, 1, 1\n{\n"
        "\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
        "\tld.param.u64 %rd1, [o];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %laneid;\n"
        "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
        "\tsetp.lt.u32 %p1, %r2, 10;\n\t@%p1 bra LOW;\n"
        "\tactivemask.b32 %r3;\n\tsetp.gt.u32 %p2, %r2, 0;\n\tvote.sync.uni.pred %p3, %p2, %r3;\n"
        "\tselp.u32 %r4, 1, 0, %p3;\n\tadd.u32 %r3, %r3, %r4;\n\tbra END;\n"
        "LOW:\n\tactivemask.b32 %r3;\n"
        "END:\n\tst.global.u32 [%rd3], %r3;\n\tret;\n}\n";
    smc_module *m = tu_load(dev, ptx);
    smc_kernel *k = tu_kernel(m, "k");
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 64 * 4, SMC_MEM_MANAGED, &d), SMC_OK);
    const void *args[] = { &d };
    assert_int_equal(tu_launch(dev, k, 1, 32, 0, args, 1), SMC_ERR_INVALID_CONFIGURATION);
    TU_OK(dev, tu_launch(dev, k, 1, 64, 0, args, 1));
    uint32_t *o = smc_host_ptr(dev, d, 64 * 4);
    /* lanes >= 10: mask 0xFFFFFC00 and every lane has laneid > 0 -> uniform (+1) */
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(o[t], (t % 32) < 10 ? 0x3FFu : 0xFFFFFC01u);
    smc_device_destroy(dev);
}

/* The verifier (SMC_VERIFY_REGALLOC=1) catches an allocation in which two
 * simultaneously live values share a physical register. */
static void test_regalloc_verifier(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    const char *ptx = HDR ".entry k(.param .u64 o)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
        "\tld.param.u64 %rd1, [o];\n\tmov.u32 %r1, 5;\n\tmov.u32 %r2, 7;\n\tadd.u32 %r3, %r1, %r2;\n"
        "\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";
    smc_module *m = tu_load(dev, ptx);
    smc_kernel *k = tu_kernel(m, "k");
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 4, SMC_MEM_MANAGED, &d), SMC_OK);
    const void *args[] = { &d };
    setenv("SMC_VERIFY_REGALLOC", "1", 1);
    TU_OK(dev, tu_launch(dev, k, 1, 32, 0, args, 1));          /* the real allocation passes */
    ptx_kernel *pk = (ptx_kernel *)emu_kernel_ptx(smc_kernel_emu(k));
    int32_t r1 = pk->code[1].ops[0].reg, r2 = pk->code[2].ops[0].reg;
    assert_int_not_equal(pk->phys[r1], pk->phys[r2]);
    uint16_t saved = pk->phys[r2];
    pk->phys[r2] = pk->phys[r1];                                /* r1 and r2 are both live at pc 3 */
    assert_int_equal(tu_launch(dev, k, 1, 32, 0, args, 1), SMC_ERR_LAUNCH_FAILED);
    assert_non_null(strstr(smc_last_message(dev), "register allocation conflict"));
    smc_device_reset(dev);
    assert_int_equal(smc_malloc(dev, 4, SMC_MEM_MANAGED, &d), SMC_OK);
    unsetenv("SMC_VERIFY_REGALLOC");
    TU_OK(dev, tu_launch(dev, k, 1, 32, 0, args, 1));          /* values live in virtual registers */
    assert_int_equal(*(uint32_t *)smc_host_ptr(dev, d, 4), 12);
    pk->phys[r2] = saved;
    smc_device_destroy(dev);
}

/* Address initializers: variables (plain, generic, with + and - offsets,
 * byte selections of a packed struct) and functions (code addresses, one
 * per function of the module), filled in at load. */
static void test_address_initializers(void **state) {
    (void)state;
    static const char ptx[] =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".func f0()\n{\n\tret;\n}\n.func f1()\n{\n\tret;\n}\n"
        ".global .align 8 .u64 a[4] = {1, 2, 3, 4};\n"
        ".global .align 8 .u64 p[4] = {a, generic(a)+8, generic(a)-8, f1};\n"
        ".const .align 8 .u64 cf = f0;\n"
        ".global .align 1 .u8 pk[9] = {97, 0XFF(generic(a)+24), 0xFF00(generic(a)+24), 0xFF0000(generic(a)+24), "
        "0xFF000000(generic(a)+24), 0xFF00000000(generic(a)+24), 0xFF0000000000(generic(a)+24), "
        "0xFF000000000000(generic(a)+24), 0xFF00000000000000(generic(a)+24)};\n"
        ".visible .entry k()\n{\n\tret;\n}\n";
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load(dev, ptx);
    uint64_t a, pa, cfa, pka; size_t sz;
    assert_int_equal(smc_module_get_global(m, "a", &a, &sz), SMC_OK);
    assert_int_equal(smc_module_get_global(m, "p", &pa, &sz), SMC_OK);
    assert_int_equal(smc_module_get_global(m, "cf", &cfa, &sz), SMC_OK);
    assert_int_equal(smc_module_get_global(m, "pk", &pka, &sz), SMC_OK);
    assert_int_equal(sz, 9);
    const uint64_t *pv = smc_host_ptr(dev, pa, 32);
    assert_int_equal(pv[0], a);
    assert_int_equal(pv[1], a + 8);
    assert_int_equal(pv[2], a - 8);
    assert_int_equal(pv[3], SMC_CODE_WINDOW + 2 * SMC_CODE_ALIGN);     /* f1: module function 1 */
    assert_int_equal(*(const uint64_t *)smc_host_ptr(dev, cfa, 8), SMC_CODE_WINDOW + SMC_CODE_ALIGN);
    const uint8_t *pk = smc_host_ptr(dev, pka, 9);
    uint64_t packed;
    memcpy(&packed, pk + 1, 8);
    assert_int_equal(pk[0], 97);
    assert_int_equal(packed, a + 24);
    assert_int_equal(((const uint64_t *)smc_host_ptr(dev, a, 32))[3], 4);
    smc_device_destroy(dev);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_directives),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_truncated_input),
        cmocka_unit_test(test_reqntid_and_activemask),
        cmocka_unit_test(test_regalloc_counts),
        cmocka_unit_test(test_regalloc_reuse_and_pressure),
        cmocka_unit_test(test_regalloc_loop),
        cmocka_unit_test(test_regalloc_verifier),
        cmocka_unit_test(test_address_initializers),
    };
    return cmocka_run_group_tests_name("emu_parse", tests, NULL, NULL);
}
