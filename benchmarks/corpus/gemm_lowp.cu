// Matrix products whose specs admit reduced-precision inputs (a deep-
// learning layer's tolerance, not a solver's): C = A * B^T with B stored
// as rows of length k (the "NT" layout of a linear layer, x * W^T), and
// C = alpha * A^T * B + beta * C with A stored k x m (a column-major A).
// One thread per element of C. The tolerance is a bf16-sized one: rtol
// 5e-2, a norm bound of 2e-2 and an atol of 0.5 for sums of 2048 products
// of values in [-1, 1], whose rounding error near a zero result is absolute.
// The third, a row-major product for an iterative solver's inner step,
// admits less: rtol 1e-3, a norm bound of 1e-4 and an atol of 1e-2.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 2048, N = 2048, K = 2048) \
    in(x[M * K], w[N * K]) out(y[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16) \
    tolerance(rtol = 5e-2, atol = 0.5, norm = 2e-2) \
    instance(odd: M = 133, N = 97, K = 71)
__global__ void linear_nt(const float *x, const float *w, float *y, int m,
                          int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
      sum += x[row * k + i] * w[col * k + i];
    y[row * n + col] = sum;
  }
}

void linear(const float *x, const float *w, float *y, int m, int n, int k) {
  dim3 block(16, 16);
  dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
  linear_nt<<<grid, block>>>(x, w, y, m, n, k);
}

#pragma optiml kernel sizes(M = 2048, N = 2048, K = 2048) \
    in(a[K * M], b[K * N]) inout(c[M * N]) \
    scalar(alpha = 0.5, beta = 2.0, m = M, n = N, k = K) \
    grid((N + 31) / 32, (M + 7) / 8) block(32, 8) \
    tolerance(rtol = 5e-2, atol = 0.5, norm = 2e-2) \
    instance(odd: M = 77, N = 131, K = 55)
__global__ void gemm_tn(const float *a, const float *b, float *c, float alpha,
                        float beta, int m, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n)
    return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p)
    acc += a[p * m + i] * b[p * n + j];
  c[i * n + j] = alpha * acc + beta * c[i * n + j];
}

#pragma optiml kernel sizes(M = 2048, N = 2048, K = 2048) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-3, atol = 1e-2, norm = 1e-4) \
    instance(odd: M = 101, N = 67, K = 301)
__global__ void solver_step(const float *A, const float *B, float *C, int m,
                            int n, int k) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m || c >= n)
    return;
  float s = 0.0f;
  for (int p = 0; p < k; ++p)
    s += A[r * k + p] * B[p * n + c];
  C[r * n + c] = s;
}
