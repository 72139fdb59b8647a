/*
 * chase.cu — unloaded load latency of each level of the memory hierarchy,
 * measured from inside a kernel: one thread follows a chain of pointers
 * (each load's address is the previous load's value, so the loads cannot
 * overlap) and reads %clock before and after. An ordinary CUDA program: it
 * runs on a GPU, on smcosim (`smcosim run -- build/bench/chase`) and on
 * GPGPU-Sim, which is how docs/memory-model.md ("Side by side") compares
 * the two simulators' machines on the same work.
 *
 * The chain is laid out from a base address aligned to 1 MiB, so that the
 * bits of every address below 2^20 (cache sets, memory partition, DRAM bank
 * and column on the presets) are the same on every simulator whatever
 * cudaMalloc returns.
 *
 *   l1    32 links 128 B apart (4 KiB): a warm-up pass, then timed passes
 *         that hit in the L1D
 *   l2    2048 links 128 B apart (256 KiB): more lines than the L1D holds,
 *         fewer than the L2; a warm-up pass, then timed L2 hits
 *   dram  2048 links 4224 B apart (8.25 MiB), one cold pass: every load
 *         misses both caches
 *
 * `chase LEVEL` measures that level only. Prints one line per level: "chase LEVEL LINKS LOADS CYCLES CYCLES/LOAD",
 * then "chase: PASS" when every chain came back to its start.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                            \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        if (e_ != cudaSuccess) {                                            \
            printf("chase: FAIL (%s: %s)\n", #call, cudaGetErrorString(e_)); \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

/* %clock, the 32-bit cycle counter (clock() compiles to %clock64, which
 * GPGPU-Sim does not implement). */
__device__ __forceinline__ unsigned clock32(void)
{
    unsigned t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t) :: "memory");
    return t;
}

/* One link: a global load whose address is the previous load's value. */
__device__ __forceinline__ void **next_link(void **p)
{
    void **q;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(q) : "l"(p) : "memory");
    return q;
}

/* 32 links; the loop around them is the only other work on the timed path
 * (its add, compare and branch once per 32 loads). */
#define LINK4(p) next_link(next_link(next_link(next_link(p))))
#define LINK32(p) LINK4(LINK4(LINK4(LINK4(LINK4(LINK4(LINK4(LINK4(p))))))))

/* Follows the chain `warm` links untimed, then `timed` links between two
 * reads of %clock (both multiples of 32). One loop does both, so that the
 * timed links run code the warm-up has brought into the instruction cache
 * (with a loop of its own the timed pass would start with its code's
 * misses: about 2 cycles per load at l1 on a 2-KB instruction cache). */
extern "C" __global__ void chase(void **start, unsigned warm, unsigned timed,
                                 unsigned *cycles, void **end)
{
    void **p = start;
    unsigned t0 = 0;
#pragma unroll 1
    for (int phase = 0; phase < 2; phase++) {
        unsigned n = phase ? timed : warm;
        if (phase)
            t0 = clock32();
        for (unsigned i = 0; i < n; i += 32) p = LINK32(p);
    }
    /* the last load must have returned before the second read of %clock */
    if (p == 0) end[1] = 0;
    unsigned t1 = clock32();
    *cycles = t1 - t0;
    *end = p;
}

struct level { const char *name; unsigned links, stride, warm_passes, timed_passes; };

int main(int argc, char **argv)
{
    static const struct level levels[] = {
        {"l1", 32, 128, 1, 8},
        {"l2", 2048, 128, 1, 1},
        {"dram", 2048, 4224, 0, 1},
    };
    const size_t align = 1u << 20;
    int bad = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        const struct level *lv = &levels[l];
        if (argc > 1 && strcmp(argv[1], lv->name)) continue;
        size_t span = (size_t)lv->links * lv->stride;
        char *raw;
        CK(cudaMalloc((void **)&raw, span + align));
        uintptr_t base = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
        char *host = (char *)calloc(1, span);
        if (!host) { printf("chase: FAIL (out of host memory)\n"); return 1; }
        for (unsigned k = 0; k < lv->links; k++) {
            uintptr_t next = base + (size_t)((k + 1) % lv->links) * lv->stride;
            *(uintptr_t *)(host + (size_t)k * lv->stride) = next;
        }
        CK(cudaMemcpy((void *)base, host, span, cudaMemcpyHostToDevice));
        unsigned *dcycles;
        void **dend;
        CK(cudaMalloc((void **)&dcycles, sizeof(unsigned)));
        CK(cudaMalloc((void **)&dend, 2 * sizeof(void *)));
        unsigned warm = lv->links * lv->warm_passes, timed = lv->links * lv->timed_passes;
        chase<<<1, 1>>>((void **)base, warm, timed, dcycles, dend);
        CK(cudaGetLastError());
        unsigned cycles;
        void *end;
        CK(cudaMemcpy(&cycles, dcycles, sizeof cycles, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&end, dend, sizeof end, cudaMemcpyDeviceToHost));
        if ((uintptr_t)end != base) bad = 1;
        printf("chase %s %u %u %u %.2f\n", lv->name, lv->links, timed, cycles,
               (double)cycles / timed);
        CK(cudaFree(raw)); CK(cudaFree(dcycles)); CK(cudaFree(dend));
        free(host);
    }
    printf(bad ? "chase: FAIL (a chain did not come back to its start)\n" : "chase: PASS\n");
    return bad;
}
