//===- vadd_writes_input.cu - Self-test: a write into an input buffer -----===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "input_modified",
// although every output is right: element 0 of a is overwritten after use.
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float Sum = a[i] + b[i];
    c[i] = Sum;
    if (i == 0)
      const_cast<float *>(a)[0] = Sum; // Only thread 0 reads a[0].
  }
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
