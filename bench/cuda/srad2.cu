/* srad2: speckle reducing anisotropic diffusion, srad_v2 style (see bench/ref/srad2.h). */
#define BENCH_NAME "srad2"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/srad2.h"

#define BS SRAD2_BLOCK

/* Coefficients: a 16x16 block loads its pixels and a one-pixel halo (rows
 * above/below, columns left/right, clamped at the image border) into shared
 * memory, then each thread computes its four differences and c. */
extern "C" __global__ void srad2_coef(const float *J, float *dN, float *dS, float *dW,
                                      float *dE, float *C, int n, float q0sqr)
{
    __shared__ float t[BS + 2][BS + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.y * BS + ty, j = blockIdx.x * BS + tx;
    int k = i * n + j;
    t[ty + 1][tx + 1] = J[k];
    if (ty == 0)
        t[0][tx + 1] = J[(i > 0 ? i - 1 : 0) * n + j];
    if (ty == BS - 1)
        t[BS + 1][tx + 1] = J[(i < n - 1 ? i + 1 : n - 1) * n + j];
    if (tx == 0)
        t[ty + 1][0] = J[i * n + (j > 0 ? j - 1 : 0)];
    if (tx == BS - 1)
        t[ty + 1][BS + 1] = J[i * n + (j < n - 1 ? j + 1 : n - 1)];
    __syncthreads();
    float jc = t[ty + 1][tx + 1];
    float dn = __fsub_rn(t[ty][tx + 1], jc), ds = __fsub_rn(t[ty + 2][tx + 1], jc);
    float dw = __fsub_rn(t[ty + 1][tx], jc), de = __fsub_rn(t[ty + 1][tx + 2], jc);
    float g2 = __fmul_rn(dn, dn);
    g2 = __fadd_rn(g2, __fmul_rn(ds, ds));
    g2 = __fadd_rn(g2, __fmul_rn(dw, dw));
    g2 = __fadd_rn(g2, __fmul_rn(de, de));
    g2 = __fdiv_rn(g2, __fmul_rn(jc, jc));
    float l = __fadd_rn(__fadd_rn(__fadd_rn(dn, ds), dw), de);
    l = __fdiv_rn(l, jc);
    float num = __fsub_rn(__fmul_rn(0.5f, g2), __fmul_rn(0.0625f, __fmul_rn(l, l)));
    float den = __fadd_rn(1.0f, __fmul_rn(0.25f, l));
    float qsqr = __fdiv_rn(num, __fmul_rn(den, den));
    den = __fdiv_rn(__fsub_rn(qsqr, q0sqr), __fmul_rn(q0sqr, __fadd_rn(1.0f, q0sqr)));
    float c = __fdiv_rn(1.0f, __fadd_rn(1.0f, den));
    c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
    dN[k] = dn;
    dS[k] = ds;
    dW[k] = dw;
    dE[k] = de;
    C[k] = c;
}

/* Update: the block's coefficients plus the row below and the column to the
 * right (clamped) in shared memory; J += lambda/4 * divergence. */
extern "C" __global__ void srad2_update(const float *dN, const float *dS, const float *dW,
                                        const float *dE, const float *C, float *J, int n)
{
    __shared__ float t[BS + 1][BS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.y * BS + ty, j = blockIdx.x * BS + tx;
    int k = i * n + j;
    t[ty][tx] = C[k];
    if (ty == BS - 1)
        t[BS][tx] = C[(i < n - 1 ? i + 1 : n - 1) * n + j];
    if (tx == BS - 1)
        t[ty][BS] = C[i * n + (j < n - 1 ? j + 1 : n - 1)];
    __syncthreads();
    float c = t[ty][tx];
    float d = __fmul_rn(c, dN[k]);
    d = __fadd_rn(d, __fmul_rn(t[ty + 1][tx], dS[k]));
    d = __fadd_rn(d, __fmul_rn(c, dW[k]));
    d = __fadd_rn(d, __fmul_rn(t[ty][tx + 1], dE[k]));
    J[k] = __fadd_rn(J[k], __fmul_rn(SRAD_STEP, d));
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, srad2_presets, srad2_check, &p))
        return 2;
    int n = p.n;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *img = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    srad2_inputs(&p, img);
    memcpy(want, img, bytes);
    srad2_reference(n, p.iters, want);
    float *dJ, *dN, *dS, *dW, *dE, *dC;
    CK(cudaMalloc(&dJ, bytes)); CK(cudaMalloc(&dN, bytes)); CK(cudaMalloc(&dS, bytes));
    CK(cudaMalloc(&dW, bytes)); CK(cudaMalloc(&dE, bytes)); CK(cudaMalloc(&dC, bytes));
    dim3 block(BS, BS), grid(n / BS, n / BS);
    for (int t = 0; t < p.iters; t++) {
        float q0sqr = srad2_q0sqr(n, img);   /* host step, as Rodinia */
        CK(cudaMemcpy(dJ, img, bytes, cudaMemcpyHostToDevice));
        srad2_coef<<<grid, block>>>(dJ, dN, dS, dW, dE, dC, n, q0sqr);
        CK_LAUNCH();
        srad2_update<<<grid, block>>>(dN, dS, dW, dE, dC, dJ, n);
        CK_LAUNCH();
        CK(cudaMemcpy(img, dJ, bytes, cudaMemcpyDeviceToHost));
    }
    char why[256];
    int bad = bench_compare_float("srad2: J", img, want, (size_t)n * n, 0.0, why, sizeof why);
    CK(cudaFree(dJ)); CK(cudaFree(dN)); CK(cudaFree(dS)); CK(cudaFree(dW)); CK(cudaFree(dE));
    CK(cudaFree(dC));
    free(img); free(want);
    return bench_report(bad, why);
}
