// shfl_probe.cu — measures what a GPU returns for warp shuffles whose source
// lane is out of range, does not execute the shfl (diverged away, exited,
// beyond the block, guarded off) or executes it outside the member mask, and
// what vote.sync.ballot / match.any.sync give with per-lane member masks.
// smcosim models the answers written in docs/isa-coverage.md ("Shuffle
// sources that do not execute"); this program checks them on silicon.
//
//   nvcc -O2 bench/microbench/shfl_probe.cu -o shfl_probe && ./shfl_probe
//
// (or `make build/bench/shfl_probe`, PTX for compute_75, which also runs on
// smcosim: build/bin/smcosim run -- build/bench/shfl_probe). It prints one
// line per case: the lanes it covers, smcosim's answer, what came back, and
// "agrees" or "DIFFERS"; then a summary line.
//
// The setup is that of tests/isa/test_warp.c (isa_shfl_inactive): one
// 24-thread block (lanes 24..31 do not exist); lanes 20..23 exit first;
// lanes 3, 7, 11, 15, 19 take the other side of a branch (a loop with an
// atomic, so that it stays a branch; they do not exit in it); lanes 5 and 13
// reach the shfl with a false guard; every other lane executes it with its
// 8-lane tile of the executing lanes as member mask. Each lane's source value is lane * 7 + 11.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CK(call)                                                                     \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        if (e_ != cudaSuccess) {                                                     \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                         cudaGetErrorString(e_));                                    \
            return 1;                                                                \
        }                                                                            \
    } while (0)

enum { UP, DOWN, BFLY, IDX, NMODES };
static const char *const mode_name[NMODES] = { "up", "down", "bfly", "idx" };

__host__ __device__ static bool executes(unsigned lane)
{
    return lane < 20 && (lane & 3) != 3 && (lane & 7) != 5;
}

__host__ __device__ static unsigned exec_mask()
{
    unsigned m = 0;
    for (unsigned l = 0; l < 32; l++) m |= (unsigned)executes(l) << l;
    return m;
}

// The shuffle into r.x (value) and r.y (predicate), guarded by `guard`.
#define SHFL_ASM(MODE)                                                               \
    asm volatile("{ .reg .pred g, q;\n\t"                                            \
                 "setp.ne.u32 g, %4, 0;\n\t"                                         \
                 "@g shfl.sync." MODE ".b32 %0|q, %2, %3, %5, %6;\n\t"               \
                 "@g selp.u32 %1, 1, 0, q;\n\t}"                                     \
                 : "+r"(r.x), "+r"(r.y)                                              \
                 : "r"(v), "r"(b), "r"(guard), "r"(c), "r"(mask))

// out[lane] = { shfl value, shfl predicate, ballot, match.any }; lanes that
// do not execute keep 0xdead / 2 / 0xdead / 0xdead.
template <int Mode>
__global__ void probe(unsigned b, unsigned c, uint4 *out, int *spin)
{
    unsigned lane = threadIdx.x;
    unsigned v = lane * 7 + 11;
    if (lane >= 20) return;
    uint4 r = make_uint4(0xdead, 2, 0xdead, 0xdead);
    if ((lane & 3) == 3) {
        // diverged, but alive until the others have shuffled (no exit here)
        for (unsigned i = 0; i < lane; i++) atomicAdd(spin, (int)i);
    } else {
        unsigned guard = (lane & 7) != 5;
        unsigned mask = exec_mask() & (0xffu << (lane & 24));
        if (Mode == UP) SHFL_ASM("up");
        if (Mode == DOWN) SHFL_ASM("down");
        if (Mode == BFLY) SHFL_ASM("bfly");
        if (Mode == IDX) SHFL_ASM("idx");
        if (guard) {
            r.z = __ballot_sync(mask, 1);
            r.w = __match_any_sync(mask, (lane >> 1) & 1);
        }
    }
    out[lane] = r;
}

// Source lane and predicate from the PTX ISA pseudocode of shfl.sync.
static void shfl_ref(int mode, int lane, unsigned b, unsigned c, int *j, int *p)
{
    int bval = (int)(b & 31), cval = (int)(c & 31), seg = (int)((c >> 8) & 31);
    int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg;
    switch (mode) {
    case UP: *j = lane - bval; *p = *j >= maxl; break;
    case DOWN: *j = lane + bval; *p = *j <= maxl; break;
    case BFLY: *j = lane ^ bval; *p = *j <= maxl; break;
    default: *j = minl | (bval & ~seg); *p = *j <= maxl; break;
    }
}

enum { C_RANGE, C_MEMBER, C_OUTSIDE, C_DIVERGED, C_EXITED, C_BEYOND, C_GUARDED, NCAT };
static const char *const cat_name[NCAT] = {
    "out of range (p false)", "executing, in the mask", "executing, outside the mask",
    "diverged away", "exited", "beyond the block", "guarded off",
};
static const char *const cat_model[NCAT] = {
    "own value, p=0", "its value, p=1", "its value, p=1", "0, p=1", "0, p=1", "0, p=1", "0, p=1",
};

// What came back, as one of a few kinds.
enum { O_OWN, O_SOURCE, O_ZERO, O_OTHER, NOBS };
static const char *const obs_name[NOBS] = { "own value", "its value", "0", "other" };

int main()
{
    static const unsigned bs[] = { 0, 1, 3, 5, 8, 9, 16, 21, 27 };
    static const unsigned cs[] = { 0x1f, 0x181f, 0x00 };
    uint4 *d_out;
    int *d_spin;
    CK(cudaMalloc(&d_out, 32 * sizeof(uint4)));
    CK(cudaMalloc(&d_spin, sizeof(int)));
    const unsigned ex = exec_mask();
    unsigned odd_pair = 0;
    for (unsigned k = 0; k < 32; k++) odd_pair |= ((k >> 1) & 1) << k;
    // per mode and category: lanes, observations, predicate as modelled
    unsigned n[NMODES][NCAT] = {}, obs[NMODES][NCAT][NOBS] = {}, pred_ok[NMODES][NCAT] = {};
    unsigned vote_n = 0, ballot_member = 0, ballot_more = 0, match_member = 0, match_more = 0;
    for (int mode = 0; mode < NMODES; mode++)
        for (unsigned b : bs)
            for (unsigned c : cs) {
                uint4 out[32];
                CK(cudaMemset(d_out, 0, sizeof out));
                void (*k)(unsigned, unsigned, uint4 *, int *) =
                    mode == UP ? probe<UP> : mode == DOWN ? probe<DOWN> : mode == BFLY ? probe<BFLY> : probe<IDX>;
                k<<<1, 24>>>(b, c, d_out, d_spin);
                CK(cudaGetLastError());
                CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
                for (int lane = 0; lane < 32; lane++) {
                    if (!executes((unsigned)lane)) continue;
                    int j, p;
                    shfl_ref(mode, lane, b, c, &j, &p);
                    int cat = !p                    ? C_RANGE
                              : j >= 24             ? C_BEYOND
                              : j >= 20             ? C_EXITED
                              : (j & 3) == 3        ? C_DIVERGED
                              : (j & 7) == 5        ? C_GUARDED
                              : ((j ^ lane) & 24)   ? C_OUTSIDE
                                                    : C_MEMBER;
                    unsigned got = out[lane].x;
                    int o = p && got == (unsigned)j * 7 + 11 ? O_SOURCE
                            : got == (unsigned)lane * 7 + 11 ? O_OWN
                            : got == 0 ? O_ZERO : O_OTHER;
                    n[mode][cat]++;
                    obs[mode][cat][o]++;
                    pred_ok[mode][cat] += out[lane].y == (unsigned)p;
                    unsigned m = ex & (0xffu << (lane & 24));
                    unsigned same = m & (((unsigned)lane >> 1) & 1 ? odd_pair : ~odd_pair);
                    vote_n++;
                    ballot_member += out[lane].z == m;
                    ballot_more += out[lane].z != m && (out[lane].z & m) == m;
                    match_member += out[lane].w == same;
                    match_more += out[lane].w != same && (out[lane].w & same) == same;
                }
            }
    unsigned cases = 0, differ = 0;
    for (int mode = 0; mode < NMODES; mode++)
        for (int cat = 0; cat < NCAT; cat++) {
            if (!n[mode][cat]) continue;
            int want = cat == C_RANGE ? O_OWN : cat <= C_OUTSIDE ? O_SOURCE : O_ZERO;
            bool agrees = obs[mode][cat][want] == n[mode][cat] && pred_ok[mode][cat] == n[mode][cat];
            char seen[160] = "";
            for (int o = 0; o < NOBS; o++)
                if (obs[mode][cat][o]) {
                    size_t at = std::strlen(seen);
                    std::snprintf(seen + at, sizeof seen - at, "%s%s x%u", at ? ", " : "",
                                  obs_name[o], obs[mode][cat][o]);
                }
            std::printf("shfl.%-4s source %-28s lanes %4u  smcosim: %-15s measured: %s; p as PTX in %u  %s\n",
                        mode_name[mode], cat_name[cat], n[mode][cat],
                        cat_model[cat], seen, pred_ok[mode][cat],
                        agrees ? "agrees" : "DIFFERS");
            cases++;
            differ += !agrees;
        }
    std::printf("vote.sync.ballot with 8-lane tile masks   lanes %4u  smcosim: member lanes only   "
                "measured: member lanes only x%u, more lanes x%u  %s\n", vote_n, ballot_member, ballot_more,
                ballot_member == vote_n ? "agrees" : "DIFFERS");
    std::printf("match.any.sync with 8-lane tile masks     lanes %4u  smcosim: member lanes only   "
                "measured: member lanes only x%u, more lanes x%u  %s\n", vote_n, match_member, match_more,
                match_member == vote_n ? "agrees" : "DIFFERS");
    cases += 2;
    differ += (ballot_member != vote_n) + (match_member != vote_n);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("shfl_probe: %s (sm_%d%d): %u cases, %u differ from smcosim\n", prop.name, prop.major,
                prop.minor, cases, differ);
    CK(cudaFree(d_out));
    CK(cudaFree(d_spin));
    return 0;
}
