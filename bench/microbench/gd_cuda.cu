/*
 * gd_cuda.cu — GPUDIAG as an ordinary CUDA program: the wrapper of
 * gpudiag.h over the CUDA runtime (seed 002 §4.1, Fig. 4.1), and main().
 * Runs on a real GPU, or on smcosim through its drop-in libcudart.so.13:
 *
 *   build/bin/smcosim run --set gpu.watchdog_cycles=50000 -- build/bench/gpudiag [--quick]
 *
 * Only the CUDA runtime is used. A launch the runtime refuses
 * (cudaErrorInvalidConfiguration, cudaErrorLaunchOutOfResources,
 * cudaErrorInvalidValue) is a limit of Eq. 3.1; a kernel that does not
 * finish is detected by the kernels' own %clock64 timeout (Fig. 3.4) or,
 * on the simulator, by its watchdog (cudaErrorLaunchTimeout, sticky: the
 * device is reset). Options:
 *   --quick        reduced sweeps
 *   --timeout N    %clock64 cycles a block waits at the semaphore (default 10^7)
 *   --grid-cap N   L(T/G) is searched up to N blocks (default 1024)
 *   --json FILE    every measurement as JSON
 */
#define GD_KERNEL_TABLE
#include "gd_kernels.cu"
#include "gpudiag.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GD_OUT_WORDS (1u << 20)

struct cuda_ctx {
    u64 *out;
    unsigned *sync;
};

static gd_kernel_fn find_kernel(const char *name)
{
    for (size_t i = 0; i < sizeof gd_kernel_table / sizeof gd_kernel_table[0]; i++)
        if (!strcmp(gd_kernel_table[i].name, name)) return gd_kernel_table[i].fn;
    return NULL;
}

static int cuda_alloc(cuda_ctx *c)
{
    return cudaMalloc(&c->out, GD_OUT_WORDS * sizeof(u64)) != cudaSuccess ||
           cudaMalloc(&c->sync, 64) != cudaSuccess;
}

static enum gd_rc cuda_launch(void *ctx, const char *name, uint32_t grid, uint32_t block,
                              uint32_t smem, uint32_t nblocks, uint32_t arg, uint64_t timeout,
                              uint64_t *host_out, size_t nout)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    gd_kernel_fn fn = find_kernel(name);
    if (!fn) { fprintf(stderr, "gpudiag: no kernel %s\n", name); return GD_FAILED; }
    if (cudaMemset(c->sync, 0, 64) != cudaSuccess || cudaMemset(c->out, 0, nout * sizeof(u64)) != cudaSuccess)
        return GD_FAILED;
    /* above the default 48 KiB a kernel must opt in (an ordinary call) */
    if (smem > 48 * 1024 &&
        cudaFuncSetAttribute((const void *)fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
        cudaGetLastError();
        return GD_REJECTED;
    }
    u64 *out = c->out;
    unsigned *sync = c->sync;
    void *args[] = { &out, &sync, &nblocks, &timeout, &arg };
    cudaError_t e = cudaLaunchKernel((const void *)fn, dim3(grid), dim3(block), args, smem, 0);
    if (e == cudaErrorInvalidConfiguration || e == cudaErrorLaunchOutOfResources || e == cudaErrorInvalidValue) {
        cudaGetLastError();
        return GD_REJECTED;
    }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaErrorLaunchTimeout) {          /* the simulator's watchdog: a deadlock */
        cudaDeviceReset();
        return cuda_alloc(c) ? GD_FAILED : GD_HUNG;
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "gpudiag: %s: %s\n", name, cudaGetErrorString(e));
        return GD_FAILED;
    }
    if (cudaMemcpy(host_out, c->out, nout * sizeof(u64), cudaMemcpyDeviceToHost) != cudaSuccess) return GD_FAILED;
    return GD_OK;
}

static int cuda_regs(void *ctx, const char *name, uint32_t *regs)
{
    (void)ctx;
    gd_kernel_fn fn = find_kernel(name);
    cudaFuncAttributes a;
    if (!fn || cudaFuncGetAttributes(&a, (const void *)fn) != cudaSuccess) return -1;
    *regs = (uint32_t)a.numRegs;
    return 0;
}

int main(int argc, char **argv)
{
    gd_opts o;
    memset(&o, 0, sizeof o);
    o.timeout = 10000000ull;
    o.grid_cap = 1024;
    o.log = stderr;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) o.quick = 1;
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) o.timeout = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--grid-cap") && i + 1 < argc) o.grid_cap = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else {
            fprintf(stderr, "usage: gpudiag [--quick] [--timeout CYCLES] [--grid-cap N] [--json FILE]\n");
            return 2;
        }
    }
    if (!o.timeout || !o.grid_cap) { fprintf(stderr, "gpudiag: --timeout and --grid-cap must be > 0\n"); return 2; }
    cuda_ctx c;
    if (cuda_alloc(&c)) { fprintf(stderr, "gpudiag: cannot allocate device memory\n"); return 1; }
    gd_backend be = { &c, cuda_launch, cuda_regs, GD_OUT_WORDS };
    static gd_result r;
    if (gd_run_all(&be, &o, &r)) return 1;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    gd_print_markdown(&r, p.name, stdout);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) { fprintf(stderr, "gpudiag: cannot write %s\n", json); return 1; }
        gd_print_json(&r, f);
        fclose(f);
    }
    return 0;
}
