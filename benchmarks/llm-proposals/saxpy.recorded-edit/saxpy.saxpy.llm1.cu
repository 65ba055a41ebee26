// Elementwise: y = a * x + y. Memory-bound: 12 bytes moved per element.
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ float axpy(float a, float x, float y) {
  return fmaf(a, x, y);
}

#pragma optiml kernel sizes(N = 1 << 24) in(x[N]) inout(y[N]) \
    scalar(n = N, a = 2.5) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 100003)
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = axpy(a, x[i], y[i]);
}

int main() {
  const int n = 1 << 24;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.5f, x, y);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("saxpy: %s\n", cudaGetErrorString(err));
  cudaFree(x);
  cudaFree(y);
  return err == cudaSuccess ? 0 : 1;
}
