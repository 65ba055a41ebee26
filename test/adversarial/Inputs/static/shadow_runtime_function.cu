//===- shadow_runtime_function.cu - adversarial: a CUDA runtime function defined -===//
//
// REFUSED before building: defines cudaLaunchKernel itself.
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

extern "C" cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **,
                                        size_t, cudaStream_t) {
  return cudaSuccess;
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
