//===- shared_staging.cu - adversarial: w staged through shared memory -===//
//
// ACCEPTED. The block's w values and a 3-element halo go through shared
// memory, with the barrier a correct staging needs.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  __shared__ float tile[256 + 3];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = threadIdx.x; t < blockDim.x + 3; t += blockDim.x) {
    int g = blockIdx.x * blockDim.x + t;
    if (g < n + 3 && n > 0)
      tile[t] = w[g < n ? g : (g - n) % n];
  }
  __syncthreads();
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      // The halo wraps around the end only in the last block.
      v += a * x[i] * (i + k < n ? tile[threadIdx.x + k] : w[j]);
    }
    y[i] = v;
    acc[i] += v;
  }
}
