//===- precision_loss.cu - adversarial: half precision beyond the tolerance -===//
//
// REJECTED by verification (mismatch): products in half precision, about
// three decimal digits where the spec asks for five.
//
//===----------------------------------------------------------------------===//

#include <cuda_fp16.h>

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half v = __float2half(0.0f);
    __half ax = __float2half(a * x[i]);
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v = __hfma(ax, __float2half(w[j]), v);
    }
    y[i] = __half2float(v);
    acc[i] += __half2float(v);
  }
}
