/*
 * ifetch.cu — what an instruction-cache miss costs, measured as a user
 * would: one warp runs 1,024 independent adds in a straight line (8 KiB of
 * PTX instructions on GPGPU-Sim's layout: four times a 2-KiB L1I), three
 * launches in a row. The first launch misses every line to DRAM; the later
 * ones find the code in the L2 (the L1I cannot hold it). The launches'
 * cycles, set beside a run with an ideal instruction cache, give the cost
 * of one miss at each level: docs/memory-model.md ("Instruction cache")
 * compares smcosim and GPGPU-Sim on it.
 *
 * `ifetch N` runs N CTAs of one warp each (default 1): with one per SM they
 * all miss the same lines at once, which measures how the L2 and the
 * interconnect serve a line that every SM wants.
 *
 * Prints "ifetch: PASS" when the sums are right.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                             \
    do {                                                                     \
        cudaError_t e_ = (call);                                             \
        if (e_ != cudaSuccess) {                                             \
            printf("ifetch: FAIL (%s: %s)\n", #call, cudaGetErrorString(e_)); \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* four independent chains, so that issue does not wait for results */
#define ADD4 asm volatile("add.u32 %0, %0, 1;\n\tadd.u32 %1, %1, 1;\n\t"     \
                          "add.u32 %2, %2, 1;\n\tadd.u32 %3, %3, 1;"         \
                          : "+r"(a), "+r"(b), "+r"(c), "+r"(d))
#define ADD16 ADD4; ADD4; ADD4; ADD4
#define ADD64 ADD16; ADD16; ADD16; ADD16
#define ADD256 ADD64; ADD64; ADD64; ADD64

__global__ void straight(unsigned *out)
{
    unsigned a = threadIdx.x, b = 0, c = 0, d = 0;
    ADD256; ADD256; ADD256; ADD256;
    out[blockIdx.x * 32 + threadIdx.x] = a + b + c + d;
}

int main(int argc, char **argv)
{
    int ctas = argc > 1 ? atoi(argv[1]) : 1;
    if (ctas < 1 || ctas > 1024) {
        printf("ifetch: FAIL (CTAs: '%s', expected 1..1024)\n", argv[1]);
        return 1;
    }
    unsigned *out, *host = (unsigned *)malloc(ctas * 32 * sizeof *host);
    CK(cudaMalloc(&out, ctas * 32 * sizeof *host));
    for (int launch = 0; launch < 3; launch++) {
        straight<<<ctas, 32>>>(out);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(host, out, ctas * 32 * sizeof *host, cudaMemcpyDeviceToHost));
    for (unsigned t = 0; t < 32u * ctas; t++)
        if (host[t] != t % 32 + 1024) {
            printf("ifetch: FAIL (thread %u: %u, expected %u)\n", t, host[t], t % 32 + 1024);
            return 1;
        }
    free(host);
    printf("ifetch: PASS\n");
    return 0;
}
