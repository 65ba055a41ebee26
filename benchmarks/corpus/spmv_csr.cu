// Sparse matrix-vector product y = A * x with A in CSR, the two classic
// kernels (Bell & Garland): spmv_csr_scalar, one thread per row looping
// from row_ptr[row] to row_ptr[row + 1]; spmv_csr_vector, one warp per row,
// lanes striding through the row and a __shared__ reduction without
// barriers between the steps of one warp (volatile, warp-synchronous, then
// __syncwarp), as older code does.
//
// The spec language cannot describe a general CSR structure, so the inputs
// are a valid special case: row_ptr = index(NZR, 0) gives every row NZR
// nonzeros, col_idx = int(0, C - 1) gives in-range columns (C is the same
// in every instance, as distributions require).
#include <cuda_runtime.h>

#pragma optiml kernel sizes(R = 1 << 20, C = 1 << 20, NZR = 32) \
    in(row_ptr[R + 1], col_idx[R * NZR], vals[R * NZR], x[C]) out(y[R]) \
    scalar(num_rows = R) grid((R + 255) / 256) block(256) \
    dist(row_ptr = index(NZR, 0), col_idx = int(0, C - 1)) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: R = 10007)
__global__ void spmv_csr_scalar(const int *row_ptr, const int *col_idx,
                                const float *vals, const float *x, float *y,
                                int num_rows) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0;
    int row_start = row_ptr[row];
    int row_end = row_ptr[row + 1];
    for (int jj = row_start; jj < row_end; jj++)
      dot += vals[jj] * x[col_idx[jj]];
    y[row] = dot;
  }
}

#define WARPS_PER_BLOCK 8

#pragma optiml kernel sizes(R = 1 << 20, C = 1 << 20, NZR = 32) \
    in(row_ptr[R + 1], col_idx[R * NZR], vals[R * NZR], x[C]) out(y[R]) \
    scalar(num_rows = R) grid((R + 7) / 8) block(256) \
    dist(row_ptr = index(NZR, 0), col_idx = int(0, C - 1)) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: R = 10007)
__global__ void spmv_csr_vector(const int *row_ptr, const int *col_idx,
                                const float *vals, const float *x, float *y,
                                int num_rows) {
  __shared__ float sums[WARPS_PER_BLOCK * 32];
  int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  int warp_id = thread_id / 32;
  int lane = thread_id & 31;
  int row = warp_id;

  if (row < num_rows) {
    int row_start = row_ptr[row];
    int row_end = row_ptr[row + 1];
    float partial = 0;
    for (int jj = row_start + lane; jj < row_end; jj += 32)
      partial += vals[jj] * x[col_idx[jj]];
    volatile float *vs = sums;
    vs[threadIdx.x] = partial;
    __syncwarp();
    if (lane < 16) vs[threadIdx.x] = partial = partial + vs[threadIdx.x + 16];
    __syncwarp();
    if (lane < 8) vs[threadIdx.x] = partial = partial + vs[threadIdx.x + 8];
    __syncwarp();
    if (lane < 4) vs[threadIdx.x] = partial = partial + vs[threadIdx.x + 4];
    __syncwarp();
    if (lane < 2) vs[threadIdx.x] = partial = partial + vs[threadIdx.x + 2];
    __syncwarp();
    if (lane < 1) vs[threadIdx.x] = partial = partial + vs[threadIdx.x + 1];
    if (lane == 0)
      y[row] = vs[threadIdx.x];
  }
}
