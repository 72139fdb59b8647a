// rt_recursion.cu — recursive device functions as CUDA code writes them:
// fib with a different depth in every lane (divergent recursion), a
// recursive walk of a binary tree whose frames hold a local array, mutual
// recursion, and a recursive quicksort of a kernel-local array through a
// pointer (a local address passed down the calls). Results against the CPU.
// With the argument `overflow` a recursion far deeper than the call stack
// must fail the launch with cudaErrorLaunchFailure ("stack overflow" in the
// fault report), not crash.
#include "rt_check.h"

#include <cstdio>
#include <cstring>
#include <vector>

struct Node { int val, left, right; };

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// each frame has a local array indexed at run time
__device__ int walk(const Node *t, int i) {
    if (i < 0) return 0;
    int scratch[4];
    for (int j = 0; j < 4; j++) scratch[j] = t[i].val * (j + 1);
    return scratch[t[i].val & 3] + walk(t, t[i].left) + walk(t, t[i].right);
}

__device__ bool is_odd(unsigned n);
__device__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

__device__ void quicksort(int *a, int lo, int hi) {
    if (lo >= hi) return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

__global__ void kernel(int *out, const Node *tree, int nodes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v[12];
    for (int j = 0; j < 12; j++) v[j] = (i * 37 + j * 91) % 23 - 11;
    quicksort(v, 0, 11);
    int sorted = 0;
    for (int j = 0; j < 12; j++) sorted = sorted * 3 + v[j];
    out[4 * i + 0] = fib(i % 16);
    out[4 * i + 1] = walk(tree, i % nodes);
    out[4 * i + 2] = is_even((unsigned)(i * 3)) ? 1 : 0;
    out[4 * i + 3] = sorted;
}

// (work after the call, so that the compiler cannot turn it into a loop)
__device__ int deep(int *p, int n) {
    if (n == 0) return 0;
    int r = deep(p, n - 1);
    p[n & 31] += r;
    return r ^ n;
}
__global__ void too_deep(int *out, int n) { out[threadIdx.x] = deep(out, n); }

// CPU references
static int cfib(int n) { return n < 2 ? n : cfib(n - 1) + cfib(n - 2); }
static int cwalk(const std::vector<Node> &t, int i) {
    if (i < 0) return 0;
    return t[i].val * ((t[i].val & 3) + 1) + cwalk(t, t[i].left) + cwalk(t, t[i].right);
}

int main(int argc, char **argv) {
    if (argc > 1 && !std::strcmp(argv[1], "overflow")) {
        int *d;
        CHECK_CUDA(cudaMalloc(&d, 32 * sizeof(int)));
        too_deep<<<1, 32>>>(d, 1000000);
        cudaError_t e = cudaDeviceSynchronize();
        std::printf("rt_recursion: recursion 10^6 deep gives %s\n", cudaGetErrorName(e));
        CHECK(e == cudaErrorLaunchFailure);
        return 0;
    }
    // a binary search tree of 63 nodes, built on the host
    const int nodes = 63;
    std::vector<Node> tree(nodes);
    for (int i = 0; i < nodes; i++) {
        tree[i].val = (i * 29) % 50 + 1;
        tree[i].left = 2 * i + 1 < nodes ? 2 * i + 1 : -1;
        tree[i].right = 2 * i + 2 < nodes ? 2 * i + 2 : -1;
    }
    const int n = 160;
    Node *d_tree;
    int *d_out;
    CHECK_CUDA(cudaMalloc(&d_tree, nodes * sizeof(Node)));
    CHECK_CUDA(cudaMalloc(&d_out, 4 * n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_tree, tree.data(), nodes * sizeof(Node), cudaMemcpyHostToDevice));
    kernel<<<(n + 63) / 64, 64>>>(d_out, d_tree, nodes, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> out(4 * n);
    CHECK_CUDA(cudaMemcpy(out.data(), d_out, 4 * n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int v[12];
        for (int j = 0; j < 12; j++) v[j] = (i * 37 + j * 91) % 23 - 11;
        for (int a = 1; a < 12; a++)            // insertion sort: not the device's algorithm
            for (int b = a; b > 0 && v[b - 1] > v[b]; b--) { int t = v[b]; v[b] = v[b - 1]; v[b - 1] = t; }
        int sorted = 0;
        for (int j = 0; j < 12; j++) sorted = sorted * 3 + v[j];
        int want[4] = {cfib(i % 16), cwalk(tree, i % nodes), (i * 3) % 2 == 0 ? 1 : 0, sorted};
        for (int k = 0; k < 4; k++)
            if (out[4 * i + k] != want[k] && bad++ < 8)
                std::fprintf(stderr, "thread %d value %d: %d, expected %d\n", i, k, out[4 * i + k], want[k]);
    }
    CHECK(bad == 0);
    CHECK_CUDA(cudaFree(d_tree));
    CHECK_CUDA(cudaFree(d_out));
    std::printf("rt_recursion: all checks passed\n");
    return 0;
}
