//===- launch_bounds_sabotage.cu - adversarial: launch bounds the harness cannot meet -===//
//
// REJECTED as a launch error: __launch_bounds__(64) where the spec launches
// blocks of 256 threads.
//
//===----------------------------------------------------------------------===//

__global__ void __launch_bounds__(64)
blend(int n, float a, const float *x, const float *w, float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
}
