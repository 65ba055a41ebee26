// Block reductions in the style of the CUDA samples' reduction example.
// reduce_interleaved: interleaved addressing with a modulo test
// (`tid % (2 * s) == 0`, divergent) over a `extern __shared__` buffer sized
// at launch. reduce_first_add: a template on the block size, explicitly
// instantiated, whose threads add two elements while loading and whose
// tree loop halves `s` with `>>=`. Both write one partial sum per block.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1 << 26) in(g_idata[N]) out(g_odata[(N + 255) / 256]) \
    scalar(n = N) grid((N + 255) / 256) block(256) shmem(256 * 4) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 70001)
__global__ void reduce_interleaved(const float *g_idata, float *g_odata,
                                   unsigned int n) {
  extern __shared__ float sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

template <unsigned int blockSize>
#pragma optiml kernel sizes(N = 1 << 26) in(g_idata[N]) out(g_odata[(N + 511) / 512]) \
    scalar(n = N) grid((N + 511) / 512) block(256) shmem(256 * 4) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: N = 70001)
__global__ void reduce_first_add(const float *g_idata, float *g_odata,
                                 unsigned int n) {
  extern __shared__ float sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;

  float mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n)
    mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0)
    g_odata[blockIdx.x] = mySum;
}

template __global__ void reduce_first_add<256>(const float *, float *,
                                               unsigned int);

void reduce(int n, int threads, int blocks, const float *d_idata,
            float *d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  int smemSize = threads * sizeof(float);
  reduce_interleaved<<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, n);
  reduce_first_add<256><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, n);
}
