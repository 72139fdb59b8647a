// rt_virtual.cu — a polymorphic device class hierarchy, as CUDA C++ code
// writes it: objects created with `new` in one kernel (different classes in
// the lanes of one warp), virtual functions called through base pointers in
// a second kernel (lanes of a warp reach different overrides: the emulator
// serializes the targets and reconverges after the call), destroyed with
// `delete` through the base pointer in a third (the virtual destructors of
// each class run). Checked against the same arithmetic on the CPU.
#include "rt_check.h"

#include <cmath>
#include <cstdio>
#include <vector>

// destructor calls per class (0 Shape, 1 Square, 2 Tri, 3 RightTri)
__device__ int dtor_count[4];

struct Shape {
    __device__ virtual ~Shape() { atomicAdd(&dtor_count[0], 1); }
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    // a virtual call from a non-virtual member: dispatch on the object
    __device__ float weighted() const { return area() * (float)sides(); }
};

struct Square : Shape {
    float s;
    __device__ explicit Square(float s_) : s(s_) {}
    __device__ ~Square() override { atomicAdd(&dtor_count[1], 1); }
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};

struct Tri : Shape {
    float b, h;
    __device__ Tri(float b_, float h_) : b(b_), h(h_) {}
    __device__ ~Tri() override { atomicAdd(&dtor_count[2], 1); }
    __device__ float area() const override { return 0.5f * b * h; }
    __device__ int sides() const override { return 3; }
};

// a third level: inherits sides() from Tri, overrides area()
struct RightTri : Tri {
    __device__ RightTri(float b_, float h_) : Tri(b_, h_) {}
    __device__ ~RightTri() override { atomicAdd(&dtor_count[3], 1); }
    __device__ float area() const override { return b * h / 2.0f + 1.0f; }
};

__global__ void make(Shape **objs, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    switch (i % 3) {
    case 0: objs[i] = new Square((float)(i % 7)); break;
    case 1: objs[i] = new Tri((float)(i % 5), 2.0f); break;
    default: objs[i] = new RightTri(2.0f, (float)(i % 9)); break;
    }
}

__global__ void use(Shape *const *objs, float *area, int *sides, float *weighted, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Shape *p = objs[i];
    area[i] = p->area();
    sides[i] = p->sides();
    weighted[i] = p->weighted();
}

__global__ void destroy(Shape **objs, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    delete objs[i];
    objs[i] = nullptr;
}

int main() {
    const int n = 200;   // 7 blocks of 32: the last one partial
    Shape **objs;
    float *area, *weighted;
    int *sides;
    CHECK_CUDA(cudaMalloc(&objs, n * sizeof *objs));
    CHECK_CUDA(cudaMalloc(&area, n * sizeof *area));
    CHECK_CUDA(cudaMalloc(&weighted, n * sizeof *weighted));
    CHECK_CUDA(cudaMalloc(&sides, n * sizeof *sides));
    int zero[4] = {0, 0, 0, 0};
    CHECK_CUDA(cudaMemcpyToSymbol(dtor_count, zero, sizeof zero));

    make<<<(n + 31) / 32, 32>>>(objs, n);
    CHECK_CUDA(cudaGetLastError());
    use<<<(n + 31) / 32, 32>>>(objs, area, sides, weighted, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<float> a(n), wgt(n);
    std::vector<int> s(n);
    CHECK_CUDA(cudaMemcpy(a.data(), area, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(wgt.data(), weighted, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(s.data(), sides, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    int per_class[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        float wa;
        int ws;
        switch (i % 3) {
        case 0: wa = (float)(i % 7) * (float)(i % 7); ws = 4; break;
        case 1: wa = 0.5f * (float)(i % 5) * 2.0f; ws = 3; break;
        default: wa = 2.0f * (float)(i % 9) / 2.0f + 1.0f; ws = 3; break;
        }
        per_class[i % 3]++;
        if (a[i] != wa || s[i] != ws || wgt[i] != wa * (float)ws) {
            if (bad++ < 8)
                std::fprintf(stderr, "object %d: area %g sides %d weighted %g, expected %g %d %g\n",
                             i, a[i], s[i], wgt[i], wa, ws, wa * (float)ws);
        }
    }
    CHECK(bad == 0);

    destroy<<<(n + 31) / 32, 32>>>(objs, n);
    CHECK_CUDA(cudaGetLastError());
    int dc[4];
    CHECK_CUDA(cudaMemcpyFromSymbol(dc, dtor_count, sizeof dc));
    // every object runs its own destructor and those of its bases
    std::printf("rt_virtual: destructors Shape %d Square %d Tri %d RightTri %d\n", dc[0], dc[1], dc[2], dc[3]);
    CHECK(dc[0] == n);
    CHECK(dc[1] == per_class[0]);
    CHECK(dc[2] == per_class[1] + per_class[2]);
    CHECK(dc[3] == per_class[2]);
    std::vector<Shape *> after(n);
    CHECK_CUDA(cudaMemcpy(after.data(), objs, n * sizeof(Shape *), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) CHECK(after[i] == nullptr);
    CHECK_CUDA(cudaFree(objs));
    CHECK_CUDA(cudaFree(area));
    CHECK_CUDA(cudaFree(weighted));
    CHECK_CUDA(cudaFree(sides));
    std::printf("rt_virtual: all checks passed\n");
    return 0;
}
