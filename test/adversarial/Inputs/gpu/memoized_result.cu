//===- memoized_result.cu - adversarial: a result memoized across launches -===//
//
// REJECTED by the timed checks (timed_mismatch): keeps the last result of
// the large instance in __device__ memory and replays it once timed; the
// timed launches run on the inputs of either verified seed.
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
constexpr int Big = 1 << 22;
__device__ float memo[Big];

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  bool timed = launchesSoFar() >= 12;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && timed && n == Big) {
    y[i] = memo[i];
    acc[i] += memo[i];
  } else if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
    if (n == Big)
      memo[i] = v;
  }
  countLaunch();
}
