//===- shared_race.cu - adversarial: shared-memory staging without a barrier -===//
//
// REJECTED by verification (nondeterministic or mismatch): stages w in
// shared memory but reads the neighbours' slots without __syncthreads;
// odd warps are slowed down so that the race shows instead of passing by
// luck.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  __shared__ float tile[256 + 3];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Slow odd warps down before they write their slots.
  if ((threadIdx.x / 32) % 2 == 1) {
    float d = x[i < n ? i : 0];
    for (int r = 0; r < 2000; ++r)
      d = d * 0.999f + 0.001f;
    if (d == 12345.0f)
      tile[0] = d;
  }
  tile[threadIdx.x] = i < n ? w[i] : 0.0f;
  if (threadIdx.x < 3)
    tile[256 + threadIdx.x] = w[(blockIdx.x * blockDim.x + 256 + threadIdx.x) % n];
  // Missing: __syncthreads();
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * (i + k < n ? tile[threadIdx.x + k] : w[j]);
    }
    y[i] = v;
    acc[i] += v;
  }
}
