//===- vadd_wrong_element.cu - Self-test: one wrong element ---------------===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "mismatch".
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i] + (i == n / 3 ? 1.0f : 0.0f);
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
