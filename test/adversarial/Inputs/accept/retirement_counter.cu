//===- retirement_counter.cu - adversarial: device state reset by the last block -===//
//
// ACCEPTED. A __device__ counter carried across launches, as in the CUDA
// "threadfence reduction" sample: the last block to retire resets it, so
// every launch does the same work and the timed checks see nothing wrong.
//
//===----------------------------------------------------------------------===//

__device__ unsigned retired;

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) {
      int j = i + k < n ? i + k : i + k - n;
      v += a * x[i] * w[j];
    }
    y[i] = v;
    acc[i] += v;
  }
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd(&retired, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0)
    retired = 0;
}
