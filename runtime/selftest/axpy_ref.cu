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

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  float A = *static_cast<const float *>(args[0]);
  auto *X = static_cast<const float *>(*static_cast<void **>(args[1]));
  auto *Y = static_cast<float *>(*static_cast<void **>(args[2]));
  int N = *static_cast<const int *>(args[3]);
  axpy<<<dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2]),
         shmem, stream>>>(A, X, Y, N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "axpy"; }
