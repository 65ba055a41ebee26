//===- vadd_writes_input.cu - Self-test: a write into an input buffer -----===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "input_modified",
// although every output is right: element 0 of a is overwritten after use.
//
//===----------------------------------------------------------------------===//

#include "VaddAbi.cuh"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float Sum = a[i] + b[i];
    c[i] = Sum;
    if (i == 0)
      const_cast<float *>(a)[0] = Sum; // Only thread 0 reads a[0].
  }
}

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  VaddArgs A = unpackVaddArgs(args);
  vadd<<<toDim3(grid), toDim3(block), shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
