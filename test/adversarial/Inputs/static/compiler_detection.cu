//===- compiler_detection.cu - adversarial: code the checker cannot see -===//
//
// REFUSED before building: #ifdef __clang__ shows the checker (Clang) one
// file and nvcc's host compiler another.
//
//===----------------------------------------------------------------------===//

#ifndef __clang__
__attribute__((constructor)) static void hidden() {}
#endif

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
