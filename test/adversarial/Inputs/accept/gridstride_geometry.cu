//===- gridstride_geometry.cu - adversarial: another launch geometry, grid-stride -===//
//
// ACCEPTED. Its own mark launches a quarter of the blocks; each thread walks
// the array with a grid stride.
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1 << 22) in(x[N], w[N]) out(y[N]) \
    inout(acc[N]) scalar(n = N, a = 1.5) grid((N + 1023) / 1024) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 100003)
__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
}
