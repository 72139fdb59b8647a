// rt_simd.cu — the SIMD-within-a-word intrinsics of the CUDA Math API that
// nvcc lowers to PTX video instructions (vabsdiff4, vabsdiff2 with .add),
// __fns (fns.b32) and __prof_trigger (pmevent), against CPU references
// written from the CUDA Math API / PTX ISA descriptions.
#include "rt_check.h"
#include <cstdint>
#include <cstdlib>
#include <vector>

static int sbyte(uint32_t x, int i) { return (int)(int8_t)(x >> (8 * i)); }
static int ubyte(uint32_t x, int i) { return (int)((x >> (8 * i)) & 0xff); }
static uint32_t pack4(const int r[4])
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)(r[i] & 0xff) << (8 * i);
    return v;
}
static uint32_t ref_vabs4(uint32_t a)       // per byte |a| (signed, -128 stays 0x80)
{ int r[4]; for (int i = 0; i < 4; i++) r[i] = std::abs(sbyte(a, i)); return pack4(r); }
static uint32_t ref_vabsss4(uint32_t a)     // per byte |a| saturated to 127
{ int r[4]; for (int i = 0; i < 4; i++) { int v = std::abs(sbyte(a, i)); r[i] = v > 127 ? 127 : v; } return pack4(r); }
static uint32_t ref_vabsdiffs4(uint32_t a, uint32_t b)
{ int r[4]; for (int i = 0; i < 4; i++) r[i] = std::abs(sbyte(a, i) - sbyte(b, i)); return pack4(r); }
static uint32_t ref_vabsdiffu4(uint32_t a, uint32_t b)
{ int r[4]; for (int i = 0; i < 4; i++) r[i] = std::abs(ubyte(a, i) - ubyte(b, i)); return pack4(r); }
static uint32_t ref_vsads4(uint32_t a, uint32_t b)
{ uint32_t s = 0; for (int i = 0; i < 4; i++) s += (uint32_t)std::abs(sbyte(a, i) - sbyte(b, i)); return s; }
static uint32_t ref_vsadu4(uint32_t a, uint32_t b)
{ uint32_t s = 0; for (int i = 0; i < 4; i++) s += (uint32_t)std::abs(ubyte(a, i) - ubyte(b, i)); return s; }
static uint32_t ref_vsadu2(uint32_t a, uint32_t b)
{ uint32_t s = 0; for (int i = 0; i < 2; i++) s += (uint32_t)std::abs((int)((a >> (16 * i)) & 0xffff) - (int)((b >> (16 * i)) & 0xffff)); return s; }
static uint32_t ref_fns(uint32_t mask, uint32_t base, int offset)
{
    if (offset == 0) return (mask >> base & 1) ? base : 0xffffffffu;
    int count = std::abs(offset) - 1, inc = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
        if (mask >> pos & 1) { if (count == 0) return (uint32_t)pos; count--; }
    return 0xffffffffu;
}

__global__ void simd(const uint32_t *a, const uint32_t *b, uint32_t *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t x = a[i], y = b[i];
    o[9 * i + 0] = __vabs4(x);
    o[9 * i + 1] = __vabsss4(x);
    o[9 * i + 2] = __vabsdiffs4(x, y);
    o[9 * i + 3] = __vabsdiffu4(x, y);
    o[9 * i + 4] = __vsads4(x, y);
    o[9 * i + 5] = __vsadu4(x, y);
    o[9 * i + 6] = __vsadu2(x, y);
    o[9 * i + 7] = __fns(x, y & 31, (int)((y >> 8) % 41) - 20);
    __prof_trigger(3);
    o[9 * i + 8] = __fns(x, y & 31, 0);
}

int main()
{
    const int n = 777;
    std::vector<uint32_t> a(n), b(n), o(9 * n);
    uint32_t s = 99;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u; a[i] = s;
        s = s * 1664525u + 1013904223u; b[i] = s;
    }
    a[0] = 0x80ff7f00u; b[0] = 0x7f0180ffu;   // the byte extremes
    uint32_t *da, *db, *dout;
    CHECK_CUDA(cudaMalloc(&da, n * 4)); CHECK_CUDA(cudaMalloc(&db, n * 4));
    CHECK_CUDA(cudaMalloc(&dout, 9 * n * 4));
    CHECK_CUDA(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
    simd<<<(n + 127) / 128, 128>>>(da, db, dout, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(o.data(), dout, 9 * n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n && bad < 8; i++) {
        uint32_t x = a[i], y = b[i];
        uint32_t want[9] = { ref_vabs4(x), ref_vabsss4(x), ref_vabsdiffs4(x, y), ref_vabsdiffu4(x, y),
                             ref_vsads4(x, y), ref_vsadu4(x, y), ref_vsadu2(x, y),
                             ref_fns(x, y & 31, (int)((y >> 8) % 41) - 20), ref_fns(x, y & 31, 0) };
        for (int k = 0; k < 9; k++)
            if (o[9 * i + k] != want[k]) {
                std::fprintf(stderr, "i=%d op %d (a=0x%08x b=0x%08x): got 0x%08x, want 0x%08x\n",
                             i, k, x, y, o[9 * i + k], want[k]);
                bad++;
            }
    }
    CHECK(bad == 0);
    std::printf("rt_simd: all checks passed\n");
    return 0;
}
