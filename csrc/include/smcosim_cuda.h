/*
 * smcosim_cuda.h -- smcosim's extensions to the CUDA runtime, for CUDA
 * programs (C or C++, host code). Installed with the drop-in runtime
 * (`make install`, docs/runtime.md); include it with -I<prefix>/include.
 *
 * The functions are exported by smcosim's libcudart.so.13 and declared
 * weak here: the program links against NVIDIA's runtime as usual, and on a
 * real GPU (NVIDIA's library, which lacks them) the smcosimTry* wrappers
 * below do nothing and say so. Call the functions directly only when the
 * program runs under smcosim.
 */
#ifndef SMCOSIM_CUDA_H
#define SMCOSIM_CUDA_H

#ifdef __cplusplus
extern "C" {
#endif

/* Locality hint of the calling thread's next kernel launch (Gong thesis,
 * seed 000 §6.3.1, Table 6.1; docs/locality.md): 0 none, 1 many cache
 * lines shared among adjacent blocks, 2 boundary lines shared, 3 some data
 * shared. The thesis's <<<grid, block, hint>>> cannot be used: CUDA's
 * third launch argument is the dynamic shared-memory size. The next launch
 * of this thread (cudaLaunchKernel, <<<>>>, cooperative) takes the hint and
 * clears it; launches captured into a graph do not take it. Returns 0
 * (cudaSuccess), or 1 (cudaErrorInvalidValue, with a message on stderr)
 * for a value outside 0..3, which clears the hint. The configuration key
 * gpu.locality_hint, when a number, overrides it; it overrides
 * smcosim run --locality. */
int smcosimSetNextLaunchHint(int hint) __attribute__((weak));

/* The same, safe without smcosim: -1 when the running CUDA runtime is not
 * smcosim's (nothing is set). */
static inline int smcosimTrySetNextLaunchHint(int hint)
{
    return smcosimSetNextLaunchHint ? smcosimSetNextLaunchHint(hint) : -1;
}

#ifdef __cplusplus
}
#endif
#endif
