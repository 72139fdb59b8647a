/* spmv driver: spmv_csr_scalar from bench/ptx/spmv.ptx. */
#include "bench.h"
#include "../ref/spmv.h"

int bench_spmv(smc_device *dev, const bench_opts *o)
{
    bench_ctx c;
    bench_params p;
    char why[256] = "";
    int bad = 0;
    if (bench_begin(&c, dev, o, "spmv", spmv_presets, spmv_check, &p))
        return bench_end(&c, 0, NULL);
    if (bench_general_size(&c, &p, p.n - 3, 0, spmv_check))
        return bench_end(&c, 0, NULL);
    int n = p.n;
    size_t cap = (size_t)n * 2 * SPMV_AVG_NNZ;
    int32_t *row_ptr = (int32_t *)bench_xmalloc((size_t)(n + 1) * sizeof(int32_t));
    int32_t *cols = (int32_t *)bench_xmalloc(cap * sizeof(int32_t));
    float *vals = (float *)bench_xmalloc(cap * sizeof(float));
    float *x = (float *)bench_xmalloc((size_t)n * sizeof(float));
    float *y = (float *)bench_xmalloc((size_t)n * sizeof(float));
    float *want = (float *)bench_xmalloc((size_t)n * sizeof(float));
    int nnz = spmv_inputs(&p, row_ptr, cols, vals, x);
    if (bench_general(o)) {
        spmv_values_general(&p, nnz, vals, x);
        spmv_reference_exact(n, row_ptr, cols, vals, x, want);
    } else {
        spmv_reference(n, row_ptr, cols, vals, x, want);
    }
    uint64_t drp = bench_upload(&c, row_ptr, (size_t)(n + 1) * sizeof(int32_t));
    uint64_t dcols = bench_upload(&c, cols, (size_t)nnz * sizeof(int32_t));
    uint64_t dvals = bench_upload(&c, vals, (size_t)nnz * sizeof(float));
    uint64_t dx = bench_upload(&c, x, (size_t)n * sizeof(float));
    uint64_t dy = bench_alloc(&c, (size_t)n * sizeof(float));
    BENCH_LAUNCH(&c, "spmv_csr_scalar", DIM1((n + SPMV_BLOCK - 1) / SPMV_BLOCK), DIM1(SPMV_BLOCK),
                 0, BARG(drp), BARG(dcols), BARG(dvals), BARG(dx), BARG(dy), BARG(n));
    bench_read(&c, y, dy, (size_t)n * sizeof(float));
    if (!bench_failed(&c))
        bad = bench_compare_float("spmv: y", y, want, (size_t)n, bench_general(o) ? 0.0 : 1e-6, why, sizeof why);
    free(row_ptr); free(cols); free(vals); free(x); free(y); free(want);
    return bench_end(&c, bad, why);
}
