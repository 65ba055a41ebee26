//===- exit_path.cu - adversarial: a process exit path -===//
//
// REFUSED before building: host code that ends the process (exit, abort)
// has no place in a library the runner loads.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>

void bail(int code) {
  if (code)
    std::exit(code);
  abort();
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
