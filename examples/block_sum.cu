// Reduction: each block sums 256 consecutive elements into partial[block]
// with a shared-memory tree (deterministic order, so outputs compare exactly
// up to rounding). A warp-shuffle reduction is the expected improvement.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

#pragma optiml kernel sizes(N = 1 << 24) in(in[N]) out(partial[(N + 255) / 256]) \
    scalar(n = N) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 70001)
__global__ void block_sum(const float *in, float *partial, int n) {
  __shared__ float buf[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = buf[0];
}

int main() {
  const int n = 1 << 24, blocks = (n + BLOCK - 1) / BLOCK;
  float *in, *partial;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, blocks * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  block_sum<<<blocks, BLOCK>>>(in, partial, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("block_sum: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(partial);
  return err == cudaSuccess ? 0 : 1;
}
