//===- vadd_oob_write.cu - Self-test: write one past the end --------------===//
//
// Part of OptiML. Must be REJECTED: verify_failed, kind "redzone". The bounds
// check is off by one, so thread n writes c[n] (the plan's small instance
// launches more than n threads).
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
  else if (i == n)
    c[i] = 1.0f;
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
