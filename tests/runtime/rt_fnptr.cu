// rt_fnptr.cu — device function pointers as CUDA code uses them: a table
// `__device__ op_t table[] = {add, mul, ...}` indexed per lane (lanes of a
// warp call different functions), a function pointer read on the host with
// cudaMemcpyFromSymbol and passed back as a kernel argument, a pointer
// stored in a struct, and global initializers holding addresses of
// variables (`&arr[2]`, a string, a pointer to a pointer). Results against
// the CPU. With the argument `bad-call`, a kernel calls through a data
// pointer: the launch must fail with cudaErrorIllegalAddress (the fault
// report names the address), not crash.
#include "rt_check.h"

#include <cstdio>
#include <cstring>
#include <vector>

typedef int (*op_t)(int, int);
typedef double (*dop_t)(double, long long);

__device__ int add(int a, int b) { return a + b; }
__device__ int mul(int a, int b) { return a * b; }
__device__ int sub(int a, int b) { return a - b; }
__device__ int maxop(int a, int b) { return a > b ? a : b; }
__device__ double scale(double x, long long k) { return x * (double)k; }
__device__ double shift(double x, long long k) { return x + (double)k; }

__device__ op_t table[] = {add, mul, sub, maxop};
__device__ op_t d_mul = mul;
__device__ dop_t dtable[2] = {scale, shift};

__device__ int arr[4] = {10, 20, 30, 40};
__device__ int *parr = &arr[2];               // generic(arr)+8
__device__ int **pparr = &parr;               // generic(parr)
__device__ const char *msg = "fnptr";         // generic($str)
struct Op { int bias; op_t f; const int *data; };
__device__ Op opstruct = {7, sub, &arr[1]};

__global__ void apply_table(int *out, const int *a, const int *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = table[i % 4](a[i], b[i]);
}

// a function pointer from the host, called by every lane
__global__ void apply_arg(int *out, const int *a, op_t f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = f(a[i], 3);
}

// the other initializers, and a call through a struct member
__global__ void apply_struct(int *out, double *dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = opstruct.f(i, opstruct.bias) + *opstruct.data + **pparr + msg[i % 5];
    dout[i] = dtable[i & 1](1.5 * i, (long long)i - 3);
}

__global__ void call_data(int *out, op_t f) { out[threadIdx.x] = f(1, 2); }

static int ref_op(int k, int a, int b) {
    switch (k) {
    case 0: return a + b;
    case 1: return a * b;
    case 2: return a - b;
    default: return a > b ? a : b;
    }
}

int main(int argc, char **argv) {
    const int n = 300;
    int *d_out, *d_a, *d_b;
    double *d_dout;
    CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_a, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_b, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_dout, n * sizeof(double)));

    if (argc > 1 && !std::strcmp(argv[1], "bad-call")) {
        // a data pointer where a function pointer belongs
        call_data<<<1, 32>>>(d_out, (op_t)(void *)d_a);
        cudaError_t e = cudaDeviceSynchronize();
        std::printf("rt_fnptr: bad call gives %s\n", cudaGetErrorName(e));
        CHECK(e == cudaErrorIllegalAddress);
        return 0;
    }

    std::vector<int> a(n), b(n), out(n);
    for (int i = 0; i < n; i++) { a[i] = i * 7 % 101 - 30; b[i] = (i * 13) % 17 - 8; }
    CHECK_CUDA(cudaMemcpy(d_a, a.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_b, b.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    apply_table<<<(n + 63) / 64, 64>>>(d_out, d_a, d_b, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(out[i] == ref_op(i % 4, a[i], b[i]));

    // the pointer the device initialized d_mul with is table[1]'s
    op_t h_mul, h_table[4];
    CHECK_CUDA(cudaMemcpyFromSymbol(&h_mul, d_mul, sizeof h_mul));
    CHECK_CUDA(cudaMemcpyFromSymbol(h_table, table, sizeof h_table));
    CHECK(h_mul == h_table[1]);
    CHECK(h_table[0] != h_table[1] && h_table[1] != h_table[2] && h_table[2] != h_table[3]);
    apply_arg<<<(n + 63) / 64, 64>>>(d_out, d_a, h_mul, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(out[i] == a[i] * 3);
    apply_arg<<<(n + 63) / 64, 64>>>(d_out, d_a, h_table[3], n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(out[i] == (a[i] > 3 ? a[i] : 3));

    // address initializers, seen from the host: parr = &arr[2], pparr = &parr
    int *h_arr_addr, *h_parr_addr, *h_parr, **h_pparr;
    CHECK_CUDA(cudaGetSymbolAddress((void **)&h_arr_addr, arr));
    CHECK_CUDA(cudaGetSymbolAddress((void **)&h_parr_addr, parr));
    CHECK_CUDA(cudaMemcpyFromSymbol(&h_parr, parr, sizeof h_parr));
    CHECK_CUDA(cudaMemcpyFromSymbol(&h_pparr, pparr, sizeof h_pparr));
    CHECK(h_parr == h_arr_addr + 2);
    CHECK(h_pparr == (int **)h_parr_addr);

    apply_struct<<<(n + 63) / 64, 64>>>(d_out, d_dout, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<double> dout(n);
    CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(dout.data(), d_dout, n * sizeof(double), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        CHECK(out[i] == (i - 7) + 20 + 30 + "fnptr"[i % 5]);
        double want = (i & 1) ? 1.5 * i + (double)(i - 3) : 1.5 * i * (double)(i - 3);
        CHECK(dout[i] == want);
    }
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_a));
    CHECK_CUDA(cudaFree(d_b));
    CHECK_CUDA(cudaFree(d_dout));
    std::printf("rt_fnptr: all checks passed\n");
    return 0;
}
