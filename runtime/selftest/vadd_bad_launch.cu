//===- vadd_bad_launch.cu - Self-test: a launch the driver rejects --------===//
//
// Part of OptiML. Must end the run with status "launch_error" (exit code 2):
// its plan's candidate_launch asks for 2048 threads per block, over every
// GPU's limit of 1024, so the launch fails with cudaErrorInvalidConfiguration
// before anything runs.
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
