// The matrix product as a first CUDA course writes it: one thread per
// element of C, the row taken from x and the column from y (so the 32
// threads of a warp walk down a column of A and of C, n floats apart, and
// all read the same element of B), a square 16 x 16 block and a grid
// computed with integer ceil-division in the host launcher.
#include <cuda_runtime.h>

#define TILE 16

#pragma optiml kernel sizes(N = 1024) in(A[N * N], B[N * N]) out(C[N * N]) \
    scalar(n = N) grid((N + 15) / 16, (N + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: N = 333)
__global__ void matmul_rowx(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
      sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
  }
}

void matmul(const float *A, const float *B, float *C, int n) {
  dim3 threads(TILE, TILE);
  dim3 blocks((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmul_rowx<<<blocks, threads>>>(A, B, C, n);
}
