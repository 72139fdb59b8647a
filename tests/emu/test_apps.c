/* test_apps.c — typical CUDA benchmark kernels (tests/emu/ptx/apps.cu, nvcc
 * 13 output) against CPU references: tree reduction with dynamic shared
 * memory and warp shuffles, shared-memory histogram with atomics, tiled
 * transpose (2-D blocks, padded tile), Hillis-Steele scan with barriers in a
 * loop, f64 stencil with early return, BFS frontier expansion with atomicCAS
 * (irregular control flow, host loop over launches). */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static smc_device *dev;
static smc_module *mod;

static int setup(void **state) {
    (void)state;
    dev = tu_device(0);
    mod = tu_load_file(dev, "tests/emu/ptx/apps.ptx");
    return 0;
}
static int teardown(void **state) {
    (void)state;
    smc_device_destroy(dev);
    return 0;
}
static void *alloc(size_t n, uint64_t *d) {
    assert_int_equal(smc_malloc(dev, n, SMC_MEM_MANAGED, d), SMC_OK);
    void *p = smc_host_ptr(dev, *d, n);
    memset(p, 0, n);
    return p;
}
static smc_status launch2(smc_kernel *k, smc_dim3 g, smc_dim3 b, uint32_t dyn, const void *const *args, uint32_t n) {
    char buf[256];
    size_t pb = tu_pack(k, buf, sizeof buf, args, n);
    return smc_launch(dev, k, g, b, dyn, 0, buf, pb, NULL);
}

static void test_reduce(void **state) {
    (void)state;
    smc_kernel *k = tu_kernel(mod, "_Z6reducePKfPfi");
    int n = 5000, B = 256, G = (n + 2 * B - 1) / (2 * B);
    uint64_t din, dout;
    float *in = alloc(n * 4, &din), *out = alloc(G * 4, &dout);
    for (int i = 0; i < n; i++) in[i] = (float)(i % 17) - 8.0f;   /* small integers: sums are exact */
    const void *args[] = { &din, &dout, &n };
    TU_OK(dev, launch2(k, (smc_dim3){ G, 1, 1 }, (smc_dim3){ B, 1, 1 }, B * 4, args, 3));
    for (int b = 0; b < G; b++) {
        float e = 0;
        for (int i = b * 2 * B; i < (b + 1) * 2 * B && i < n; i++) e += in[i];
        assert_true(out[b] == e);
    }
}

static void test_histogram(void **state) {
    (void)state;
    smc_kernel *k = tu_kernel(mod, "_Z5histoPKhPji");
    int n = 20000;
    uint64_t din, dbins;
    unsigned char *in = alloc(n, &din);
    unsigned *bins = alloc(256 * 4, &dbins);
    unsigned ref[256] = { 0 };
    uint32_t s = 7;
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; in[i] = (unsigned char)((s >> 24) & (i & 1 ? 0xFF : 0x0F)); ref[in[i]]++; }
    const void *args[] = { &din, &dbins, &n };
    TU_OK(dev, launch2(k, (smc_dim3){ 7, 1, 1 }, (smc_dim3){ 192, 1, 1 }, 0, args, 3));
    for (int i = 0; i < 256; i++) assert_int_equal(bins[i], ref[i]);
}

static void test_transpose(void **state) {
    (void)state;
    smc_kernel *k = tu_kernel(mod, "_Z9transposePKfPfii");
    int w = 70, h = 45;
    uint64_t din, dout;
    float *in = alloc(w * h * 4, &din), *out = alloc(w * h * 4, &dout);
    for (int i = 0; i < w * h; i++) in[i] = (float)i;
    const void *args[] = { &din, &dout, &w, &h };
    TU_OK(dev, launch2(k, (smc_dim3){ (w + 31) / 32, (h + 31) / 32, 1 }, (smc_dim3){ 32, 8, 1 }, 0, args, 4));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) assert_true(out[x * h + y] == in[y * w + x]);
}

static void test_scan(void **state) {
    (void)state;
    smc_kernel *k = tu_kernel(mod, "_Z4scanPKiPii");
    int n = 200;
    uint64_t din, dout;
    int *in = alloc(256 * 4, &din), *out = alloc(256 * 4, &dout);
    for (int i = 0; i < n; i++) in[i] = (i * 7) % 13 - 6;
    const void *args[] = { &din, &dout, &n };
    TU_OK(dev, launch2(k, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 256, 1, 1 }, 0, args, 3));
    int acc = 0;
    for (int i = 0; i < n; i++) { acc += in[i]; assert_int_equal(out[i], acc); }
}

static void test_stencil(void **state) {
    (void)state;
    smc_kernel *k = tu_kernel(mod, "_Z7stencilPKdPdi");
    int n = 1000;
    uint64_t din, dout;
    double *in = alloc(n * 8, &din), *out = alloc(n * 8, &dout);
    for (int i = 0; i < n; i++) in[i] = sin(i * 0.01);
    const void *args[] = { &din, &dout, &n };
    TU_OK(dev, launch2(k, (smc_dim3){ (n + 127) / 128, 1, 1 }, (smc_dim3){ 128, 1, 1 }, 0, args, 3));
    assert_true(out[0] == 0 && out[n - 1] == 0);
    for (int i = 1; i < n - 1; i++) {
        /* PTX: mul then fma, fma (nvcc contracts); compute the same way */
        double e = fma(0.25, in[i + 1], fma(0.5, in[i], 0.25 * in[i - 1]));
        if (out[i] != e) fail_msg("out[%d] = %.17g expected %.17g", i, out[i], e);
    }
}

static void test_bfs(void **state) {
    (void)state;
    smc_kernel *k = tu_kernel(mod, "_Z8bfs_stepPK4NodePKiPiS4_ii");
    /* a random graph: 3000 nodes, out-degree 0..5 */
    int n = 3000, ne = 0;
    uint64_t dn, de, dl, dc;
    int *nodes = alloc(n * 8, &dn), *edges = alloc(n * 5 * 4, &de), *level = alloc(n * 4, &dl), *changed = alloc(4, &dc);
    uint32_t s = 99;
    for (int v = 0; v < n; v++) {
        s = s * 1103515245u + 12345u;
        int deg = (int)((s >> 16) % 6);
        nodes[2 * v] = ne; nodes[2 * v + 1] = deg;
        for (int j = 0; j < deg; j++) { s = s * 1103515245u + 12345u; edges[ne++] = (int)((s >> 8) % (uint32_t)n); }
    }
    /* CPU reference BFS from node 0 */
    int *ref = malloc(n * sizeof *ref);
    for (int v = 0; v < n; v++) ref[v] = level[v] = -1;
    ref[0] = level[0] = 0;
    for (int cur = 0, more = 1; more; cur++) {
        more = 0;
        for (int v = 0; v < n; v++)
            if (ref[v] == cur)
                for (int e = nodes[2 * v]; e < nodes[2 * v] + nodes[2 * v + 1]; e++)
                    if (ref[edges[e]] == -1) { ref[edges[e]] = cur + 1; more = 1; }
    }
    int cur = 0;
    do {
        *changed = 0;
        const void *args[] = { &dn, &de, &dl, &dc, &cur, &n };
        TU_OK(dev, launch2(k, (smc_dim3){ (n + 255) / 256, 1, 1 }, (smc_dim3){ 256, 1, 1 }, 0, args, 6));
        cur++;
    } while (*changed && cur < n);
    for (int v = 0; v < n; v++) assert_int_equal(level[v], ref[v]);
    free(ref);
}

/* CUDA math library (sinf, expf, logf, powf, atan2f, tanhf, erff, f64 sin/
 * exp/log/pow, __half multiply) as nvcc inlines it, against the host libm.
 * The emulator runs the same PTX instruction sequences as a GPU; the
 * .approx SFU instructions are more accurate than hardware, so the
 * tolerances are CUDA's documented ulp bounds taken loosely. */
static int close_f(double got, double want, double rel) {
    if (isnan(want)) return isnan(got);
    return fabs(got - want) <= rel * fmax(fabs(want), 1e-30) + 1e-37;
}
static void test_math_library(void **state) {
    (void)state;
    smc_module *m = tu_load_file(dev, "tests/emu/ptx/math.ptx");
    smc_kernel *k = tu_kernel(m, "_Z2kmPKfPfPKdPdi");
    int n = 96;
    uint64_t din, dfo, ddin, ddo;
    float *in = alloc(n * 4, &din), *fo = alloc(n * 12 * 4, &dfo);
    double *dinp = alloc(n * 8, &ddin), *dout = alloc(n * 6 * 8, &ddo);
    for (int i = 0; i < n; i++) { in[i] = (float)(i - 48) * 0.37f + (i == 90 ? 1000.0f : 0.0f); dinp[i] = (i - 48) * 0.29 + (i == 91 ? 5e5 : 0.0); }
    const void *args[] = { &din, &dfo, &ddin, &ddo, &n };
    TU_OK(dev, launch2(k, (smc_dim3){ 1, 1, 1 }, (smc_dim3){ 96, 1, 1 }, 0, args, 5));
    for (int i = 0; i < n; i++) {
        float x = in[i]; double d = dinp[i];
        const double ef[12] = { sin(x), exp(x), log(fabs(x) + 1.0f), pow(fabsf(x), 1.7), exp(x), x / 3.0,
                                1.0 / sqrt(fabsf(x) + 1.0f), atan2(x, 2.0), tanh(x), x < 0 ? 0 : x > 1 ? 1 : x, erf(x), 0 };
        const double tol[12] = { 4e-7, 4e-7, 3e-7, 1e-6, 4e-6, 3e-7, 3e-7, 4e-7, 3e-7, 0, 3e-7, 0 };
        for (int j = 0; j < 11; j++)
            if (!close_f(fo[i * 12 + j], ef[j], tol[j]) && !(isinf(ef[j]) && isinf(fo[i * 12 + j])))
                fail_msg("x=%a f32 fn %d: got %.9g want %.9g", x, j, fo[i * 12 + j], ef[j]);
        /* __half(x) * __half(2): f16 rounding of x, doubled exactly (unless it overflows f16) */
        float h = fo[i * 12 + 11];
        if (fabsf(x) < 30000) assert_true(fabsf(h - 2 * x) <= fabsf(2 * x) * (1.0f / 1024));
        const double ed[6] = { sin(d), exp(d), log(fabs(d) + 1.0), pow(fabs(d), 1.7), sqrt(fabs(d)), d / 3.0 };
        for (int j = 0; j < 6; j++)
            if (!close_f(dout[i * 6 + j], ed[j], 4e-16) && !(isinf(ed[j]) && isinf(dout[i * 6 + j])))
                fail_msg("d=%a f64 fn %d: got %.17g want %.17g", d, j, dout[i * 6 + j], ed[j]);
    }
}

int main(void) {
    setenv("SMC_VERIFY_REGALLOC", "1", 1);   /* check the register allocation on every kernel */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_stencil),
        cmocka_unit_test(test_bfs),
        cmocka_unit_test(test_math_library),
    };
    return cmocka_run_group_tests_name("emu_apps", tests, setup, teardown);
}
