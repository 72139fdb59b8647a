/* lbm: D3Q19 lattice-Boltzmann stream-collide, Parboil lbm style (see bench/ref/lbm.h). */
#define BENCH_NAME "lbm"
#include <string.h>
#include "bench_cuda.h"
#include "../ref/lbm.h"

/* The direction table of lbm.h as bit masks (bit e set: component of
 * direction e is +1 / -1), so that the kernel can walk the directions in a
 * rolled loop: unrolled, the 19 values and their addresses need more than
 * Fermi's 63 registers per thread. */
#define MASK_(e, dx, dy, dz, w, op, v) | ((v) ? 1 << (e) : 0)
#define XP_(e, dx, dy, dz, w, op) MASK_(e, dx, dy, dz, w, op, (dx) > 0)
#define XN_(e, dx, dy, dz, w, op) MASK_(e, dx, dy, dz, w, op, (dx) < 0)
#define YP_(e, dx, dy, dz, w, op) MASK_(e, dx, dy, dz, w, op, (dy) > 0)
#define YN_(e, dx, dy, dz, w, op) MASK_(e, dx, dy, dz, w, op, (dy) < 0)
#define ZP_(e, dx, dy, dz, w, op) MASK_(e, dx, dy, dz, w, op, (dz) > 0)
#define ZN_(e, dx, dy, dz, w, op) MASK_(e, dx, dy, dz, w, op, (dz) < 0)
#define X_PLUS (0 LBM_DIRS(XP_))
#define X_MINUS (0 LBM_DIRS(XN_))
#define Y_PLUS (0 LBM_DIRS(YP_))
#define Y_MINUS (0 LBM_DIRS(YN_))
#define Z_PLUS (0 LBM_DIRS(ZP_))
#define Z_MINUS (0 LBM_DIRS(ZN_))
#define BIT(m, e) (((m) >> (e)) & 1)

/* Opposite direction in Parboil's order: 1<->2, 3<->4, 5<->6, then the
 * diagonals in groups of four (7<->10, 8<->9, 11<->14, ...). */
__device__ __forceinline__ int opposite(int e)
{
    if (e == 0)
        return 0;
    if (e < 7)
        return (e & 1) ? e + 1 : e - 1;
    int base = 7 + 4 * ((e - 7) / 4);
    return base + 3 - (e - base);
}

/* One cell per thread: x = thread, y = block x, z = block y (Parboil's
 * grid). Loads the flag and the 19 distributions (a fluid cell loads them
 * twice: for the moments, then one by one for the collision), stores 19
 * values into the neighbours' slots of dst. */
extern "C" __global__ void lbm_stream_collide(const float *src, float *dst, const int *flags,
                                              int nx, int ny, int nz)
{
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    int cells = nx * ny * nz;
    int c = x + nx * (y + ny * z);
    int xm = x == 0 ? nx - 1 : x - 1, xp = x == nx - 1 ? 0 : x + 1;
    int ym = y == 0 ? ny - 1 : y - 1, yp = y == ny - 1 ? 0 : y + 1;
    int zm = z == 0 ? nz - 1 : z - 1, zp = z == nz - 1 ? 0 : z + 1;
    int flag = flags[c];
    if (flag == LBM_OBSTACLE) {
        /* bounce-back: f_e leaves towards -e as the opposite direction */
#pragma unroll 1
        for (int e = 0; e < LBM_Q; e++) {
            int nbx = BIT(X_PLUS, e) ? xm : BIT(X_MINUS, e) ? xp : x;
            int nby = BIT(Y_PLUS, e) ? ym : BIT(Y_MINUS, e) ? yp : y;
            int nbz = BIT(Z_PLUS, e) ? zm : BIT(Z_MINUS, e) ? zp : z;
            dst[opposite(e) * cells + nbx + nx * (nby + ny * nbz)] = src[e * cells + c];
        }
        return;
    }
    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
#pragma unroll 1
    for (int e = 0; e < LBM_Q; e++) {
        float fe = src[e * cells + c];
        rho = e == 0 ? fe : __fadd_rn(rho, fe);
        if (BIT(X_PLUS, e)) ux = __fadd_rn(ux, fe);
        if (BIT(X_MINUS, e)) ux = __fsub_rn(ux, fe);
        if (BIT(Y_PLUS, e)) uy = __fadd_rn(uy, fe);
        if (BIT(Y_MINUS, e)) uy = __fsub_rn(uy, fe);
        if (BIT(Z_PLUS, e)) uz = __fadd_rn(uz, fe);
        if (BIT(Z_MINUS, e)) uz = __fsub_rn(uz, fe);
    }
    ux = __fdiv_rn(ux, rho);
    uy = __fdiv_rn(uy, rho);
    uz = __fdiv_rn(uz, rho);
    if (flag == LBM_ACCEL) {
        ux = LBM_UX;
        uy = LBM_UY;
        uz = 0.0f;
    }
    float u2 = __fmul_rn(ux, ux);
    u2 = __fadd_rn(u2, __fmul_rn(uy, uy));
    u2 = __fadd_rn(u2, __fmul_rn(uz, uz));
    u2 = __fmul_rn(1.5f, u2);
#pragma unroll 1
    for (int e = 0; e < LBM_Q; e++) {
        float eu = 0.0f;
        if (BIT(X_PLUS, e)) eu = __fadd_rn(eu, ux);
        if (BIT(X_MINUS, e)) eu = __fsub_rn(eu, ux);
        if (BIT(Y_PLUS, e)) eu = __fadd_rn(eu, uy);
        if (BIT(Y_MINUS, e)) eu = __fsub_rn(eu, uy);
        if (BIT(Z_PLUS, e)) eu = __fadd_rn(eu, uz);
        if (BIT(Z_MINUS, e)) eu = __fsub_rn(eu, uz);
        float t = __fadd_rn(1.0f, __fmul_rn(3.0f, eu));
        t = __fadd_rn(t, __fmul_rn(4.5f, __fmul_rn(eu, eu)));
        t = __fsub_rn(t, u2);
        float w = e == 0 ? LBM_W0 : e < 7 ? LBM_W1 : LBM_W2;
        float feq = __fmul_rn(__fmul_rn(w, rho), t);
        float fe = src[e * cells + c];
        int nbx = BIT(X_PLUS, e) ? xp : BIT(X_MINUS, e) ? xm : x;
        int nby = BIT(Y_PLUS, e) ? yp : BIT(Y_MINUS, e) ? ym : y;
        int nbz = BIT(Z_PLUS, e) ? zp : BIT(Z_MINUS, e) ? zm : z;
        dst[e * cells + nbx + nx * (nby + ny * nbz)] =
            __fadd_rn(fe, __fmul_rn(LBM_OMEGA, __fsub_rn(feq, fe)));
    }
}

int main(int argc, char **argv)
{
    bench_params p;
    if (bench_parse_args(argc, argv, BENCH_NAME, lbm_presets, lbm_check, &p))
        return 2;
    int n = p.n, nz = n / 4;
    size_t cells = lbm_cells(n), fb = cells * LBM_Q * sizeof(float), flb = cells * sizeof(int32_t);
    int32_t *flags = (int32_t *)bench_xmalloc(flb);
    float *f = (float *)bench_xmalloc(fb), *want = (float *)bench_xmalloc(fb);
    lbm_inputs(&p, flags, f);
    memcpy(want, f, fb);
    lbm_reference(n, p.iters, flags, want);
    float *da = (float *)bench_to_device(f, fb), *db;
    int *dflags = (int *)bench_to_device(flags, flb);
    CK(cudaMalloc(&db, fb));
    dim3 grid(n, nz);
    for (int t = 0; t < p.iters; t++) {
        lbm_stream_collide<<<grid, n>>>(da, db, dflags, n, n, nz);
        CK_LAUNCH();
        float *s = da; da = db; db = s;
    }
    CK(cudaMemcpy(f, da, fb, cudaMemcpyDeviceToHost));
    char why[256];
    int bad = bench_compare_float("lbm: f", f, want, cells * LBM_Q, 0.0, why, sizeof why);
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dflags));
    free(flags); free(f); free(want);
    return bench_report(bad, why);
}
