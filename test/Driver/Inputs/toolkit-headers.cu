// Kernels that include what real CUDA programs include: cooperative groups,
// CUB, cuda::std, Thrust's complex, and the 16- and 8-bit float types.
// Every one is compiled by nvcc as it is, so every one must parse.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <thrust/complex.h>

namespace cg = cooperative_groups;

#pragma optiml kernel sizes(N = 1 << 20) in(x[N]) out(partial[N / 256]) \
    scalar(n = N) grid(N / 256) block(256) tolerance(rtol = 1e-4, atol = 1e-4)
__global__ void tile_sum(const float *x, float *partial, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float warps[8];
  int i = block.group_index().x * block.size() + block.thread_rank();
  float v = i < n ? x[i] : 0.0f;
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0)
    warps[warp.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() == 0) {
    float s = 0;
    for (int w = 0; w < 8; ++w)
      s += warps[w];
    partial[block.group_index().x] = s;
  }
}

#pragma optiml kernel sizes(R = 4096, C = 1024) in(a[R * C]) out(sums[R]) \
    scalar(cols = C) grid(R) block(256) tolerance(rtol = 1e-4, atol = 1e-3)
__global__ void cub_row_sums(const float *a, float *sums, int cols) {
  using Reduce = cub::BlockReduce<float, 256>;
  __shared__ typename Reduce::TempStorage temp;
  float v = 0;
  for (int c = threadIdx.x; c < cols; c += 256)
    v += a[blockIdx.x * cols + c];
  float total = Reduce(temp).Sum(v);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = total;
}

#pragma optiml kernel sizes(N = 1 << 20) in(x[N]) out(y[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256) tolerance(rtol = 1e-2, atol = 1e-2)
__global__ void through_half(const float *x, float *y, int n) {
  using index_t = cuda::std::int64_t;
  static_assert(cuda::std::is_signed<index_t>::value, "signed index");
  index_t i = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half h = __float2half(x[i]);
  __nv_bfloat16 b = __float2bfloat16(x[i]);
  __nv_fp8_e4m3 e(x[i]);
  y[i] = __half2float(__hmul(h, h)) + __bfloat162float(b) + float(e) +
         (x[i] > cuda::std::numeric_limits<float>::max() ? 1.0f : 0.0f);
}

#pragma optiml kernel sizes(N = 1 << 20) in(re[N], im[N]) out(mag[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-6)
__global__ void complex_abs(const float *re, const float *im, float *mag,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    mag[i] = thrust::abs(thrust::complex<float>(re[i], im[i]));
}
