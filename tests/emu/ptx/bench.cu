// Kernels for `make bench-emu` (tests/emu/bench_emu.c); compiled with
// nvcc -arch=compute_75 -ptx bench.cu
__global__ void b_alu(float *out, int iters) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = t * 0.001f, y = 1.0f;
  unsigned h = t;
  for (int i = 0; i < iters; i++) {
    x = fmaf(x, 1.0001f, 0.5f);
    y = y * 0.999f + x;
    h = h * 1664525u + 1013904223u;
    h ^= h >> 13;
  }
  out[t] = x + y + (float)(h & 1023);
}
#define TILE 16
__global__ void b_sgemm(const float *A, const float *B, float *C, int n) {
  __shared__ float as[TILE][TILE], bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = A[row * n + k0 + tx];
    bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
__global__ void b_vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
