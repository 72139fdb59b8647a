// Kernels for tests/emu/test_api.c (compiled with: nvcc -arch=compute_75 -ptx basics.cu)
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__device__ int sq(int x){ return x*x; }
__constant__ float K[4] = {1,2,3,4};
__device__ int G = 7;
__global__ void misc(int *out, int n) {
  __shared__ int s[128];
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  s[t] = t; dyn[t] = 2*t;
  __syncthreads();
  int v = s[127-t] + dyn[t] + (int)K[t&3] + G;
  if (t & 1) { v = sq(v); } else { for (int k=0;k<t;k++) { if (v > 1000) break; v += k; } }
  v += __shfl_sync(0xffffffff, v, 0);
  atomicAdd(out + 1, 1);
  unsigned b = __ballot_sync(0xffffffff, v & 1);
  out[t+2] = v + b;
  int c = __syncthreads_count(t&1);
  if (t==0) out[0]=c;
}
