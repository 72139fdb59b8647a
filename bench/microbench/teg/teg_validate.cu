// teg_validate.cu — the kernels of seed 003's TEG validation (ch. 3, §3.3;
// ../shared/design/teg.md §5.6), written as the thesis describes them, for
// `smcosim teg validate` (bench/microbench/teg/teg_validate.c; docs/teg.md).
// The committed teg_validate.ptx is what the simulator loads (no nvcc);
// `bench/microbench/regen.sh teg-validate` regenerates it.
//
// Every warp gets the same work (003 L1155); the warps per block are the
// launch's, one block per SM (two of 8 warps for W = 16, G13).

// MatA / MatB (003 L1137-1151, L1219): the CUDA SDK matrix product changed
// to C = A . B^T, 16-wide tiles of A and B in shared memory, one element of C
// per thread, a barrier per step. The block is 16 x 2W threads (W warps): it
// computes a 2W x 16 tile of C; the 16 x 16 tile of B is loaded by all its
// threads. A half-warp (one row ty, tx = 0..15) reads Bs[tx][k]: column k of
// the tile, 16 words apart: one bank of GT200's 16 (MatA). MatB pads the
// tile to [16][17]: 16 banks. K = 16 x steps (the thesis's loop runs 10).
#define MM_BODY(BCOLS)                                                         \
    __shared__ float As[32][16];                                               \
    __shared__ float Bs[16][BCOLS];                                            \
    int tx = threadIdx.x, ty = threadIdx.y;                                    \
    int nthreads = blockDim.x * blockDim.y;                                    \
    int row = blockIdx.y * blockDim.y + ty;                                    \
    float sum = 0.0f;                                                          \
    for (int k0 = 0; k0 < K; k0 += 16) {                                       \
        As[ty][tx] = A[row * K + k0 + tx];                                     \
        for (int i = ty * 16 + tx; i < 256; i += nthreads)                     \
            Bs[i / 16][i % 16] = B[(i / 16) * K + k0 + i % 16];                \
        __syncthreads();                                                       \
        for (int k = 0; k < 16; k++)                                           \
            sum += As[ty][k] * Bs[tx][k];                                      \
        __syncthreads();                                                       \
    }                                                                          \
    C[row * 16 + tx] = sum;

extern "C" __global__ void mm_abt_conflict(const float *A, const float *B, float *C, int K)
{
    MM_BODY(16)
}

extern "C" __global__ void mm_abt_padded(const float *A, const float *B, float *C, int K)
{
    MM_BODY(17)
}

// QdA / QdB / Qf (003 L808-816, L879-883, L1175-1198): the lattice-QCD
// hopping term's core per site: a 3x3 complex gauge link U times a 3x2
// complex half spinor h (72 multiplies and 60 adds, 003 L812), the 3x2
// complex result stored. AoS: a site's numbers are contiguous (U: 18 reals,
// h: 12), so a warp's lanes read 18 or 12 reals apart (uncoalesced); SoA:
// component c of every site is contiguous (coalesced). Each thread does
// `sites` sites, `stride` apart.
template <typename T, bool SOA>
__device__ void hop(const T *U, const T *H, T *O, int nsites, int sites)
{
    // One column of h at a time is held in registers (6 reals) and U read as
    // it is used, through one pointer that walks its components (each row
    // once per column of h: 36 loads of U a site, the second from a cache
    // where there is one), so that the double-precision kernels fit
    // fermi-gtx480's 63 registers per thread
    int s0 = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    size_t step = SOA ? (size_t)nsites : 1;       // from one component to the next
    for (int n = 0; n < sites; n++) {
        int s = s0 + n * stride;
        const T *ub = SOA ? U + s : U + (size_t)s * 18;
        const T *hb = SOA ? H + s : H + (size_t)s * 12;
        T *ob = SOA ? O + s : O + (size_t)s * 12;
        for (int j = 0; j < 2; j++) {        // column of h
            T h[6];
            for (int k = 0; k < 3; k++) {
                h[k * 2] = hb[(size_t)((k * 2 + j) * 2) * step];
                h[k * 2 + 1] = hb[(size_t)((k * 2 + j) * 2 + 1) * step];
            }
            const T *up = ub;
#pragma unroll 1
            for (int i = 0; i < 3; i++) {    // row of U (a loop: fewer addresses live)
                T re = 0, im = 0;
                for (int k = 0; k < 3; k++) {
                    T ur = *up;
                    up += step;
                    T ui = *up;
                    up += step;
                    re += ur * h[k * 2] - ui * h[k * 2 + 1];
                    im += ur * h[k * 2 + 1] + ui * h[k * 2];
                }
                int c = (i * 2 + j) * 2;
                ob[(size_t)c * step] = re;
                ob[(size_t)(c + 1) * step] = im;
            }
        }
    }
}

extern "C" __global__ void hop_aos_dp(const double *U, const double *H, double *O, int nsites, int sites)
{
    hop<double, false>(U, H, O, nsites, sites);
}
extern "C" __global__ void hop_soa_dp(const double *U, const double *H, double *O, int nsites, int sites)
{
    hop<double, true>(U, H, O, nsites, sites);
}
extern "C" __global__ void hop_soa_sp(const float *U, const float *H, float *O, int nsites, int sites)
{
    hop<float, true>(U, H, O, nsites, sites);
}

// BS (003 L1131): Black-Scholes as the CUDA SDK sample computes it, one
// option per thread per step, `steps` options each.
__device__ float cnd(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
                A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void blackscholes(float *call, float *put, const float *S, const float *X,
                                        const float *T, float R, float V, int n, int steps)
{
    int i0 = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    for (int k = 0; k < steps; k++) {
        int i = i0 + k * stride;
        float s = S[i], x = X[i], t = T[i];
        float sqrtT = sqrtf(t);
        float d1 = (__logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrtT);
        float d2 = d1 - V * sqrtT;
        float cd1 = cnd(d1), cd2 = cnd(d2);
        float ert = __expf(-R * t);
        call[i] = s * cd1 - x * ert * cd2;
        put[i] = x * ert * (1.0f - cd2) - s * (1.0f - cd1);
    }
}

// SGEMM (003 ch. 4, L1402-1441, L1560-1581; ../shared/design/teg.md §3 and
// §5.6): C = A . B in single precision with the thesis's parameters: register
// blocking B_R = 6 (each thread accumulates a 6 x 6 tile of C in registers),
// T_B = 256 threads as a 16 x 16 grid, so a block computes a 96 x 96 tile of C
// (B_Sh = 96), and L = 16, the k-depth of a stage: the block's 96 x 16 tile of
// A and 16 x 96 tile of B sit in shared memory (2 x 6144 bytes, G24). The main
// loop is Listing 4.1's: the next stage's tiles are loaded from global memory
// into 12 registers per thread (2 . 96 . 16 / 256) while the current stage's
// FFMAs run, then a barrier, the stores to shared memory, a barrier.
//
// Layout: A and B are packed on the host into 96-wide panels, one 1536-float
// tile per stage, k-major (GotoBLAS/BLIS packing; the thesis's "data layout
// transform", 003 L1536): tile s of A's panel i is A[96i .. 96i+95][16s ..
// 16s+15] stored as [k][m], tile s of B's panel j is B[16s ..][96j ..] as
// [k][n] (for lds128 with B's row pairs rearranged, below). Block (x, y)
// reads A's panel y and B's panel x; thread t copies floats t + 256e
// (e = 0..5) of each tile, so a warp's every global load is 128 contiguous
// bytes and its shared store conflict-free, and the copy's pointers move by a
// constant per stage: the thesis's kernel kept the NN strides in 32-bit
// address registers (003 L1560), which PTX's 64-bit pointers would double.
// C is M x N column-major (m contiguous).
//
// Thread (tx, ty) owns rows m = 2tx + 32i + {0, 1} (i = 0..2) and, for
// lds64, columns n = 2ty + 32j + {0, 1} (j = 0..2). Per k:
// - lds64: A's six values by three ld.shared.v2.f32 (held, 6 registers),
//   then B's by three ld.shared.v2.f32, each followed by its 12 FFMAs (2
//   registers): the thesis's 6 + 2 (003 L1568), 36 FFMA per 6 LDS.64 (85.7 %).
//   A is read as wide as B because the bound's FFMA share counts A's loads as
//   B's (2 . B_R . F_I, 003 L1516).
// - lds128: B's six values (columns 4ty .. 4ty+3 and 64+2ty, 65+2ty) by one
//   ld.shared.v4.f32 and one ld.shared.v2.f32 (held, 6 registers), then A's
//   by three ld.shared.v2.f32, each followed by its 12 FFMAs (2 registers):
//   36 FFMA per 5 LDS (87.8 %). Six is not a multiple of four, so a thread's
//   B row is a v4 and a v2; holding a v4 of one operand while streaming a v4
//   of the other would need 6 + 4 operand registers, 65 in all (docs/teg.md:
//   LDS.128 fits only at L = 8), so the v4 operand is the held one. B's tile
//   is packed in row pairs so that every load of a thread is one register
//   plus a constant: per pair of k-rows 192 floats, [0, 64) row k's columns
//   0..63, [64, 128) row k+1's, [128, 192) the columns 64..95 of both, thread
//   ty's two at 128 + 4ty + 2(k & 1).
//
// Registers (smcosim ptx-info: 63 for both, thread.max_regs of fermi-gtx480):
// 36 C + 12 prefetch + 6 + 2 operands + 7 (two 64-bit global pointers, the
// loop counter, the A and B read addresses of shared memory). smcosim's
// allocator gives each PTX register one live interval (csrc/ptx/link.c), so
// - the FFMAs are in-place PTX (fma.rn.f32 c, a, b, c): nvcc's SSA form
//   gives each of the 16 unrolled updates of an accumulator its own
//   register (with fmaf: 100 registers);
// - the thread's index is read again (asm volatile) where the stores to
//   shared memory and to C need it rather than held across the loop (held:
//   64);
// - opaque(1536) keeps B's read base one register (nvcc otherwise re-adds
//   the 6144-byte offset before each load of B, a register and an
//   instruction each: 64 for lds64).
__device__ __forceinline__ void ffma_inplace(float &c, float a, float b)
{
    asm("fma.rn.f32 %0, %1, %2, %0;" : "+f"(c) : "f"(a), "f"(b));
}
__device__ __forceinline__ unsigned tid_x()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned tid_y()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%tid.y;" : "=r"(r));
    return r;
}
__device__ __forceinline__ int opaque(int v)
{
    asm volatile("" : "+r"(v));
    return v;
}

template <bool LDS128>
__device__ __forceinline__ void sgemm_rb6(const float *Ap, const float *Bp, float *C, int M, int steps)
{
    __shared__ __align__(16) float S[2 * 1536];      // A's tile, then B's
    float c[6][6], pf[12];
    unsigned t = tid_y() * 16 + tid_x();
    const float *pa = Ap + (size_t)blockIdx.y * steps * 1536 + t;
    const float *pb = Bp + (size_t)blockIdx.x * steps * 1536 + t;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            c[i][j] = 0.0f;
    for (int e = 0; e < 6; e++) {
        pf[e] = pa[256 * e];
        pf[6 + e] = pb[256 * e];
    }
    for (int e = 0; e < 6; e++) {
        S[t + 256 * e] = pf[e];
        S[1536 + t + 256 * e] = pf[6 + e];
    }
    __syncthreads();
    const float *sa = S + 2 * tid_x(), *sb = S + opaque(1536) + (LDS128 ? 4 : 2) * tid_y();
    for (int s = steps; s > 0; s--) {
        pa += 1536;
        pb += 1536;
        if (s > 1)                                   // prefetch the next stage
            for (int e = 0; e < 6; e++) {
                pf[e] = pa[256 * e];
                pf[6 + e] = pb[256 * e];
            }
#pragma unroll
        for (int k = 0; k < 16; k++) {
            if (!LDS128) {
                float a[6];
                for (int i = 0; i < 3; i++) {
                    float2 v = *(const float2 *)&sa[k * 96 + 32 * i];
                    a[2 * i] = v.x;
                    a[2 * i + 1] = v.y;
                }
                for (int j = 0; j < 3; j++) {
                    float2 b = *(const float2 *)&sb[k * 96 + 32 * j];
                    for (int i = 0; i < 6; i++) {
                        ffma_inplace(c[i][2 * j], a[i], b.x);
                        ffma_inplace(c[i][2 * j + 1], a[i], b.y);
                    }
                }
            } else {
                int pair = (k / 2) * 192, r = k & 1;
                float4 b4 = *(const float4 *)&sb[pair + 64 * r];
                float2 b2 = *(const float2 *)&sb[pair + 128 + 2 * r];
                float b[6] = { b4.x, b4.y, b4.z, b4.w, b2.x, b2.y };
                for (int i = 0; i < 3; i++) {
                    float2 a = *(const float2 *)&sa[k * 96 + 32 * i];
                    for (int j = 0; j < 6; j++) {
                        ffma_inplace(c[2 * i][j], a.x, b[j]);
                        ffma_inplace(c[2 * i + 1][j], a.y, b[j]);
                    }
                }
            }
        }
        __syncthreads();
        if (s > 1) {                                 // sa + 16ty - tx = S + t
            float *st = (float *)sa + (int)(tid_y() * 16 - tid_x());
            for (int e = 0; e < 6; e++) {
                st[256 * e] = pf[e];
                st[1536 + 256 * e] = pf[6 + e];
            }
        }
        __syncthreads();
    }
    unsigned m = blockIdx.y * 96 + 2 * tid_x(), ty = tid_y();
    for (int j = 0; j < 6; j++) {
        unsigned n = blockIdx.x * 96 +
                     (LDS128 ? (j < 4 ? 4 * ty + j : 64 + 2 * ty + j - 4) : 2 * ty + (j / 2) * 32 + (j & 1));
        for (int i = 0; i < 3; i++)
            *(float2 *)&C[(size_t)n * M + m + 32 * i] = make_float2(c[2 * i][j], c[2 * i + 1][j]);
    }
}

// Ap, Bp: the packed panels (above); C: M x N column-major; steps = K / 16.
extern "C" __global__ void __launch_bounds__(256)
    sgemm_rb6_lds64(const float *Ap, const float *Bp, float *C, int M, int steps)
{
    sgemm_rb6<false>(Ap, Bp, C, M, steps);
}
extern "C" __global__ void __launch_bounds__(256)
    sgemm_rb6_lds128(const float *Ap, const float *Bp, float *C, int M, int steps)
{
    sgemm_rb6<true>(Ap, Bp, C, M, steps);
}
