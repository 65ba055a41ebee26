// The original of the adversarial suite: every candidate under static/,
// gpu/ and accept/ is a rewrite of `blend`. An in buffer read at four
// neighbours (room for shared-memory staging, loop orders and tails), an
// out buffer, an inout buffer, two scalars, and an odd instance whose size
// is not a multiple of the block.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1 << 22) in(x[N], w[N]) out(y[N]) \
    inout(acc[N]) scalar(n = N, a = 1.5) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 100003)
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
