//===- nan_injection.cu - adversarial: NaNs in the output -===//
//
// REJECTED by verification (nan): every 1000th element is NaN.
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
    y[i] = i % 1000 == 0 ? __int_as_float(0x7fc00000) : v;
    acc[i] += v;
  }
}
