// vecops: two marked kernels and a check of their output. Built by
// CMakeLists.txt through optiml_optimize_kernels(), which compiles a copy
// of this file with the cached optimized kernels (optiml-results.json).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#pragma optiml kernel sizes(N = 1 << 22) in(x[N]) out(y[N]) \
    scalar(n = N, a = 3.0) grid((N + 255) / 256) block(256)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}

#pragma optiml kernel sizes(N = 1 << 22) in(x[N], y[N]) out(z[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256)
__global__ void add(int n, const float *x, const float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i];
}

int main() {
  const int n = 1 << 22;
  std::vector<float> x(n), z(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.001f * (i % 1000) - 0.5f;
  float *dx, *dy, *dz;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dz, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(n, 3.0f, dx, dy);
  add<<<(n + 255) / 256, 256>>>(n, dx, dy, dz);
  cudaError_t err = cudaMemcpy(z.data(), dz, n * sizeof(float),
                               cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
  if (err != cudaSuccess) {
    std::printf("vecops: %s\n", cudaGetErrorString(err));
    return 1;
  }
  // z = x + 3x = 4x, exactly in float for these inputs' magnitudes.
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += std::fabs(z[i] - 4.0f * x[i]) > 1e-5f * std::fabs(4.0f * x[i]) + 1e-6f;
  std::printf("vecops: %s (%d of %d wrong)\n", wrong ? "WRONG" : "ok", wrong, n);
  return wrong ? 1 : 0;
}
