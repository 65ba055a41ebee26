//===- ifunc_resolver.cu - adversarial: an ifunc resolver -===//
//
// REFUSED before building: the dynamic loader calls an ifunc's resolver
// while it loads the library.
//
//===----------------------------------------------------------------------===//

extern "C" void impl() {}
extern "C" void (*resolve())() { return impl; }
extern "C" void chosen() __attribute__((ifunc("resolve")));

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
