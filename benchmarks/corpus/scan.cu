// Prefix sums. scan_block_hs: the naive Hillis-Steele inclusive scan of
// each block's segment (GPU Gems 3, ch. 39, before work efficiency),
// double-buffered in dynamic shared memory with `pout = 1 - pout` ping-pong,
// writing the scanned segment and the block's total (a later pass would add
// the totals). count_offsets: the same scan in place in one static array,
// the neighbour read into a register between two barriers, as tutorials
// write it, on integer flags (the offsets of a stream compaction).
// cumsum_rows: one thread per row scanning it sequentially, the first
// thing people write for a row-wise cumsum. Launched from a host function.
#include <cuda_runtime.h>

#define SCAN_BLOCK 512

#pragma optiml kernel sizes(N = 1 << 26) in(in[N]) out(out[N], block_sums[(N + 511) / 512]) \
    scalar(n = N) grid((N + 511) / 512) block(512) shmem(2 * 512 * 4) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: N = 70001)
__global__ void scan_block_hs(const float *in, float *out, float *block_sums,
                              int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + thid;
  int pout = 0, pin = 1;

  temp[pout * blockDim.x + thid] = (gid < n) ? in[gid] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (thid >= offset)
      temp[pout * blockDim.x + thid] =
          temp[pin * blockDim.x + thid] + temp[pin * blockDim.x + thid - offset];
    else
      temp[pout * blockDim.x + thid] = temp[pin * blockDim.x + thid];
    __syncthreads();
  }
  if (gid < n)
    out[gid] = temp[pout * blockDim.x + thid];
  if (thid == blockDim.x - 1)
    block_sums[blockIdx.x] = temp[pout * blockDim.x + thid];
}

#define COUNT_BLOCK 256

#pragma optiml kernel sizes(N = 1 << 26) in(flags[N])out(offsets[N])           \
    scalar(n = N) grid((N + 255) / 256) block(256) dist(flags = int(0, 1))     \
        tolerance(rtol = 0, atol = 0) instance(odd                             \
                                               : N = 70001)
__global__ void count_offsets(const int *flags, int *offsets, int n) {
  __shared__ int sdata[COUNT_BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * COUNT_BLOCK + tid;
  sdata[tid] = i < n ? flags[i] : 0;
  __syncthreads();
  for (unsigned int offset = 1; offset < COUNT_BLOCK; offset *= 2) {
    int temp = 0;
    if (tid >= offset)
      temp = sdata[tid - offset];
    __syncthreads();
    if (tid >= offset)
      sdata[tid] += temp;
    __syncthreads();
  }
  if (i < n)
    offsets[i] = sdata[tid];
}

#pragma optiml kernel sizes(R = 32768, C = 2048) in(in[R * C]) out(out[R * C]) \
    scalar(rows = R, cols = C) grid((R + 255) / 256) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: R = 333, C = 1001)
__global__ void cumsum_rows(const float *in, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float running = 0.0f;
  for (int c = 0; c < cols; ++c) {
    running += in[row * cols + c];
    out[row * cols + c] = running;
  }
}

void scan_launch(const float *in, float *out, float *sums, int n, int rows,
                 int cols) {
  int blocks = (n + SCAN_BLOCK - 1) / SCAN_BLOCK;
  scan_block_hs<<<blocks, SCAN_BLOCK, 2 * SCAN_BLOCK * sizeof(float)>>>(
      in, out, sums, n);
  cumsum_rows<<<(rows + 255) / 256, 256>>>(in, out, rows, cols);
}

void compact_offsets(const int *flags, int *offsets, int n) {
  count_offsets<<<(n + COUNT_BLOCK - 1) / COUNT_BLOCK, COUNT_BLOCK>>>(
      flags, offsets, n);
}
