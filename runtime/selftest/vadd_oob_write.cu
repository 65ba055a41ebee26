//===- vadd_oob_write.cu - Self-test: write one past the end --------------===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "redzone". The bounds
// check is off by one, so thread n writes c[n] (the plan's small instance
// launches more than n threads).
//
//===----------------------------------------------------------------------===//

#include "VaddAbi.cuh"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
  else if (i == n)
    c[i] = 1.0f;
}

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  VaddArgs A = unpackVaddArgs(args);
  vadd<<<toDim3(grid), toDim3(block), shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
