// warp-per-row splits the loops that follow its site in the site's block
// too: further sums of the row (a variance after its mean), maxima (a
// softmax's) and loops that write the row's elements, one element an
// iteration (a normalization).
// A loop that reads what another iteration writes, or whose stores are read
// after it, stays with lane 0, as does everything after a statement that
// lane 0 alone runs.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=normalize/for#0)' --apply='warp-per-row(site=softmax/for#0,grid=keep)' --apply='warp-per-row(site=prefix/for#0,grid=keep)' --apply='warp-per-row(site=reread/for#0,grid=keep)' --apply='warp-per-row(site=after_store/for#0,grid=keep)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: error
#include <cuda_runtime.h>

__global__ void normalize(float *__restrict__ y, float *__restrict__ mean,
                          const float *__restrict__ x, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *row = x + r * n;
    float m = 0.0f;
    for (int j = 0; j < n; j++)
      m += row[j];
    m /= n;
    float v = 0.0f;
    for (int j = 0; j < n; j++) {
      float d = row[j] - m;
      v += d * d;
    }
    float s = rsqrtf(v / n + 1e-5f);
    for (int j = 0; j < n; j++)
      y[r * n + j] = (row[j] - m) * s;
    mean[r] = m;
  }
}
// CHECK-LABEL: {{^}}__global__ void normalize(
// CHECK: {{^}}      for (int j = optiml_lane; j < n; j += 32)
// CHECK-NEXT: {{^}}        m += row[j];
// CHECK-NEXT: {{^}}      for (int optiml_offset = 16; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}        m += __shfl_xor_sync(optiml_mask, m, optiml_offset, 32);
// CHECK-NEXT: {{^}}      m /= n;
// CHECK-NEXT: {{^}}      float v = 0.0f;
// CHECK-NEXT: {{^}}      if (optiml_lane != 0)
// CHECK-NEXT: {{^}}        v = 0;
// CHECK-NEXT: {{^}}      for (int j = optiml_lane; j < n; j += 32) {
// CHECK: {{^}}        v += __shfl_xor_sync(optiml_mask, v, optiml_offset, 32);
// CHECK-NEXT: {{^}}      float s = rsqrtf(v / n + 1e-5f);
// CHECK-NEXT: {{^}}      for (int j = optiml_lane; j < n; j += 32)
// CHECK-NEXT: {{^}}        y[r * n + j] = (row[j] - m) * s;
// CHECK-NEXT: {{^}}      if (optiml_lane == 0) mean[r] = m;

// A softmax: a maximum, a sum and the row's elements, all on the lanes.
__global__ void softmax(const float *__restrict__ x, float *__restrict__ y,
                        int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = -INFINITY;
  for (int j = 0; j < n; j++)
    m = fmaxf(m, x[r * n + j]);
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += expf(x[r * n + j] - m);
  for (int j = 0; j < n; j++)
    y[r * n + j] = expf(x[r * n + j] - m) / s;
}
// CHECK-LABEL: {{^}}__global__ void softmax(
// CHECK: {{^}}    float m = -INFINITY;
// CHECK-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 32)
// CHECK-NEXT: {{^}}      m = fmaxf(m, x[r * n + j]);
// CHECK-NEXT: {{^}}    for (int optiml_offset = 16; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}      m = fmaxf(m, __shfl_xor_sync(optiml_mask, m, optiml_offset, 32));
// CHECK-NEXT: {{^}}    float s = 0.0f;
// CHECK-NEXT: {{^}}    if (optiml_lane != 0)
// CHECK-NEXT: {{^}}      s = 0;
// CHECK-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 32)
// CHECK-NEXT: {{^}}      s += expf(x[r * n + j] - m);
// CHECK-NEXT: {{^}}    for (int optiml_offset = 16; optiml_offset > 0; optiml_offset /= 2)
// CHECK-NEXT: {{^}}      s += __shfl_xor_sync(optiml_mask, s, optiml_offset, 32);
// CHECK-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 32)
// CHECK-NEXT: {{^}}      y[r * n + j] = expf(x[r * n + j] - m) / s;

// A running sum: iteration j reads what iteration j - 1 wrote.
__global__ void prefix(float *__restrict__ y, const float *__restrict__ x,
                       float *__restrict__ total, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float t = 0.0f;
  for (int j = 0; j < n; j++)
    t += x[r * n + j];
  for (int j = 1; j < n; j++)
    y[r * n + j] = y[r * n + j - 1] + x[r * n + j] / t;
  total[r] = t;
}
// CHECK-LABEL: {{^}}__global__ void prefix(
// CHECK: {{^}}    if (optiml_lane == 0) for (int j = 1; j < n; j++)
// CHECK-NEXT: {{^}}      y[r * n + j] = y[r * n + j - 1] + x[r * n + j] / t;
// CHECK-NEXT: {{^}}    if (optiml_lane == 0) total[r] = t;

// The row's elements are read again after the loop that writes them: a
// lane would read elements that other lanes wrote.
__global__ void reread(float *__restrict__ y, const float *__restrict__ x,
                       float *__restrict__ first, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float t = 0.0f;
    for (int j = 0; j < n; j++)
      t += x[r * n + j];
    for (int j = 0; j < n; j++)
      y[r * n + j] = x[r * n + j] / t;
    first[r] = y[r * n + n - 1];
  }
}
// CHECK-LABEL: {{^}}__global__ void reread(
// CHECK: {{^}}      if (optiml_lane == 0) for (int j = 0; j < n; j++)
// CHECK-NEXT: {{^}}        y[r * n + j] = x[r * n + j] / t;

// After a store that lane 0 alone runs, the loops stay with lane 0 too.
__global__ void after_store(float *__restrict__ y, const float *__restrict__ x,
                            float *__restrict__ sums, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float t = 0.0f;
    for (int j = 0; j < n; j++)
      t += x[r * n + j];
    sums[r] = t;
    for (int j = 0; j < n; j++)
      y[r * n + j] = x[r * n + j] - t;
  }
}
// CHECK-LABEL: {{^}}__global__ void after_store(
// CHECK: {{^}}      if (optiml_lane == 0) sums[r] = t;
// CHECK-NEXT: {{^}}      if (optiml_lane == 0) for (int j = 0; j < n; j++)

void launch(float *y, float *m, const float *x, float *t, int rows, int n) {
  normalize<<<(rows + 127) / 128, 128>>>(y, m, x, rows, n);
  softmax<<<(rows + 127) / 128, 128>>>(x, y, rows, n);
  prefix<<<(rows + 127) / 128, 128>>>(y, x, t, rows, n);
  reread<<<(rows + 127) / 128, 128>>>(y, x, t, rows, n);
  after_store<<<(rows + 127) / 128, 128>>>(y, x, t, rows, n);
}

// 64-bit rows (`size_t idx = (size_t)blockIdx.x * blockDim.x + ...`), an
// early return, two sums in one loop, then the element loop.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=wide_rows/for#0)' -o %t.wide.cu
// RUN: %FileCheck --check-prefix=WIDE --input-file=%t.wide.cu %s
// RUN: %nvcc -c %t.wide.cu -o %t.wide.o
// WIDE-LABEL: {{^}}__global__ void wide_rows(
// WIDE: {{^}}    size_t idx = (size_t)optiml_row;
// WIDE-NEXT: {{^}}    if (idx >= N)
// WIDE-NEXT: {{^}}      continue;
// WIDE: {{^}}    for (int i = optiml_lane; i < C; i += 32) {
// WIDE: {{^}}      sq += __shfl_xor_sync(optiml_mask, sq, optiml_offset, 32);
// WIDE: {{^}}    for (int i = optiml_lane; i < C; i += 32)
// WIDE-NEXT: {{^}}      o[i] = (x[i] - mean) * rs;
__global__ void wide_rows(float *__restrict__ out,
                          const float *__restrict__ inp, int N, int C) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N)
    return;
  const float *x = inp + idx * C;
  float sum = 0.f, sq = 0.f;
  for (int i = 0; i < C; ++i) {
    sum += x[i];
    sq += x[i] * x[i];
  }
  float mean = sum / C;
  float rs = rsqrtf(sq / C - mean * mean + 1e-5f);
  float *o = out + idx * C;
  for (int i = 0; i < C; ++i)
    o[i] = (x[i] - mean) * rs;
}

void launch_wide(float *out, const float *inp, int N, int C) {
  wide_rows<<<(N + 255) / 256, 256>>>(out, inp, N, C);
}

// Loops with a pragma follow too (their lanes' sums start above the
// pragma); one left to lane 0 keeps its pragma on a line of its own.
// RUN: %clang-optiml --format-style=none %s --apply='warp-per-row(site=pragmas/for#0,grid=keep)' -o %t.pragmas.cu
// RUN: %FileCheck --check-prefix=PRAGMAS --input-file=%t.pragmas.cu %s
// RUN: %nvcc -c %t.pragmas.cu -o %t.pragmas.o
// PRAGMAS-LABEL: {{^}}__global__ void pragmas(
// PRAGMAS: {{^}}    if (optiml_lane != 0)
// PRAGMAS-NEXT: {{^}}      s = 0;
// PRAGMAS-NEXT: {{^}}#pragma unroll 4
// PRAGMAS-NEXT: {{^}}    for (int j = optiml_lane; j < n; j += 32)
// PRAGMAS: {{^}}    if (optiml_lane == 0) total[r] = s;
// PRAGMAS-NEXT: {{^}}    if (optiml_lane == 0) {
// PRAGMAS-NEXT: {{^}}#pragma unroll 4
// PRAGMAS-NEXT: {{^}}      for (int j = 0; j < n; j++)
// PRAGMAS-NEXT: {{^}}        y[r * n + j] = x[r * n + j] / s;
// PRAGMAS-NEXT: {{^}}    }
__global__ void pragmas(const float *__restrict__ x, float *__restrict__ y,
                        float *__restrict__ total, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = x[r * n];
  for (int j = 1; j < n; j++)
    m = max(m, x[r * n + j]);
  float s = 0;
#pragma unroll 4
  for (int j = 0; j < n; j++)
    s += __expf(x[r * n + j] - m);
  total[r] = s;
#pragma unroll 4
  for (int j = 0; j < n; j++)
    y[r * n + j] = x[r * n + j] / s;
}

void launch_pragmas(const float *x, float *y, float *t, int rows, int n) {
  pragmas<<<(rows + 127) / 128, 128>>>(x, y, t, rows, n);
}
