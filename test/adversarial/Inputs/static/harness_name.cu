//===- harness_name.cu - adversarial: the harness's entry defined -===//
//
// REFUSED before building: defines optiml_kernel_entry, which the
// generated entry must be the only definition of.
//
//===----------------------------------------------------------------------===//

__global__ void other(float *y) { y[0] = 0; }
extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&other);
}

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
}
