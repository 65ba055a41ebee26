//===- static_initializer.cu - adversarial: a host global with a dynamic initializer -===//
//
// REFUSED before building: the initializer runs when the library loads.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>

static bool hijack = std::getenv("OPTIML_HIJACK") != nullptr;

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
