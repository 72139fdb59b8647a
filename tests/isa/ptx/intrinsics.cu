// CUDA intrinsics and warp idioms as nvcc 13 lowers them, for
// tests/isa/test_ctrl.c. The committed intrinsics.ptx is
// `nvcc -arch=compute_75 -ptx intrinsics.cu -o intrinsics.ptx`.
// Expected values are computed by the C model in test_ctrl.c.

// Integer intrinsics: one result per intrinsic and thread.
extern "C" __global__ void intops(unsigned *out, const unsigned *a, const unsigned *b)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[t], y = b[t];
    unsigned *o = out + 12 * t;
    o[0] = __popc(x);
    o[1] = __clz(x);
    o[2] = __brev(x);
    o[3] = __byte_perm(x, y, y & 0x7777);
    o[4] = __funnelshift_l(x, y, y >> 3);
    o[5] = __funnelshift_r(x, y, y >> 3);
    o[6] = __umulhi(x, y);
    o[7] = __ffs(x);
    o[8] = __usad(x, y, 7u);
    o[9] = (unsigned)__mulhi((int)x, (int)y);
    o[10] = __popcll(((unsigned long long)x << 32) | y);
    o[11] = (unsigned)(__umul64hi(((unsigned long long)x << 32) | y, 0x9e3779b97f4a7c15ull) >> 7);
}

// Warp idioms: shuffle-down reduction, shuffle-up inclusive scan, ballot
// and popc, __syncwarp, a float atomicAdd per warp. (__threadfence, i.e.
// membar.gl, is a case of its own in test_mem.c so that it cannot hide these.)
extern "C" __global__ void warpops(int *out, float *fsum, const int *in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[t];
    int sum = v;
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    int scan = v;
    for (int off = 1; off < 32; off <<= 1) {
        int n = __shfl_up_sync(0xffffffffu, scan, off);
        if (lane >= off) scan += n;
    }
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    __syncwarp();
    int bcast = __shfl_sync(0xffffffffu, v, 7);
    int xorv = __shfl_xor_sync(0xffffffffu, v, 5);
    if (lane == 0) atomicAdd(fsum, (float)sum);
    out[5 * t + 0] = sum;      // meaningful in lane 0
    out[5 * t + 1] = scan;
    out[5 * t + 2] = __popc(ballot) + (int)(ballot & 0xff) * 1000;
    out[5 * t + 3] = bcast;
    out[5 * t + 4] = xorv;
}

// Float math as nvcc lowers it with default flags (IEEE division and square
// root; libdevice sequences for expf/logf/sinf/...; fast intrinsics). The
// arguments are used as they are, so no multiply-add contraction can change
// what is computed.
extern "C" __global__ void floatops(float *out, const float *a, const float *b)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[t], y = b[t];
    float *o = out + 16 * t;
    o[0] = x / y;
    o[1] = sqrtf(fabsf(x));
    o[2] = fmaf(x, y, 1.0f);
    o[3] = expf(x);
    o[4] = logf(fabsf(y) + 1.0f);
    o[5] = sinf(x);
    o[6] = cosf(y);
    o[7] = tanhf(x);
    o[8] = exp2f(y);
    o[9] = rsqrtf(fabsf(x) + 0.5f);
    o[10] = __fdividef(x, y);
    o[11] = __saturatef(x);
    o[12] = rintf(x);
    o[13] = __fmul_rz(x, y);
    o[14] = __fadd_rd(x, y);
    o[15] = (float)__float2int_rn(x);
}
