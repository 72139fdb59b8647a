// Calls for tests/isa/test_ctrl.c: `nvcc -arch=compute_75 -ptx calls.cu -o calls.ptx`
// (CUDA 13). Expected values are computed by the C model in test_ctrl.c.

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
