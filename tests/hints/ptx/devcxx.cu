// Device-side C++ for tests/hints/test_hints.c: out-of-line calls (a
// virtual call, a call through a function-pointer table, recursion) between
// long-latency loads, so that HAWS chains start right before and inside the
// called functions; every chain must end at the call and at the ret.
// `nvcc -gencode arch=compute_75,code=compute_75 -ptx devcxx.cu -o devcxx.ptx` (CUDA 13).
struct Base {
    __device__ virtual float f(const float *p, int i) const { return p[i] + 1.0f; }
};
struct Derived : Base {
    float k;
    __device__ float f(const float *p, int i) const override { return p[i] * k + p[i + 1]; }
};

typedef float (*op_t)(float, float);
__device__ float op_add(float a, float b) { return a + b; }
__device__ float op_mul(float a, float b) { return a * b; }
__device__ op_t ops[2] = {op_add, op_mul};

__device__ float walk(const float *p, int i, int depth) {
    if (depth == 0) return p[i];
    float x = p[i] * 2.0f;
    float y = walk(p, (i * 7 + 1) & 63, depth - 1);
    return x + y * p[(i + 3) & 63];
}

extern "C" __global__ void devcxx(float *out, const float *in, const Base *objs, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float a = in[t & 63], b = in[(t + 5) & 63];
    float v = objs[t & 1].f(in, t & 31);
    float w = ops[t % 2](a, b);
    out[t] = v + w + walk(in, t & 63, t % 4) + a * b;
}
