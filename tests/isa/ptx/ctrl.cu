// Control-flow kernels for tests/isa/test_ctrl.c. The committed ctrl.ptx is
// `nvcc -arch=compute_75 -ptx ctrl.cu -o ctrl.ptx` (CUDA 13); tests do not
// need nvcc. Expected values are computed by the C model in test_ctrl.c.

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

// Calls to non-inlined functions: params, return values of several types,
// recursion, and a struct returned by value.
struct pair { int a; long long b; };

__device__ __noinline__ int add3(int a, int b, int c) { return a + b * 2 + c * 3; }
__device__ __noinline__ long long wide(long long x, int s) { return (x << s) ^ (x >> 3); }
__device__ __noinline__ float fmix(float x, float y) { return x * 0.5f + y; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ __noinline__ pair mkpair(int v) { pair p; p.a = v * 7; p.b = (long long)v << 40; return p; }
__device__ __noinline__ int branchy(int v)
{
    if (v & 1) return add3(v, 1, 2);
    return fact(v % 6);
}

extern "C" __global__ void calls(long long *out, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    pair p = mkpair(v);
    out[6 * t + 0] = add3(v, t, 5);
    out[6 * t + 1] = wide((long long)v * 1000003, t % 20);
    out[6 * t + 2] = (long long)(fmix((float)v, 1.25f) * 4.0f);
    out[6 * t + 3] = fact(v % 10);
    out[6 * t + 4] = p.a + p.b;
    out[6 * t + 5] = branchy(v);
}
