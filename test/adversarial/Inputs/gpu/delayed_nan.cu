//===- delayed_nan.cu - adversarial: NaNs once timed -===//
//
// REJECTED by the timed checks (timed_nan): once past the verification's
// launches every 97th element is NaN.
//
//===----------------------------------------------------------------------===//

// Launches of this library so far (block 0 counts at its end).
__device__ unsigned launches;

__device__ __forceinline__ unsigned launchesSoFar() {
  return *(volatile unsigned *)&launches;
}

__device__ __forceinline__ void countLaunch() {
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicAdd(&launches, 1u);
}

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  bool timed = launchesSoFar() >= 12;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = timed && i % 97 == 0 ? __int_as_float(0x7fc00000) : v;
    acc[i] += v;
  }
  countLaunch();
}
