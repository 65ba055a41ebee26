//===- vadd_not_a_kernel.cu - Self-test: an entry that is no kernel -------===//
//
// Part of OptiML. Must end the run with status "load_error" (exit code 3):
// optiml_kernel_entry returns a host function's address, which the CUDA
// runtime does not know as a kernel, so the runner refuses the library
// before launching anything.
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

static void notAKernel() {}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&notAKernel);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
