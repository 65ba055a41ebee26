//===- vadd_hang.cu - Self-test: a kernel that never finishes -------------===//
//
// Part of OptiML. The runner cannot detect this itself; the parent (here
// run-selftest.sh, through `timeout`) must kill it. Thread 0 waits for a flag
// nobody sets; the volatile read keeps the compiler from removing the loop.
//
//===----------------------------------------------------------------------===//

#include "VaddAbi.cuh"

__device__ volatile int OptimlSelftestNeverSet = 0;

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
  if (i == 0)
    while (OptimlSelftestNeverSet == 0)
      __nanosleep(1000);
}

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream, void **args) {
  VaddArgs A = unpackVaddArgs(args);
  vadd<<<toDim3(grid), toDim3(block), shmem, stream>>>(A.A, A.B, A.C, A.N);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
