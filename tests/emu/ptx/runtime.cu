// Kernels for tests/emu/test_api.c: device printf and assert (nvcc -arch=compute_75 -ptx runtime.cu)
#include <cstdio>
__global__ void k_sw(int *o, int n) {
  int t = threadIdx.x;
  int v;
  switch (t % 7) { case 0: v = 3; break; case 1: v = 11; break; case 2: v = t * 5; break; case 3: v = -4; break;
                   case 4: v = t ^ 9; break; case 5: v = 100; break; default: v = 1; }
  o[t] = v;
  if (t == 3) printf("hello %d %f %s\n", t, 1.5, "x");
}
__global__ void k_assert(int *o) { assert(o[threadIdx.x] == 0); }
