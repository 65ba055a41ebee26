// Block-wide primitives from CUB, the way library-using code writes them.
// row_sums_cub: a block per row, a block-stride loop into a register, then
// `cub::BlockReduce<float, BLOCK>::Sum`; BLOCK is a template parameter,
// explicitly instantiated. flag_offsets_cub: the per-block step of a stream
// compaction: BlockLoad (warp-transposed, guarded with a 0 default) of
// ITEMS flags per thread, `cub::BlockScan<int, BLOCK>::ExclusiveSum` with
// the block aggregate, BlockStore of the offsets, and the block's count for
// a later pass; its TempStorage types share one __shared__ union, and the
// only instantiation is the launch at the bottom. row_scale_cub: the
// per-row scale of int8 quantization (max |x| / 127) with
// `BlockReduce::Reduce` and a functor, written as in a header: neither
// instantiated nor launched here, so the spec's template(...) clause gives
// BLOCK.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(R = 32768, C = 4096) in(mat[R * C]) out(sums[R]) \
    scalar(rows = R, cols = C) grid(R) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: R = 333, C = 1001)
template <int BLOCK>
__global__ void row_sums_cub(const float *mat, float *sums, int rows,
                             int cols) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;

  int row = blockIdx.x;
  const float *src = mat + (size_t)row * cols;
  float thread_sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    thread_sum += src[c];

  float total = BlockReduce(temp_storage).Sum(thread_sum);
  if (threadIdx.x == 0)
    sums[row] = total;
}

template __global__ void row_sums_cub<256>(const float *, float *, int, int);

#pragma optiml kernel sizes(N = 1 << 27) in(flags[N]) \
    out(offsets[N], block_counts[(N + 1023) / 1024]) scalar(n = N) \
    grid((N + 1023) / 1024) block(256) dist(flags = int(0, 1)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
template <int BLOCK, int ITEMS>
__global__ void flag_offsets_cub(const int *flags, int *offsets,
                                 int *block_counts, int n) {
  typedef cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>
      BlockLoadT;
  typedef cub::BlockScan<int, BLOCK> BlockScanT;
  typedef cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>
      BlockStoreT;
  __shared__ union {
    typename BlockLoadT::TempStorage load;
    typename BlockScanT::TempStorage scan;
    typename BlockStoreT::TempStorage store;
  } temp;

  const int tile_size = BLOCK * ITEMS;
  int tile_start = blockIdx.x * tile_size;
  int valid = min(tile_size, n - tile_start);

  int items[ITEMS];
  BlockLoadT(temp.load).Load(flags + tile_start, items, valid, 0);
  __syncthreads();

  int block_total;
  BlockScanT(temp.scan).ExclusiveSum(items, items, block_total);
  __syncthreads();

  BlockStoreT(temp.store).Store(offsets + tile_start, items, valid);
  if (threadIdx.x == 0)
    block_counts[blockIdx.x] = block_total;
}

struct AbsMax {
  __device__ __forceinline__ float operator()(float a, float b) const {
    return fmaxf(a, b);
  }
};

#pragma optiml kernel template(BLOCK = 128) sizes(R = 65536, C = 2048) \
    in(x[R * C]) out(scale[R]) scalar(rows = R, cols = C) grid(R) block(128) \
    dist(x = normal(0, 2)) tolerance(rtol = 1e-6, atol = 0) \
    instance(odd: R = 333, C = 1001)
template <int BLOCK>
__global__ void row_scale_cub(const float *x, float *scale, int rows,
                              int cols) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;

  const float *xr = x + (size_t)blockIdx.x * cols;
  float amax = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    amax = fmaxf(amax, fabsf(xr[c]));
  amax = BlockReduce(temp_storage).Reduce(amax, AbsMax());
  if (threadIdx.x == 0)
    scale[blockIdx.x] = amax > 0.0f ? amax / 127.0f : 1.0f;
}

void row_sums(const float *d_mat, float *d_sums, int rows, int cols,
              cudaStream_t stream) {
  row_sums_cub<256><<<rows, 256, 0, stream>>>(d_mat, d_sums, rows, cols);
}

// First pass of a stream compaction: offsets within each tile of 1024 flags
// and the tile counts (the counts are scanned and added in a second pass).
void compaction_offsets(const int *d_flags, int *d_offsets, int *d_counts,
                        int n, cudaStream_t stream) {
  const int threads = 256, items = 4;
  int tiles = (n + threads * items - 1) / (threads * items);
  flag_offsets_cub<threads, items>
      <<<tiles, threads, 0, stream>>>(d_flags, d_offsets, d_counts, n);
}
