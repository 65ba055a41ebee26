// Elementwise kernels in a namespace, the way a small tensor library
// writes them: grid-stride loops with size_t indices, an `inline` cdiv, a
// GELU with tanhf (llm.c's tanh approximation), an axpby through a
// `__device__ __forceinline__` helper, a Horner polynomial with its
// coefficients in __constant__ memory, a `template <typename T>` scale
// explicitly instantiated for float and double, and launchers: one through
// cudaLaunchKernel with an argument array (the kernel's address is taken),
// the others with <<<>>> on a stream.
#include <cstddef>
#include <cuda_runtime.h>
#include <math.h>

namespace ew {

inline unsigned cdiv(size_t a, unsigned b) { return (unsigned)((a + b - 1) / b); }

#define GELU_SCALING_FACTOR 0.7978845608f // sqrt(2 / pi)

#pragma optiml kernel sizes(N = 1 << 26) in(inp[N]) out(out[N]) scalar(n = N) \
    grid(ceil_div(N, 256)) block(256) dist(inp = uniform(-4, 4)) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: N = 100003)
__global__ void gelu_forward(float *out, const float *inp, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x) {
    float xi = inp[i];
    float cube = 0.044715f * xi * xi * xi;
    out[i] = 0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube)));
  }
}

__device__ __forceinline__ float lerp2(float a, float x, float b, float y) {
  return a * x + b * y;
}

#pragma optiml kernel sizes(N = 1 << 26) in(x[N]) inout(y[N]) \
    scalar(n = N, a = 2.0, b = -0.5) grid(1024) block(512) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 100003)
__global__ void axpby(size_t n, float a, const float *x, float b, float *y) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += stride)
    y[i] = lerp2(a, x[i], b, y[i]);
}

// Coefficients of a degree-5 polynomial (a fitted activation), read by
// every thread from __constant__ memory.
__constant__ float c_poly[6] = {0.5f, 0.25f, -0.02f, 0.003f, -1e-4f, 2e-6f};

#pragma optiml kernel sizes(N = 1 << 26) in(x[N]) out(y[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256) dist(x = uniform(-4, 4)) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: N = 100003)
__global__ void poly_eval(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float acc = c_poly[5];
    for (int d = 4; d >= 0; --d)
      acc = acc * v + c_poly[d];
    y[i] = acc;
  }
}

#pragma optiml kernel sizes(N = 1 << 26) in(in[N]) out(out[N]) \
    scalar(n = N, alpha = 3.0) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
template <typename T>
__global__ void scale(const T *in, T *out, T alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = alpha * in[i];
}

template __global__ void scale<float>(const float *, float *, float, int);
template __global__ void scale<double>(const double *, double *, double, int);

cudaError_t launch_gelu(float *out, const float *inp, size_t n,
                        cudaStream_t stream) {
  dim3 block(256);
  dim3 grid(cdiv(n, block.x));
  void *args[] = {&out, &inp, &n};
  return cudaLaunchKernel((const void *)gelu_forward, grid, block, args, 0,
                          stream);
}

void launch_poly(const float *x, float *y, int n) {
  poly_eval<<<(n + 255) / 256, 256>>>(x, y, n);
}

void launch_axpby(size_t n, float a, const float *x, float b, float *y,
                  cudaStream_t stream) {
  axpby<<<1024, 512, 0, stream>>>(n, a, x, b, y);
}

template <typename T>
void launch_scale(const T *in, T *out, T alpha, int n, cudaStream_t stream) {
  scale<T><<<cdiv(n, 256), 256, 0, stream>>>(in, out, alpha, n);
}

template void launch_scale<float>(const float *, float *, float, int,
                                  cudaStream_t);

} // namespace ew
