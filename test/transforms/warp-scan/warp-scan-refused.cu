// warp-scan(site) is refused, with the reason, where a loop is not the
// double-buffered Hillis-Steele scan or warps could not scan it whole.
// RUN: not %clang-optiml %s --apply='warp-scan(site=single/for#0)' 2>&1 | %FileCheck --check-prefix=SINGLE %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=doubled/for#0)' 2>&1 | %FileCheck --check-prefix=DOUBLED %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=linear/for#0)' 2>&1 | %FileCheck --check-prefix=LINEAR %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=fixed_halves/for#0)' 2>&1 | %FileCheck --check-prefix=HALVES %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=shorts/for#0)' 2>&1 | %FileCheck --check-prefix=SHORTS %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=wide/for#0)' 2>&1 | %FileCheck --check-prefix=WIDE %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=odd/for#0)' 2>&1 | %FileCheck --check-prefix=ODD %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=divergent/for#0)' 2>&1 | %FileCheck --check-prefix=DIVERGENT %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=early_return/for#0)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=other_half/for#0)' 2>&1 | %FileCheck --check-prefix=OTHER %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=moved/for#0)' 2>&1 | %FileCheck --check-prefix=MOVED %s
// RUN: not %clang-optiml %s --apply='warp-scan(site=in_macro/for#0)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// MACRO: warp-scan(site=in_macro/for#0) is not applicable: the step is written inside a macro

#include <cuda_runtime.h>

// The step every scan here makes, on halves P and Q of `s`.
#define STEP(P, Q)                                                             \
  if (t >= off)                                                                \
    s[P * blockDim.x + t] = s[Q * blockDim.x + t] + s[Q * blockDim.x + t - off]; \
  else                                                                         \
    s[P * blockDim.x + t] = s[Q * blockDim.x + t];

// One buffer, but the register truncates what it carries.
__global__ void single(float *d) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = d[t];
  __syncthreads();
  // SINGLE: :[[@LINE+1]]:3: warp-scan(site=single/for#0) is not applicable: the loop is neither the double-buffered scan nor 'T v = t >= c ? buf[t - c] : 0; __syncthreads(); buf[t] += v; __syncthreads();'
  for (int off = 1; off < blockDim.x; off *= 2) {
    int v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  d[t] = s[t];
}

// One buffer, but threads below the offset add their own element again.
__global__ void doubled(float *d) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = d[t];
  __syncthreads();
  // DOUBLED: :[[@LINE+1]]:3: warp-scan(site=doubled/for#0) is not applicable: the loop is neither the double-buffered scan nor
  for (int off = 1; off < blockDim.x; off *= 2) {
    float v = t >= off ? s[t - off] : s[t];
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  d[t] = s[t];
}

__global__ void linear(float *d) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 0, q = 1;
  // LINEAR: :[[@LINE+1]]:3: warp-scan(site=linear/for#0) is not applicable: the increment does not double 'off'
  for (int off = 1; off < blockDim.x; off += 1) {
    p = 1 - p;
    q = 1 - p;
    STEP(p, q)
    __syncthreads();
  }
  d[t] = s[p * blockDim.x + t];
}

// The halves never swap: the second step reads what no step wrote.
__global__ void fixed_halves(float *d) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 1, q = 0;
  // HALVES: :[[@LINE+1]]:3: warp-scan(site=fixed_halves/for#0) is not applicable: the halves are not chosen by 'p = 1 - p; q = 1 - p;' at the start of each step
  for (int off = 1; off < blockDim.x; off *= 2) {
    STEP(p, q)
    __syncthreads();
  }
  d[t] = s[p * blockDim.x + t];
}

__global__ void shorts(short *d) {
  // SHORTS: :[[@LINE+1]]:20: warp-scan(site=shorts/for#0) is not applicable: 's' holds 'short', which __shfl_up_sync does not carry
  __shared__ short s[512];
  int t = threadIdx.x, p = 0, q = 1;
  for (int off = 1; off < blockDim.x; off *= 2) {
    p = 1 - p;
    q = 1 - p;
    STEP(p, q)
    __syncthreads();
  }
  d[t] = s[p * blockDim.x + t];
}

#define SCAN_KERNEL(NAME)                                                      \
  __global__ void NAME(float *d) {                                             \
    __shared__ float s[2048];                                                  \
    int t = threadIdx.x, p = 0, q = 1;                                         \
    for (int off = 1; off < blockDim.x; off *= 2) {                            \
      p = 1 - p;                                                               \
      q = 1 - p;                                                               \
      STEP(p, q)                                                               \
      __syncthreads();                                                         \
    }                                                                          \
    d[t] = s[p * blockDim.x + t];                                              \
  }
SCAN_KERNEL(wide)
SCAN_KERNEL(odd)

__global__ void divergent(float *d) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 0, q = 1;
  if (t < 64) {
    // DIVERGENT: :[[@LINE+1]]:5: warp-scan(site=divergent/for#0) is illegal: the loop is nested in another loop or in a condition that threads of a block may answer differently, so some warps' shuffles would miss lanes
    for (int off = 1; off < blockDim.x; off *= 2) {
      p = 1 - p;
      q = 1 - p;
      STEP(p, q)
      __syncthreads();
    }
  }
  d[t] = s[p * blockDim.x + t];
}

__global__ void early_return(float *d, int n) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 0, q = 1;
  // RETURN: :[[@LINE+2]]:5: warp-scan(site=early_return/for#0) is illegal: threads may return here, before the scan, and others not, so some warps' shuffles would miss lanes
  if (blockIdx.x * blockDim.x + t >= n)
    return;
  for (int off = 1; off < blockDim.x; off *= 2) {
    p = 1 - p;
    q = 1 - p;
    STEP(p, q)
    __syncthreads();
  }
  d[t] = s[p * blockDim.x + t];
}

// The half the second-to-last step wrote is read after the loop.
__global__ void other_half(float *d) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 0, q = 1;
  for (int off = 1; off < blockDim.x; off *= 2) {
    p = 1 - p;
    q = 1 - p;
    STEP(p, q)
    __syncthreads();
  }
  // OTHER: :[[@LINE+1]]:10: warp-scan(site=other_half/for#0) is illegal: 's' is used here other than in the half the scan ends in ('p * n + t'), which alone the warps' scan fills
  d[t] = s[q * blockDim.x + t] + s[p * blockDim.x + t];
}

__global__ void moved(float *d) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 0, q = 1;
  for (int off = 1; off < blockDim.x; off *= 2) {
    p = 1 - p;
    q = 1 - p;
    STEP(p, q)
    __syncthreads();
  }
  // MOVED: :[[@LINE+1]]:3: warp-scan(site=moved/for#0) is illegal: 'p' changes after the scan, so the half read later is not known
  p = 0;
  d[t] = s[p * blockDim.x + t];
}

// Legal but for the step's spelling, which the rewrite would copy.
__global__ void in_macro(float *d) {
  __shared__ float s[512];
  int t = threadIdx.x, p = 0, q = 1;
  for (int off = 1; off < blockDim.x; off *= 2) {
    p = 1 - p;
    q = 1 - p;
    STEP(p, q)
    __syncthreads();
  }
  d[t] = s[p * blockDim.x + t];
}

void run(float *f, short *h, int n) {
  in_macro<<<1, 256>>>(f);
  single<<<1, 256>>>(f);
  doubled<<<1, 256>>>(f);
  linear<<<1, 256>>>(f);
  fixed_halves<<<1, 256>>>(f);
  shorts<<<1, 256>>>(h);
  // WIDE: :[[@LINE+1]]:13: warp-scan(site=wide/for#0) is illegal: this launch's block is (32, 2, 1); the warps' scan needs (x, 1, 1) with x a multiple of 32
  wide<<<1, dim3(32, 2)>>>(f);
  // ODD: :[[@LINE+1]]:12: warp-scan(site=odd/for#0) is illegal: this launch's block is (48, 1, 1)
  odd<<<1, 48>>>(f);
  divergent<<<1, 256>>>(f);
  early_return<<<1, 256>>>(f, n);
  other_half<<<1, 256>>>(f);
  moved<<<1, 256>>>(f);
}
