/* vectoradd driver: the kernel of bench/cuda/vectoradd.cu from its PTX. */
#include "bench.h"
#include "../ref/vectoradd.h"

int bench_vectoradd(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "vectoradd", vectoradd_presets, vectoradd_check, &p))
        return bench_end(&c, 0, NULL);
    /* --inputs general: a partial last block and inputs whose add rounds
     * (one rounded add per element: the reference is bit-exact). */
    if (bench_general_size(&c, &p, p.n - 3, 0, vectoradd_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)bench_xmalloc(bytes), *b = (float *)bench_xmalloc(bytes);
    float *out = (float *)bench_xmalloc(bytes);
    if (bench_general(o))
        vectoradd_inputs_general(&p, a, b);
    else
        vectoradd_inputs(&p, a, b);
    uint64_t da = bench_upload(&c, a, bytes), db = bench_upload(&c, b, bytes);
    uint64_t dc = bench_alloc(&c, bytes);
    BENCH_LAUNCH(&c, "vectoradd", DIM1((n + VECTORADD_BLOCK - 1) / VECTORADD_BLOCK),
                 DIM1(VECTORADD_BLOCK), 0, BARG(da), BARG(db), BARG(dc), BARG(n));
    bench_read(&c, out, dc, bytes);
    if (!bench_failed(&c))
        bad = vectoradd_verify(&p, a, b, out, why, sizeof why);
    free(a); free(b); free(out);
    return bench_end(&c, bad, why);
}
