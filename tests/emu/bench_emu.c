/* bench_emu.c — `make bench-emu`: functional-emulator speed in
 * warp-instructions per second (one core, wall clock) on kernels from
 * tests/emu/ptx/bench.cu. Prints a table; no pass/fail. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smcosim.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static smc_device *dev;

static void pack(smc_kernel *k, char *buf, const void *const *args, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off, sz;
        smc_kernel_param(k, i, &off, &sz);
        memcpy(buf + off, args[i], sz);
    }
}

static void row(const char *name, smc_kernel *k, smc_dim3 g, smc_dim3 b, const char *params, size_t pb) {
    double t0 = now();
    smc_status st = smc_launch(dev, k, g, b, 0, 0, params, pb, NULL);
    double dt = now() - t0;
    if (st) { fprintf(stderr, "bench-emu: %s failed: %s\n", name, smc_last_message(dev)); exit(1); }
    smc_launch_stats s;
    smc_launch_get_stats(dev, smc_launch_count(dev) - 1, &s);
    printf("| %-22s | %12llu | %8.3f | %10.2f | %6.1f |\n", name, (unsigned long long)s.warp_insts, dt,
           s.warp_insts / dt / 1e6, (double)s.thread_insts / s.warp_insts);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "tests/emu/ptx/bench.ptx";
    if (smc_device_create(NULL, &dev)) { fprintf(stderr, "bench-emu: no device\n"); return 1; }
    smc_module *m;
    if (smc_module_load_ptx_file(dev, path, &m)) { fprintf(stderr, "%s\n", smc_last_message(dev)); return 1; }
    smc_kernel *alu, *gemm, *vadd;
    if (smc_module_get_kernel(m, "_Z5b_aluPfi", &alu) || smc_module_get_kernel(m, "_Z7b_sgemmPKfS0_Pfi", &gemm) ||
        smc_module_get_kernel(m, "_Z6b_vaddPKfS0_Pfi", &vadd)) { fprintf(stderr, "%s\n", smc_last_message(dev)); return 1; }
    printf("functional emulator speed (1 core; warp-inst/s = warp-instructions / wall time)\n\n");
    printf("| %-22s | %12s | %8s | %10s | %6s |\n", "kernel", "warp-insts", "seconds", "M winst/s", "lanes");
    printf("|------------------------|--------------|----------|------------|--------|\n");
    char pb[64] = { 0 };
    /* compute-bound: 64 CTAs x 256 threads x 2000 iterations */
    uint64_t out; int iters = 2000;
    smc_malloc(dev, 64 * 256 * 4, SMC_MEM_DEVICE, &out);
    const void *a1[] = { &out, &iters };
    pack(alu, pb, a1, 2);
    row("alu loop (compute)", alu, (smc_dim3){ 64, 1, 1 }, (smc_dim3){ 256, 1, 1 }, pb, 12);
    /* shared-memory tiled SGEMM 256x256 */
    int n = 256;
    uint64_t A, B, C;
    smc_malloc(dev, (size_t)n * n * 4, SMC_MEM_DEVICE, &A);
    smc_malloc(dev, (size_t)n * n * 4, SMC_MEM_DEVICE, &B);
    smc_malloc(dev, (size_t)n * n * 4, SMC_MEM_DEVICE, &C);
    smc_memset(dev, A, 0, (size_t)n * n * 4);
    smc_memset(dev, B, 0, (size_t)n * n * 4);
    const void *a2[] = { &A, &B, &C, &n };
    pack(gemm, pb, a2, 4);
    row("sgemm 256 (shared mem)", gemm, (smc_dim3){ 16, 16, 1 }, (smc_dim3){ 16, 16, 1 }, pb, 28);
    /* memory-bound vector add, 4M elements */
    int nv = 1 << 22;
    uint64_t va, vb, vc;
    smc_malloc(dev, (size_t)nv * 4, SMC_MEM_DEVICE, &va);
    smc_malloc(dev, (size_t)nv * 4, SMC_MEM_DEVICE, &vb);
    smc_malloc(dev, (size_t)nv * 4, SMC_MEM_DEVICE, &vc);
    const void *a3[] = { &va, &vb, &vc, &nv };
    pack(vadd, pb, a3, 4);
    row("vadd 4M (memory)", vadd, (smc_dim3){ (unsigned)nv / 256, 1, 1 }, (smc_dim3){ 256, 1, 1 }, pb, 28);
    smc_device_destroy(dev);
    return 0;
}
