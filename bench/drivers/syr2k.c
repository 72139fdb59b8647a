/* syr2k driver: the kernel of bench/cuda/syr2k.cu from its PTX. */
#include "bench.h"
#include "../ref/syr2k.h"

int bench_syr2k(smc_device *dev, const bench_opts *o)
{
    static const bench_abc_kernel syr2k = {
        "syr2k", syr2k_presets, syr2k_check, syr2k_inputs, syr2k_inputs_general,
        syr2k_reference, syr2k_reference_exact,
    };
    return bench_run_abc(dev, o, &syr2k);
}
