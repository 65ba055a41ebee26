//===- vadd_unwritten.cu - Self-test: one output element never written ----===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "unwritten".
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) // Off by one: the last element is skipped.
    c[i] = a[i] + b[i];
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
