/* rt_check.h — assertions for the CUDA test programs of tests/runtime/.
 * A failed check prints file, line, the expression and (for CUDA calls) the
 * error name, then exits with status 1. */
#ifndef RT_CHECK_H
#define RT_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,    \
                         __LINE__, #cond);                                 \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

#define CHECK_CUDA(call) CHECK_ERR(call, cudaSuccess)

#define CHECK_ERR(call, want)                                              \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != (want)) {                                                \
            std::fprintf(stderr, "%s:%d: %s returned %s (%d), expected "   \
                         "%s\n", __FILE__, __LINE__, #call,                \
                         cudaGetErrorName(e_), (int)e_, #want);            \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

#endif
