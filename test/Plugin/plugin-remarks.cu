// The Clang plugin in a clang CUDA compile: for each kernel marked with
// #pragma optiml, remarks at file:line:col with the static findings, the
// legal transforms and the cached result; nothing for unmarked kernels; once
// per compile (the device run), although clang parses the file twice.
// REQUIRES: plugin
// The default database (under OPTIML_CACHE_DIR) is read only when it exists,
// never created.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env OPTIML_CACHE_DIR=%t/cache %clang_cuda -fsyntax-only -fno-caret-diagnostics \
// RUN:   -fplugin=%optiml_plugin %s 2>&1 | %FileCheck %s
// RUN: test ! -e %t/cache/search.sqlite
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1024) in(in[N * N]) out(out[N * N]) \
    scalar(n = N) grid(N / 32, N / 32) block(32, 32)
__global__ void transpose(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[x * n + y] = in[y * n + x];
}
// CHECK: plugin-remarks.cu:[[@LINE-6]]:17: remark: optiml: kernel 'transpose': 3 findings, 7 legal transforms at 3 sites; no cached result ('clang-optiml plugin-remarks.cu --optimize' on a GPU machine finds one)
// CHECK-NEXT: [[@LINE-7]]:40: remark: optiml: missing-restrict: 'in' is not __restrict__: a store through 'out' may change it, so its loads are repeated after stores and cannot use the read-only data cache [transpose/in]
// CHECK-NEXT: [[@LINE-8]]:51: remark: optiml: missing-restrict: 'out' is not __restrict__: its stores may change what the other pointers read, so their loads cannot move across them [transpose/out]
// CHECK-NEXT: [[@LINE-5]]:5: remark: optiml: strided-access: neighbouring threads (threadIdx.x) write elements of 'out' 'n' elements apart: each thread of a warp touches its own memory sector (uncoalesced); {{.*}} [transpose/store:out#0]
// The load walks contiguous memory across threadIdx.x: no finding.
// CHECK-NOT: load:in
// CHECK: [[@LINE-12]]:51: remark: optiml: legal: stage-shared(site=transpose/out,tile=16)
// CHECK: [[@LINE-13]]:17: remark: optiml: legal: restrict(site=transpose)
// CHECK: [[@LINE-14]]:17: remark: optiml: legal: swap-xy(site=transpose)

#pragma optiml kernel sizes(M = 512, K = 256) in(A[M * K], x[K]) out(y[M]) \
    scalar(m = M, k = K) grid((M + 127) / 128) block(128)
__global__ void gemv(const float *__restrict__ A, const float *__restrict__ x,
                     float *__restrict__ y, int m, int k) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < k; ++j)
      sum += A[row * k + j] * x[j];
    y[row] = sum;
  }
}
// CHECK: [[@LINE-10]]:17: remark: optiml: kernel 'gemv': 3 findings,
// CHECK-NEXT: [[@LINE-5]]:14: remark: optiml: strided-access: neighbouring threads (threadIdx.x) read elements of 'A' 'k' elements apart
// CHECK-NEXT: [[@LINE-6]]:14: remark: optiml: contiguous-scalar-access: each thread reads consecutive elements of 'A' as 'j' advances, one scalar an iteration: unrolled, wide loads move several at once [gemv/load:A#0]
// CHECK-NEXT: [[@LINE-7]]:31: remark: optiml: contiguous-scalar-access: each thread reads consecutive elements of 'x' as 'j' advances{{.*}} [gemv/load:x#0]
// CHECK: [[@LINE-9]]:5: remark: optiml: legal: unroll(site=gemv/for#0,factor=4)
// CHECK: [[@LINE-10]]:5: remark: optiml: legal: warp-per-row(site=gemv/for#0,lanes=32,grid=spread)

// One thread handles four neighbours, written as four scalars.
#pragma optiml kernel sizes(N = 4096) in(a[N]) out(b[N]) scalar(n = N) \
    grid(N / 4 / 256) block(256)
__global__ void chunk4(const float *__restrict__ a, float *__restrict__ b,
                       int n) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  b[i] = a[i];
  b[i + 1] = a[i + 1];
  b[i + 2] = a[i + 2];
  b[i + 3] = a[i + 3];
}
// CHECK: [[@LINE-8]]:17: remark: optiml: kernel 'chunk4': 2 findings,
// CHECK-NEXT: [[@LINE-6]]:3: remark: optiml: contiguous-scalar-access: each thread writes 4 consecutive elements of 'b' as separate scalars: one vector access (16 bytes) moves them at once when aligned [chunk4/store:b#0]
// CHECK-NEXT: [[@LINE-7]]:10: remark: optiml: contiguous-scalar-access: each thread reads 4 consecutive elements of 'a' as separate scalars: one vector access (16 bytes) moves them at once when aligned [chunk4/load:a#0]
// Their stride of 4 across threadIdx.x is the width of the run, not a gap.
// CHECK-NOT: strided-access

// A stencil's neighbours are read by neighbouring threads: coalesced.
#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) \
    grid(N / 256) block(256)
__global__ void blur(const float *__restrict__ in, float *__restrict__ out,
                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
// CHECK: [[@LINE-6]]:17: remark: optiml: kernel 'blur': 0 findings,
// CHECK-NOT: finding

// The helper only this kernel calls runs in its loop: its square root and
// division count as the kernel's. The mean's division after the loop, once
// per thread, does not.
__device__ float inverse_distance(float dx, float dy) {
  return 1.0f / sqrtf(dx * dx + dy * dy + 1e-3f);
}

#pragma optiml kernel sizes(N = 4096) in(x[N], y[N]) out(f[N]) scalar(n = N) \
    grid(N / 256) block(256)
__global__ void pull(const float *__restrict__ x, const float *__restrict__ y,
                     float *__restrict__ f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j)
    sum += inverse_distance(x[j] - x[i], y[j] - y[i]);
  f[i] = sum / n;
}
// CHECK: [[@LINE-8]]:17: remark: optiml: kernel 'pull': 3 findings,
// CHECK-NEXT: [[@LINE-14]]:10: remark: optiml: transcendental: 1 single-precision math call (expf, sqrtf, tanhf, ...), 1 in loops, and 1 float division in loops, in the kernel and the helpers only it calls: IEEE-exact, each takes tens of instructions where a fast intrinsic takes a few [pull]

// A mean: one division per thread after its loop, no finding.
#pragma optiml kernel sizes(N = 4096) in(a[N * 64]) out(m[N]) scalar(n = N) \
    grid(N / 256) block(256)
__global__ void row_mean(const float *__restrict__ a, float *__restrict__ m,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int j = 0; j < 64; ++j)
    sum += a[j * n + i];
  m[i] = sum / 64.0f + sum / n;
}
// CHECK: [[@LINE-8]]:17: remark: optiml: kernel 'row_mean':
// CHECK-NOT: transcendental
// CHECK: kernel 'gelu':

// No loop: the one call is all the thread computes.
#pragma optiml kernel sizes(N = 4096) in(x[N]) out(y[N]) scalar(n = N) \
    grid(N / 256) block(256)
__global__ void gelu(const float *__restrict__ x, float *__restrict__ y,
                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.5f * x[i] * (1.0f + tanhf(0.79788456f * x[i]));
}
// CHECK: [[@LINE-2]]:34: remark: optiml: transcendental: 1 single-precision math call (expf, sqrtf, tanhf, ...), 0 in loops, and 0 float divisions in loops, {{.*}} [gelu]

// Unmarked: not reported.
__global__ void helper(float *p, const float *q) { p[threadIdx.x * 2] = q[0]; }
// CHECK-NOT: helper
// Reported once, not again by the host run.
// CHECK-NOT: kernel 'transpose'

int main() {
  float *p = nullptr;
  helper<<<1, 32>>>(p, p);
  return 0;
}
