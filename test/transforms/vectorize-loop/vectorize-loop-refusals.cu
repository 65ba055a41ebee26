// vectorize-loop(site, width) is refused, with the reason at the place that
// decides it: where there is no counted walk to vectorize (not applicable)
// or where loading a walk's elements early could change what the loop
// reads (illegal). A loop whose reads all fail reports the first reason met.
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#0)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#1)' 2>&1 | %FileCheck --check-prefix=DOWN %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#2)' 2>&1 | %FileCheck --check-prefix=NE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#3)' 2>&1 | %FileCheck --check-prefix=FEW %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#4)' 2>&1 | %FileCheck --check-prefix=PRAGMA %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#5)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#6)' 2>&1 | %FileCheck --check-prefix=OVERFLOW %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#7)' 2>&1 | %FileCheck --check-prefix=ASSIGNED %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=shape/for#8)' 2>&1 | %FileCheck --check-prefix=NOREAD %s
//
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#0)' 2>&1 | %FileCheck --check-prefix=BREAK %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#1)' 2>&1 | %FileCheck --check-prefix=CONTINUE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#2)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#3)' 2>&1 | %FileCheck --check-prefix=GOTO %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#4)' 2>&1 | %FileCheck --check-prefix=STATIC %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#5)' 2>&1 | %FileCheck --check-prefix=REDECL %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=body/for#6)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
//
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#0)' 2>&1 | %FileCheck --check-prefix=STRIDE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#1)' 2>&1 | %FileCheck --check-prefix=NOTPOLY %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#2)' 2>&1 | %FileCheck --check-prefix=NOBUFFER %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#3)' 2>&1 | %FileCheck --check-prefix=TYPE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#4,width=4)' 2>&1 | %FileCheck --check-prefix=DOUBLE4 %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#5)' 2>&1 | %FileCheck --check-prefix=LANE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#6)' 2>&1 | %FileCheck --check-prefix=INMACRO %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#7)' 2>&1 | %FileCheck --check-prefix=SKIPPED %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#8)' 2>&1 | %FileCheck --check-prefix=LOCAL %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#9)' 2>&1 | %FileCheck --check-prefix=VARIANT %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=reads/for#10)' 2>&1 | %FileCheck --check-prefix=NARROW %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=volatile_row/for#0)' 2>&1 | %FileCheck --check-prefix=VOLATILE %s
//
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=writes/for#0)' 2>&1 | %FileCheck --check-prefix=WRITTEN %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=writes/for#1)' 2>&1 | %FileCheck --check-prefix=ESCAPE %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=writes/for#2)' 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=writes/for#3)' 2>&1 | %FileCheck --check-prefix=CALL %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=writes/for#4)' 2>&1 | %FileCheck --check-prefix=GLOBAL %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=writes/for#5)' 2>&1 | %FileCheck --check-prefix=ATOMIC %s
// RUN: not %clang-optiml %s --apply='vectorize-loop(site=aliased/for#0)' 2>&1 | %FileCheck --check-prefix=ALIAS %s
//
// The same loops are fine where the rule does not bite: a __restrict__
// buffer cannot be the one a global or another buffer's store writes, and
// a store through another, distinct buffer leaves the walk alone:
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=restricted/for#0)' --apply='vectorize-loop(site=restricted/for#2)' -o %t.ok.cu
// (-rdc=true: the file declares a __device__ function defined elsewhere.)
// RUN: %nvcc -rdc=true -c %t.ok.cu -o %t.ok.o

#include <cuda_runtime.h>

#define ZERO_ROW(p, n)                                                         \
  for (int z = 0; z < n; ++z)                                                  \
    p[z] = 0.0f
#define AT(p, k) p[k]

__global__ void shape(const float *x, float *y, int n, int *limit) {
  float acc = 0.0f;
  int t = 0;
  // WHILE: :[[@LINE+1]]:3: vectorize-loop(site=shape/while#0) is not applicable: 'shape/while#0' is a while-loop; vectorize-loop needs a counted for-loop
  while (t < n)
    acc += x[t++];
  // STEP: :[[@LINE+1]]:26: vectorize-loop(site=shape/for#0) is not applicable: the step is 2; vectorize-loop walks loops that count up by 1, one element an iteration
  for (int j = 0; j < n; j += 2)
    acc += x[j];
  // DOWN: :[[@LINE+1]]:26: vectorize-loop(site=shape/for#1) is not applicable: the step is -1; vectorize-loop walks loops that count up by 1, one element an iteration
  for (int j = n; j > 0; --j)
    acc += x[j];
  // NE: :[[@LINE+1]]:19: vectorize-loop(site=shape/for#2) is not applicable: the condition is not 'i < bound' or 'i <= bound'; vectorize-loop needs an upper bound
  for (int j = 0; j != n; ++j)
    acc += x[j];
  // FEW: :[[@LINE+1]]:3: vectorize-loop(site=shape/for#3) is not applicable: the loop runs 3 times, fewer than the width 4
  for (int j = 0; j < 3; ++j)
    acc += x[j];
  // PRAGMA: :[[@LINE+1]]:9: vectorize-loop(site=shape/for#4) is not applicable: 'shape/for#4' has a loop pragma or attribute, which the vector and scalar loops could not share
#pragma unroll 4
  for (int j = 0; j < n; ++j)
    acc += x[j];
  // MACRO: :[[@LINE+1]]:3: vectorize-loop(site=shape/for#5) is not applicable: 'shape/for#5' is written inside a macro; it cannot be copied
  ZERO_ROW(y, n);
  // OVERFLOW: :[[@LINE+1]]:23: vectorize-loop(site=shape/for#6) is illegal: the vector loop's test would overflow 'int' near the bound
  for (int j = 0; j < 2147483646; ++j)
    acc += x[j];
  for (int j = 0; j < n; ++j)
    // ASSIGNED: :[[@LINE+1]]:22: vectorize-loop(site=shape/for#7) is not applicable: the induction variable 'j' is assigned in the body
    if (x[j] < 0.0f) j += 2;
  // NOREAD: :[[@LINE+1]]:3: vectorize-loop(site=shape/for#8) is not applicable: the loop reads no buffer element at 'base + j' (one element further each iteration)
  for (int j = 0; j < n; ++j)
    y[j] = acc;
  y[n] = acc;
}

__global__ void body(const float *x, float *y, int n) {
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    // BREAK: :[[@LINE+1]]:22: vectorize-loop(site=body/for#0) is not applicable: the body has 'break'; vectorize-loop copies only bodies that run to their end without jumps
    if (x[j] < 0.0f) break;
    acc += x[j];
  }
  for (int j = 0; j < n; ++j) {
    // CONTINUE: :[[@LINE+1]]:22: vectorize-loop(site=body/for#1) is not applicable: the body has 'continue'; vectorize-loop copies only bodies that run to their end without jumps
    if (x[j] < 0.0f) continue;
    acc += x[j];
  }
  for (int j = 0; j < n; ++j) {
    // RETURN: :[[@LINE+1]]:22: vectorize-loop(site=body/for#2) is not applicable: the body has 'return'; vectorize-loop copies only bodies that run to their end without jumps
    if (x[j] < 0.0f) return;
    acc += x[j];
  }
  for (int j = 0; j < n; ++j) {
    // GOTO: :[[@LINE+1]]:22: vectorize-loop(site=body/for#3) is not applicable: the body has a 'goto'; vectorize-loop copies only bodies that run to their end without jumps
    if (x[j] < 0.0f) goto done;
    acc += x[j];
  }
  for (int j = 0; j < n; ++j) {
    // STATIC: :[[@LINE+1]]:22: vectorize-loop(site=body/for#4) is illegal: the body declares 's' with static storage (static or __shared__); each copy would have its own
    __shared__ float s;
    s = x[j];
    acc += s;
  }
  int j;
  for (j = 0; j < n; ++j) {
    // REDECL: :[[@LINE+1]]:9: vectorize-loop(site=body/for#5) is not applicable: the body declares its own 'j', the name of the induction variable each copy declares
    int j = 2;
    acc += x[j];
  }
  for (int j = 0; j < n; ++j) {
    acc += x[j];
    // BARRIER: :[[@LINE+1]]:5: vectorize-loop(site=body/for#6) is illegal: the body calls '__syncthreads': a vector load moved ahead of it could miss what other threads wrote before it
    __syncthreads();
  }
done:
  y[threadIdx.x] = acc;
}

__device__ float table[1024];

__global__ void reads(const float *x, const short *h, const double *d,
                      float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  // STRIDE: :[[@LINE+2]]:14: vectorize-loop(site=reads/for#0) is illegal: this read of 'x' moves by 'n' elements as 'j' advances, not by one
  for (int j = 0; j < m; ++j)
    acc += x[j * n + i];
  // NOTPOLY: :[[@LINE+2]]:14: vectorize-loop(site=reads/for#1) is illegal: this read of 'x' is at an index that is not a polynomial of 'j', so its elements are not known to be consecutive
  for (int j = 0; j < m; ++j)
    acc += x[j / 2];
  // NOBUFFER: :[[@LINE+2]]:12: vectorize-loop(site=reads/for#2) is illegal: this read of 'table' is not through a kernel buffer parameter or a local pointer set once from one
  for (int j = 0; j < m; ++j)
    acc += table[j];
  // TYPE: :[[@LINE+2]]:12: vectorize-loop(site=reads/for#3) is illegal: this read of 'h' loads 'short'; vectorize-loop loads int, unsigned, float and double elements
  for (int j = 0; j < m; ++j)
    acc += h[i * m + j];
  // DOUBLE4: :[[@LINE+2]]:12: vectorize-loop(site=reads/for#4,width=4) is illegal: this read of 'd' loads doubles, and double4 is not one load (use width=2)
  for (int j = 0; j < m; ++j)
    acc += d[i * m + j];
  // LANE: :[[@LINE+2]]:12: vectorize-loop(site=reads/for#5) is not applicable: this read of 'x' is one element from the next thread's (threadIdx.x): the chunks of only one thread in 4 would be aligned, and a warp would run both loops
  for (int j = 0; j < m; ++j)
    acc += x[i + j];
  // INMACRO: :[[@LINE+2]]:12: vectorize-loop(site=reads/for#6) is not applicable: this read of 'x' is written inside a macro
  for (int j = 0; j < m; ++j) {
    acc += AT(x, i * m + j);
  }
  for (int j = 0; j < m; ++j)
    // SKIPPED: :[[@LINE+1]]:5: vectorize-loop(site=reads/for#7) is illegal: this read of 'x' may be skipped on some iterations; a vector load could read elements the loop does not
    if (acc < 100.0f)
      acc += x[i * m + j];
  for (int j = 0; j < m; ++j) {
    int k = i * m + j;
    // LOCAL: :[[@LINE+1]]:14: vectorize-loop(site=reads/for#8) is illegal: this read of 'x' uses 'k', declared in the loop; its vector load, made before the body, cannot
    acc += x[k];
  }
  int o = i * m;
  for (int j = 0; j < m; ++j) {
    // VARIANT: :[[@LINE+1]]:14: vectorize-loop(site=reads/for#9) is illegal: this read of 'x' uses 'o', which may change in the loop, so its elements are not a walk
    acc += x[o + j];
    o += 1;
  }
  // NARROW: :[[@LINE+2]]:14: vectorize-loop(site=reads/for#10) is illegal: this read of 'x' narrows 'j' to 'short', which may wrap between two iterations
  for (int j = 0; j < m; ++j)
    acc += x[(short)j];
  y[i] = acc;
}

// VOLATILE: :[[@LINE+5]]:12: vectorize-loop(site=volatile_row/for#0) is illegal: this read of 'v' is volatile: each element must be loaded on its own, when its iteration runs
__global__ void volatile_row(volatile float *v, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += v[i * n + j];
  y[i] = acc;
}

__device__ float g_sum;
__device__ float unknown_effect(float v);

__global__ void writes(float *x, float **rows, int *hist, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    // WRITTEN: :[[@LINE+1]]:5: vectorize-loop(site=writes/for#0) is illegal: 'x' is written in the loop here (or its element's address escapes); the vector loads would read its elements ahead of the write
    x[i * n + j + 1] = 0.0f;
  }
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    // ESCAPE: :[[@LINE+1]]:17: vectorize-loop(site=writes/for#1) is illegal: 'x' is written in the loop here (or its element's address escapes); the vector loads would read its elements ahead of the write
    float *p = &x[i * n + j + 1];
    acc += *p;
  }
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    // UNKNOWN: :[[@LINE+1]]:5: vectorize-loop(site=writes/for#2) is illegal: this store goes through a pointer whose buffer is unknown, maybe 'x'; the vector loads would read its elements ahead of the write
    rows[i][j] = acc;
  }
  for (int j = 0; j < n; ++j)
    // CALL: :[[@LINE+1]]:27: vectorize-loop(site=writes/for#3) is illegal: this call to 'unknown_effect' may write memory, maybe 'x'; the vector loads would read its elements ahead of the write
    acc += x[i * n + j] + unknown_effect(acc);
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    // GLOBAL: :[[@LINE+1]]:5: vectorize-loop(site=writes/for#4) is illegal: this store writes 'g_sum', a variable of static storage, which may be 'x' (not __restrict__); the vector loads would read its elements ahead of the write
    g_sum = acc;
  }
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    // ATOMIC: :[[@LINE+1]]:5: vectorize-loop(site=writes/for#5) is illegal: 'x' is written in the loop here (or its element's address escapes); the vector loads would read its elements ahead of the write
    atomicAdd(&x[0], 1.0f);
  }
  y[i] = acc;
}

// Launched with the same buffer twice: its store to 'b' may be a store to
// 'a'.
__global__ void aliased(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    acc += a[i * n + j];
    b[i] = acc;
  }
}

__global__ void restricted(const float *__restrict__ x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    g_sum = acc;
  }
  for (int j = 0; j < n; ++j) {
    acc += x[i * n + j];
    y[i] = acc;
  }
}

void launch(float *p, float *q, float **rows, int *hist, int n) {
  // ALIAS: :[[@LINE+1]]:25: vectorize-loop(site=aliased/for#0) is illegal: this launch passes 'p' for both 'a' and 'b'
  aliased<<<1, 32>>>(p, p, n);
  restricted<<<1, 32>>>(p, q, n);
}
