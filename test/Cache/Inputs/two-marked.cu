// Two marked kernels and an unmarked one, all launched in this file.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1 << 20) in(x[N]) out(y[N]) \
    scalar(n = N, a = 2.0) grid((N + 255) / 256) block(256)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) scalar(n = N, b = 1.0) \
    grid((N + 255) / 256) block(256)
__global__ void shift(int n, float b, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += b;
}

__global__ void helper(float *p) { p[threadIdx.x] = 0.0f; }

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  shift<<<(n + 255) / 256, 256>>>(n, 1.0f, y);
  helper<<<1, 32>>>(y);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
