// hoist(site) is not applicable where nothing can be hoisted; the reason
// lists the near misses and why each stays in the loop.
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#0)' 2>&1 | %FileCheck --check-prefix=NONE %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#1)' 2>&1 | %FileCheck --check-prefix=SOME %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#2)' 2>&1 | %FileCheck --check-prefix=CONTINUE %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#3)' 2>&1 | %FileCheck --check-prefix=DIV %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#4)' 2>&1 | %FileCheck --check-prefix=MEMORY %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#5)' 2>&1 | %FileCheck --check-prefix=FLOAT %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#6)' 2>&1 | %FileCheck --check-prefix=INMACRO %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#7)' 2>&1 | %FileCheck --check-prefix=VARIANT %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#8)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#9)' 2>&1 | %FileCheck --check-prefix=RANGE %s
// RUN: not %clang-optiml %s --apply='hoist(site=k/for#10)' 2>&1 | %FileCheck --check-prefix=CONST %s

#include <cuda_runtime.h>
#define AT(r, c) ((r) * ld + (c))
#define ZERO(p, i) for (int i = 0; i < n; ++i) p[i * ld] = 0

__device__ int next(int x) { return x + 1; }

__global__ void k(float *p, const float *q, const int *idx, int n, int m,
                  int ld, int d, float alpha, float beta) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  // NONE: :[[@LINE+1]]:3: hoist(site=k/for#0) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration{{$}}
  for (int i = 0; i < n; ++i)
    acc += q[row + i];
  // SOME: :[[@LINE+1]]:3: hoist(site=k/for#1) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration ('row * ld' at [[@LINE+3]]:16 is evaluated only on some iterations; 'm * ld' at [[@LINE+4]]:29 is evaluated only on some iterations){{$}}
  for (int i = 0; i < n; ++i) {
    if (i > 2)
      acc += q[row * ld + i];
    acc += i > 3 ? q[i] : q[m * ld];
  }
  // CONTINUE: :[[@LINE+1]]:3: hoist(site=k/for#2) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration ('row * ld' at [[@LINE+4]]:14 is evaluated only on some iterations){{$}}
  for (int i = 0; i < n; ++i) {
    if (q[i] > 0)
      continue;
    acc += q[row * ld + i];
  }
  // DIV: :[[@LINE+1]]:3: hoist(site=k/for#3) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration ('m / d * ld' at [[@LINE+2]]:14 divides by a value that may be zero (or -1) when the loop does not run){{$}}
  for (int i = 0; i < n; ++i)
    acc += q[m / d * ld + i];
  // MEMORY: :[[@LINE+1]]:3: hoist(site=k/for#4) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration ('idx[0] * m' at [[@LINE+2]]:14 reads memory, which may not be valid when the loop does not run){{$}}
  for (int i = 0; i < n; ++i)
    acc += q[idx[0] * m + i];
  // FLOAT: :[[@LINE+1]]:3: hoist(site=k/for#5) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration ('alpha * beta' at [[@LINE+2]]:12 is floating-point arithmetic (moved, it could be contracted into FMAs differently)){{$}}
  for (int i = 0; i < n; ++i)
    acc += alpha * beta * q[i];
  // INMACRO: :[[@LINE+1]]:3: hoist(site=k/for#6) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration ('AT(row, i)' at [[@LINE+2]]:14 is inside a macro){{$}}
  for (int i = 0; i < n; ++i)
    acc += q[AT(row, i)];
  // VARIANT: :[[@LINE+1]]:3: hoist(site=k/for#7) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration{{$}}
  for (int i = 0; i < n; ++i) {
    acc += q[row * m + next(i) * m];
    m += 1;
  }
  // MACRO: :[[@LINE+1]]:3: hoist(site=k/for#8) is not applicable: 'k/for#8' is written inside a macro
  ZERO(p, z);
  int four[4] = {1, 2, 3, 4};
  // RANGE: :[[@LINE+1]]:3: hoist(site=k/for#9) is not applicable: 'k/for#9' is a range-for loop, which hoist does not handle
  for (int x : four)
    acc += x * row;
  // CONST: :[[@LINE+1]]:3: hoist(site=k/for#10) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration{{$}}
  for (int i = 0; i < n; ++i)
    acc += q[4 * 16 + i];
  p[row] = acc;
}
