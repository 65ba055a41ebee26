// warp-per-row(grid=spread): the grid grows by the group's size, so that
// each group of lanes takes one row and the kernel keeps as many warps in
// flight as it had threads; every launch and the kernel's mark change with
// it. It is the default wherever the launches allow it.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=row_sums/for#0)' --apply='warp-per-row(site=gemv/for#0,lanes=8)' --apply='warp-per-row(site=fixed_grid/for#0,lanes=16,grid=spread)' -o %t.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// NOTE: 'row_sums' is not launched in this file: its callers must now launch it with block(128) and grid((R + 3) / 4)
//
// --list-sites offers the spread where it is possible, and keeps the grid
// where it is not.
// RUN: %clang-optiml %s --list-sites --kernel=row_sums | %FileCheck --check-prefix=LIST %s
// LIST: warp-per-row  row_sums/for#0 {{ *}}legal: --apply='warp-per-row(site=row_sums/for#0,lanes=32,grid=spread)'
// RUN: %clang-optiml %s --list-sites --kernel=odd_block | %FileCheck --check-prefix=ODD %s
// ODD: warp-per-row  odd_block/for#0 {{ *}}legal: --apply='warp-per-row(site=odd_block/for#0,lanes=32,grid=keep)'
//
// Asked for, the spread is refused where a group would straddle blocks or
// where the grid is not written as ceil(N / B).
// RUN: not %clang-optiml %s --apply='warp-per-row(site=odd_block/for#0,grid=spread)' -o %t-odd.cu 2>&1 | %FileCheck --check-prefix=REFUSED-ODD %s
// REFUSED-ODD: warp-per-row(site=odd_block/for#0,grid=spread) is not applicable: the block's 48 threads in x are not a multiple of 32 lanes: spread the grid only over whole groups (grid=keep keeps it)
// RUN: not %clang-optiml %s --apply='warp-per-row(site=truncated/for#0,grid=spread)' -o %t-trunc.cu 2>&1 | %FileCheck --check-prefix=REFUSED-TRUNC %s
// REFUSED-TRUNC: warp-per-row(site=truncated/for#0,grid=spread) is illegal: grid x 'm / 128' is not ceil(N / 128) in a known form ((N + 127) / 128, ceil_div(N, 128)), so it cannot grow to a group per row
// RUN: not test -e %t-odd.cu
// RUN: not test -e %t-trunc.cu

#include <cuda_runtime.h>

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// A row sum with no launch in the file: the mark is the launch.
// CHECK:      {{^}}#pragma optiml kernel sizes(R = 4096, C = 1024) in(mat[R * C]) out(sums[R]) \{{$}}
// CHECK-NEXT: {{^}}    scalar(rows = R, cols = C) grid((R + 3) / 4) block(128){{$}}
// CHECK-LABEL: {{^}}__global__ void row_sums(
// CHECK-NEXT: {{^}}  // warp-per-row: a group of 32 lanes takes each row; the lanes stride the
// CHECK-NEXT: {{^}}  // row's loops and shuffles combine their results.
// CHECK-NEXT: {{^}}  // The grid grew 32-fold: a group per row.
// CHECK-NEXT: {{^}}  const unsigned optiml_lane = threadIdx.x % 32;
// CHECK-NEXT: {{^}}  const unsigned optiml_mask = 0xffffffffu;
// CHECK-NEXT: {{^}}  if (threadIdx.x >= blockDim.x - blockDim.x % 32)
// CHECK-NEXT: {{^}}    return; // Too few threads left in the block for a group.
// CHECK-NEXT: {{^}}  const unsigned long long optiml_rows =
// CHECK-NEXT: {{^}}      (unsigned long long)gridDim.x * (blockDim.x / 32);
// CHECK-NEXT: {{^}}  for (unsigned long long optiml_row =
// CHECK-NEXT: {{^}}           (unsigned long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
// CHECK-NEXT: {{^}}       optiml_row < optiml_rows;
// CHECK-NEXT: {{^}}       optiml_row += (unsigned long long)gridDim.x * (blockDim.x / 32)) {
// CHECK-NEXT: {{^}}    int r = (int)optiml_row;
#pragma optiml kernel sizes(R = 4096, C = 1024) in(mat[R * C]) out(sums[R]) \
    scalar(rows = R, cols = C) grid((R + 127) / 128) block(128)
__global__ void row_sums(const float *mat, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += mat[(size_t)r * cols + c];
    sums[r] = s;
  }
}

// Launched here: the launch's grid grows, in its own form.
// CHECK-LABEL: {{^}}__global__ void gemv(
// CHECK:      {{^}}  // The grid grew 8-fold: a group per row.
// CHECK:      {{^}}      (unsigned long long)gridDim.x * (blockDim.x / 8);
__global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
      sum += A[row * n + j] * x[j];
    y[row] = sum;
  }
}

void run_gemv(const float *A, const float *x, float *y, int m, int n) {
  // CHECK: gemv<<<ceil_div(m, 32), 256>>>(A, x, y, m, n);
  gemv<<<ceil_div(m, 256), 256>>>(A, x, y, m, n);
}

// A fixed grid in the mark covers the same threads, now in groups of 16
// (the kernel guards its rows).
// CHECK: {{^}}    scalar(n = N) grid(ceil_div((2048) * 256, 16)) block(256){{$}}
#pragma optiml kernel sizes(N = 100000, K = 64) in(v[N * K]) out(norms[N]) \
    scalar(n = N) grid(2048) block(256)
__global__ void fixed_grid(const float *v, float *norms, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int k = 0; k < 64; ++k)
    s += v[i * 64 + k] * v[i * 64 + k];
  norms[i] = sqrtf(s);
}

// A block of 48 threads: a group of 32 would straddle two rows' blocks.
#pragma optiml kernel sizes(M = 1000, N = 100) in(a[M * N]) out(out[M]) \
    scalar(m = M, n = N) grid((M + 47) / 48) block(48)
__global__ void odd_block(const float *a, float *out, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float s = 0.0f;
    for (int j = 0; j < n; ++j)
      s += a[row * n + j];
    out[row] = s;
  }
}

// A truncating grid: the rows past the last whole block are not launched.
__global__ void truncated(const float *a, float *out, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    s += a[row * n + j];
  out[row] = s;
}

void run_truncated(const float *a, float *out, int m, int n) {
  truncated<<<m / 128, 128>>>(a, out, m, n);
}
