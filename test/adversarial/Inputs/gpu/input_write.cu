//===- input_write.cu - adversarial: a write into an input -===//
//
// REJECTED by verification (input_modified): caches the product in x.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float ax = a * x[i];
    ((float *)x)[i] = ax;
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += ax * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
}
