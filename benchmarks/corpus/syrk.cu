// Symmetric rank-k updates on the lower triangle, PolyBench-GPU style:
// syrk: C = alpha * A * A^T + beta * C; syr2k: C = alpha * (A * B^T +
// B * A^T) + beta * C. One thread per element of C; only threads with
// j <= i work (a triangular guard that is not a plain bounds check), the
// sum goes straight into C in global memory, and the upper triangle is left
// as it was (so C is inout). No launch in this file.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 2048, M = 1024) in(a[N * M]) inout(c[N * N]) \
    scalar(alpha = 0.75, beta = 1.25, n = N, m = M) \
    grid((N + 31) / 32, (N + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: N = 211, M = 93)
__global__ void syrk_lower(const float *a, float *c, float alpha, float beta,
                           int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < n) && (j <= i)) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
  }
}

#pragma optiml kernel sizes(N = 2048, M = 1024) in(a[N * M], b[N * M]) \
    inout(c[N * N]) scalar(alpha = 0.75, beta = 1.25, n = N, m = M) \
    grid((N + 31) / 32, (N + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: N = 211, M = 93)
__global__ void syr2k_lower(const float *a, const float *b, float *c,
                            float alpha, float beta, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < n) && (j <= i)) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) {
      c[i * n + j] += alpha * a[i * m + k] * b[j * m + k] +
                      alpha * b[i * m + k] * a[j * m + k];
    }
  }
}
