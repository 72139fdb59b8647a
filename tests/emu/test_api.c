/* test_api.c — the smcosim.h device API end to end: real nvcc output
 * (tests/emu/ptx/basics.ptx from basics.cu) through load, memory, launch,
 * statistics, module variables, launch validation and sticky faults. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BASICS "tests/emu/ptx/basics.ptx"
#define VADD "_Z4vaddPKfS0_Pfi"
#define MISC "_Z4miscPii"

static void test_vadd(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load_file(dev, BASICS);
    smc_kernel *k = tu_kernel(m, VADD);
    enum { N = 1000 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) { a[i] = (float)i * 0.5f; b[i] = 3.0f - (float)i; }
    uint64_t da, db, dc;
    assert_int_equal(smc_malloc(dev, sizeof a, SMC_MEM_DEVICE, &da), SMC_OK);
    assert_int_equal(smc_malloc(dev, sizeof b, SMC_MEM_DEVICE, &db), SMC_OK);
    assert_int_equal(smc_malloc(dev, sizeof c, SMC_MEM_DEVICE, &dc), SMC_OK);
    assert_int_equal(smc_memcpy_htod(dev, da, a, sizeof a), SMC_OK);
    assert_int_equal(smc_memcpy_htod(dev, db, b, sizeof b), SMC_OK);
    assert_int_equal(smc_memset(dev, dc, 0xff, sizeof c), SMC_OK);
    int n = N;
    const void *args[] = { &da, &db, &dc, &n };
    /* 4 blocks of 256 threads: the last 24 threads fail the bounds check */
    assert_int_equal(tu_launch(dev, k, 4, 256, 0, args, 4), SMC_OK);
    assert_int_equal(smc_memcpy_dtoh(dev, c, dc, sizeof c), SMC_OK);
    for (int i = 0; i < N; i++) assert_true(c[i] == a[i] + b[i]);
    /* statistics (counted by hand from basics.ptx): 10 instructions up to and
     * including `@%p1 bra`, 11 in the body, then `ret`. A lane counts for an
     * instruction when it executes it with its guard true, so threads with
     * i < n count 9 + 11 + 1 = 21 (the guarded bra is false for them) and the
     * 24 threads with i >= n count 10 + 1 = 11. Warp-instructions: 31 uniform
     * warps run 22 each; warp 31 (8 in range, 24 out) runs all 22 too. */
    assert_int_equal(smc_launch_count(dev), 1);
    smc_launch_stats s;
    assert_int_equal(smc_launch_get_stats(dev, 0, &s), SMC_OK);
    assert_string_equal(s.kernel, VADD);
    assert_int_equal(s.thread_insts, 1000ull * 21 + 24ull * 11);
    assert_int_equal(s.warp_insts, 32ull * 22);
    smc_device_destroy(dev);
}

/* Reference for _Z4miscPii in basics.cu with 128 threads, one CTA. */
static void misc_reference(int *out, int nthreads) {
    int v[128];
    const float K[4] = { 1, 2, 3, 4 };
    const int G = 7;
    for (int t = 0; t < nthreads; t++) {
        int x = (127 - t) + 2 * t + (int)K[t & 3] + G;
        if (t & 1) x = x * x;
        else for (int k = 0; k < t; k++) { if (x > 1000) break; x += k; }
        v[t] = x;
    }
    int lane0[128];
    for (int t = 0; t < nthreads; t++) lane0[t] = v[t & ~31];     /* shfl idx 0 within the warp */
    for (int t = 0; t < nthreads; t++) v[t] += lane0[t];
    out[1] = nthreads;
    for (int w = 0; w < nthreads / 32; w++) {
        unsigned ballot = 0;
        for (int l = 0; l < 32; l++) if (v[w * 32 + l] & 1) ballot |= 1u << l;
        for (int l = 0; l < 32; l++) out[w * 32 + l + 2] = v[w * 32 + l] + (int)ballot;
    }
    out[0] = nthreads / 2;    /* __syncthreads_count(t & 1) */
}

static void test_misc_kernel(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load_file(dev, BASICS);
    smc_kernel *k = tu_kernel(m, MISC);
    smc_kernel_info info;
    smc_kernel_get_info(k, &info);
    assert_int_equal(info.static_smem_bytes, 512);
    assert_int_equal(info.num_params, 2);
    assert_int_equal(info.param_bytes, 12);
    assert_true(info.regs_per_thread > 0 && info.regs_per_thread <= 255);
    enum { T = 128 };
    uint64_t d;
    assert_int_equal(smc_malloc(dev, (T + 2) * sizeof(int), SMC_MEM_MANAGED, &d), SMC_OK);
    int *host = smc_host_ptr(dev, d, (T + 2) * sizeof(int));
    assert_non_null(host);
    memset(host, 0, (T + 2) * sizeof(int));
    int n = T;
    const void *args[] = { &d, &n };
    /* 128 ints of dynamic shared memory (dyn[t] = 2t) */
    assert_int_equal(tu_launch(dev, k, 1, T, T * sizeof(int), args, 2), SMC_OK);
    int ref[T + 2];
    misc_reference(ref, T);
    for (int i = 0; i < T + 2; i++) {
        if (host[i] != ref[i]) fail_msg("out[%d] = %d, expected %d", i, host[i], ref[i]);
    }
    /* module variables: G initialised to 7, K to {1,2,3,4} */
    uint64_t ga; size_t gs;
    assert_int_equal(smc_module_get_global(m, "G", &ga, &gs), SMC_OK);
    assert_int_equal(gs, 4);
    int g; assert_int_equal(smc_memcpy_dtoh(dev, &g, ga, 4), SMC_OK);
    assert_int_equal(g, 7);
    assert_int_equal(smc_module_get_global(m, "K", &ga, &gs), SMC_OK);
    assert_int_equal(gs, 16);
    float kv[4]; assert_int_equal(smc_memcpy_dtoh(dev, kv, ga, 16), SMC_OK);
    assert_true(kv[0] == 1.0f && kv[3] == 4.0f);
    assert_int_equal(smc_module_get_global(m, "nope", &ga, &gs), SMC_ERR_NOT_FOUND);
    smc_device_destroy(dev);
}

static void test_memory_api(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    uint64_t a, b, c, a2;
    assert_int_equal(smc_malloc(dev, 100, SMC_MEM_DEVICE, &a), SMC_OK);
    assert_int_equal(smc_malloc(dev, 5000, SMC_MEM_HOST, &b), SMC_OK);
    assert_int_equal(smc_malloc(dev, 1, SMC_MEM_MANAGED, &c), SMC_OK);
    assert_true(a != 0 && b > a && c > b);
    assert_int_equal(a % 256, 0);
    /* host view of every kind, bounds-checked */
    assert_non_null(smc_host_ptr(dev, a, 100));
    assert_null(smc_host_ptr(dev, a, 101));
    assert_null(smc_host_ptr(dev, a + 100, 1));
    assert_int_equal(smc_device_addr_of(dev, smc_host_ptr(dev, b + 10, 1)), b + 10);
    int local = 0;
    assert_int_equal(smc_device_addr_of(dev, &local), 0);
    /* copies outside allocations are rejected, not performed */
    char buf[200] = { 0 };
    assert_int_equal(smc_memcpy_htod(dev, a, buf, 101), SMC_ERR_INVALID_DEVICE_PTR);
    assert_non_null(strstr(smc_last_message(dev), "smc_memcpy_htod"));
    assert_int_equal(smc_memcpy_dtoh(dev, buf, a + 50, 51), SMC_ERR_INVALID_DEVICE_PTR);
    assert_int_equal(smc_memset(dev, 12345, 0, 4), SMC_ERR_INVALID_DEVICE_PTR);
    assert_int_equal(smc_memcpy_dtod(dev, b, a, 100), SMC_OK);
    assert_int_equal(smc_free(dev, a + 8), SMC_ERR_INVALID_DEVICE_PTR);
    assert_int_equal(smc_free(dev, a), SMC_OK);
    assert_int_equal(smc_free(dev, a), SMC_ERR_INVALID_DEVICE_PTR);
    assert_null(smc_host_ptr(dev, a, 1));
    /* first fit: the freed hole is reused, deterministically */
    assert_int_equal(smc_malloc(dev, 64, SMC_MEM_DEVICE, &a2), SMC_OK);
    assert_int_equal(a2, a);
    uint64_t big;
    assert_int_equal(smc_malloc(dev, (size_t)1 << 40, SMC_MEM_DEVICE, &big), SMC_ERR_OUT_OF_MEMORY);
    assert_int_equal(smc_malloc(dev, 0, SMC_MEM_DEVICE, &big), SMC_OK);
    assert_int_equal(big, 0);
    smc_device_destroy(dev);
    /* a second device in the same process gets the same addresses when it is alone */
    smc_device *d2 = tu_device(0);
    uint64_t x;
    assert_int_equal(smc_malloc(d2, 100, SMC_MEM_DEVICE, &x), SMC_OK);
    assert_int_equal(x, a);
    /* two devices at once: distinct regions */
    smc_device *d3 = tu_device(0);
    uint64_t y;
    assert_int_equal(smc_malloc(d3, 100, SMC_MEM_DEVICE, &y), SMC_OK);
    assert_true(y != x);
    assert_null(smc_host_ptr(d2, y, 1));
    smc_device_destroy(d3);
    smc_device_destroy(d2);
}

/* gpu.malloc = gpgpusim (fermi-gtx480's): device and managed buffers packed
 * from a 1-GiB boundary with 256-byte rounding, as GPGPU-Sim's gpu_malloc
 * lays them out; freed memory is not reused; host buffers stay elsewhere;
 * bounds are still those of each allocation. */
static void test_malloc_gpgpusim_layout(void **state) {
    (void)state;
    smc_device_opts o = { 0 };
    o.set = "gpu.malloc=gpgpusim";
    smc_device *dev = NULL;
    assert_int_equal(smc_device_create(&o, &dev), SMC_OK);
    uint64_t a, h, b, c, d;
    assert_int_equal(smc_malloc(dev, 100, SMC_MEM_DEVICE, &a), SMC_OK);
    assert_int_equal(a % (1ull << 30), 0);
    assert_int_equal(smc_malloc(dev, 5000, SMC_MEM_HOST, &h), SMC_OK);
    assert_true(h < a);                          /* page-granular, below */
    assert_int_equal(smc_malloc(dev, 4096, SMC_MEM_MANAGED, &b), SMC_OK);
    assert_int_equal(b, a + 256);                /* 100 rounded up to 256 */
    assert_int_equal(smc_malloc(dev, 1, SMC_MEM_DEVICE, &c), SMC_OK);
    assert_int_equal(c, b + 4096);
    assert_non_null(smc_host_ptr(dev, a, 100));
    assert_null(smc_host_ptr(dev, a + 100, 1));  /* between a and b: nobody's */
    char buf[4] = { 1, 2, 3, 4 };
    assert_int_equal(smc_memcpy_htod(dev, c, buf, 1), SMC_OK);
    assert_int_equal(smc_free(dev, b), SMC_OK);
    assert_null(smc_host_ptr(dev, b, 1));
    assert_int_equal(smc_malloc(dev, 64, SMC_MEM_DEVICE, &d), SMC_OK);
    assert_int_equal(d, c + 256);                /* b's bytes are not reused */
    assert_int_equal(smc_memcpy_dtoh(dev, buf + 1, c, 1), SMC_OK);
    assert_int_equal(buf[1], 1);                 /* a neighbour's free kept c */
    smc_device_destroy(dev);
}

static void test_props_and_names(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_device_props p;
    smc_device_get_props(dev, &p);
    /* seed 000 Table 4.1 */
    assert_int_equal(p.num_sms, 14);
    assert_int_equal(p.max_warps_per_sm, 64);
    assert_int_equal(p.max_threads_per_sm, 2048);
    assert_int_equal(p.max_ctas_per_sm, 16);
    assert_int_equal(p.regs_per_sm, 65536);
    assert_int_equal(p.smem_per_block, 48 * 1024);
    assert_int_equal(p.cc_major * 10 + p.cc_minor, 75);
    assert_string_equal(smc_status_name(SMC_ERR_ILLEGAL_ADDRESS), "SMC_ERR_ILLEGAL_ADDRESS");
    assert_string_equal(smc_status_name(SMC_OK), "SMC_OK");
    assert_non_null(smc_status_string(SMC_ERR_UNSUPPORTED));
    smc_device_opts o = { 0 };
    o.config = "no-such-preset";
    smc_device *bad = NULL;
    assert_int_equal(smc_device_create(&o, &bad), SMC_ERR_UNSUPPORTED);
    assert_null(bad);
    smc_device_destroy(dev);
}

static void test_launch_validation(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load_file(dev, BASICS);
    smc_kernel *k = tu_kernel(m, VADD);
    smc_kernel *k2 = NULL;
    assert_int_equal(smc_module_get_kernel(m, "nope", &k2), SMC_ERR_NOT_FOUND);
    assert_int_equal(smc_module_kernel_count(m), 2);
    char params[28] = { 0 };
    smc_dim3 g = { 1, 1, 1 }, b0 = { 0, 1, 1 }, b2k = { 2048, 1, 1 }, b1 = { 32, 1, 1 };
    assert_int_equal(smc_launch(dev, k, g, b0, 0, 0, params, 28, NULL), SMC_ERR_INVALID_CONFIGURATION);
    assert_int_equal(smc_launch(dev, k, g, b2k, 0, 0, params, 28, NULL), SMC_ERR_INVALID_CONFIGURATION);
    assert_int_equal(smc_launch(dev, k, g, b1, 64 * 1024, 0, params, 28, NULL), SMC_ERR_LAUNCH_OUT_OF_RESOURCES);
    assert_int_equal(smc_launch(dev, k, g, b1, 0, 0, params, 20, NULL), SMC_ERR_INVALID_VALUE);
    assert_int_equal(smc_launch_count(dev), 0);
    smc_device_destroy(dev);
}

static void test_sticky_fault(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load_file(dev, BASICS);
    smc_kernel *k = tu_kernel(m, VADD);
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 64 * 4, SMC_MEM_DEVICE, &d), SMC_OK);
    /* n = 65 with 64-float buffers: thread 64 reads a[64] out of bounds */
    int n = 65;
    const void *args[] = { &d, &d, &d, &n };
    assert_int_equal(tu_launch(dev, k, 1, 96, 0, args, 4), SMC_ERR_ILLEGAL_ADDRESS);
    smc_fault f;
    smc_device_fault(dev, &f);
    assert_int_equal(f.status, SMC_ERR_ILLEGAL_ADDRESS);
    assert_string_equal(f.kernel, VADD);
    assert_int_equal(f.warp, 2);
    assert_int_equal(f.lane, 0);
    assert_int_equal(f.address, d + 64 * 4);
    assert_int_equal(f.cta.x, 0);
    assert_int_equal(f.ptx_line, 48);  /* ld.global.f32 %f1, [%rd8] */
    assert_non_null(strstr(f.message, "SMC_ERR_ILLEGAL_ADDRESS"));
    /* sticky until reset */
    assert_int_equal(smc_memset(dev, d, 0, 4), SMC_ERR_ILLEGAL_ADDRESS);
    n = 64;
    assert_int_equal(tu_launch(dev, k, 1, 96, 0, args, 4), SMC_ERR_ILLEGAL_ADDRESS);
    smc_device_reset(dev);
    smc_device_fault(dev, &f);
    assert_int_equal(f.status, SMC_OK);
    assert_int_equal(smc_malloc(dev, 64 * 4, SMC_MEM_DEVICE, &d), SMC_OK);
    assert_int_equal(tu_launch(dev, k, 1, 96, 0, args, 4), SMC_OK);
    smc_device_destroy(dev);
}

/* device printf goes to the host's stdout, lane by lane; assert() is a
 * located SMC_ERR_ASSERT fault carrying the assertion text. */
static void test_printf_and_assert(void **state) {
    (void)state;
    smc_device *dev = tu_device(0);
    smc_module *m = tu_load_file(dev, "tests/emu/ptx/runtime.ptx");
    smc_kernel *ksw = tu_kernel(m, "_Z4k_swPii"), *kas = tu_kernel(m, "_Z8k_assertPi");
    uint64_t d;
    assert_int_equal(smc_malloc(dev, 64 * 4, SMC_MEM_MANAGED, &d), SMC_OK);
    int *h = smc_host_ptr(dev, d, 64 * 4);
    memset(h, 0, 64 * 4);
    int n = 64;
    const void *args[] = { &d, &n };
    char path[] = "/tmp/smc_printf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    smc_status st = tu_launch(dev, ksw, 1, 8, 0, args, 2);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[256] = { 0 };
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    unlink(path);
    TU_OK(dev, st);
    assert_true(got > 0);
    assert_string_equal(buf, "hello 3 1.500000 x\n");
    const int sw[7] = { 3, 11, -1, -4, -1, 100, 1 };
    for (int t = 0; t < 8; t++) {
        int e = t % 7 == 2 ? t * 5 : t % 7 == 4 ? (t ^ 9) : sw[t % 7];
        assert_int_equal(h[t], e);
    }
    memset(h, 0, 64 * 4);
    h[5] = 1;
    const void *a2[] = { &d };
    assert_int_equal(tu_launch(dev, kas, 1, 8, 0, a2, 1), SMC_ERR_ASSERT);
    smc_fault f;
    smc_device_fault(dev, &f);
    assert_int_equal(f.lane, 5);
    assert_non_null(strstr(f.message, "o[threadIdx.x] == 0"));
    assert_non_null(strstr(f.message, "runtime.cu:11"));
    smc_device_destroy(dev);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vadd),
        cmocka_unit_test(test_misc_kernel),
        cmocka_unit_test(test_memory_api),
        cmocka_unit_test(test_props_and_names),
        cmocka_unit_test(test_malloc_gpgpusim_layout),
        cmocka_unit_test(test_launch_validation),
        cmocka_unit_test(test_sticky_fault),
        cmocka_unit_test(test_printf_and_assert),
    };
    return cmocka_run_group_tests_name("emu_api", tests, NULL, NULL);
}
