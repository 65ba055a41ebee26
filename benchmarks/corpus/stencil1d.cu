// 1-D stencils, textbook style (the naive kernel before the shared-memory
// version): stencil1d sums a window of 2 * RADIUS + 1 inputs from an input
// padded by RADIUS on both sides (`in + RADIUS` bumps the pointer), with the
// window loop running from -RADIUS to RADIUS; stencil1d_weighted is a
// template on the radius, explicitly instantiated, reading its weights from
// a buffer. Grid-stride loops, launched by a host function.
#include <cuda_runtime.h>

#define RADIUS 3

#pragma optiml kernel sizes(N = 1 << 26) in(in[N + 6]) out(out[N]) \
    scalar(n = N) grid(4096) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 100003)
__global__ void stencil1d(const float *in, float *out, int n) {
  const float *center = in + RADIUS;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float result = 0.0f;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
      result += center[i + offset];
    out[i] = result;
  }
}

template <int R>
#pragma optiml kernel sizes(N = 1 << 26) in(in[N + 8], w[9]) out(out[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 100003)
__global__ void stencil1d_weighted(const float *in, const float *w, float *out,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k <= 2 * R; ++k)
    acc += w[k] * in[i + k];
  out[i] = acc;
}

template __global__ void stencil1d_weighted<4>(const float *, const float *,
                                               float *, int);

void run_stencils(const float *in, const float *w, float *out, int n) {
  stencil1d<<<4096, 256>>>(in, out, n);
  stencil1d_weighted<4><<<(n + 255) / 256, 256>>>(in, w, out, n);
}
