// stage-shared refuses a loop under guards it cannot split off the loop's
// work, with its reason at the place that decides it.
// RUN: not %clang-optiml %s --apply='stage-shared(site=otherwise/for#0/p)' 2>&1 | %FileCheck --check-prefix=ELSE %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=parity/for#0/p)' 2>&1 | %FileCheck --check-prefix=PARITY %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=masked/for#0/p)' 2>&1 | %FileCheck --check-prefix=MASKED %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=changed/for#0/p)' 2>&1 | %FileCheck --check-prefix=CHANGED %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=leaves/for#0/p)' 2>&1 | %FileCheck --check-prefix=LEAVES %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=synced/for#0/p)' 2>&1 | %FileCheck --check-prefix=SYNCED %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=hides/for#0/p)' 2>&1 | %FileCheck --check-prefix=HIDES %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=pair/for#0/p)' 2>&1 | %FileCheck --check-prefix=PAIR %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=counter/for#0/p)' 2>&1 | %FileCheck --check-prefix=COUNTER %s
// RUN: not %clang-optiml %s --apply='stage-shared(site=lower/for#0/p)' 2>&1 | %FileCheck --check-prefix=LOWER %s
//
// After coarsening, the copies hold the guard and the loop:
// RUN: not %clang-optiml %s --apply='coarsen(site=copies,dim=x,factor=2)' --apply='stage-shared(site=copies/for#0/for#0/p)' 2>&1 | %FileCheck --check-prefix=COPIES %s
// A guard block that ends the kernel is jammed instead: the loop is the
// copies' own and can be staged.
// RUN: %clang-optiml %s --apply='coarsen(site=ends,dim=x,factor=2)' --apply='stage-shared(site=ends/for#1/p)' -o %t.ends.cu
// RUN: %nvcc -c %t.ends.cu -o %t.ends.o

#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void otherwise(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  // ELSE: :[[@LINE+1]]:3: stage-shared(site=otherwise/for#0/p) is illegal: the 'if' around the loop has an 'else' branch; staging runs the loop in every thread and keeps only guards without one
  if (r < n) {
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
  } else {
    s = 1;
  }
  q[r] = s;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void parity(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  // PARITY: :[[@LINE+1]]:16: stage-shared(site=parity/for#0/p) is illegal: the guard '(r % 2 == 0)' is not a bound check (<, <=, >, >=) of the thread's indices
  if (r < n && r % 2 == 0) {
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N], mask[N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void masked(const float *p, const int *mask, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  // MASKED: :[[@LINE+1]]:16: stage-shared(site=masked/for#0/p) is illegal: the guard '(mask[r])' reads memory or a variable that changes, so it cannot be repeated where the loop's work runs
  if (r < n && mask[r]) {
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void changed(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int lim = n;
  float s = 0;
  // CHANGED: :[[@LINE+1]]:7: stage-shared(site=changed/for#0/p) is illegal: the guard '(r < lim)' reads memory or a variable that changes
  if (r < lim) {
    lim = 0;
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void leaves(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  if (r < n) {
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    // LEAVES: :[[@LINE+1]]:16: stage-shared(site=leaves/for#0/p) is illegal: this return may leave some threads out of the barriers
    if (s > 1) return;
    q[r] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void synced(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  if (r < n) {
    // SYNCED: :[[@LINE+1]]:5: stage-shared(site=synced/for#0/p) is illegal: this barrier would not be reached by every thread: it is under the guard
    __syncthreads();
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N, m = N) grid(4, 4) block(16, 16)
__global__ void hides(const float *p, float *q, int n, int m) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  if (r < m) {
    // HIDES: :[[@LINE+1]]:11: stage-shared(site=hides/for#0/p) is illegal: 'm' hides the variable of that name that the guard reads, and the guard is repeated below it
    float m = 2;
    for (int i = 0; i < n; ++i)
      s += p[r * n + i] * m;
    q[r] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void pair(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n) {
    // PAIR: :[[@LINE+1]]:11: stage-shared(site=pair/for#0/p) is illegal: 'v' is initialized from memory or by a call under the guard, and only a scalar or record 'T v = init;' can be initialized under a condition
    float v[2] = {q[r], q[r + 1]};
    for (int i = 0; i < n; ++i)
      v[i % 2] += p[r * n + i];
    q[r] = v[0] + v[1];
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void counter(const float *p, float *q, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  if (r < n) {
    int i;
    for (i = 0; i < n; ++i)
      s += p[r * n + i];
    // COUNTER: :[[@LINE+1]]:16: stage-shared(site=counter/for#0/p) is not applicable: 'i' is used outside the loop, which the tile loop would not leave at its final value
    q[r] = s + i;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void lower(const float *p, float *q, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  // LOWER: :[[@LINE+1]]:16: stage-shared(site=lower/for#0/p) is illegal: the guard '(c <= r)' bounds the staged rows together with something the loading thread cannot evaluate
  if (r < n && c <= r) {
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r * n + c] = s;
  }
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid((N + 15) / 16, (N + 15) / 16) block(16, 16)
__global__ void copies(const float *p, float *q, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n && c < n) {
    float s = 0;
    // COPIES: {{[0-9]+}}:7: stage-shared(site=copies/for#0/for#0/p) is illegal: the loop is nested in another loop; staging needs it at the top of the kernel body or under bounds guards, where every thread can reach its barriers; coarsening copies a guarded body whole when statements follow the guard (it jams the copies inside the loop when the guard is an early return or ends the kernel)
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r * n + c] = s;
  }
  if (r < n && c < n)
    q[r * n + c] *= 2.0f;
}

#pragma optiml kernel sizes(N = 64) in(p[N * N]) out(q[N * N]) scalar(n = N) grid(2, 4) block(16, 16)
__global__ void ends(const float *p, float *q, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n && c < n) {
    float s = 0;
    for (int i = 0; i < n; ++i)
      s += p[r * n + i];
    q[r * n + c] = s;
  }
}
