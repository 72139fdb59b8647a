// rt_malloc.cu — malloc/free and new/delete in kernels (the device heap):
// each thread builds and frees a linked list of (t % 5) + 1 nodes, blocks
// allocated by one kernel are read and freed by the next, an allocation
// beyond the heap (cudaLimitMallocHeapSize, 8 MiB by default) returns NULL,
// and freeing memory that did not come from malloc() in a kernel is a device
// fault. Expected values are computed on the CPU here.
#include "rt_check.h"

struct node { int v; node *next; };

__global__ void lists(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    node *head = nullptr;
    for (int i = 0; i <= t % 5; i++) {
        node *x = new node;
        x->v = t * 10 + i;
        x->next = head;
        head = x;
    }
    int s = 0;
    while (head) { s += head->v; node *nx = head->next; delete head; head = nx; }
    out[t] = s;
    void *big = malloc(64u << 20);
    out[n + t] = big == nullptr;
    free(big);
}

__global__ void make_blocks(int **slots, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    int *p = (int *)malloc(3 * sizeof(int));
    if (p) { p[0] = t; p[1] = 2 * t; p[2] = 3 * t; }
    slots[t] = p;
}

__global__ void use_blocks(int **slots, int *out, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    int *p = slots[t];
    out[t] = p ? p[0] + p[1] + p[2] : -1;
    free(p);
}

__global__ void bad_free(int *not_from_malloc) { free(not_from_malloc); }

int main()
{
    const int n = 200;
    int *d, **slots;
    CHECK_CUDA(cudaMalloc(&d, 2 * n * sizeof(int)));
    lists<<<(n + 63) / 64, 64>>>(d, n);
    CHECK_CUDA(cudaGetLastError());
    int h[2 * n];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        int want = 0;
        for (int i = 0; i <= t % 5; i++) want += t * 10 + i;
        CHECK(h[t] == want);
        CHECK(h[n + t] == 1);
    }
    CHECK_CUDA(cudaMalloc(&slots, 64 * sizeof(int *)));
    make_blocks<<<1, 64>>>(slots, 64);
    use_blocks<<<1, 64>>>(slots, d, 64);
    CHECK_CUDA(cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        CHECK(h[t] == 6 * t);
    // a larger heap (cudaLimitMallocHeapSize) lets the 64 MiB block through
    size_t heap = 0;
    CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128u << 20));
    CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    CHECK(heap == (128u << 20));
    lists<<<1, 1>>>(d, 1);
    CHECK_CUDA(cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(h[0] == 0 && h[1] == 0);   // one node of value 0; the big block was not NULL
    std::printf("rt_malloc: heap checks passed\n");
    std::fflush(stdout);
    bad_free<<<1, 1>>>(d);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    std::printf("rt_malloc: all checks passed\n");
    return 0;
}
