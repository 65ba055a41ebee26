//===- vadd_illegal_address.cu - Self-test: an illegal memory access ------===//
//
// Part of OptiML. Must end the run with status "fault" (exit code 2): thread
// 0 stores to address 64, which is never mapped. The address is made from an
// integer so the compiler cannot treat it as a null dereference and drop it.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
  if (i == 0)
    *reinterpret_cast<volatile float *>(static_cast<uintptr_t>(64)) = 1.0f;
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
