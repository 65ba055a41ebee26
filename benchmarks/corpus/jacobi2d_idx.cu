// Jacobi 2-D sweep as two kernels (PolyBench style): jacobi_step writes the
// five-point average of A into the interior of B, jacobi_copy copies B's
// interior back into A. Indices go through a `#define IDX(i, j)` macro that
// captures the kernel's `n`; the guard is the interior test
// `i >= 1 && i < n - 1 && j >= 1 && j < n - 1`; 16x16 blocks with i taken
// from y. The border of B is never written, so B is inout.
#include <cuda_runtime.h>

#define IDX(i, j) ((i) * n + (j))

#pragma optiml kernel sizes(N = 8192) in(A[N * N]) inout(B[N * N]) scalar(n = N) \
    grid((N + 15) / 16, (N + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 333)
__global__ void jacobi_step(const float *A, float *B, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1) {
    B[IDX(i, j)] = 0.2f * (A[IDX(i, j)] + A[IDX(i, j - 1)] + A[IDX(i, j + 1)] +
                           A[IDX(i + 1, j)] + A[IDX(i - 1, j)]);
  }
}

#pragma optiml kernel sizes(N = 8192) in(B[N * N]) inout(A[N * N]) scalar(n = N) \
    grid((N + 15) / 16, (N + 15) / 16) block(16, 16) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 333)
__global__ void jacobi_copy(float *A, const float *B, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    A[IDX(i, j)] = B[IDX(i, j)];
}

void jacobi2d(float *A, float *B, int n, int steps) {
  dim3 threads(16, 16);
  dim3 blocks((n + 15) / 16, (n + 15) / 16);
  for (int t = 0; t < steps; t++) {
    jacobi_step<<<blocks, threads>>>(A, B, n);
    jacobi_copy<<<blocks, threads>>>(A, B, n);
  }
}
