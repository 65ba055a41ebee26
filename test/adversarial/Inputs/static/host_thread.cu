//===- host_thread.cu - adversarial: a host thread -===//
//
// REFUSED before building: a thread started by the library would run
// beside the measurement.
//
//===----------------------------------------------------------------------===//

#include <thread>

void background() {
  std::thread t([] {});
  t.detach();
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
