//===- restrict_const.cu - adversarial: __restrict__ and const on the pointers -===//
//
// ACCEPTED. The signature may gain __restrict__ and const pointees; the
// harness passes the same buffers.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *__restrict__ x,
                      const float *__restrict__ w, float *__restrict__ y,
                      float *__restrict__ acc) {
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
