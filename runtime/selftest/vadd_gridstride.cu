//===- vadd_gridstride.cu - Self-test: correct but different vadd ---------===//
//
// Part of OptiML. Must be ACCEPTED: a grid-stride loop over a quarter of the
// plan's grid computes exactly the reference's outputs.
//
//===----------------------------------------------------------------------===//

#include "VaddAbi.cuh"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  size_t Stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<size_t>(n); i += Stride)
    c[i] = a[i] + b[i];
}

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  VaddArgs A = unpackVaddArgs(args);
  unsigned Blocks = grid[0] / 4 > 0 ? grid[0] / 4 : 1;
  vadd<<<Blocks, toDim3(block), shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
