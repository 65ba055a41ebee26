//===- file_scope_asm.cu - adversarial: file-scope assembly -===//
//
// REFUSED before building: top-level asm can put a function into
// .init_array, which runs when the library loads.
//
//===----------------------------------------------------------------------===//

extern "C" void early() {}
asm(".section .init_array,\"aw\"\n.quad early\n.text");

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
