// Covariance of an N x M data matrix (N samples of M variables),
// PolyBench-GPU style, three kernels: column means (one thread per column,
// a loop over rows, then a division by the float sample count), centring
// (2-D, in place), and the covariance itself: one thread per column j1, a
// triangular loop j2 = j1..M-1 that writes both symmetric halves, and an
// inner loop over samples accumulating in global memory. No launches in
// this file.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 2048, N = 2048) in(data[N * M]) out(mean[M]) \
    scalar(m = M, n = N, float_n = 2048.0) grid((M + 255) / 256) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: M = 301, N = 177)
__global__ void mean_kernel(const float *data, float *mean, int m, int n,
                            float float_n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
}

#pragma optiml kernel sizes(M = 8192, N = 8192) in(mean[M]) inout(data[N * M]) \
    scalar(m = M, n = N) grid((M + 31) / 32, (N + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: M = 301, N = 177)
__global__ void reduce_kernel(float *mean, float *data, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < n) && (j < m))
    data[i * m + j] -= mean[j];
}

#pragma optiml kernel sizes(M = 1024, N = 1024) in(data[N * M]) out(symmat[M * M]) \
    scalar(m = M, n = N) grid((M + 255) / 256) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: M = 301, N = 177)
__global__ void covar_kernel(float *symmat, float *data, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  int i, j2;

  if (j1 < m) {
    for (j2 = j1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0f;
      for (i = 0; i < n; i++)
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}
