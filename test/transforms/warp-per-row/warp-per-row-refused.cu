// warp-per-row refuses, at the place it concerns and with the rule, what
// the lanes of one row could not share.
// RUN: not %clang-optiml %s --apply='warp-per-row(site=cumsum/for#0)' 2>&1 | %FileCheck --check-prefix=STORE %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=rowmax/for#0)' 2>&1 | %FileCheck --check-prefix=MAX %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=peek/for#0)' 2>&1 | %FileCheck --check-prefix=PEEK %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=early/for#0)' 2>&1 | %FileCheck --check-prefix=EARLY %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=stride2/for#0)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=before/for#0)' 2>&1 | %FileCheck --check-prefix=BEFORE %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=barrier/for#0)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=grid2d/for#0)' 2>&1 | %FileCheck --check-prefix=GRID2D %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=nested/for#0/for#0)' 2>&1 | %FileCheck --check-prefix=NESTED %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=helper/for#0)' 2>&1 | %FileCheck --check-prefix=HELPER %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=narrow/for#0)' 2>&1 | %FileCheck --check-prefix=NARROW %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=outside/for#0)' 2>&1 | %FileCheck --check-prefix=OUTSIDE %s
// RUN: not %clang-optiml %s --apply='warp-per-row(site=pairs/for#0)' 2>&1 | %FileCheck --check-prefix=STRUCT %s

#include <cuda_runtime.h>

// A running sum stored at every step: not a reduction.
__global__ void cumsum(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float acc = 0;
    for (int j = 0; j < n; ++j) {
      acc += in[r * n + j];
      // STORE: :[[@LINE+1]]:7: warp-per-row(site=cumsum/for#0) is illegal: the loop stores to 'out[r * n + j]': only a loop that sums into registers is split across lanes
      out[r * n + j] = acc;
    }
  }
}

// A maximum written as a choice, not through fmaxf (which is split).
__global__ void rowmax(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float m = -1e30f;
    for (int j = 0; j < n; ++j)
      // MAX: :[[@LINE+1]]:7: warp-per-row(site=rowmax/for#0) is not applicable: 'm' is updated here but not summed (+=, -=, ++) nor reduced by fmaxf, max, fminf or min: only those combine across lanes
      m = in[r * n + j] > m ? in[r * n + j] : m;
    out[r] = m;
  }
}

// The partial sum steers the loop.
__global__ void peek(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int j = 0; j < n; ++j)
      // PEEK: :[[@LINE+1]]:12: warp-per-row(site=peek/for#0) is not applicable: the loop reads the partial sum 's', which differs from lane to lane
      s += s > 100.0f ? 0.0f : in[r * n + j];
    out[r] = s;
  }
}

// Leaves the loop early.
__global__ void early(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int j = 0; j < n; ++j) {
    if (in[r * n + j] < 0)
      // EARLY: :[[@LINE+1]]:7: warp-per-row(site=early/for#0) is not applicable: the loop can end early here: its lanes would stop at different iterations
      break;
    s += in[r * n + j];
  }
  out[r] = s;
}

__global__ void stride2(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  // STEP: :[[@LINE+1]]:3: warp-per-row(site=stride2/for#0) is not applicable: the loop must step by 1 (or -1) towards a bound checked with <, <=, > or >=, for its lanes to stride it
  for (int j = 0; j < n; j += 2)
    s += in[r * n + j];
  if (r < rows)
    out[r] = s;
}

// A store before the loop would run on every lane of the row.
__global__ void before(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    // BEFORE: :[[@LINE+1]]:5: warp-per-row(site=before/for#0) is illegal: this runs before the loop, on every lane of a row, and may write memory
    out[r] *= 0.5f;
    float s = 0;
    for (int j = 0; j < n; ++j)
      s += in[r * n + j];
    out[r] += s;
  }
}

// Threads that cooperate assume their grouping.
__global__ void barrier(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += in[r * n + j];
  // BARRIER: :[[@LINE+1]]:3: warp-per-row(site=barrier/for#0) is illegal: the kernel's threads cooperate here, which assumes how they are grouped
  __syncthreads();
  out[r] = s;
}

// GRID2D: :[[@LINE+1]]:17: warp-per-row(site=grid2d/for#0) is not applicable: 'grid2d' does not give each thread one row through one x index variable (warp-per-row takes 1-D kernels without grid-stride loops)
__global__ void grid2d(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += in[(r * n + j) * 4 + c];
  out[r * 4 + c] = s;
}

// The summing loop inside another loop.
__global__ void nested(const float *in, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  // NESTED: :[[@LINE+1]]:3: warp-per-row(site=nested/for#0/for#0) is not applicable: the loop sits in this statement: warp-per-row needs it in { } blocks and ifs only, outside any other loop
  for (int t = 0; t < 4; ++t) {
    float s = 0;
    for (int j = 0; j < n; ++j)
      s += in[(t * rows + r) * n + j];
    out[t * rows + r] = s;
  }
}

__device__ float bump(float *counter, float v) {
  *counter += 1;
  return v;
}

// A helper with a side effect.
__global__ void helper(const float *in, float *out, float *counter, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < n; ++j)
    // HELPER: :[[@LINE+1]]:10: warp-per-row(site=helper/for#0) is illegal: the loop calls 'bump', which may have side effects
    s += bump(counter, in[r * n + j]);
  out[r] = s;
}

// A 16-bit sum: shuffles take 32 and 64 bits.
__global__ void narrow(const short *in, int *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  // NARROW: :[[@LINE+1]]:9: warp-per-row(site=narrow/for#0) is not applicable: 's' is a short, which warp shuffles do not take
  short s = 0;
  for (int j = 0; j < n; ++j)
    s += in[r * n + j];
  out[r] = s;
}

// The counter lives on after the loop.
__global__ void outside(const float *in, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  int j;
  // OUTSIDE: :[[@LINE+1]]:3: warp-per-row(site=outside/for#0) is not applicable: the loop's counter is declared outside it: its value after the loop would differ per lane
  for (j = 0; j < n; ++j)
    s += in[r * n + j];
  out[r] = s + j;
}

// A struct updated through a helper (its `=` a call): not a sum of scalars.
__device__ float2 add2(float2 a, float v) {
  a.x += v;
  a.y -= v;
  return a;
}

__global__ void pairs(const float *in, float2 *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float2 acc = make_float2(0.0f, 0.0f);
  for (int j = 0; j < n; ++j)
    // STRUCT: :[[@LINE+1]]:5: warp-per-row(site=pairs/for#0) is not applicable: 'acc' is updated here but not summed (+=, -=, ++) nor reduced by fmaxf, max, fminf or min: only those combine across lanes
    acc = add2(acc, in[r * n + j]);
  out[r] = acc;
}
