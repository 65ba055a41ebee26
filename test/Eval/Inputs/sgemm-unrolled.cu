// sgemm with its inner loop unrolled by 4: a correct candidate.
__global__ void sgemm(const float *A, const float *B, float *C, int m, int n,
                      int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
#pragma unroll 4
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}
