// Kernels whose SASS the unit tests need: a shared-tiled SGEMM (shared
// loads feeding FFMAs) and a kernel that spills under -maxrregcount.
#define T 16
__global__ void sgemm_tiled(const float *A, const float *B, float *C, int N) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (int t = 0; t < N; t += T) {
    As[ty][tx] = A[row * N + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void spill(const float *in, float *out, const int *idx, int n) {
  float v[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    v[k] = in[i + k * n];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    s += v[k] * v[(k + 7) % 32] + __sinf(v[k]);
  out[i] = s + v[idx[i] & 31];
}
