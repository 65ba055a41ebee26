// Naive SGEMM, C = A * B, all row-major: one thread per element of C, each
// reading a row of A and a column of B straight from global memory.
#include <cstdio>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 4096, N = 4096, K = 4096) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: M = 133, N = 97, K = 71)
__global__ void sgemm(const float *A, const float *B, float *C, int m, int n,
                      int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

int main() {
  const int m = 4096, n = 4096, k = 4096;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * m * k);
  cudaMalloc(&B, sizeof(float) * k * n);
  cudaMalloc(&C, sizeof(float) * m * n);
  cudaMemset(A, 0, sizeof(float) * m * k);
  cudaMemset(B, 0, sizeof(float) * k * n);
  dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
  sgemm<<<grid, block>>>(A, B, C, m, n, k);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("sgemm: %s\n", cudaGetErrorString(err));
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  return err == cudaSuccess ? 0 : 1;
}
