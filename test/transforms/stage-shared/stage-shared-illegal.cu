// stage-shared is refused, with its reason at the place that decides it.
// RUN: not %clang-optiml %s --apply='stage-shared(site=written/for#0/p)' 2>&1 | %FileCheck --check-prefix=WRITTEN %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=nested/for#0/for#0/p)' 2>&1 | %FileCheck --check-prefix=NESTED %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=bound/for#0/p)' 2>&1 | %FileCheck --check-prefix=BOUND %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=breaks/for#0/p)' 2>&1 | %FileCheck --check-prefix=BREAK %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=late_return/for#0/p)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=divides/for#0/p)' 2>&1 | %FileCheck --check-prefix=DIVIDES %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=invariant/for#0/p)' 2>&1 | %FileCheck --check-prefix=INVARIANT %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=mixed/for#0/p)' 2>&1 | %FileCheck --check-prefix=MIXED %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=noblock/for#0/p)' 2>&1 | %FileCheck --check-prefix=NOBLOCK %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=contiguous/out)' 2>&1 | %FileCheck --check-prefix=CONTIGUOUS %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=oblong/out)' 2>&1 | %FileCheck --check-prefix=OBLONG %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=looped/out)' 2>&1 | %FileCheck --check-prefix=LOOPED %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=written/p)' 2>&1 | %FileCheck --check-prefix=READ %s

#include <cuda_runtime.h>
#define MARK _Pragma("optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)")

#pragma optiml kernel sizes(N = 64) inout(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
// WRITTEN: :[[@LINE+1]]:32: stage-shared(site=written/for#0/p) is illegal: the kernel may write through 'p', so a shared-memory copy could go stale
__global__ void written(float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int i = 0; i < n; ++i)
    // READ: :[[@LINE+1]]:10: stage-shared(site=written/p) is not applicable: 'p' is used other than by one plain store 'p[index] = value'
    s += p[r * n + i];
  p[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void nested(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int t = 0; t < n; ++t) {
    // NESTED: :[[@LINE+1]]:5: stage-shared(site=nested/for#0/for#0/p) is illegal: the loop is nested in another loop; staging needs it at the top of the kernel body or under bounds guards, where every thread can reach its barriers
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
  }
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void bound(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  // BOUND: :[[@LINE+1]]:23: stage-shared(site=bound/for#0/p) is illegal: the loop bound 'r' may differ between the threads of a block
  for (int i = 0; i < r; ++i)
    s += p[r * n + i];
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void breaks(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int i = 0; i < n; ++i) {
    s += p[r * n + i];
    // BREAK: :[[@LINE+1]]:16: stage-shared(site=breaks/for#0/p) is illegal: a 'break' would leave only the current tile
    if (s > 1) break;
  }
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void late_return(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  if (r < n) {
    // RETURN: :[[@LINE+1]]:17: stage-shared(site=late_return/for#0/p) is illegal: this return may leave some threads out of the barriers
    if (r == 3) return;
  }
  for (int i = 0; i < n; ++i)
    s += p[r * n + i];
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void divides(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int i = 0; i < n; ++i)
    // DIVIDES: :[[@LINE+1]]:10: stage-shared(site=divides/for#0/p) is not applicable: 'p[r * n + i / 2]': the index is not a polynomial of thread and loop indices: operator '/'
    s += p[r * n + i / 2];
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void invariant(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int i = 0; i < n; ++i)
    // INVARIANT: :[[@LINE+1]]:10: stage-shared(site=invariant/for#0/p) is not applicable: 'p[r * n]': the index does not change with 'i'
    s += p[r * n] * i;
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void mixed(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int i = 0; i < n; ++i)
    // MIXED: :[[@LINE+1]]:9: stage-shared(site=mixed/for#0/p) is illegal: the guard '(r < c)' bounds the staged rows together with something the loading thread cannot evaluate
    if (r < c)
      s += p[r * n + i];
  q[r * n + c] = s;
}

// NOBLOCK: :[[@LINE+1]]:17: stage-shared(site=noblock/for#0/p) is illegal: the block size is unknown: no launch in this file and no block(...) in the kernel's #pragma optiml mark
__global__ void noblock(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[r * n + i];
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(in[N * N]) out(out[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void contiguous(const float *in, float *out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  // CONTIGUOUS: :[[@LINE+1]]:7: stage-shared(site=contiguous/out) is not applicable: the store is already contiguous across threadIdx.x
  out[r * n + c] = in[c * n + r];
}

#pragma optiml kernel sizes(N = 64) in(in[N * N]) out(out[N * N]) scalar(n = N) grid(2, 8) block(32, 8)
// OBLONG: :[[@LINE+1]]:17: stage-shared(site=oblong/out) is illegal: exchanging stores needs a square 2-D block (or x = y times the copies of a coarsening in y); this kernel runs with (32, 8, 1)
__global__ void oblong(const float *in, float *out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  out[c * n + r] = in[r * n + c];
}

#pragma optiml kernel sizes(N = 64) in(in[N * N]) out(out[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void looped(const float *in, float *out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  for (int k = 0; k < n; ++k)
    // LOOPED: :[[@LINE+1]]:5: stage-shared(site=looped/out) is illegal: the store is inside a loop or switch
    out[c * n + r + k] = in[r * n + c];
}
