//===- vadd_bad_launch.cu - Self-test: a launch the driver rejects --------===//
//
// Part of OptiML. Must end the run with status "launch_error" (exit code 2):
// 2048 threads per block exceed every GPU's limit of 1024, so the launch fails
// with cudaErrorInvalidConfiguration before anything runs.
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
  (void)block;
  VaddArgs A = unpackVaddArgs(args);
  vadd<<<toDim3(grid), 2048, shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
