// warp-per-row with more lanes than a warp (lanes=128 to 1024): a whole
// block takes each row. Its threads stride the row's loops; each warp's
// butterfly leaves the warp's result in its lanes, lane 0 of every warp
// stores it in a shared array, and after a barrier every thread combines
// the warps' results in the same order, so that all hold the same bits.
// A second barrier keeps the next reduction (or the next row) from
// overwriting an array another thread still reads. Every launch and the
// mark change: the block becomes the group, the grid a block per row.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=softmax_rows/for#0,lanes=256,grid=spread)' --apply='warp-per-row(site=rms_norm/for#0,lanes=512,grid=spread)' --apply='warp-per-row(site=row_dot/for#0,lanes=128,grid=spread)' -o %t.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// NOTE: 'rms_norm' is not launched in this file: its callers must now launch it with block(512) and grid(R)
//
// A block group needs its launches: grid=keep cannot give it, and a grid
// that is not ceil(N / B) cannot become a block per row.
// RUN: not %clang-optiml %s --apply='warp-per-row(site=softmax_rows/for#0,lanes=256,grid=keep)' -o %t-keep.cu 2>&1 | %FileCheck --check-prefix=KEEP %s
// KEEP: warp-per-row-block.cu:[[@LINE+15]]:17: warp-per-row(site=softmax_rows/for#0,lanes=256,grid=keep) is not applicable: a group of 256 lanes is a whole block, so the launches must change to a block per row: only grid=spread gives it
// RUN: not %clang-optiml %s --apply='warp-per-row(site=truncated/for#0,lanes=256,grid=spread)' -o %t-trunc.cu 2>&1 | %FileCheck --check-prefix=TRUNC %s
// TRUNC: warp-per-row-block.cu:[[@LINE+138]]:15: warp-per-row(site=truncated/for#0,lanes=256,grid=spread) is illegal: grid x 'rows / 128' is not ceil(N / 128) in a known form ((N + 127) / 128, ceil_div(N, 128)), so it cannot give each row a block of its own
// RUN: not test -e %t-keep.cu
// RUN: not test -e %t-trunc.cu

#include <cuda_runtime.h>
#include <math.h>

__host__ __device__ constexpr int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

// A softmax with a thread per row, launched in this file: a maximum and a
// sum, each combined across the block, then the row's elements.
__global__ void softmax_rows(const float *__restrict__ x,
                             float *__restrict__ y, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = -INFINITY;
  for (int j = 0; j < n; j++)
    m = fmaxf(m, x[(size_t)r * n + j]);
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += expf(x[(size_t)r * n + j] - m);
  for (int j = 0; j < n; j++)
    y[(size_t)r * n + j] = expf(x[(size_t)r * n + j] - m) / s;
}
// CHECK-LABEL: {{^}}__global__ void softmax_rows(
// CHECK-NEXT: {{^}}                             float *__restrict__ y, int rows, int n) {
// CHECK-NEXT: {{^}}  // warp-per-row: a block of 256 threads takes each row; they stride the row's
// CHECK-NEXT: {{^}}  // loops, and shuffles and shared memory combine their results.
// CHECK-NEXT: {{^}}  // The launch changed: a block of 256 threads per row.
// CHECK-NEXT: {{^}}  __shared__ float optiml_part0[8];
// CHECK-NEXT: {{^}}  __shared__ float optiml_part1[8];
// CHECK-NEXT: {{^}}  const unsigned optiml_lane = threadIdx.x;
// CHECK-NEXT: {{^}}  const unsigned optiml_mask = 0xffffffffu;
// CHECK-NEXT: {{^}}  for (unsigned long long optiml_row = blockIdx.x; optiml_row < gridDim.x;
// CHECK-NEXT: {{^}}       optiml_row += gridDim.x) {
// CHECK-NEXT: {{^}}    int r = (int)optiml_row;
// CHECK-NEXT: {{^}}    if (r >= rows)
// CHECK-NEXT: {{^}}      continue;
// CHECK-NEXT: {{^}}    float m = -INFINITY;
// CHECK-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 256)
// CHECK-NEXT: {{^}}      m = fmaxf(m, x[(size_t)r * n + j]);
// CHECK-NEXT: {{^}}    for (int optiml_offset = 16; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}      m = fmaxf(m, __shfl_xor_sync(optiml_mask, m, optiml_offset, 32));
// CHECK-NEXT: {{^}}    if (threadIdx.x % 32 == 0)
// CHECK-NEXT: {{^}}      optiml_part0[threadIdx.x / 32] = m;
// CHECK-NEXT: {{^}}    __syncthreads();
// CHECK-NEXT: {{^}}    m = optiml_part0[0];
// CHECK-NEXT: {{^}}    for (int optiml_warp = 1; optiml_warp < 8; ++optiml_warp)
// CHECK-NEXT: {{^}}      m = fmaxf(m, optiml_part0[optiml_warp]);
// CHECK-NEXT: {{^}}    __syncthreads();
// CHECK-NEXT: {{^}}    float s = 0.0f;
// CHECK-NEXT: {{^}}    if (optiml_lane != 0)
// CHECK-NEXT: {{^}}      s = 0;
// CHECK-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 256)
// CHECK-NEXT: {{^}}      s += expf(x[(size_t)r * n + j] - m);
// CHECK-NEXT: {{^}}    for (int optiml_offset = 16; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}      s += __shfl_xor_sync(optiml_mask, s, optiml_offset, 32);
// CHECK-NEXT: {{^}}    if (threadIdx.x % 32 == 0)
// CHECK-NEXT: {{^}}      optiml_part1[threadIdx.x / 32] = s;
// CHECK-NEXT: {{^}}    __syncthreads();
// CHECK-NEXT: {{^}}    s = optiml_part1[0];
// CHECK-NEXT: {{^}}    for (int optiml_warp = 1; optiml_warp < 8; ++optiml_warp)
// CHECK-NEXT: {{^}}      s += optiml_part1[optiml_warp];
// CHECK-NEXT: {{^}}    __syncthreads();
// CHECK-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 256)
// CHECK-NEXT: {{^}}      y[(size_t)r * n + j] = expf(x[(size_t)r * n + j] - m) / s;
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}}

// An RMS norm known only by its mark: the mark is the launch, and its
// grid(ceil_div(R, 64)) becomes grid(R).
// CHECK:      {{^}}#pragma optiml kernel sizes(R = 2048, C = 4096) in(x[R * C], w[C]) \{{$}}
// CHECK-NEXT: {{^}}    out(y[R * C]) scalar(rows = R, cols = C) grid(R) block(512){{$}}
// CHECK-LABEL: {{^}}__global__ void rms_norm(
// CHECK:      {{^}}  __shared__ float optiml_part0[16];
// CHECK:      {{^}}      for (int c = optiml_lane; c < cols; c += 512) {
// CHECK:      {{^}}      for (int optiml_warp = 1; optiml_warp < 16; ++optiml_warp)
// CHECK-NEXT: {{^}}        ss += optiml_part0[optiml_warp];
// CHECK-NEXT: {{^}}      __syncthreads();
// CHECK-NEXT: {{^}}      float inv = rsqrtf(ss / cols + 1e-6f);
// CHECK-NEXT: {{^}}      for (int c = optiml_lane; c < cols; c += 512)
// CHECK-NEXT: {{^}}        y[row * cols + c] = x[row * cols + c] * inv * w[c];
#pragma optiml kernel sizes(R = 2048, C = 4096) in(x[R * C], w[C]) \
    out(y[R * C]) scalar(rows = R, cols = C) grid(ceil_div(R, 64)) block(64)
__global__ void rms_norm(const float *__restrict__ x,
                         const float *__restrict__ w, float *__restrict__ y,
                         int rows, int cols) {
  int row = threadIdx.x + blockDim.x * blockIdx.x;
  if (row < rows) {
    float ss = 0.f;
    for (int c = 0; c < cols; ++c) {
      float v = x[row * cols + c];
      ss += v * v;
    }
    float inv = rsqrtf(ss / cols + 1e-6f);
    for (int c = 0; c < cols; ++c)
      y[row * cols + c] = x[row * cols + c] * inv * w[c];
  }
}

// A per-row dot product in double that starts from a bias: only thread 0
// keeps the start, and only thread 0 stores the row's result.
// CHECK-LABEL: {{^}}__global__ void row_dot(
// CHECK:      {{^}}  __shared__ double optiml_part0[4];
// CHECK:      {{^}}    double acc = bias[i];
// CHECK-NEXT: {{^}}    if (optiml_lane != 0)
// CHECK-NEXT: {{^}}      acc = 0;
// CHECK:      {{^}}    if (optiml_lane == 0) out[i] = acc;
__global__ void row_dot(const double *a, const double *b, const double *bias,
                        double *out, long n, long m) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double acc = bias[i];
  for (long k = 0; k < m; ++k)
    acc += a[i * m + k] * b[i * m + k];
  out[i] = acc;
}

// A grid that rounds down cannot become a block per row.
__global__ void truncated(const float *a, float *s, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0.0f;
  for (int j = 0; j < n; ++j)
    t += a[i * n + j];
  s[i] = t;
}

// CHECK-LABEL: {{^}}void launch(
// CHECK:      {{^}}  softmax_rows<<<rows, 256>>>(x, y, rows, n);
// CHECK-NEXT: {{^}}  row_dot<<<rows, 128>>>(a, b, bias, out, rows, n);
void launch(const float *x, float *y, const double *a, const double *b,
            const double *bias, double *out, float *s, int rows, int n) {
  softmax_rows<<<(rows + 127) / 128, 128>>>(x, y, rows, n);
  row_dot<<<ceil_div(rows, 64), 64>>>(a, b, bias, out, rows, n);
  truncated<<<rows / 128, 128>>>(x, s, rows, n);
}
