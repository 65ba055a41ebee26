// Matrix-vector products, textbook style, with a main that launches both.
// gemv_rows: y = A * x, one thread per row walking its row (neighbouring
// threads read addresses n floats apart: uncoalesced). gemv_cols:
// y = A^T * x, one thread per column (coalesced), written with a
// `const float *row = A + (size_t)i * n` pointer bump and a `+=` into y
// that the beta term initialised.
#include <cstdio>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 8192, N = 8192) in(A[M * N], x[N]) out(y[M]) \
    scalar(m = M, n = N) grid((M + 255) / 256) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: M = 1001, N = 777)
__global__ void gemv_rows(const float *A, const float *x, float *y, int m,
                          int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
      sum += A[row * n + j] * x[j];
    y[row] = sum;
  }
}

#pragma optiml kernel sizes(M = 8192, N = 8192) in(A[M * N], x[M]) inout(y[N]) \
    scalar(m = M, n = N, beta = 0.5) grid((N + 127) / 128) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: M = 1001, N = 777)
__global__ void gemv_cols(const float *A, const float *x, float *y, int m,
                          int n, float beta) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n)
    return;
  y[col] *= beta;
  for (int i = 0; i < m; ++i) {
    const float *row = A + (size_t)i * n;
    y[col] += row[col] * x[i];
  }
}

int main() {
  const int m = 8192, n = 8192;
  float *A, *x, *y, *xt, *yt;
  cudaMalloc(&A, sizeof(float) * m * n);
  cudaMalloc(&x, sizeof(float) * n);
  cudaMalloc(&y, sizeof(float) * m);
  cudaMalloc(&xt, sizeof(float) * m);
  cudaMalloc(&yt, sizeof(float) * n);
  cudaMemset(A, 0, sizeof(float) * m * n);
  cudaMemset(x, 0, sizeof(float) * n);
  cudaMemset(xt, 0, sizeof(float) * m);
  cudaMemset(yt, 0, sizeof(float) * n);
  gemv_rows<<<(m + 255) / 256, 256>>>(A, x, y, m, n);
  gemv_cols<<<(n + 127) / 128, 128>>>(A, xt, yt, m, n, 0.5f);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("gemv: %s\n", cudaGetErrorString(err));
  cudaFree(A);
  cudaFree(x);
  cudaFree(y);
  cudaFree(xt);
  cudaFree(yt);
  return err == cudaSuccess ? 0 : 1;
}
