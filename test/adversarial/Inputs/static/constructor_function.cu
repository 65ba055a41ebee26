//===- constructor_function.cu - adversarial: a load-time constructor -===//
//
// REFUSED before building: a constructor function runs when the runner
// loads the library, in the runner's process.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>

__attribute__((constructor)) static void takeOver() { setenv("X", "1", 1); }

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
