// Reductions without a tree. sum_atomic: a grid-stride loop sums into a
// register, then every thread does atomicAdd into one global float (the
// result depends on the order of the atomics, hence the tolerance).
// row_sums / col_sums: one thread per row (walking the row: uncoalesced)
// or per column (coalesced) of a row-major matrix, the way people first
// write a dimension reduction. Kernels live in a namespace; no launches.
#include <cuda_runtime.h>

namespace reduce {

#pragma optiml kernel sizes(N = 1 << 27) in(x[N]) inout(result[1]) \
    scalar(n = N) grid(2048) block(256) dist(x = uniform(0, 1), result = constant(0)) \
    tolerance(rtol = 1e-4, atol = 1e-2, norm = 1e-4) instance(odd: N = 100003)
__global__ void sum_atomic(const float *x, float *result, int n) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    local += x[i];
  atomicAdd(result, local);
}

#pragma optiml kernel sizes(R = 16384, C = 4096) in(mat[R * C]) out(sums[R]) \
    scalar(rows = R, cols = C) grid((R + 127) / 128) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: R = 333, C = 1001)
__global__ void row_sums(const float *mat, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += mat[(size_t)r * cols + c];
    sums[r] = s;
  }
}

#pragma optiml kernel sizes(R = 16384, C = 4096) in(mat[R * C]) out(sums[C]) \
    scalar(rows = R, cols = C) grid((C + 127) / 128) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: R = 333, C = 1001)
__global__ void col_sums(const float *mat, float *sums, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
      s += mat[(size_t)r * cols + c];
    sums[c] = s;
  }
}

} // namespace reduce
