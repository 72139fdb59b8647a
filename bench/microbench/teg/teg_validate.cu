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
