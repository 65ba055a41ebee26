//===- class_static_member.cu - adversarial: a class's static member initialized at load -===//
//
// REFUSED before building: an inline static member of a struct is
// initialized when the library loads, like any host global.
//
//===----------------------------------------------------------------------===//

#include <cstdio>

struct Hook {
  Hook() { std::puts("loaded"); }
};
struct Holder {
  static inline Hook hook{};
};

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
