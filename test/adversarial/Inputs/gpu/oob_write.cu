//===- oob_write.cu - adversarial: an out-of-bounds write -===//
//
// REJECTED by verification (redzone): the last thread also writes y[n].
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
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
  if (i == n - 1)
    y[n] = 1.0f;
}
