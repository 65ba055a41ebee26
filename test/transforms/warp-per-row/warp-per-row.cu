// warp-per-row(site, lanes): a thread's summing loop over its row becomes a
// loop its group of lanes strides, shuffles add the lanes' sums, and lane 0
// runs what follows; the launch stays as it is.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=gemv/for#0)' --apply='warp-per-row(site=spmv/for#0,lanes=8)' --apply='warp-per-row(site=moments/for#0,lanes=16)' --apply='warp-per-row(site=branches/for#0)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: {{.}}
//
// --list-sites offers it with its parameter.
// RUN: %clang-optiml %s --list-sites --kernel=gemv | %FileCheck --check-prefix=LIST %s
// LIST: warp-per-row  gemv/for#0         legal: --apply='warp-per-row(site=gemv/for#0,lanes=32,grid=keep)'
//
// It is registered, with its kind of site:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  warp-per-row {{ *}}loop {{ *}}give each row a group of lanes

#include <cuda_runtime.h>

// The textbook gemv, a thread per row.
// CHECK-LABEL: {{^}}__global__ void gemv(
// CHECK-NEXT: {{^}}  // warp-per-row: a group of 32 lanes takes each row; the lanes stride the
// CHECK-NEXT: {{^}}  // row's loops and shuffles combine their results.
// CHECK-NEXT: {{^}}  const unsigned optiml_lane = threadIdx.x % 32;
// CHECK-NEXT: {{^}}  const unsigned optiml_mask = 0xffffffffu;
// CHECK-NEXT: {{^}}  if (threadIdx.x >= blockDim.x - blockDim.x % 32)
// CHECK-NEXT: {{^}}    return; // Too few threads left in the block for a group.
// CHECK-NEXT: {{^}}  const unsigned long long optiml_rows =
// CHECK-NEXT: {{^}}      (unsigned long long)gridDim.x * blockDim.x;
// CHECK-NEXT: {{^}}  for (unsigned long long optiml_row =
// CHECK-NEXT: {{^}}           (unsigned long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
// CHECK-NEXT: {{^}}       optiml_row < optiml_rows;
// CHECK-NEXT: {{^}}       optiml_row += (unsigned long long)gridDim.x * (blockDim.x / 32)) {
// CHECK-NEXT: {{^}}    int row = (int)optiml_row;
// CHECK-NEXT: {{^}}    if (row < m) {
// CHECK-NEXT: {{^}}      float sum = 0.0f;
// CHECK-NEXT: {{^}}      if (optiml_lane != 0)
// CHECK-NEXT: {{^}}        sum = 0;
// CHECK-NEXT: {{^}}      for (int j = optiml_lane; j < n; j += 32)
// CHECK-NEXT: {{^}}        sum += A[row * n + j] * x[j];
// CHECK-NEXT: {{^}}      for (int optiml_offset = 16; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}        sum += __shfl_xor_sync(optiml_mask, sum, optiml_offset, 32);
// CHECK-NEXT: {{^}}      if (optiml_lane == 0) y[row] = sum;
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}}
__global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
      sum += A[row * n + j] * x[j];
    y[row] = sum;
  }
}

// CSR, a thread per row, an early return; 8 lanes for short rows.
// CHECK-LABEL: {{^}}__global__ void spmv(
// CHECK: {{^}}       const unsigned optiml_lane = threadIdx.x % 8;
// CHECK-NEXT: {{^}}  const unsigned optiml_mask = 0xffu << (threadIdx.x % 32 / 8 * 8);
// CHECK: {{^}}         int r = (int)optiml_row;
// CHECK-NEXT: {{^}}    if (r >= rows)
// CHECK-NEXT: {{^}}      continue;
// CHECK: {{^}}         for (int k = ptr[r] + optiml_lane; k < ptr[r + 1]; k += 8)
// CHECK-NEXT: {{^}}      dot = dot + val[k] * x[col[k]];
// CHECK-NEXT: {{^}}    for (int optiml_offset = 4; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}      dot += __shfl_xor_sync(optiml_mask, dot, optiml_offset, 8);
// CHECK-NEXT: {{^}}    if (optiml_lane == 0) y[r] = dot;
__global__ void spmv(const int *ptr, const int *col, const float *val,
                     const float *x, float *y, int rows) {
  int r = threadIdx.x + blockDim.x * blockIdx.x;
  if (r >= rows)
    return;
  float dot = 0;
  for (int k = ptr[r]; k < ptr[r + 1]; ++k)
    dot = dot + val[k] * x[col[k]];
  y[r] = dot;
}

// Two sums, a body with its own local, a tail of locals and stores.
// CHECK-LABEL: {{^}}__global__ void moments(
// CHECK: {{^}}         unsigned r = (unsigned int)optiml_row;
// CHECK: {{^}}         double s = 0, sq = 0;
// CHECK-NEXT: {{^}}    if (optiml_lane != 0) {
// CHECK-NEXT: {{^}}      s = 0;
// CHECK-NEXT: {{^}}      sq = 0;
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}    for (unsigned c = optiml_lane; c < cols; c += 16) {
// CHECK-NEXT: {{^}}      double v = in[r * cols + c];
// CHECK: {{^}}         for (int optiml_offset = 8; optiml_offset > 0; optiml_offset /= 2) {
// CHECK-NEXT: {{^}}      s += __shfl_xor_sync(optiml_mask, s, optiml_offset, 16);
// CHECK-NEXT: {{^}}      sq += __shfl_xor_sync(optiml_mask, sq, optiml_offset, 16);
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}    double mu = s / cols;
// CHECK-NEXT: {{^}}    if (optiml_lane == 0) mean[r] = mu;
// CHECK-NEXT: {{^}}    if (optiml_lane == 0) var[r] = sq / cols - mu * mu;
__global__ void moments(const double *in, double *mean, double *var,
                        unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  double s = 0, sq = 0;
  for (unsigned c = 0; c < cols; ++c) {
    double v = in[r * cols + c];
    s += v;
    sq += v * v;
  }
  double mu = s / cols;
  mean[r] = mu;
  var[r] = sq / cols - mu * mu;
}

// The loop in an if's else branch: the then branch runs in lane 0 only,
// braced so that the else stays its own.
// CHECK-LABEL: {{^}}__global__ void branches(
// CHECK: {{^}}         if (i == skip)
// CHECK-NEXT: {{^}}      { if (optiml_lane == 0) out[i] = 0; }
// CHECK-NEXT: {{^}}    else {
// CHECK-NEXT: {{^}}      float acc = a[i];
// CHECK-NEXT: {{^}}      if (optiml_lane != 0)
// CHECK-NEXT: {{^}}        acc = 0;
// CHECK-NEXT: {{^}}      for (int k = (len - 1) - optiml_lane; k >= 0; k -= 32)
// CHECK: {{^}}           if (optiml_lane == 0) out[i] = acc;
__global__ void branches(const float *a, float *out, int n, int len,
                         int skip) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == skip)
    out[i] = 0;
  else {
    float acc = a[i];
    for (int k = len - 1; k >= 0; --k)
      acc += a[i * len + k];
    out[i] = acc;
  }
}
