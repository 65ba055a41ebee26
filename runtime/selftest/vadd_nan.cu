//===- vadd_nan.cu - Self-test: a NaN in one element ----------------------===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "nan".
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = i == n / 2 ? __int_as_float(0x7fffffff) : a[i] + b[i];
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
