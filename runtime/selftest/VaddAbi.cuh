//===- VaddAbi.cuh - ABI helpers for the vadd self-tests -*- CUDA -*-===//
//
// Part of OptiML. Every self-test library implements the runner's launcher
// ABI for one kernel vadd(const float *a, const float *b, float *c, int n);
// these helpers only unpack the ABI's arguments. Each library still writes
// its own optiml_launch and optiml_kernel_name, as generated ones would.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SELFTEST_VADDABI_CUH
#define OPTIML_SELFTEST_VADDABI_CUH

#include <cuda_runtime.h>

/// The kernel parameters, unpacked from optiml_launch's args: args[i] points
/// at parameter i (for a buffer, at the device pointer).
struct VaddArgs {
  const float *A;
  const float *B;
  float *C;
  int N;
};

inline VaddArgs unpackVaddArgs(void **Args) {
  VaddArgs V;
  V.A = static_cast<const float *>(*static_cast<void **>(Args[0]));
  V.B = static_cast<const float *>(*static_cast<void **>(Args[1]));
  V.C = static_cast<float *>(*static_cast<void **>(Args[2]));
  V.N = *static_cast<const int *>(Args[3]);
  return V;
}

inline dim3 toDim3(const unsigned V[3]) { return dim3(V[0], V[1], V[2]); }

#endif // OPTIML_SELFTEST_VADDABI_CUH
