//===- skipped_tail.cu - adversarial: the tail skipped -===//
//
// REJECTED by verification (unwritten): handles only whole blocks of 256,
// which the odd instance (N = 100003) catches.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (n & ~255)) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
}
