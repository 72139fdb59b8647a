/* test_kernels.c — real nvcc 13 output (tests/emu/ptx/feat.cu -> feat.ptx)
 * run through smcosim.h and checked against CPU references written here:
 * .func calls with aggregate returns, .local arrays, atomics under
 * contention (global and shared), warp shuffles and votes, integer and
 * float arithmetic, 2-D/3-D grids and blocks. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The PTX file: feat.ptx by default; feat_debug.ptx (nvcc -G: unoptimised,
 * every helper a real call, locals in .local) when given as argv[1]. */
static const char *feat_path = "tests/emu/ptx/feat.ptx";

typedef struct fx { smc_device *dev; smc_module *m; } fx;

static int setup(void **state) {
    fx *f = calloc(1, sizeof *f);
    f->dev = tu_device(0);
    f->m = tu_load_file(f->dev, feat_path);
    *state = f;
    return 0;
}
static int teardown(void **state) {
    fx *f = *state;
    smc_device_destroy(f->dev);
    free(f);
    return 0;
}

static uint64_t dalloc(smc_device *dev, size_t n) {
    uint64_t d;
    assert_int_equal(smc_malloc(dev, n, SMC_MEM_MANAGED, &d), SMC_OK);
    memset(smc_host_ptr(dev, d, n), 0, n);
    return d;
}
#define HOST(f, d, T) ((T *)smc_host_ptr((f)->dev, (d), 1))

static void test_local_array(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z7k_localPiii");
    smc_kernel_info in; smc_kernel_get_info(k, &in);
    assert_true(in.local_bytes >= 64);
    int n = 300, sel = 5;
    uint64_t d = dalloc(f->dev, n * 4);
    const void *args[] = { &d, &n, &sel };
    TU_OK(f->dev, tu_launch(f->dev, k, 3, 128, 0, args, 3));
    int *o = HOST(f, d, int);
    for (int t = 0; t < n; t++)
        assert_int_equal(o[t], t * ((t + sel) & 15) + sel + t * (sel & 15) + sel);
}

static double dpoly_ref(double x, int n) {
    double r = 0;
    for (int i = 0; i < n; i++) r = fma(r, x, (double)(i + 1));   /* nvcc contracts r*x+c */
    return r;
}

static void test_calls(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z7k_callsPiPfPdi");
    int n = 100;
    uint64_t oi = dalloc(f->dev, n * 4), of = dalloc(f->dev, n * 4), od = dalloc(f->dev, n * 8);
    const void *args[] = { &oi, &of, &od, &n };
    TU_OK(f->dev, tu_launch(f->dev, k, 2, 64, 0, args, 4));
    for (int t = 0; t < n; t++) {
        assert_int_equal(HOST(f, oi, int)[t], t * 3 + 1);
        assert_true(HOST(f, of, float)[t] == (float)t * 0.5f);
        double e = dpoly_ref((double)t * 0.25, t % 7), g = HOST(f, od, double)[t];
        if (g != e) fail_msg("od[%d] = %.17g, expected %.17g", t, g, e);
    }
}

static void test_atomics(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z9k_atomicsPiPfPjS1_PyS_");
    uint64_t cnt = dalloc(f->dev, 8), fs = dalloc(f->dev, 4), um = dalloc(f->dev, 4), inc = dalloc(f->dev, 4);
    uint64_t u64 = dalloc(f->dev, 8), cas = dalloc(f->dev, 4);
    const void *args[] = { &cnt, &fs, &um, &inc, &u64, &cas };
    const int G = 5, B = 96, T = G * B;
    TU_OK(f->dev, tu_launch(f->dev, k, G, B, 0, args, 6));
    unsigned mx = 0; unsigned long long s64 = 0; long sum = 0;
    for (int t = 0; t < T; t++) {
        unsigned v = (unsigned)t * 7919u % 1000u;
        if (v > mx) mx = v;
        s64 += (unsigned long long)t << 33;
        sum += t;
    }
    assert_int_equal(HOST(f, cnt, int)[0], T);
    assert_int_equal(HOST(f, cnt, int)[1], G * (B * (B - 1) / 2));
    assert_true(HOST(f, fs, float)[0] == 0.5f * T);
    assert_int_equal(HOST(f, um, unsigned)[0], mx);
    assert_int_equal(HOST(f, inc, unsigned)[0], T % 100);
    assert_true(HOST(f, u64, unsigned long long)[0] == s64);
    assert_int_equal(HOST(f, cas, int)[0], sum);
}

static void test_warp_ops(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z6k_warpPi");
    uint64_t d = dalloc(f->dev, 64 * 4);
    const void *args[] = { &d };
    TU_OK(f->dev, tu_launch(f->dev, k, 1, 64, 0, args, 1));
    int *o = HOST(f, d, int);
    for (int t = 0; t < 64; t++) {
        int l = t % 32, w = t / 32;
        int v = 0;
        for (int i = 0; i < 32; i++) v += (w * 32 + i) * 3 + 1;
        int x = w * 32 + (l ^ 5);
        int u = l >= 3 ? t - 3 : t;
        int any = w == 0, all = 1;
        int e = (l == 0 ? v : 0) + x * 1000 + u * 100000 + any * 7 + all * 11;
        if (o[t] != e) fail_msg("out[%d] = %d, expected %d", t, o[t], e);
    }
}

static uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t s) {
    uint64_t x = a | ((uint64_t)b << 32);
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)((x >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
static uint32_t brev32(uint32_t a) { uint32_t r = 0; for (int i = 0; i < 32; i++) if (a >> i & 1) r |= 1u << (31 - i); return r; }

static void test_integer_ops(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z5k_intPjPKji");
    int n = 97;
    uint64_t o = dalloc(f->dev, n * 12 * 4), in = dalloc(f->dev, n * 4);
    uint32_t *iv = HOST(f, in, uint32_t);
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; iv[i] = s ^ (s >> 7) ^ (i == 3 ? 0x80000000u : 0); }
    iv[5] = 0; iv[6] = 0xFFFFFFFFu;
    const void *args[] = { &o, &in, &n };
    TU_OK(f->dev, tu_launch(f->dev, k, 4, 32, 0, args, 3));
    uint32_t *ov = HOST(f, o, uint32_t);
    for (int t = 0; t < n; t++) {
        uint32_t a = iv[t], b = iv[(t * 7 + 3) % n] | 1;
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        uint32_t e[12];
        e[0] = a / b; e[1] = a % b;
        e[2] = (sb == -1) ? (uint32_t)-(int64_t)sa : (uint32_t)(sa / sb);
        e[3] = (sb == -1) ? 0 : (uint32_t)(sa % sb);
        e[4] = (uint32_t)__builtin_popcount(a) + ((uint32_t)__builtin_clz(b) << 8);
        e[5] = brev32(a);
        e[6] = byte_perm(a, b, 0x5140);
        e[7] = (uint32_t)(((uint64_t)a * b) >> 32);
        e[8] = (uint32_t)(((uint64_t)a * b) >> 7);
        e[9] = (a < b ? a : b) ^ (uint32_t)(sa > sb ? sa : sb);
        e[10] = (a >> (b & 31)) ^ (uint32_t)(sa >> (b & 15));
        uint32_t sh = (uint32_t)t & 31;
        e[11] = sh ? (a << sh) | (b >> (32 - sh)) : a;    /* __funnelshift_l(lo=a, hi=b): hi bits of (b:a) << t */
        e[11] = (uint32_t)((((uint64_t)b << 32) | a) << sh >> 32);
        for (int j = 0; j < 12; j++)
            if (ov[t * 12 + j] != e[j]) fail_msg("t=%d op %d: got 0x%08x expected 0x%08x (a=0x%08x b=0x%08x)", t, j, ov[t * 12 + j], e[j], a, b);
    }
}

static void test_float_ops(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z7k_floatPfPKfi");
    int n = 64;
    uint64_t o = dalloc(f->dev, n * 8 * 4), in = dalloc(f->dev, n * 4);
    float *iv = HOST(f, in, float);
    for (int i = 0; i < n; i++) iv[i] = (float)(i * 37 % 101) / 7.0f - 6.5f + (i == 9 ? 1e-40f : 0);
    iv[10] = 2.5f; iv[11] = -3.5f; iv[12] = 0.0f;
    const void *args[] = { &o, &in, &n };
    TU_OK(f->dev, tu_launch(f->dev, k, 2, 32, 0, args, 3));
    float *ov = HOST(f, o, float);
    for (int t = 0; t < n; t++) {
        float a = iv[t], b = iv[(t + 1) % n];
        /* PTX has mul.f32 + add.f32 (ptxas may fuse them; the emulator executes them as written) */
        float e[8] = { a * b + a, a / b, sqrtf(fabsf(a)), (float)(int)a, (float)(int)nearbyintf(a * 3.3f),
                       fminf(a, b), fmaf(a, b, -1.0f), (float)((double)a * (double)b) };
        for (int j = 0; j < 8; j++)
            if (memcmp(&ov[t * 8 + j], &e[j], 4) != 0 && !(isnan(e[j]) && isnan(ov[t * 8 + j])))
                fail_msg("t=%d op %d: got %a expected %a (a=%a b=%a)", t, j, ov[t * 8 + j], e[j], a, b);
    }
}

static void test_grid_3d(void **state) {
    fx *f = *state;
    smc_kernel *k = tu_kernel(f->m, "_Z4k_2dPii");
    smc_dim3 g = { 3, 2, 1 }, b = { 8, 4, 2 };
    int w = 24, H = 8;
    uint64_t d = dalloc(f->dev, w * H * 2 * 4);
    char pb[16];
    const void *args[] = { &d, &w };
    size_t pn = tu_pack(k, pb, sizeof pb, args, 2);
    TU_OK(f->dev, smc_launch(f->dev, k, g, b, 0, 0, pb, pn, NULL));
    int *o = HOST(f, d, int);
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < w; x++)
                assert_int_equal(o[(z * H + y) * w + x], x * 100 + y + z * 10000);
}

int main(int argc, char **argv) {
    if (argc > 1) feat_path = argv[1];
    setenv("SMC_VERIFY_REGALLOC", "1", 1);   /* check the register allocation on every kernel */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_local_array, setup, teardown),
        cmocka_unit_test_setup_teardown(test_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomics, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grid_3d, setup, teardown),
    };
    return cmocka_run_group_tests_name("emu_kernels", tests, NULL, NULL);
}
