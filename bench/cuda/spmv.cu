/* spmv: CSR scalar sparse matrix-vector product (see bench/ref/spmv.h). */
#define BENCH_NAME "spmv"
#include "bench_cuda.h"
#include "../ref/spmv.h"

extern "C" __global__ void spmv_csr_scalar(const int *row_ptr, const int *cols,
                                           const float *vals, const float *x,
                                           float *y, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        float sum = 0.0f;
        for (int k = row_ptr[row]; k < row_ptr[row + 1]; k++)
            sum += vals[k] * x[cols[k]];
        y[row] = sum;
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, spmv_presets, spmv_check, &p))
        return 2;
    int n = p.n;
    size_t cap = (size_t)n * 2 * SPMV_AVG_NNZ;
    int *row_ptr = (int *)bench_xmalloc((size_t)(n + 1) * sizeof(int));
    int *cols = (int *)bench_xmalloc(cap * sizeof(int));
    float *vals = (float *)bench_xmalloc(cap * sizeof(float));
    float *x = (float *)bench_xmalloc((size_t)n * sizeof(float));
    float *y = (float *)bench_xmalloc((size_t)n * sizeof(float));
    float *want = (float *)bench_xmalloc((size_t)n * sizeof(float));
    int nnz = spmv_inputs(&p, row_ptr, cols, vals, x);
    spmv_reference(n, row_ptr, cols, vals, x, want);
    int *drp = (int *)bench_to_device(row_ptr, (size_t)(n + 1) * sizeof(int));
    int *dcols = (int *)bench_to_device(cols, (size_t)nnz * sizeof(int) + 4);
    float *dvals = (float *)bench_to_device(vals, (size_t)nnz * sizeof(float) + 4);
    float *dx = (float *)bench_to_device(x, (size_t)n * sizeof(float));
    float *dy;
    CK(cudaMalloc(&dy, (size_t)n * sizeof(float)));
    spmv_csr_scalar<<<(n + SPMV_BLOCK - 1) / SPMV_BLOCK, SPMV_BLOCK>>>(drp, dcols, dvals, dx, dy, n);
    CK_LAUNCH();
    CK(cudaMemcpy(y, dy, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("spmv: y", y, want, (size_t)n, 1e-6, why, sizeof why);
    CK(cudaFree(drp)); CK(cudaFree(dcols)); CK(cudaFree(dvals)); CK(cudaFree(dx)); CK(cudaFree(dy));
    free(row_ptr); free(cols); free(vals); free(x); free(y); free(want);
    return bench_report(bad, why);
}
