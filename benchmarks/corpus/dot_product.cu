// Dot product, "CUDA by Example" style: a fixed number of blocks, a
// grid-stride `while (tid < n)` loop accumulating a per-thread sum, a
// __shared__ cache sized by a #define, a `while (i != 0)` tree halving `i`,
// and one partial per block (summed on the host). Launched from main with
// an imin-capped block count.
#include <cstdio>
#include <cuda_runtime.h>

#define imin(a, b) (a < b ? a : b)

const int threadsPerBlock = 256;

#pragma optiml kernel sizes(N = 1 << 26, BLOCKS = 1024) in(a[N], b[N]) \
    out(c[BLOCKS]) scalar(n = N) grid(BLOCKS) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: N = 100003)
__global__ void dot(const float *a, const float *b, float *c, int n) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;

  float temp = 0;
  while (tid < n) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[cacheIndex] = temp;
  __syncthreads();

  int i = blockDim.x / 2;
  while (i != 0) {
    if (cacheIndex < i)
      cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
    i /= 2;
  }

  if (cacheIndex == 0)
    c[blockIdx.x] = cache[0];
}

int main() {
  const int n = 1 << 26;
  const int blocksPerGrid = imin(1024, (n + threadsPerBlock - 1) / threadsPerBlock);
  float *a, *b, *partial;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&partial, blocksPerGrid * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  dot<<<blocksPerGrid, threadsPerBlock>>>(a, b, partial, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("dot: %s\n", cudaGetErrorString(err));
  cudaFree(a);
  cudaFree(b);
  cudaFree(partial);
  return err == cudaSuccess ? 0 : 1;
}
