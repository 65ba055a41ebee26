//===- host_only_hidden.cu - adversarial: host code hidden from the checker -===//
//
// REFUSED before building: the checker reads the device side of the file;
// `#ifndef __CUDA_ARCH__` at file scope would hide a host-only constructor
// from it that nvcc's host pass compiles.
//
//===----------------------------------------------------------------------===//

#ifndef __CUDA_ARCH__
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
