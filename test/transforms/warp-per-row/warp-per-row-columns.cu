// warp-per-row on a thread per column: neighbouring threads already read
// neighbouring elements, and each walks down its column a row at a time.
// 32 lanes to a column would read 32 rows apart; --list-sites and the
// search suggest 4 lanes, so that the 8 groups of a warp read 32 bytes of
// each of 4 rows, and spread the grid 4-fold where the launches allow it
// (the three kernels below it have no launch and no mark: the grid stays).
// A read the same for every thread (a weight per row) changes nothing. A
// loop that walks along a row keeps 32 lanes, and so does one that besides
// its column walks a row of its own (each thread its own x[j * n + i]).
// RUN: %clang-optiml %s --list-sites --kernel=col_means | %FileCheck --check-prefix=COLS %s
// COLS: warp-per-row  col_means/for#0 {{ *}}legal: --apply='warp-per-row(site=col_means/for#0,lanes=4,grid=spread)'
// RUN: %clang-optiml %s --list-sites --kernel=weighted_cols | %FileCheck --check-prefix=WEIGHTED %s
// WEIGHTED: warp-per-row  weighted_cols/for#0 {{ *}}legal: --apply='warp-per-row(site=weighted_cols/for#0,lanes=4,grid=keep)'
// RUN: %clang-optiml %s --list-sites --kernel=row_walk | %FileCheck --check-prefix=ROWS %s
// ROWS: warp-per-row  row_walk/for#0 {{ *}}legal: --apply='warp-per-row(site=row_walk/for#0,lanes=32,grid=keep)'
// RUN: %clang-optiml %s --list-sites --kernel=mixed | %FileCheck --check-prefix=MIXED %s
// MIXED: warp-per-row  mixed/for#0 {{ *}}legal: --apply='warp-per-row(site=mixed/for#0,lanes=32,grid=keep)'
//
// The suggested step applies, its output compiles, and the launch grows
// in its own spelling.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=col_means/for#0,lanes=4,grid=spread)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void col_means(
// CHECK:      {{^}}  // warp-per-row: a group of 4 lanes takes each row; the lanes stride the
// CHECK:      {{^}}  // The grid grew 4-fold: a group per row.
// CHECK-NEXT: {{^}}  const unsigned optiml_lane = threadIdx.x % 4;
// CHECK:      {{^}}      for (int row = optiml_lane; row < height; row += 4)
// CHECK:      __shfl_xor_sync(optiml_mask, sum, optiml_offset, 4)
// CHECK:      if (optiml_lane == 0)
__global__ void col_means(const float *__restrict__ image, float *means,
                          int width, int height) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  if (col >= width)
    return;
  const float *p = image + col;
  float sum = 0.f;
  for (int row = 0; row < height; row++)
    sum += p[row * width];
  means[col] = sum / height;
}

// A weight per row, the same for every thread: still a column walk.
__global__ void weighted_cols(const double *a, const double *w, double *out,
                              int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    double acc = 0;
    for (int i = 0; i < n; ++i)
      acc += w[i] * a[i * m + j];
    out[j] = acc;
  }
}

// A thread per row, walking along it.
__global__ void row_walk(const float *a, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0;
    for (int j = 0; j < m; ++j)
      acc += a[i * m + j];
    out[i] = acc;
  }
}

// Down a column of a, and along a row of x of its own.
__global__ void mixed(const float *a, const float *x, float *out, int n,
                      int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float acc = 0;
    for (int i = 0; i < n; ++i)
      acc += a[i * m + j] * x[j * n + i];
    out[j] = acc;
  }
}

int main() {
  float *image, *means;
  cudaMalloc(&image, 1024 * 768 * sizeof(float));
  cudaMalloc(&means, 1024 * sizeof(float));
  // CHECK: col_means<<<(1024 + 15) / 16, 64>>>(image, means, 1024, 768);
  col_means<<<(1024 + 63) / 64, 64>>>(image, means, 1024, 768);
  cudaDeviceSynchronize();
  return 0;
}
