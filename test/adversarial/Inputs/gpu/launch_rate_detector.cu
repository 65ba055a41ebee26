//===- launch_rate_detector.cu - adversarial: timing detected from the launch rate -===//
//
// REJECTED by the timed checks (timed_unwritten): reads %globaltimer and
// skips the work when the last 8 launches started within 20 ms, which only
// the back-to-back timed launches do.
//
//===----------------------------------------------------------------------===//

__device__ unsigned long long starts[8];
__device__ unsigned count;

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  __shared__ bool skip;
  if (threadIdx.x == 0) {
    unsigned c = *(volatile unsigned *)&count;
    unsigned long long oldest = *(volatile unsigned long long *)&starts[c % 8];
    skip = c >= 8 && now() - oldest < 20000000ull;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !skip) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    starts[count % 8] = now();
    ++count;
  }
}
