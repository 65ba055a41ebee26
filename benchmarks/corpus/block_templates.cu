// Kernels templated on the block size and the work per thread, as tuned
// library code writes them, with warp-shuffle reductions.
// block_max_abs: each block takes a tile of BLOCK_SIZE * ITEMS elements
// (ITEMS strided loads per thread), reduces max |x| with a __shfl_down_sync
// ladder per warp, the warp results through __shared__, and writes one
// partial per block. l2_normalize_rows: a warp per row, the row cached in
// registers (COLS_PER_LANE per lane, so rows up to 32 * COLS_PER_LANE),
// the sum of squares all-reduced with a __shfl_xor_sync butterfly so every
// lane holds it, then the row scaled by rsqrtf. block_dot: per-block
// partial dot products, the template parameters with defaults and the
// launch written `block_dot<>`. None is explicitly instantiated: the
// launches in the host functions are the only instantiations.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_down_sync(FULL_MASK, v, offset));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__device__ __forceinline__ float warp_allreduce_sum(float v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v += __shfl_xor_sync(FULL_MASK, v, mask);
  return v;
}

#pragma optiml kernel sizes(N = 1 << 27) in(x[N]) \
    out(block_max[(N + 1023) / 1024]) scalar(n = N) \
    grid((N + 1023) / 1024) block(256) dist(x = normal(0, 1)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
template <int BLOCK_SIZE, int ITEMS>
__global__ void block_max_abs(const float *x, float *block_max, int n) {
  __shared__ float warp_results[BLOCK_SIZE / 32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int base = blockIdx.x * BLOCK_SIZE * ITEMS + threadIdx.x;

  float m = 0.0f;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    int i = base + k * BLOCK_SIZE;
    if (i < n)
      m = fmaxf(m, fabsf(x[i]));
  }

  m = warp_max(m);
  if (lane == 0)
    warp_results[warp] = m;
  __syncthreads();

  if (warp == 0) {
    m = lane < BLOCK_SIZE / 32 ? warp_results[lane] : 0.0f;
    m = warp_max(m);
    if (lane == 0)
      block_max[blockIdx.x] = m;
  }
}

#pragma optiml kernel sizes(R = 1 << 17, C = 1024) in(x[R * C]) out(y[R * C]) \
    scalar(rows = R, cols = C, eps = 1e-12) grid((R + 7) / 8) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-6) instance(odd: R = 333, C = 1001)
template <int BLOCK_SIZE, int COLS_PER_LANE>
__global__ void l2_normalize_rows(const float *x, float *y, int rows, int cols,
                                  float eps) {
  const int warps_per_block = BLOCK_SIZE / 32;
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * warps_per_block + threadIdx.x / 32;
  if (row >= rows)
    return;

  const float *xr = x + (size_t)row * cols;
  float *yr = y + (size_t)row * cols;
  float vals[COLS_PER_LANE];
  float sq = 0.0f;
#pragma unroll
  for (int k = 0; k < COLS_PER_LANE; ++k) {
    int c = k * 32 + lane;
    vals[k] = c < cols ? xr[c] : 0.0f;
    sq += vals[k] * vals[k];
  }

  sq = warp_allreduce_sum(sq);
  float inv = rsqrtf(fmaxf(sq, eps));

#pragma unroll
  for (int k = 0; k < COLS_PER_LANE; ++k) {
    int c = k * 32 + lane;
    if (c < cols)
      yr[c] = vals[k] * inv;
  }
}

#pragma optiml kernel sizes(N = 1 << 27) in(a[N], b[N]) \
    out(partial[(N + 2047) / 2048]) scalar(n = N) \
    grid((N + 2047) / 2048) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: N = 100003)
template <int BLOCK_SIZE = 256, int ITEMS = 8>
__global__ void block_dot(const float *a, const float *b, float *partial,
                          int n) {
  __shared__ float warp_sums[BLOCK_SIZE / 32];
  int base = blockIdx.x * BLOCK_SIZE * ITEMS + threadIdx.x;

  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    int i = base + k * BLOCK_SIZE;
    if (i < n)
      s += a[i] * b[i];
  }

  s = warp_sum(s);
  if (threadIdx.x % 32 == 0)
    warp_sums[threadIdx.x / 32] = s;
  __syncthreads();

  if (threadIdx.x < 32) {
    s = threadIdx.x < BLOCK_SIZE / 32 ? warp_sums[threadIdx.x] : 0.0f;
    s = warp_sum(s);
    if (threadIdx.x == 0)
      partial[blockIdx.x] = s;
  }
}

void launch_max_abs(const float *d_x, float *d_block_max, int n,
                    cudaStream_t stream) {
  constexpr int kBlock = 256, kItems = 4;
  int blocks = (n + kBlock * kItems - 1) / (kBlock * kItems);
  block_max_abs<kBlock, kItems><<<blocks, kBlock, 0, stream>>>(d_x, d_block_max,
                                                                n);
}

void launch_l2_normalize(const float *d_x, float *d_y, int rows, int cols,
                         cudaStream_t stream) {
  // Rows up to 1024 columns: 32 registers per lane.
  l2_normalize_rows<256, 32><<<(rows + 7) / 8, 256, 0, stream>>>(
      d_x, d_y, rows, cols, 1e-12f);
}

void launch_dot_partials(const float *d_a, const float *d_b, float *d_partial,
                         int n) {
  block_dot<><<<(n + 2047) / 2048, 256>>>(d_a, d_b, d_partial, n);
}
