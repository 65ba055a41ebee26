// Reductions written with cooperative groups, as newer code and the CUDA
// programming guide write them. block_sum_cg: a grid-stride loop into a
// register, then `cg::reduce(tile, v, cg::plus<float>())` over each
// 32-thread tile of `cg::this_thread_block()`, the tile sums through a
// __shared__ array, and one partial per block (a second pass or the host
// adds the gridDim.x partials). sum_atomic_cg: the same per-thread loop,
// then a hand-written `tile.shfl_down` loop and one atomicAdd per tile into
// a single float (order-dependent, hence the loose tolerance). row_max_cg:
// a tile per row, `cg::reduce` with `cg::greater<float>()` (exact).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CG_THREADS 256
#define CG_BLOCKS 1024

#pragma optiml kernel sizes(N = 1 << 27) in(x[N]) out(partials[1024]) \
    scalar(n = N) grid(1024) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: N = 100003)
__global__ void block_sum_cg(const float *x, float *partials, int n) {
  __shared__ float tile_sums[CG_THREADS / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i];

  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    tile_sums[tile.meta_group_rank()] = v;
  block.sync();

  if (tile.meta_group_rank() == 0) {
    float s = tile.thread_rank() < tile.meta_group_size()
                  ? tile_sums[tile.thread_rank()]
                  : 0.0f;
    s = cg::reduce(tile, s, cg::plus<float>());
    if (tile.thread_rank() == 0)
      partials[blockIdx.x] = s;
  }
}

#pragma optiml kernel sizes(N = 1 << 27) in(x[N]) inout(result[1]) \
    scalar(n = N) grid(1024) block(256) \
    dist(x = uniform(0, 1), result = constant(0)) \
    tolerance(rtol = 1e-3, atol = 1e-2, norm = 1e-3) instance(odd: N = 100003)
__global__ void sum_atomic_cg(const float *x, float *result, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

  float v = 0.0f;
  unsigned int stride = gridDim.x * block.size();
  for (unsigned int i = block.group_index().x * block.size() +
                        block.thread_rank();
       i < n; i += stride)
    v += x[i];

  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);

  if (tile.thread_rank() == 0)
    atomicAdd(result, v);
}

#pragma optiml kernel sizes(R = 65536, C = 2048) in(x[R * C]) out(row_max[R]) \
    scalar(rows = R, cols = C) grid((R + 7) / 8) block(256) \
    dist(x = normal(0, 10)) tolerance(rtol = 0, atol = 0) \
    instance(odd: R = 333, C = 1001)
__global__ void row_max_cg(const float *x, float *row_max, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= rows)
    return;

  const float *xr = x + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = warp.thread_rank(); c < cols; c += warp.size())
    m = fmaxf(m, xr[c]);
  m = cg::reduce(warp, m, cg::greater<float>());
  if (warp.thread_rank() == 0)
    row_max[row] = m;
}

float sum_on_device(const float *d_x, float *d_partials, float *d_result,
                    int n, cudaStream_t stream) {
  block_sum_cg<<<CG_BLOCKS, CG_THREADS, 0, stream>>>(d_x, d_partials, n);
  float h_partials[CG_BLOCKS];
  cudaMemcpyAsync(h_partials, d_partials, sizeof(h_partials),
                  cudaMemcpyDeviceToHost, stream);
  cudaMemsetAsync(d_result, 0, sizeof(float), stream);
  sum_atomic_cg<<<CG_BLOCKS, CG_THREADS, 0, stream>>>(d_x, d_result, n);
  cudaStreamSynchronize(stream);
  float total = 0.0f;
  for (int b = 0; b < CG_BLOCKS; ++b)
    total += h_partials[b];
  return total;
}

void row_max(const float *d_x, float *d_max, int rows, int cols) {
  int rows_per_block = CG_THREADS / 32;
  row_max_cg<<<(rows + rows_per_block - 1) / rows_per_block, CG_THREADS>>>(
      d_x, d_max, rows, cols);
}
