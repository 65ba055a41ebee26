// Prefix sums built from warp shuffles. The helpers are templates on the
// element type: an inclusive Kogge-Stone scan over a warp with
// __shfl_up_sync (a lane adds only when `lane >= offset`), and an exclusive
// one from it (the inclusive value of the lane below, 0 in lane 0).
// block_scan_inclusive: a 1024-element segment per block of 1024 threads;
// each warp scans its 32 values, lane 31 publishes the warp total to
// __shared__, warp 0 scans the totals exclusively in place, and every
// thread adds its warp's offset; writes the scanned segment and the
// segment total. exclusive_scan_counts: the same on int counts with an
// exclusive result (the write offsets of a compaction or a CSR row_ptr),
// blocks of 256. cumsum_rows_warp: a warp per row walking it in chunks of
// 32, each chunk scanned and shifted by a carry that lane 31 broadcasts
// with __shfl_sync.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  int lane = threadIdx.x & 31;
  for (int offset = 1; offset < 32; offset <<= 1) {
    T up = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane >= offset)
      v += up;
  }
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_exclusive_scan(T v) {
  T inclusive = warp_inclusive_scan(v);
  T below = __shfl_up_sync(FULL_MASK, inclusive, 1);
  return (threadIdx.x & 31) == 0 ? T(0) : below;
}

#pragma optiml kernel sizes(N = 1 << 27) in(in[N]) \
    out(out[N], segment_sums[(N + 1023) / 1024]) scalar(n = N) \
    grid((N + 1023) / 1024) block(1024) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: N = 100003)
__global__ void block_scan_inclusive(const float *in, float *out,
                                     float *segment_sums, int n) {
  __shared__ float warp_offsets[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int gid = blockIdx.x * blockDim.x + threadIdx.x;

  float v = gid < n ? in[gid] : 0.0f;
  float scanned = warp_inclusive_scan(v);
  if (lane == 31)
    warp_offsets[warp] = scanned;
  __syncthreads();

  if (warp == 0) {
    float total = lane < blockDim.x / 32 ? warp_offsets[lane] : 0.0f;
    warp_offsets[lane] = warp_exclusive_scan(total);
  }
  __syncthreads();

  scanned += warp_offsets[warp];
  if (gid < n)
    out[gid] = scanned;
  if (threadIdx.x == blockDim.x - 1)
    segment_sums[blockIdx.x] = scanned;
}

#define COUNT_THREADS 256

#pragma optiml kernel sizes(N = 1 << 27) in(counts[N]) \
    out(offsets[N], block_totals[(N + 255) / 256]) scalar(n = N) \
    grid((N + 255) / 256) block(256) dist(counts = int(0, 8)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
__global__ void exclusive_scan_counts(const int *counts, int *offsets,
                                      int *block_totals, int n) {
  __shared__ int warp_sums[COUNT_THREADS / 32];
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int gid = blockIdx.x * COUNT_THREADS + threadIdx.x;

  int c = gid < n ? counts[gid] : 0;
  int before = warp_exclusive_scan(c);
  if (lane == 31)
    warp_sums[warp] = before + c;
  __syncthreads();

  if (warp == 0) {
    int s = lane < COUNT_THREADS / 32 ? warp_sums[lane] : 0;
    int s_before = warp_exclusive_scan(s);
    if (lane < COUNT_THREADS / 32)
      warp_sums[lane] = s_before;
    if (lane == COUNT_THREADS / 32 - 1)
      block_totals[blockIdx.x] = s_before + s;
  }
  __syncthreads();

  if (gid < n)
    offsets[gid] = before + warp_sums[warp];
}

#pragma optiml kernel sizes(R = 65536, C = 2048) in(in[R * C]) out(out[R * C]) \
    scalar(rows = R, cols = C) grid((R + 7) / 8) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: R = 333, C = 1001)
__global__ void cumsum_rows_warp(const float *in, float *out, int rows,
                                 int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;

  const float *src = in + (size_t)row * cols;
  float *dst = out + (size_t)row * cols;
  float carry = 0.0f;
  for (int base = 0; base < cols; base += 32) {
    int c = base + lane;
    float v = c < cols ? src[c] : 0.0f;
    v = warp_inclusive_scan(v) + carry;
    if (c < cols)
      dst[c] = v;
    carry = __shfl_sync(FULL_MASK, v, 31);
  }
}

void scan_segments(const float *d_in, float *d_out, float *d_sums, int n,
                   cudaStream_t stream) {
  block_scan_inclusive<<<(n + 1023) / 1024, 1024, 0, stream>>>(d_in, d_out,
                                                              d_sums, n);
}

void count_offsets(const int *d_counts, int *d_offsets, int *d_totals, int n,
                   cudaStream_t stream) {
  exclusive_scan_counts<<<(n + COUNT_THREADS - 1) / COUNT_THREADS,
                          COUNT_THREADS, 0, stream>>>(d_counts, d_offsets,
                                                      d_totals, n);
}

void cumsum_rows(const float *d_in, float *d_out, int rows, int cols) {
  const int warps_per_block = 8;
  cumsum_rows_warp<<<(rows + warps_per_block - 1) / warps_per_block,
                     32 * warps_per_block>>>(d_in, d_out, rows, cols);
}
