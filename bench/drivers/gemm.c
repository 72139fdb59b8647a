/* gemm driver: the kernel of bench/cuda/gemm.cu from its PTX. */
#include "bench.h"
#include "../ref/gemm.h"

int bench_gemm(smc_device *dev, const bench_opts *o)
{
    static const bench_abc_kernel gemm = {
        "gemm", gemm_presets, gemm_check, gemm_inputs, gemm_inputs_general,
        gemm_reference, gemm_reference_exact,
    };
    return bench_run_abc(dev, o, &gemm);
}
