/* srad1: speckle reducing anisotropic diffusion, srad_v1 style (see bench/ref/srad1.h). */
#define BENCH_NAME "srad1"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/srad1.h"

#define NT SRAD1_THREADS

extern "C" __global__ void srad1_extract(int ne, float *I)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei < ne)
        I[ei] = __fadd_rn(__fmul_rn(I[ei], SRAD1_SCALE), 1.0f);
}

extern "C" __global__ void srad1_prepare(int ne, const float *I, float *sums, float *sums2)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei < ne) {
        float v = I[ei];
        sums[ei] = v;
        sums2[ei] = __fmul_rn(v, v);
    }
}

/* One level of the sum: block b adds the `no` values ei * mul (ei in its
 * 256) with a shared-memory tree and leaves the sum at b * 256 * mul, where
 * the next level (mul * 256) reads it. */
extern "C" __global__ void srad1_reduce(int no, int mul, float *sums, float *sums2)
{
    __shared__ float ps[NT], ps2[NT];
    int tx = threadIdx.x, ei = blockIdx.x * NT + tx;
    ps[tx] = ei < no ? sums[(size_t)ei * mul] : 0.0f;
    ps2[tx] = ei < no ? sums2[(size_t)ei * mul] : 0.0f;
    for (int s = NT / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tx < s) {
            ps[tx] = __fadd_rn(ps[tx], ps[tx + s]);
            ps2[tx] = __fadd_rn(ps2[tx], ps2[tx + s]);
        }
    }
    if (tx == 0) {
        sums[(size_t)blockIdx.x * NT * mul] = ps[0];
        sums2[(size_t)blockIdx.x * NT * mul] = ps2[0];
    }
}

/* Differences through the neighbour index arrays, and the coefficient. */
extern "C" __global__ void srad1_srad(int n, const int *iN, const int *iS, const int *jW,
                                      const int *jE, float *dN, float *dS, float *dW,
                                      float *dE, float q0sqr, float *c, const float *I)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei >= n * n)
        return;
    int row = ei / n, col = ei - row * n;
    float jc = I[ei];
    float dn = __fsub_rn(I[iN[row] * n + col], jc), ds = __fsub_rn(I[iS[row] * n + col], jc);
    float dw = __fsub_rn(I[row * n + jW[col]], jc), de = __fsub_rn(I[row * n + jE[col]], jc);
    float g2 = __fmul_rn(dn, dn);
    g2 = __fadd_rn(g2, __fmul_rn(ds, ds));
    g2 = __fadd_rn(g2, __fmul_rn(dw, dw));
    g2 = __fadd_rn(g2, __fmul_rn(de, de));
    g2 = __fdiv_rn(g2, __fmul_rn(jc, jc));
    float l = __fdiv_rn(__fadd_rn(__fadd_rn(__fadd_rn(dn, ds), dw), de), jc);
    float num = __fsub_rn(__fmul_rn(0.5f, g2), __fmul_rn(0.0625f, __fmul_rn(l, l)));
    float den = __fadd_rn(1.0f, __fmul_rn(0.25f, l));
    float qsqr = __fdiv_rn(num, __fmul_rn(den, den));
    den = __fdiv_rn(__fsub_rn(qsqr, q0sqr), __fmul_rn(q0sqr, __fadd_rn(1.0f, q0sqr)));
    float cc = __fdiv_rn(1.0f, __fadd_rn(1.0f, den));
    if (cc < 0.0f)
        cc = 0.0f;
    else if (cc > 1.0f)
        cc = 1.0f;
    dN[ei] = dn;
    dS[ei] = ds;
    dW[ei] = dw;
    dE[ei] = de;
    c[ei] = cc;
}

/* Divergence with the coefficients of the pixel, its south and its east
 * neighbour; the update. */
extern "C" __global__ void srad1_srad2(int n, const int *iS, const int *jE, const float *dN,
                                       const float *dS, const float *dW, const float *dE,
                                       const float *c, float *I)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei >= n * n)
        return;
    int row = ei / n, col = ei - row * n;
    float cn = c[ei], cs = c[iS[row] * n + col], ce = c[row * n + jE[col]];
    float d = __fmul_rn(cn, dN[ei]);
    d = __fadd_rn(d, __fmul_rn(cs, dS[ei]));
    d = __fadd_rn(d, __fmul_rn(cn, dW[ei]));
    d = __fadd_rn(d, __fmul_rn(ce, dE[ei]));
    I[ei] = __fadd_rn(I[ei], __fmul_rn(SRAD_STEP, d));
}

extern "C" __global__ void srad1_compress(int ne, float *I)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei < ne)
        I[ei] = __fmul_rn(__fsub_rn(I[ei], 1.0f), 255.0f);
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, srad1_presets, srad1_check, &p))
        return 2;
    int n = p.n, ne = n * n;
    size_t bytes = (size_t)ne * sizeof(float), ib = (size_t)n * sizeof(int32_t);
    float *img = (float *)bench_xmalloc(bytes), *want = (float *)bench_xmalloc(bytes);
    int32_t *in = (int32_t *)bench_xmalloc(ib), *is = (int32_t *)bench_xmalloc(ib);
    int32_t *jw = (int32_t *)bench_xmalloc(ib), *je = (int32_t *)bench_xmalloc(ib);
    srad1_inputs(&p, img, in, is, jw, je);
    memcpy(want, img, bytes);
    srad1_reference(n, p.iters, want);
    float *dI = (float *)bench_to_device(img, bytes);
    int *diN = (int *)bench_to_device(in, ib), *diS = (int *)bench_to_device(is, ib);
    int *djW = (int *)bench_to_device(jw, ib), *djE = (int *)bench_to_device(je, ib);
    float *dN, *dS, *dW, *dE, *dc, *ds, *ds2;
    CK(cudaMalloc(&dN, bytes)); CK(cudaMalloc(&dS, bytes)); CK(cudaMalloc(&dW, bytes));
    CK(cudaMalloc(&dE, bytes)); CK(cudaMalloc(&dc, bytes)); CK(cudaMalloc(&ds, bytes));
    CK(cudaMalloc(&ds2, bytes));
    int blocks = srad1_blocks(ne);
    srad1_extract<<<blocks, NT>>>(ne, dI);
    CK_LAUNCH();
    for (int t = 0; t < p.iters; t++) {
        srad1_prepare<<<blocks, NT>>>(ne, dI, ds, ds2);
        CK_LAUNCH();
        for (int no = ne, mul = 1;; no = srad1_blocks(no), mul *= NT) {
            srad1_reduce<<<srad1_blocks(no), NT>>>(no, mul, ds, ds2);
            CK_LAUNCH();
            if (srad1_blocks(no) == 1)
                break;
        }
        float sum, sum2;
        CK(cudaMemcpy(&sum, ds, sizeof sum, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&sum2, ds2, sizeof sum2, cudaMemcpyDeviceToHost));
        float q0sqr = srad1_q0sqr(ne, sum, sum2);
        srad1_srad<<<blocks, NT>>>(n, diN, diS, djW, djE, dN, dS, dW, dE, q0sqr, dc, dI);
        CK_LAUNCH();
        srad1_srad2<<<blocks, NT>>>(n, diS, djE, dN, dS, dW, dE, dc, dI);
        CK_LAUNCH();
    }
    srad1_compress<<<blocks, NT>>>(ne, dI);
    CK_LAUNCH();
    CK(cudaMemcpy(img, dI, bytes, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("srad1: I", img, want, (size_t)ne, 0.0, why, sizeof why);
    CK(cudaFree(dI)); CK(cudaFree(diN)); CK(cudaFree(diS)); CK(cudaFree(djW)); CK(cudaFree(djE));
    CK(cudaFree(dN)); CK(cudaFree(dS)); CK(cudaFree(dW)); CK(cudaFree(dE)); CK(cudaFree(dc));
    CK(cudaFree(ds)); CK(cudaFree(ds2));
    free(img); free(want); free(in); free(is); free(jw); free(je);
    return bench_report(bad, why);
}
