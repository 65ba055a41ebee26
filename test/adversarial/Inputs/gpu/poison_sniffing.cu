//===- poison_sniffing.cu - adversarial: skips outputs that look written -===//
//
// REJECTED by verification (nondeterministic): writes y only where it does
// not already hold a finite value, taking leftovers for results; the two
// verification runs use different poisons, so its runs disagree.
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
    if (!isfinite(y[i]))
      y[i] = v;
    acc[i] += v;
  }
}
