//===- vadd_launch_counter.cu - Self-test: correct only while verified ----===//
//
// Part of OptiML. Must be REJECTED with timed_unwritten: a __device__
// counter of launches; verification makes 8 (2 instances x 2 seeds x 2
// runs), timing at least 13, and from the 12th on the kernel writes
// nothing, leaving the outputs to earlier launches. The runner poisons the
// out buffers before every timed launch and checks every one.
//
//===----------------------------------------------------------------------===//

__device__ unsigned launches;

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  bool timed = *(volatile unsigned *)&launches >= 12;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !timed)
    c[i] = a[i] + b[i];
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(&launches, 1u);
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
