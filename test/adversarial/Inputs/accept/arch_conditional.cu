//===- arch_conditional.cu - adversarial: an architecture test inside the kernel -===//
//
// ACCEPTED. `#if __CUDA_ARCH__` inside the kernel's body picks a variant
// per architecture; only file-scope conditionals on it are refused.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
      v += a * __ldg(&x[i]) * __ldg(&w[j]);
#else
      v += a * x[i] * w[j];
#endif
    }
    y[i] = v;
    acc[i] += v;
  }
}
