// Takes doubles: cannot run with the reference's arguments.
__global__ void sgemm(const double *A, const double *B, double *C, int m, int n,
                      int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  double acc = 0.0f;
#pragma unroll 4
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}
