// Control-flow kernels for tests/isa/test_ctrl.c. The committed ctrl.ptx is
// `nvcc -arch=compute_75 -ptx ctrl.cu -o ctrl.ptx` (CUDA 13); tests do not
// need nvcc. Calls are in calls.cu, so that a loader problem with calls does
// not hide the plain control-flow tests. Expected values are computed by the C model in test_ctrl.c.

// Divergent, nested if/else with stores inside the arms (kept as branches).
extern "C" __global__ void nested(int *out, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int r;
    if (v & 1) {
        if (v & 2) {
            r = 1;
            for (int i = 0; i < (v & 7); i++) r = r * 3 + i;
        } else {
            r = 2;
            out[2 * t + 1] = v * 5;
        }
    } else {
        if (v & 4) {
            r = 3;
            while (r < v) r += r / 2 + 1;
        } else {
            r = 4;
            if (v & 8) { r += 10; out[2 * t + 1] = -v; }
        }
    }
    out[2 * t] = r + 100;
}

// Loops with continue and break, trip counts differing per thread.
extern "C" __global__ void loops(int *out, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = in[t];
    int sum = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) continue;
        if (i * (t + 1) > 500) break;
        int j = 0;
        do { sum += j ^ i; j++; } while (j < (i & 3));
    }
    out[t] = sum;
}

// Early return of some threads; the others go on.
extern "C" __global__ void early(int *out, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    out[t] = 1;
    if (v % 5 == 0) return;
    out[t] = 2;
    if (v % 7 == 0) return;
    for (int i = 0; i < v % 11; i++) {
        if (i == 6) return;
        out[t] += i;
    }
}

// Shared-memory tree reduction with a barrier inside the loop; works for any
// block size up to 128.
extern "C" __global__ void reduce(int *out, const int *in)
{
    __shared__ int sh[128];
    int t = threadIdx.x;
    sh[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s && t + s < blockDim.x) sh[t] += sh[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sh[0];
}

// A per-thread array indexed at run time: nvcc puts it in local memory
// (__local_depot, %SP/%SPL).
extern "C" __global__ void localarr(int *out, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int a[32];
    for (int i = 0; i < 32; i++) a[i] = (v * i) ^ t;
    int sum = 0;
    for (int i = 0; i < 32; i++) sum += a[(i * 7 + v) % 32] * (i + 1);
    out[t] = sum;
}

// The common bounds-guard pattern: threads past n return before a
// __syncthreads() that the others reach (the last CTA is partly idle).
extern "C" __global__ void guarded(int *out, const int *in, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    if (g >= n) return;
    s[t] = in[g];
    __syncthreads();
    int live = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    out[g] = s[t] * 3 + s[(t + 1) % live];
}
