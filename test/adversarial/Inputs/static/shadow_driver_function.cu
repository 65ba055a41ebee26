//===- shadow_driver_function.cu - adversarial: a CUDA driver function defined -===//
//
// REFUSED before building: defines cuLaunchKernel, the driver API's launch.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

extern "C" CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   CUstream, void **, void **) {
  return CUDA_SUCCESS;
}

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
}
