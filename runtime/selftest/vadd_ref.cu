//===- vadd_ref.cu - Self-test: the reference vadd ------------------------===//
//
// Part of OptiML. One thread per element; the plan's geometry covers n.
//
//===----------------------------------------------------------------------===//

#include "VaddAbi.cuh"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  VaddArgs A = unpackVaddArgs(args);
  vadd<<<toDim3(grid), toDim3(block), shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
