// Math-library kernel for tests/emu/test_apps.c (nvcc -arch=compute_75 -ptx math.cu)
#include <cuda_fp16.h>
__global__ void km(const float *in, float *of, const double *din, double *od, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i]; double d = din[i];
  of[i*12+0] = sinf(x); of[i*12+1] = expf(x); of[i*12+2] = logf(fabsf(x) + 1.0f); of[i*12+3] = powf(fabsf(x), 1.7f);
  of[i*12+4] = __expf(x); of[i*12+5] = __fdividef(x, 3.0f); of[i*12+6] = rsqrtf(fabsf(x) + 1.0f); of[i*12+7] = atan2f(x, 2.0f);
  of[i*12+8] = tanhf(x); of[i*12+9] = __saturatef(x); of[i*12+10] = erff(x); of[i*12+11] = __half2float(__float2half(x) * __float2half(2.0f));
  od[i*6+0] = sin(d); od[i*6+1] = exp(d); od[i*6+2] = log(fabs(d) + 1.0); od[i*6+3] = pow(fabs(d), 1.7); od[i*6+4] = sqrt(fabs(d)); od[i*6+5] = d / 3.0;
  __threadfence();
}
