/*
 * lbm — lattice-Boltzmann fluid, Parboil lbm style (seed 001 Table 2
 * "LBM", memory-coherent and write-heavy; spec oaws.md C.2): D3Q19 BGK
 * stream-collide on an nx x ny x nz grid (nx = ny = n, nz = n / 4) with
 * periodic wrap, `iters` time steps ping-ponging two grids. One kernel,
 * lbm_stream_collide, one thread per cell, a block per x row (block nx,
 * grid ny x nz, as Parboil). Each thread loads its cell's 19 distributions
 * (structure of arrays: f[e * cells + cell], coalesced along x) and its flag,
 * and stores 19 values into the neighbours' slots of the other grid (push):
 *   fluid     rho = sum f, u = sum e f / rho (accel cells: u fixed at
 *             LBM_UX, LBM_UY, 0, Parboil's ACCEL flag),
 *             feq_e = w_e rho (1 + 3 e.u + 4.5 (e.u)^2 - 1.5 u.u),
 *             f_e += omega (feq_e - f_e), pushed to cell + e;
 *   obstacle  bounce-back: f_e pushed to cell - e as the opposite direction.
 * Every slot of the destination is written exactly once per step. Branch
 * divergence where obstacles are sprinkled. The kernel spells its float
 * operations with __fadd_rn / __fmul_rn / __fdiv_rn in the order of
 * lbm_reference, which reproduces them bit for bit.
 *   n: grid side in x and y (a multiple of 32, nz = n / 4); iters: steps.
 */
#ifndef BENCH_REF_LBM_H
#define BENCH_REF_LBM_H
#include "common.h"

#define LBM_Q 19
#define LBM_OMEGA 1.95f            /* Parboil's relaxation parameter */
#define LBM_UX 0.005f              /* accel cells' velocity (Parboil's values) */
#define LBM_UY 0.002f
#define LBM_W0 (1.0f / 3.0f)
#define LBM_W1 (1.0f / 18.0f)
#define LBM_W2 (1.0f / 36.0f)
enum { LBM_FLUID = 0, LBM_OBSTACLE = 1, LBM_ACCEL = 2 };

/* The 19 directions, Parboil's order (C, N, S, E, W, T, B, NE, NW, SE, SW,
 * NT, NB, ST, SB, ET, EB, WT, WB; N = +y, E = +x, T = +z):
 * D(e, dx, dy, dz, weight, opposite e). */
#define LBM_DIRS(D)                                                          \
    D(0, 0, 0, 0, LBM_W0, 0)    D(1, 0, 1, 0, LBM_W1, 2)                     \
    D(2, 0, -1, 0, LBM_W1, 1)   D(3, 1, 0, 0, LBM_W1, 4)                     \
    D(4, -1, 0, 0, LBM_W1, 3)   D(5, 0, 0, 1, LBM_W1, 6)                     \
    D(6, 0, 0, -1, LBM_W1, 5)   D(7, 1, 1, 0, LBM_W2, 10)                    \
    D(8, -1, 1, 0, LBM_W2, 9)   D(9, 1, -1, 0, LBM_W2, 8)                    \
    D(10, -1, -1, 0, LBM_W2, 7) D(11, 0, 1, 1, LBM_W2, 14)                   \
    D(12, 0, 1, -1, LBM_W2, 13) D(13, 0, -1, 1, LBM_W2, 12)                  \
    D(14, 0, -1, -1, LBM_W2, 11) D(15, 1, 0, 1, LBM_W2, 18)                  \
    D(16, 1, 0, -1, LBM_W2, 17) D(17, -1, 0, 1, LBM_W2, 16)                  \
    D(18, -1, 0, -1, LBM_W2, 15)

/* The directions as a table (the host's reference and inputs use it; the
 * kernel spells them out as bit masks). */
typedef struct lbm_dir_t { int dx, dy, dz; float w; int opp; } lbm_dir_t;
static const lbm_dir_t lbm_dir[LBM_Q] = {
#define LBM_DIR_(e, x, y, z, we, op) { x, y, z, we, op },
    LBM_DIRS(LBM_DIR_)
#undef LBM_DIR_
};

static const bench_params lbm_presets[BENCH_SIZE_COUNT] = {
    { 32, 1, BENCH_DEFAULT_SEED },
    { 64, 2, BENCH_DEFAULT_SEED },
    { 128, 10, BENCH_DEFAULT_SEED },
    /* paper: Parboil lbm short input, 120 x 120 x 150 cells, 100 time steps
     * (seed 001 Table 2 LBM). Ours is n x n x n/4 with n a multiple of 32: 192 x
     * 192 x 48 is the nearest cell count (1.77 M against 2.16 M). 100 steps of it
     * are 4.2e11 thread-instructions, hours per timing run; this preset runs 4
     * steps, what fits in under 10 minutes (docs/benchmarks.md). */
    { 192, 4, BENCH_DEFAULT_SEED },
};

static inline int lbm_check(const bench_params *p, char *why, size_t len)
{
    if (p->n < 32 || p->n > 512 || p->n % 32 != 0) {
        snprintf(why, len, "n=%d must be a multiple of 32 in [32, 512]", p->n);
        return 1;
    }
    if (p->iters < 1 || p->iters > 1000) {
        snprintf(why, len, "iters=%d must be in [1, 1000]", p->iters);
        return 1;
    }
    return 0;
}

static inline size_t lbm_cells(int n) { return (size_t)n * n * (n / 4); }

/* Flags: walls at y = 0 and y = ny - 1, one cell in 16 an obstacle at
 * random, the z = 0 plane's other cells accel; distributions at rest
 * (w_e) times 1 +- 5 %. */
static inline void lbm_inputs(const bench_params *p, int32_t *flags, float *f)
{
    bench_rng r = bench_rng_make(p->seed);
    int n = p->n, nz = n / 4;
    size_t cells = lbm_cells(n);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                size_t c = (size_t)x + (size_t)n * (y + (size_t)n * z);
                int obst = y == 0 || y == n - 1 || bench_rand_int(&r, 16) == 0;
                flags[c] = obst ? LBM_OBSTACLE : z == 0 ? LBM_ACCEL : LBM_FLUID;
            }
    for (int e = 0; e < LBM_Q; e++)
        for (size_t c = 0; c < cells; c++)
            f[(size_t)e * cells + c] = lbm_dir[e].w * bench_rand_float(&r, 0.95f, 1.05f);
}

/* One time step src -> dst (float, the kernel's order). */
static inline void lbm_step_ref(int n, const int32_t *flags, const float *src, float *dst)
{
    int nx = n, ny = n, nz = n / 4;
    size_t cells = lbm_cells(n);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t c = (size_t)x + (size_t)nx * (y + (size_t)ny * z);
                float f[LBM_Q];
                for (int e = 0; e < LBM_Q; e++)
                    f[e] = src[(size_t)e * cells + c];
                /* the cell that direction (sx, sy, sz) pushes to, wrapped */
#define LBM_NB(sx, sy, sz)                                                        \
    ((size_t)((x + (sx) + nx) % nx) +                                             \
     (size_t)nx * ((size_t)((y + (sy) + ny) % ny) + (size_t)ny * ((z + (sz) + nz) % nz)))
                if (flags[c] == LBM_OBSTACLE) {
                    for (int e = 0; e < LBM_Q; e++) {
                        const lbm_dir_t *d = &lbm_dir[e];
                        dst[(size_t)d->opp * cells + LBM_NB(-d->dx, -d->dy, -d->dz)] = f[e];
                    }
                    continue;
                }
                float rho = f[0];
                for (int e = 1; e < LBM_Q; e++)
                    rho = rho + f[e];
                float ux = 0.0f, uy = 0.0f, uz = 0.0f;
                for (int e = 0; e < LBM_Q; e++) {
                    if (lbm_dir[e].dx > 0) ux = ux + f[e];
                    if (lbm_dir[e].dx < 0) ux = ux - f[e];
                    if (lbm_dir[e].dy > 0) uy = uy + f[e];
                    if (lbm_dir[e].dy < 0) uy = uy - f[e];
                    if (lbm_dir[e].dz > 0) uz = uz + f[e];
                    if (lbm_dir[e].dz < 0) uz = uz - f[e];
                }
                ux = ux / rho;
                uy = uy / rho;
                uz = uz / rho;
                if (flags[c] == LBM_ACCEL) {
                    ux = LBM_UX;
                    uy = LBM_UY;
                    uz = 0.0f;
                }
                float u2 = ux * ux;
                u2 = u2 + uy * uy;
                u2 = u2 + uz * uz;
                u2 = 1.5f * u2;
                for (int e = 0; e < LBM_Q; e++) {
                    float eu = 0.0f;
                    if (lbm_dir[e].dx > 0) eu = eu + ux;
                    if (lbm_dir[e].dx < 0) eu = eu - ux;
                    if (lbm_dir[e].dy > 0) eu = eu + uy;
                    if (lbm_dir[e].dy < 0) eu = eu - uy;
                    if (lbm_dir[e].dz > 0) eu = eu + uz;
                    if (lbm_dir[e].dz < 0) eu = eu - uz;
                    float t = 1.0f + 3.0f * eu;
                    t = t + 4.5f * (eu * eu);
                    t = t - u2;
                    float feq = (lbm_dir[e].w * rho) * t;
                    float fn = f[e] + LBM_OMEGA * (feq - f[e]);
                    dst[(size_t)e * cells + LBM_NB(lbm_dir[e].dx, lbm_dir[e].dy, lbm_dir[e].dz)] = fn;
                }
#undef LBM_NB
            }
}

/* `iters` steps from f (in place: the result ends in f). */
static inline void lbm_reference(int n, int iters, const int32_t *flags, float *f)
{
    size_t bytes = lbm_cells(n) * LBM_Q * sizeof(float);
    float *g = (float *)bench_xmalloc(bytes);
    for (int t = 0; t < iters; t++) {
        lbm_step_ref(n, flags, f, g);
        memcpy(f, g, bytes);
    }
    free(g);
}
#endif
