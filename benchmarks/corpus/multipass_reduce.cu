// A two-pass reduction and a row argmax, as programs write them without a
// library. reduce_pass1: a grid-stride loop sums into a register, then a
// __shared__ tree (sequential addressing, a barrier per step) gives one
// partial per block; the grid is capped (min(blocks, 1024)) so a block
// loops over many elements. reduce_pass2: the second launch, one block of
// 1024 threads folding all the partials (a block-stride loop, then the same
// tree) into the result. The two are timed separately; pass 2 is given many
// partials, as when pass 1 runs one block per 256 elements. row_argmax: a
// block per row; each thread keeps (value, index) with the first maximum,
// and a tree over two __shared__ arrays keeps the larger value, the smaller
// index on ties; it writes both the maximum and its column.
#include <algorithm>
#include <climits>
#include <cuda_runtime.h>
#include <math.h>

#define RED_THREADS 256
#define RED_MAX_BLOCKS 1024
#define FINAL_THREADS 1024

#pragma optiml kernel sizes(N = 1 << 27) in(in[N]) \
    out(partials[min((N + 255) / 256, 1024)]) scalar(n = N) \
    grid(min((N + 255) / 256, 1024)) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: N = 100003)
__global__ void reduce_pass1(const float *in, float *partials, int n) {
  __shared__ float sdata[RED_THREADS];
  unsigned int tid = threadIdx.x;

  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  sdata[tid] = sum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partials[blockIdx.x] = sdata[0];
}

#pragma optiml kernel sizes(P = 1 << 22) in(partials[P]) out(result[1]) \
    scalar(num_partials = P) grid(1) block(1024) \
    tolerance(rtol = 1e-4, atol = 1e-2) instance(odd: P = 1001)
__global__ void reduce_pass2(const float *partials, float *result,
                             int num_partials) {
  __shared__ float sdata[FINAL_THREADS];
  unsigned int tid = threadIdx.x;

  float sum = 0.0f;
  for (int i = tid; i < num_partials; i += blockDim.x)
    sum += partials[i];
  sdata[tid] = sum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    result[0] = sdata[0];
}

#define ARGMAX_THREADS 256

#pragma optiml kernel sizes(R = 32768, C = 4096) in(x[R * C]) \
    out(max_val[R], max_idx[R]) scalar(rows = R, cols = C) grid(R) block(256) \
    dist(x = normal(0, 1)) tolerance(rtol = 0, atol = 0) \
    instance(odd: R = 333, C = 1001)
__global__ void row_argmax(const float *x, float *max_val, int *max_idx,
                           int rows, int cols) {
  __shared__ float s_val[ARGMAX_THREADS];
  __shared__ int s_idx[ARGMAX_THREADS];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows)
    return;

  float best = -INFINITY;
  int best_idx = INT_MAX;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = x[(size_t)row * cols + c];
    if (v > best) {
      best = v;
      best_idx = c;
    }
  }
  s_val[tid] = best;
  s_idx[tid] = best_idx;
  __syncthreads();

  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float other = s_val[tid + s];
      int other_idx = s_idx[tid + s];
      if (other > s_val[tid] ||
          (other == s_val[tid] && other_idx < s_idx[tid])) {
        s_val[tid] = other;
        s_idx[tid] = other_idx;
      }
    }
    __syncthreads();
  }
  if (tid == 0) {
    max_val[row] = s_val[0];
    max_idx[row] = s_idx[0];
  }
}

// Sum of a device vector: pass 1 into d_partials (at least RED_MAX_BLOCKS
// floats), pass 2 into d_result.
void device_sum(const float *d_in, float *d_partials, float *d_result, int n,
                cudaStream_t stream) {
  int blocks = std::min((n + RED_THREADS - 1) / RED_THREADS, RED_MAX_BLOCKS);
  reduce_pass1<<<blocks, RED_THREADS, 0, stream>>>(d_in, d_partials, n);
  reduce_pass2<<<1, FINAL_THREADS, 0, stream>>>(d_partials, d_result, blocks);
}

void argmax_rows(const float *d_x, float *d_val, int *d_idx, int rows,
                 int cols) {
  row_argmax<<<rows, ARGMAX_THREADS>>>(d_x, d_val, d_idx, rows, cols);
}
