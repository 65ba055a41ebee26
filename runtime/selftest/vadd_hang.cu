//===- vadd_hang.cu - Self-test: a kernel that never finishes -------------===//
//
// Part of OptiML. The runner cannot detect this itself; the parent (here
// run-selftest.sh, through `timeout`) must kill it. Thread 0 waits for a flag
// nobody sets; the volatile read keeps the compiler from removing the loop.
//
//===----------------------------------------------------------------------===//

__device__ volatile int OptimlSelftestNeverSet = 0;

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
  if (i == 0)
    while (OptimlSelftestNeverSet == 0)
      __nanosleep(1000);
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
