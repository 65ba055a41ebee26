//===- fast_math.cu - adversarial: fused multiply-adds and factored scale -===//
//
// ACCEPTED. Factors a * x[i] out of the loop and accumulates with
// __fmaf_rn: not bit-identical, within the tolerance.
//
//===----------------------------------------------------------------------===//

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      s = __fmaf_rn(1.0f, w[j], s);
    }
    float v = __fmul_rn(a * x[i], s);
    y[i] = v;
    acc[i] = __fadd_rn(acc[i], v);
  }
}
