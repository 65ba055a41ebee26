//===- vadd_interposer.cu - Self-test: a library that fakes the launch ----===//
//
// Part of OptiML. Must be ACCEPTED: besides a correct vadd, the library
// defines cudaLaunchKernel itself, returning success without launching. Had
// the launch been compiled with the candidate, or bound to the candidate's
// symbols, nothing would write c and verification would fail; the runner
// launches through its own binding to the CUDA runtime, so the real kernel
// runs and is verified and timed.
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

extern "C" cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **,
                                        size_t, cudaStream_t) {
  return cudaSuccess;
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
