//===- vadd_race.cu - Self-test: a result that depends on a race ----------===//
//
// Part of OptiML. Must be REJECTED: verify_failed (kind "nondeterministic").
// Block 0 adds a correction read from the *last* block's outputs without any
// synchronization. The correction is zero only if the last block has already
// written; the last block waits ~1 ms first, so block 0 reads the poison, which
// differs between the two verification runs.
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == gridDim.x - 1 && gridDim.x > 1) {
    long long T0 = clock64();
    while (clock64() - T0 < 2000000) // ~1 ms at 2 GHz.
      ;
  }
  if (i < n)
    c[i] = a[i] + b[i];
  if (blockIdx.x == 0 && gridDim.x > 1) {
    int j = (gridDim.x - 1) * blockDim.x + threadIdx.x;
    if (i < n && j < n)
      c[i] += c[j] - (a[j] + b[j]); // Racy read of another block's output.
  }
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
