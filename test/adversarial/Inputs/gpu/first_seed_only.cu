//===- first_seed_only.cu - adversarial: correct on the first seed only -===//
//
// REJECTED by verification: right for the first two launches (seed 1,
// both runs), zeros afterwards. Block 0 counts at its end, so blocks of the
// second launch that start after it already write zeros: the two runs of
// seed 1 disagree (nondeterministic), and verification stops there; were
// the count exact, seed 2 would be a mismatch.
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
  bool first = launchesSoFar() < 2;
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = first ? v : 0.0f;
    acc[i] += first ? v : 0.0f;
  }
  countLaunch();
}
