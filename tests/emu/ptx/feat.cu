// Kernels for tests/emu/test_kernels.c (compiled with: nvcc -arch=compute_75 -ptx feat.cu)
#include <stdint.h>
struct Pair { int a; float b; };
__device__ __noinline__ Pair mkpair(int x, float y) { Pair p; p.a = x * 3 + 1; p.b = y * 0.5f; return p; }
__device__ __noinline__ double dpoly(double x, int n) { double r = 0; for (int i = 0; i < n; i++) r = r * x + (i + 1); return r; }

// every thread: a small local array indexed dynamically (forces .local)
__global__ void k_local(int *out, int n, int sel) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int arr[16];
  for (int i = 0; i < 16; i++) arr[i] = t * i + sel;
  if (t < n) out[t] = arr[(t + sel) & 15] + arr[sel & 15];
}
__global__ void k_calls(int *oi, float *of, double *od, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  Pair p = mkpair(t, (float)t);
  oi[t] = p.a; of[t] = p.b; od[t] = dpoly((double)t * 0.25, t % 7);
}
__global__ void k_atomics(int *cnt, float *fsum, unsigned *umax, unsigned *inc, unsigned long long *u64, int *cas) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(cnt, 1);
  atomicAdd(fsum, 0.5f);
  atomicMax(umax, (unsigned)(t * 7919u % 1000u));
  atomicInc(inc, 99u);
  atomicAdd(u64, (unsigned long long)t << 33);
  int old = *cas, assumed;
  do { assumed = old; old = atomicCAS(cas, assumed, assumed + t); } while (old != assumed);
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(cnt + 1, s);
}
__global__ void k_warp(int *out) {
  int t = threadIdx.x;
  int v = t * 3 + 1;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  int x = __shfl_xor_sync(0xffffffff, t, 5);
  int u = __shfl_up_sync(0xffffffff, t, 3);
  unsigned any = __any_sync(0xffffffff, t == 7), all = __all_sync(0xffffffff, t < 100);
  out[t] = (t % 32 == 0 ? v : 0) + x * 1000 + u * 100000 + any * 7 + all * 11;
}
__global__ void k_int(uint32_t *o, const uint32_t *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t a = in[t], b = in[(t * 7 + 3) % n] | 1;
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  o[t * 12 + 0] = a / b; o[t * 12 + 1] = a % b; o[t * 12 + 2] = (uint32_t)(sa / sb); o[t * 12 + 3] = (uint32_t)(sa % sb);
  o[t * 12 + 4] = __popc(a) + (__clz(b) << 8); o[t * 12 + 5] = __brev(a);
  o[t * 12 + 6] = __byte_perm(a, b, 0x5140); o[t * 12 + 7] = __umulhi(a, b);
  o[t * 12 + 8] = (uint32_t)(((uint64_t)a * b) >> 7); o[t * 12 + 9] = min(a, b) ^ (uint32_t)max(sa, sb);
  o[t * 12 + 10] = (a >> (b & 31)) ^ (uint32_t)(sa >> (b & 15)); o[t * 12 + 11] = __funnelshift_l(a, b, t);
}
__global__ void k_float(float *o, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float a = in[t], b = in[(t + 1) % n];
  o[t * 8 + 0] = a * b + a; o[t * 8 + 1] = a / b; o[t * 8 + 2] = sqrtf(fabsf(a));
  o[t * 8 + 3] = (float)(int)a; o[t * 8 + 4] = (float)__float2int_rn(a * 3.3f);
  o[t * 8 + 5] = fminf(a, b); o[t * 8 + 6] = fmaf(a, b, -1.0f); o[t * 8 + 7] = (float)((double)a * (double)b);
}
__global__ void k_2d(int *o, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = threadIdx.z;
  o[(z * gridDim.y * blockDim.y + y) * w + x] = x * 100 + y + z * 10000;
}
