//===- axpy_ref.cu - Self-test: a scalar and an inout buffer -----------===//
//
// Part of OptiML. y = a * x + y exercises what vadd does not: a float scalar
// parameter, an inout buffer (restored before every timed launch), and
// tolerance-based acceptance against axpy_nofma.
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&axpy);
}

extern "C" const char *optiml_kernel_name(void) { return "axpy"; }
