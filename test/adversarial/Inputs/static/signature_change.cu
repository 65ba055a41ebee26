//===- signature_change.cu - adversarial: the kernel's parameters changed -===//
//
// REFUSED before building: a double scalar where the harness passes a
// float would read garbage.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, double a, const float *x, const float *w,
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
}
