//===- vadd_wrong_element.cu - Self-test: one wrong element ---------------===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "mismatch".
//
//===----------------------------------------------------------------------===//

#include "VaddAbi.cuh"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i] + (i == n / 3 ? 1.0f : 0.0f);
}

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  VaddArgs A = unpackVaddArgs(args);
  vadd<<<toDim3(grid), toDim3(block), shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
