// rt_bf16.cu — __nv_bfloat16 as programs use it on sm_75: conversions from
// and to float (the bf16 -> float conversion is the PTX `mov.b32 %f, {0, %rs}`
// with an immediate inside a vector operand), and +, *, fma computed in float
// and rounded to bf16. Inputs are bf16 values in [-4, 4), so every sum and product is
// exact in float and the expected bf16 result is that exact value rounded to
// nearest-even: the CPU reference below, with no CUDA header involved.
#include "rt_check.h"
#include <cuda_bf16.h>
#include <cstdint>
#include <cstring>
#include <vector>

static float bits_to_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
static uint32_t float_to_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
// float -> bf16, round to nearest even (inputs here are finite)
static uint16_t ref_bf16(float f)
{
    uint32_t u = float_to_bits(f);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
static float ref_float(uint16_t h) { return bits_to_float((uint32_t)h << 16); }

__global__ void bf16_ops(const uint16_t *a, const uint16_t *b, const uint16_t *c,
                         float *out, uint16_t *raw, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = __ushort_as_bfloat16(a[i]), y = __ushort_as_bfloat16(b[i]);
    __nv_bfloat16 z = __ushort_as_bfloat16(c[i]);
    // cuda_bf16.h has no bf16 arithmetic for sm_75 (its operators need
    // sm_80): programs compute in float and round, as here.
    float fx = __bfloat162float(x), fy = __bfloat162float(y), fz = __bfloat162float(z);
    __nv_bfloat16 s = __float2bfloat16(fx + fy), m = __float2bfloat16(fx * fy);
    __nv_bfloat16 f = __float2bfloat16(fmaf(fx, fy, fz));
    out[4 * i + 0] = __bfloat162float(x);
    out[4 * i + 1] = __bfloat162float(s);
    out[4 * i + 2] = __bfloat162float(m);
    out[4 * i + 3] = __bfloat162float(f);
    raw[i] = __bfloat16_as_ushort(__float2bfloat16(out[4 * i + 1] * 0.75f));
}

int main()
{
    const int n = 1000;
    std::vector<uint16_t> a(n), b(n), c(n), raw(n);
    std::vector<float> out(4 * n);
    uint32_t s = 12345;
    auto next = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
    for (int i = 0; i < n; i++) {   // [-4, 4) with 7 fraction bits: bf16-exact
        a[i] = ref_bf16((float)((int)(next() % 1024) - 512) / 128.0f);
        b[i] = ref_bf16((float)((int)(next() % 1024) - 512) / 128.0f);
        c[i] = ref_bf16((float)((int)(next() % 1024) - 512) / 128.0f);
    }
    uint16_t *da, *db, *dc, *draw;
    float *dout;
    CHECK_CUDA(cudaMalloc(&da, n * 2)); CHECK_CUDA(cudaMalloc(&db, n * 2));
    CHECK_CUDA(cudaMalloc(&dc, n * 2)); CHECK_CUDA(cudaMalloc(&draw, n * 2));
    CHECK_CUDA(cudaMalloc(&dout, 4 * n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(da, a.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dc, c.data(), n * 2, cudaMemcpyHostToDevice));
    bf16_ops<<<(n + 127) / 128, 128>>>(da, db, dc, dout, draw, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), dout, 4 * n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(raw.data(), draw, n * 2, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n && bad < 5; i++) {
        float x = ref_float(a[i]), y = ref_float(b[i]), z = ref_float(c[i]);
        float want[4] = { x, ref_float(ref_bf16(x + y)), ref_float(ref_bf16(x * y)),
                          ref_float(ref_bf16((float)((double)x * y + z))) };
        for (int k = 0; k < 4; k++)
            if (float_to_bits(out[4 * i + k]) != float_to_bits(want[k])) {
                std::fprintf(stderr, "i=%d op %d: got %a, want %a (x=%a y=%a z=%a)\n", i, k,
                             out[4 * i + k], want[k], x, y, z);
                bad++;
            }
        uint16_t wr = ref_bf16(want[1] * 0.75f);
        if (raw[i] != wr) {
            std::fprintf(stderr, "i=%d float->bf16: got 0x%04x, want 0x%04x\n", i, raw[i], wr);
            bad++;
        }
    }
    CHECK(bad == 0);
    std::printf("rt_bf16: all checks passed\n");
    return 0;
}
