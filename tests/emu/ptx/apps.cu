// Kernels for tests/emu/test_apps.c — typical CUDA benchmark patterns
// (nvcc -arch=compute_75 -ptx apps.cu)
__global__ void reduce(const float *in, float *out, int n) {
  extern __shared__ float s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
  float v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 32; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t < 32) {
    v = s[t] + s[t + 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (t == 0) out[blockIdx.x] = v;
  }
}
__global__ void histo(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned h[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&h[in[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], h[i]);
}
#define TD 32
__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TD][TD + 1];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += 8) if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x; y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += 8) if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void scan(const int *in, int *out, int n) {
  __shared__ int buf[2][256];
  int t = threadIdx.x, p = 0;
  buf[0][t] = t < n ? in[t] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int v = buf[p][t];
    if (t >= off) v += buf[p][t - off];
    buf[1 - p][t] = v;
    p = 1 - p;
    __syncthreads();
  }
  if (t < n) out[t] = buf[p][t];
}
__global__ void stencil(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= 0 || i >= n - 1) return;
  out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}
struct Node { int first, count; };
__global__ void bfs_step(const Node *nodes, const int *edges, int *level, int *changed, int cur, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != cur) return;
  for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++) {
    int u = edges[e];
    if (atomicCAS(&level[u], -1, cur + 1) == -1) *changed = 1;
  }
}
