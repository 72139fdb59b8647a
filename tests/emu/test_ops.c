/* test_ops.c — spot checks of instruction semantics the emulator owns and
 * nvcc rarely emits: IEEE rounding modes on add/mul/fma (f32, f64), cvt
 * rounding and saturation, carry chains (add.cc/addc, sub.cc/subc,
 * mad.lo.cc/madc.hi), integer division by zero, bfe/bfi/prmt, shf, lop3,
 * setp unordered comparisons and .and combining, testp, copysign, f16 cvt.
 * The broad per-instruction conformance suite lives on the isa branch.
 * Every expected value is derived by hand in the comments. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run `body` once (1 thread); it stores up to 16 u32 results at out[0..]. */
static void run1(const char *body, uint32_t *res, uint32_t n) {
    smc_device *dev = tu_device(0);
    char *src = tu_wrap("", body);
    smc_module *m = tu_load(dev, src);
    free(src);
    smc_kernel *k = tu_kernel(m, "k");
    uint64_t out, in;
    assert_int_equal(smc_malloc(dev, 64 * 4, SMC_MEM_MANAGED, &out), SMC_OK);
    assert_int_equal(smc_malloc(dev, 64 * 4, SMC_MEM_MANAGED, &in), SMC_OK);
    uint32_t cnt = 1;
    const void *args[] = { &out, &in, &cnt };
    TU_OK(dev, tu_launch(dev, k, 1, 1, 0, args, 3));
    memcpy(res, smc_host_ptr(dev, out, n * 4), n * 4);
    smc_device_destroy(dev);
}

#define ST(i, reg) "\tst.global.u32 [%rd0+" #i "], " reg ";\n"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void test_rounding_f32(void **state) {
    (void)state;
    uint32_t r[8];
    /* a = 1.0, b = 1.5 * 2^-24 (0x33C00000): a + b = 1 + 0.75 ulp(1) (ulp = 2^-23)
     * -> rn: 1 + ulp, rz: 1, rm: 1, rp: 1 + ulp. -a - b mirrors it. */
    run1("\tmov.f32 %f1, 0f3F800000;\n\tmov.f32 %f2, 0f33C00000;\n\tneg.f32 %f3, %f1;\n\tneg.f32 %f4, %f2;\n"
         "\tadd.rn.f32 %f5, %f1, %f2;\n" ST(0, "%f5")
         "\tadd.rz.f32 %f5, %f1, %f2;\n" ST(4, "%f5")
         "\tadd.rm.f32 %f5, %f1, %f2;\n" ST(8, "%f5")
         "\tadd.rp.f32 %f5, %f1, %f2;\n" ST(12, "%f5")
         "\tadd.rm.f32 %f5, %f3, %f4;\n" ST(16, "%f5")
         "\tadd.rz.f32 %f5, %f3, %f4;\n" ST(20, "%f5")
         /* (1 + 2^-23) * (1 + 2^-23) = 1 + 2^-22 + 2^-46: rn -> 1 + 2^-22, rp -> 1 + 2^-22 + 2^-23 */
         "\tmov.f32 %f6, 0f3F800001;\n\tmul.rn.f32 %f7, %f6, %f6;\n" ST(24, "%f7")
         "\tmul.rp.f32 %f7, %f6, %f6;\n" ST(28, "%f7"),
         r, 8);
    assert_int_equal(r[0], 0x3F800001);
    assert_int_equal(r[1], 0x3F800000);
    assert_int_equal(r[2], 0x3F800000);
    assert_int_equal(r[3], 0x3F800001);
    assert_int_equal(r[4], 0xBF800001);
    assert_int_equal(r[5], 0xBF800000);
    assert_int_equal(r[6], 0x3F800002);
    assert_int_equal(r[7], 0x3F800003);
}

static void test_rounding_fma_f64_and_cvt(void **state) {
    (void)state;
    uint32_t r[10];
    /* fma.rz.f32 (1+2^-23)*(1+2^-23) + 0 = 1 + 2^-22 + 2^-46 -> rz 1 + 2^-22 (0x3F800002)
     * f64: 1 + 2^-53 * 1.5 rounds like the f32 case: rz -> 1.0, rp -> 1 + 2^-52.
     * cvt.rni.s32.f32 2.5 -> 2 (ties to even), -2.5 -> -2; cvt.rmi 2.5 -> 2;
     * cvt.rpi -> 3; cvt.sat.u8.s32 300 -> 255, -5 -> 0 (cvt.sat.u8 of s32);
     * cvt.rzi.s32.f32 of 3e9 saturates to 0x7FFFFFFF; NaN -> 0. */
    run1("\tmov.f32 %f6, 0f3F800001;\n\tfma.rz.f32 %f7, %f6, %f6, 0f00000000;\n" ST(0, "%f7")
         "\tmov.f64 %fd1, 0d3FF0000000000000;\n\tmov.f64 %fd2, 0d3CA8000000000000;\n"
         "\tadd.rz.f64 %fd3, %fd1, %fd2;\n\tmov.b64 {%r10, %r11}, %fd3;\n" ST(4, "%r11")
         "\tadd.rp.f64 %fd3, %fd1, %fd2;\n\tmov.b64 {%r10, %r11}, %fd3;\n" ST(8, "%r10")
         "\tmov.f32 %f1, 0f40200000;\n\tcvt.rni.s32.f32 %r12, %f1;\n" ST(12, "%r12")
         "\tneg.f32 %f2, %f1;\n\tcvt.rni.s32.f32 %r12, %f2;\n" ST(16, "%r12")
         "\tcvt.rpi.s32.f32 %r12, %f1;\n" ST(20, "%r12")
         "\tmov.u32 %r13, 300;\n\tcvt.sat.u8.s32 %r14, %r13;\n" ST(24, "%r14")
         "\tmov.u32 %r13, -5;\n\tcvt.sat.u8.s32 %r14, %r13;\n" ST(28, "%r14")
         "\tmov.f32 %f3, 0f4F32D05E;\n\tcvt.rzi.s32.f32 %r15, %f3;\n" ST(32, "%r15")
         "\tmov.f32 %f4, 0f7FC00000;\n\tcvt.rzi.s32.f32 %r15, %f4;\n" ST(36, "%r15"),
         r, 10);
    assert_int_equal(r[0], 0x3F800002);
    assert_int_equal(r[1], 0x3FF00000);       /* high word of 1.0 */
    assert_int_equal(r[2], 1);                /* low word of 1 + 2^-52 */
    assert_int_equal(r[3], 2);
    assert_int_equal(r[4], (uint32_t)-2);
    assert_int_equal(r[5], 3);
    assert_int_equal(r[6], 255);
    assert_int_equal(r[7], 0);
    assert_int_equal(r[8], 0x7FFFFFFF);
    assert_int_equal(r[9], 0);
}

static void test_carry_chains_and_division(void **state) {
    (void)state;
    uint32_t r[12];
    /* 64-bit add from halves: 0x00000001_FFFFFFFF + 0x00000002_00000001
     *   = 0x00000004_00000000 (carry out of the low half).
     * 64-bit sub: 0x00000005_00000000 - 0x00000000_00000001 = 0x00000004_FFFFFFFF.
     * mad.lo.cc / madc.hi: 0xFFFFFFFF * 0xFFFFFFFF = 0xFFFFFFFE_00000001;
     *   lo + 0xFFFFFFFF = 0x1_00000000 -> lo 0, carry 1; hi + 0 + 1 = 0xFFFFFFFF.
     * div.u32 x / 0 = 0xFFFFFFFF, rem.u32 x % 0 = x, div.s32 -7 / 0 = -1,
     * div.s32 INT_MIN / -1 = INT_MIN, rem.s32 INT_MIN % -1 = 0. */
    run1("\tmov.u32 %r10, -1;\n\tmov.u32 %r11, 1;\n\tmov.u32 %r12, 1;\n\tmov.u32 %r13, 2;\n"
         "\tadd.cc.u32 %r14, %r10, %r12;\n\taddc.u32 %r15, %r11, %r13;\n" ST(0, "%r14") ST(4, "%r15")
         "\tmov.u32 %r16, 0;\n\tmov.u32 %r17, 5;\n"
         "\tsub.cc.u32 %r18, %r16, %r12;\n\tsubc.u32 %r19, %r17, 0;\n" ST(8, "%r18") ST(12, "%r19")
         "\tmad.lo.cc.u32 %r20, %r10, %r10, %r10;\n\tmadc.hi.u32 %r21, %r10, %r10, 0;\n" ST(16, "%r20") ST(20, "%r21")
         "\tmov.u32 %r22, 0;\n\tmov.u32 %r23, 1234;\n"
         "\tdiv.u32 %r24, %r23, %r22;\n" ST(24, "%r24")
         "\trem.u32 %r24, %r23, %r22;\n" ST(28, "%r24")
         "\tmov.u32 %r25, -7;\n\tdiv.s32 %r24, %r25, %r22;\n" ST(32, "%r24")
         "\tmov.u32 %r26, 0x80000000;\n\tmov.u32 %r27, -1;\n\tdiv.s32 %r24, %r26, %r27;\n" ST(36, "%r24")
         "\trem.s32 %r24, %r26, %r27;\n" ST(40, "%r24"),
         r, 11);
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 4);
    assert_int_equal(r[2], 0xFFFFFFFF);
    assert_int_equal(r[3], 4);
    assert_int_equal(r[4], 0);
    assert_int_equal(r[5], 0xFFFFFFFF);
    assert_int_equal(r[6], 0xFFFFFFFF);
    assert_int_equal(r[7], 1234);
    assert_int_equal(r[8], 0xFFFFFFFF);
    assert_int_equal(r[9], 0x80000000);
    assert_int_equal(r[10], 0);
}

static void test_bits_and_compare(void **state) {
    (void)state;
    uint32_t r[14];
    /* bfe.u32 0xF0F0 pos 4 len 8 = 0x0F; bfe.s32 0x0F00 pos 8 len 4 = 0xF -> sign bit set -> 0xFFFFFFFF;
     * bfi.b32 a=0xAB into b=0xFFFFFFFF at pos 8 len 8 = 0xFFFFABFF;
     * prmt 0x33221100, 0x77665544 selector 0x7531 -> bytes 1,3,5,7 = 0x77553311;
     * shf.l.wrap (lo 0x80000001, hi 0x1, n 4) = (hi << 4) | (lo >> 28) = 0x18;
     * shf.r.clamp (lo 0x10, hi 0x1, n 40) -> clamp 32 -> hi >> 0... = 0x1;
     * lop3 a&b|c with lut 0xEA: a=0xF0,b=0x3C,c=0x01 -> 0x31;
     * setp.ltu.f32 NaN < 1 -> true; setp.lt.f32 NaN -> false; setp.lt.and: true && false = false;
     * testp.subnormal 0x00000001 -> true; copysign(-x, 3.0): copysign.f32 d, a=-1.0, b=3.0 = -3.0 */
    run1("\tmov.u32 %r10, 0xF0F0;\n\tbfe.u32 %r11, %r10, 4, 8;\n" ST(0, "%r11")
         "\tmov.u32 %r10, 0x0F00;\n\tbfe.s32 %r11, %r10, 8, 4;\n" ST(4, "%r11")
         "\tmov.u32 %r12, 0xAB;\n\tmov.u32 %r13, -1;\n\tbfi.b32 %r14, %r12, %r13, 8, 8;\n" ST(8, "%r14")
         "\tmov.u32 %r15, 0x33221100;\n\tmov.u32 %r16, 0x77665544;\n\tprmt.b32 %r17, %r15, %r16, 0x7531;\n" ST(12, "%r17")
         "\tmov.u32 %r18, 0x80000001;\n\tmov.u32 %r19, 1;\n\tshf.l.wrap.b32 %r20, %r18, %r19, 4;\n" ST(16, "%r20")
         "\tmov.u32 %r18, 0x10;\n\tshf.r.clamp.b32 %r20, %r18, %r19, 40;\n" ST(20, "%r20")
         "\tmov.u32 %r21, 0xF0;\n\tmov.u32 %r22, 0x3C;\n\tmov.u32 %r23, 1;\n\tlop3.b32 %r24, %r21, %r22, %r23, 0xEA;\n" ST(24, "%r24")
         "\tmov.f32 %f1, 0f7FC00000;\n\tsetp.ltu.f32 %p1, %f1, 0f3F800000;\n\tselp.u32 %r25, 1, 0, %p1;\n" ST(28, "%r25")
         "\tsetp.lt.f32 %p2, %f1, 0f3F800000;\n\tselp.u32 %r25, 1, 0, %p2;\n" ST(32, "%r25")
         "\tsetp.lt.and.f32 %p3, 0f00000000, 0f3F800000, %p2;\n\tselp.u32 %r25, 1, 0, %p3;\n" ST(36, "%r25")
         "\tmov.f32 %f2, 0f00000001;\n\ttestp.subnormal.f32 %p4, %f2;\n\tselp.u32 %r25, 1, 0, %p4;\n" ST(40, "%r25")
         "\tcopysign.f32 %f3, 0fBF800000, 0f40400000;\n" ST(44, "%f3")
         /* prmt.f4e with c = 1: bytes {4,3,2,1} of b:a = 0x44332211; prmt.ecr c = 2: {2,2,1,0} = 0x22221100 */
         "\tprmt.b32.f4e %r26, %r15, %r16, 1;\n" ST(48, "%r26")
         "\tprmt.b32.ecr %r26, %r15, %r16, 2;\n" ST(52, "%r26"),
         r, 14);
    assert_int_equal(r[0], 0x0F);
    assert_int_equal(r[1], 0xFFFFFFFF);
    assert_int_equal(r[2], 0xFFFFABFF);
    assert_int_equal(r[3], 0x77553311);
    assert_int_equal(r[4], 0x18);
    assert_int_equal(r[5], 0x1);
    assert_int_equal(r[6], (0xF0 & 0x3C) | 0x01);
    assert_int_equal(r[7], 1);
    assert_int_equal(r[8], 0);
    assert_int_equal(r[9], 0);
    assert_int_equal(r[10], 1);
    assert_int_equal(r[11], fbits(-3.0f));
    assert_int_equal(r[12], 0x44332211);
    assert_int_equal(r[13], 0x22221100);
}

static void test_newer_integer_ops(void **state) {
    (void)state;
    uint32_t r[6];
    /* bmsk.clamp.b32 a=4 b=8 -> 0xFF0; bmsk.wrap a=36 (->4) b=33 (->1) -> 0x10;
     * szext.clamp.s32 0x1F0 b=8 -> low byte 0xF0 sign-extended = 0xFFFFFFF0; szext.u32 -> 0xF0;
     * dp4a.u32.u32 a=0x01020304 b=0x05060708 c=10: 1*5+2*6+3*7+4*8 + 10 = 80;
     * dp4a.s32.s32 a=0xFF020304 (-1,2,3,4 from the top) b=0x05060708 c=0: -5+12+21+32 = 60 */
    run1("\tbmsk.clamp.b32 %r10, 4, 8;\n" ST(0, "%r10")
         "\tmov.u32 %r11, 36;\n\tbmsk.wrap.b32 %r10, %r11, 33;\n" ST(4, "%r10")
         "\tmov.u32 %r12, 0x1F0;\n\tszext.clamp.s32 %r13, %r12, 8;\n" ST(8, "%r13")
         "\tszext.clamp.u32 %r13, %r12, 8;\n" ST(12, "%r13")
         "\tmov.u32 %r14, 0x01020304;\n\tmov.u32 %r15, 0x05060708;\n\tdp4a.u32.u32 %r16, %r14, %r15, 10;\n" ST(16, "%r16")
         "\tmov.u32 %r14, 0xFF020304;\n\tdp4a.s32.s32 %r16, %r14, %r15, 0;\n" ST(20, "%r16"),
         r, 6);
    assert_int_equal(r[0], 0xFF0);
    assert_int_equal(r[1], 0x10);
    assert_int_equal(r[2], 0xFFFFFFF0);
    assert_int_equal(r[3], 0xF0);
    assert_int_equal(r[4], 80);
    assert_int_equal(r[5], 60);
}

static void test_f16_cvt(void **state) {
    (void)state;
    uint32_t r[6];
    /* f32 1.0 -> f16 0x3C00; 65504 -> 0x7BFF; 1e6 -> inf 0x7C00 (rn); 2^-24 -> 0x0001;
     * f16 0xC000 -> f32 -2.0; cvt.rz.f16.f32 of 65520 -> 0x7BFF (rz does not overflow) */
    run1("\tcvt.rn.f16.f32 %r10, 0f3F800000;\n" ST(0, "%r10")
         "\tcvt.rn.f16.f32 %r10, 0f477FE000;\n" ST(4, "%r10")
         "\tcvt.rn.f16.f32 %r10, 0f49742400;\n" ST(8, "%r10")
         "\tcvt.rn.f16.f32 %r10, 0f33800000;\n" ST(12, "%r10")
         "\tmov.u32 %r11, 0xC000;\n\tcvt.f32.f16 %f1, %r11;\n" ST(16, "%f1")
         "\tcvt.rz.f16.f32 %r10, 0f477FF000;\n" ST(20, "%r10"),
         r, 6);
    assert_int_equal(r[0], 0x3C00);
    assert_int_equal(r[1], 0x7BFF);
    assert_int_equal(r[2], 0x7C00);
    assert_int_equal(r[3], 0x0001);
    assert_int_equal(r[4], fbits(-2.0f));
    assert_int_equal(r[5], 0x7BFF);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounding_f32),
        cmocka_unit_test(test_rounding_fma_f64_and_cvt),
        cmocka_unit_test(test_carry_chains_and_division),
        cmocka_unit_test(test_bits_and_compare),
        cmocka_unit_test(test_newer_integer_ops),
        cmocka_unit_test(test_f16_cvt),
    };
    return cmocka_run_group_tests_name("emu_ops", tests, NULL, NULL);
}
