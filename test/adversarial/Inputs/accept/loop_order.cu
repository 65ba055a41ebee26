//===- loop_order.cu - adversarial: the inner loop reversed -===//
//
// ACCEPTED. Sums the four terms in the other order: different rounding,
// within the tolerance.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.0f;
    for (int k = 3; k >= 0; --k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
}
