// Kernels that read tables the host uploads (cudaMemcpyToSymbol) and a
// kernel launched with one buffer twice: the forms symbol(...) and
// alias(...) describe.
#include <cuda_runtime.h>

#define TAPS 9

namespace filters {
__constant__ float taps[TAPS];
}
__device__ int lookup[256];

__device__ float tap(int k) { return filters::taps[k]; }

#pragma optiml kernel sizes(N = 1 << 20) in(x[N + 9]) out(y[N]) \
    scalar(n = N) symbol(taps) dist(taps = uniform(0, 1)) \
    grid((N + 255) / 256) block(256) tolerance(rtol = 1e-5, atol = 1e-5)
__global__ void fir(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.f;
  for (int k = 0; k < TAPS; ++k)
    acc += tap(k) * x[i + k];
  y[i] = acc;
}

#pragma optiml kernel sizes(N = 1 << 20) in(c[N]) out(v[N]) scalar(n = N) \
    symbol(lookup[200]) dist(c = int(0, 199), lookup = int(-1000, 1000)) \
    grid((N + 255) / 256) block(256)
__global__ void remap(const unsigned char *c, int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = lookup[c[i]];
}

// In place: the program passes one buffer as both x and y.
#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) alias(x = y) \
    scalar(n = N, a = 0.5f) grid((N + 255) / 256) block(256)
__global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

int main() {
  float h[TAPS] = {};
  cudaMemcpyToSymbol(filters::taps, h, sizeof(h));
  float *d = nullptr;
  cudaMalloc(&d, sizeof(float) << 20);
  scale<<<4096, 256>>>(d, d, 0.5f, 1 << 20);
  return 0;
}
