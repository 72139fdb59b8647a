/*
 * bench/cuda/bench_cuda.h — host-side helpers shared by the CUDA benchmark
 * programs: error checking of runtime calls and the PASS/FAIL line.
 * Each program defines BENCH_NAME before including it.
 */
#ifndef BENCH_CUDA_H
#define BENCH_CUDA_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

/* A failing runtime call ends the program with "NAME: FAIL (...)", exit 1. */
#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t ck_err_ = (call);                                         \
        if (ck_err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(ck_err_));                             \
            printf("%s: FAIL (%s)\n", BENCH_NAME, cudaGetErrorName(ck_err_)); \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* After a <<<...>>> launch: configuration errors now, faults at sync. */
#define CK_LAUNCH() CK(cudaGetLastError())

/* Device copy of `bytes` bytes of host data. */
static inline void *bench_to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

static inline int bench_report(int bad, const char *why)
{
    if (bad)
        printf("%s: FAIL (%s)\n", BENCH_NAME, why);
    else
        printf("%s: PASS\n", BENCH_NAME);
    return bad ? 1 : 0;
}

#endif /* BENCH_CUDA_H */
