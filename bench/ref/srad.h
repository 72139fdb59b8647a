/*
 * srad.h — what the two SRAD benchmarks (srad1.h, srad2.h) share: speckle
 * reducing anisotropic diffusion (Yu and Acton 2002) as Rodinia's srad_v1
 * and srad_v2 compute it, on an n x n image stored row-major.
 *
 * Per pixel (i, j) with value jc and its four neighbours (clamped at the
 * image border, so a border pixel's outside neighbour is itself):
 *   dN = J[i-1][j] - jc, dS = J[i+1][j] - jc, dW = J[i][j-1] - jc, dE = J[i][j+1] - jc
 *   G2 = (dN^2 + dS^2 + dW^2 + dE^2) / jc^2,  L = (dN + dS + dW + dE) / jc
 *   q^2 = (G2/2 - L^2/16) / (1 + L/4)^2
 *   c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1]
 * then, with the coefficients of the pixel and of its south and east
 * neighbours,
 *   D = c*dN + cS*dS + c*dW + cE*dE,  J += (lambda/4) D.
 * q0^2 is the variance over the squared mean of a region of interest,
 * computed from the current image before every iteration.
 *
 * The kernels spell every float operation with __fadd_rn / __fmul_rn /
 * __fdiv_rn in the order written above (left to right), so that these
 * references reproduce them bit for bit (no fma contraction on either side:
 * C11 does not contract, and the intrinsics are never fused). Results are
 * compared exactly.
 */
#ifndef BENCH_REF_SRAD_H
#define BENCH_REF_SRAD_H
#include "common.h"

#define SRAD_LAMBDA 0.5f
#define SRAD_STEP (0.25f * SRAD_LAMBDA)   /* lambda / 4 = 0.125, exact */
#define SRAD_MAX_N 4096

/* Image values: Rodinia's extracted image exp(I / 255) lies in [1, e]; we
 * draw uniformly from [1, 2) with 24-bit mantissas (nothing is exact here, so
 * the references follow the kernels' operation order instead). */
static inline void srad_fill_image(bench_rng *r, float *img, size_t n)
{
    bench_fill_float(r, img, n, 1.0f, 2.0f);
}

/* The diffusion coefficient of one pixel (float, the kernels' order). */
static inline float srad_coef(float jc, float dn, float ds, float dw, float de, float q0sqr)
{
    float g2 = dn * dn;
    g2 = g2 + ds * ds;
    g2 = g2 + dw * dw;
    g2 = g2 + de * de;
    g2 = g2 / (jc * jc);
    float l = dn + ds;
    l = l + dw;
    l = l + de;
    l = l / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    return c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
}

/* The divergence and the update of one pixel (float, the kernels' order). */
static inline float srad_update(float j, float c, float cs, float ce, float dn,
                                float ds, float dw, float de)
{
    float d = c * dn;
    d = d + cs * ds;
    d = d + c * dw;
    d = d + ce * de;
    return j + SRAD_STEP * d;
}

/* q0^2 of the region of interest rows [0, rr) x cols [0, rc) of an n-wide
 * image: variance / mean^2, in double, rounded once (host code: the CUDA
 * programs and the drivers both call this on the image the device holds). */
static inline float srad_q0sqr(int n, const float *img, int rr, int rc)
{
    double s = 0, s2 = 0;
    for (int i = 0; i < rr; i++)
        for (int j = 0; j < rc; j++) {
            double v = img[(size_t)i * n + j];
            s += v;
            s2 += v * v;
        }
    double cnt = (double)rr * rc, mean = s / cnt, var = s2 / cnt - mean * mean;
    return (float)(var / (mean * mean));
}

/* One SRAD iteration on the whole image in place (dN..dE and c of every
 * pixel first, then the update), with the given q0^2; `c` is n*n scratch. */
static inline void srad_iteration(int n, float *img, float *c, float q0sqr)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float jc = img[(size_t)i * n + j];
            float dn = img[(size_t)(i > 0 ? i - 1 : 0) * n + j] - jc;
            float ds = img[(size_t)(i < n - 1 ? i + 1 : n - 1) * n + j] - jc;
            float dw = img[(size_t)i * n + (j > 0 ? j - 1 : 0)] - jc;
            float de = img[(size_t)i * n + (j < n - 1 ? j + 1 : n - 1)] - jc;
            c[(size_t)i * n + j] = srad_coef(jc, dn, ds, dw, de, q0sqr);
        }
    /* the update reads the derivatives of the old image: keep them per row */
    float *old = (float *)bench_xmalloc((size_t)n * n * sizeof(float));
    memcpy(old, img, (size_t)n * n * sizeof(float));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float jc = old[(size_t)i * n + j];
            int is = i < n - 1 ? i + 1 : n - 1, je = j < n - 1 ? j + 1 : n - 1;
            float dn = old[(size_t)(i > 0 ? i - 1 : 0) * n + j] - jc;
            float ds = old[(size_t)is * n + j] - jc;
            float dw = old[(size_t)i * n + (j > 0 ? j - 1 : 0)] - jc;
            float de = old[(size_t)i * n + je] - jc;
            img[(size_t)i * n + j] = srad_update(jc, c[(size_t)i * n + j], c[(size_t)is * n + j],
                                                 c[(size_t)i * n + je], dn, ds, dw, de);
        }
    free(old);
}
#endif
