// fusion(site) refuses, with the place and the rule, each loop it cannot
// fuse with the loop after it: NotApplicable where there is no such loop or
// it runs over other iterations, Illegal where fusing would change what the
// kernel computes.
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#0)' 2>&1 | %FileCheck --check-prefix=BETWEENLOOP %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#1)' 2>&1 | %FileCheck --check-prefix=NOBLOCK %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#2)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/while#0)' 2>&1 | %FileCheck --check-prefix=SITEWHILE %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#3)' 2>&1 | %FileCheck --check-prefix=NEXTPRAGMA %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#4)' 2>&1 | %FileCheck --check-prefix=PRAGMA %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#5)' 2>&1 | %FileCheck --check-prefix=TYPES %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#7)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#9)' 2>&1 | %FileCheck --check-prefix=CMP %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#11)' 2>&1 | %FileCheck --check-prefix=START %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#13)' 2>&1 | %FileCheck --check-prefix=BOUND %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#15)' 2>&1 | %FileCheck --check-prefix=OUTSIDE %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#17)' 2>&1 | %FileCheck --check-prefix=NAME %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#19)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#21)' 2>&1 | %FileCheck --check-prefix=CALL %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#23)' 2>&1 | %FileCheck --check-prefix=REDUCTION %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#25)' 2>&1 | %FileCheck --check-prefix=BACKWARD %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#27)' 2>&1 | %FileCheck --check-prefix=HEADER %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#29)' 2>&1 | %FileCheck --check-prefix=MIDBARRIER %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#31)' 2>&1 | %FileCheck --check-prefix=MIDREAD %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#33)' 2>&1 | %FileCheck --check-prefix=MIDWRITE %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#35)' 2>&1 | %FileCheck --check-prefix=MIDMEMORY %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#37)' 2>&1 | %FileCheck --check-prefix=REVERSED %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#39)' 2>&1 | %FileCheck --check-prefix=EVERY %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#41)' 2>&1 | %FileCheck --check-prefix=SYMBOLIC %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#43)' 2>&1 | %FileCheck --check-prefix=CAPTURE %s
// RUN: not %clang-optiml %s --apply='fusion(site=k/for#45)' 2>&1 | %FileCheck --check-prefix=LAST %s

#include <cuda_runtime.h>

__device__ float helper(float *p) { return *p; }

__global__ void k(float *y, float *z, const float *x, float *acc, int *len,
                  int n, int m) {
  // The next loop is under the `if` in between, which writes 'y':
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  if (n > 2)
    for (int i = 0; i < n; ++i)
      // BETWEENLOOP: :[[@LINE+1]]:7: fusion(site=k/for#0) is illegal: 'y[i]' between the loops and 'y[i]' in the first loop may touch the same memory (both reach 'y'); fused, the first loop would run after them{{$}}
      y[i] = x[i];
  // NOBLOCK: :[[@LINE-3]]:5: fusion(site=k/for#1) is not applicable: 'k/for#1' is not directly in a block, so no loop follows it there{{$}}
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  int w = 0;
  // WHILE: :[[@LINE+2]]:3: fusion(site=k/for#2) is not applicable: the loop after 'k/for#2' is a while-loop; fusion merges for-loops{{$}}
  // SITEWHILE: :[[@LINE+1]]:3: fusion(site=k/while#0) is not applicable: 'k/while#0' is a while-loop; fusion merges for-loops{{$}}
  while (w < n)
    z[w++] = 0.0f;
  // PRAGMA: :[[@LINE+4]]:9: fusion(site=k/for#4) is not applicable: 'k/for#4' has a loop pragma or attribute, which the fused loop could not keep{{$}}
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // NEXTPRAGMA: :[[@LINE+1]]:9: fusion(site=k/for#3) is not applicable: the loop after 'k/for#3' has a loop pragma or attribute, which the fused loop could not keep{{$}}
#pragma unroll 2
  for (int i = 0; i < n; ++i)
    z[i] = x[i];
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // TYPES: :[[@LINE+1]]:3: fusion(site=k/for#5) is not applicable: the loops count with different types ('int' and 'unsigned int'); fusion needs the same iterations{{$}}
  for (unsigned i = 0; i < n; ++i)
    z[i] = x[i];
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // STEP: :[[@LINE+1]]:26: fusion(site=k/for#7) is not applicable: the loops step differently (by 1 and by 2); fusion needs the same iterations{{$}}
  for (int i = 0; i < n; i += 2)
    z[i] = x[i];
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // CMP: :[[@LINE+1]]:19: fusion(site=k/for#9) is not applicable: the loops compare differently ('<' and '<='); fusion needs the same iterations{{$}}
  for (int i = 0; i <= n; ++i)
    z[i] = x[i];
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // START: :[[@LINE+1]]:16: fusion(site=k/for#11) is not applicable: the loops start at different values ('0' and '1'); fusion needs the same iterations{{$}}
  for (int i = 1; i < n; ++i)
    z[i] = x[i];
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // BOUND: :[[@LINE+1]]:23: fusion(site=k/for#13) is not applicable: the loops end at different bounds ('n' and 'm'); fusion needs the same iterations{{$}}
  for (int i = 0; i < m; ++i)
    z[i] = x[i];
  // 'j' keeps its end value after its loop; fused, it would not get one:
  int j;
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // OUTSIDE: :[[@LINE+1]]:8: fusion(site=k/for#15) is illegal: 'j' is declared before the second loop, which leaves it at its end value; the fused loop counts with 'i'{{$}}
  for (j = 0; j < n; ++j)
    z[j] = x[j];
  // Renamed 'i', 'u' would clash with the 'i' the second body reads:
  int i = 3;
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  for (int u = 0; u < n; ++u)
    // NAME: :[[@LINE+1]]:19: fusion(site=k/for#17) is not applicable: the second loop's body uses the name 'i' for another variable; its induction variable 'u' cannot take that name{{$}}
    z[u] = x[u] + i;
  for (int t = 0; t < n; ++t) {
    y[t] = x[t];
    // BARRIER: :[[@LINE+1]]:5: fusion(site=k/for#19) is illegal: the first loop's body has a call to '__syncthreads', which synchronizes or exchanges data between threads; fusion cannot interleave it with the other loop{{$}}
    __syncthreads();
  }
  for (int t = 0; t < n; ++t)
    z[t] = x[t];
  for (int t = 0; t < n; ++t)
    y[t] = x[t];
  for (int t = 0; t < n; ++t)
    // CALL: :[[@LINE+1]]:12: fusion(site=k/for#21) is illegal: the second loop's body has a call to 'helper', whose side effects OptiML does not follow; fusion cannot interleave it with the other loop{{$}}
    z[t] = helper(y);
  // A sum and its use: the second loop needs the whole sum.
  float s = 0.0f;
  for (int t = 0; t < n; ++t)
    s += x[t];
  for (int t = 0; t < n; ++t)
    // REDUCTION: :[[@LINE+1]]:19: fusion(site=k/for#23) is illegal: 's' is written by the first loop and used by the second; fused, the second would use it before the first loop is done{{$}}
    z[t] = x[t] / s;
  float last = 0.0f;
  for (int t = 0; t < n; ++t)
    y[t] = last;
  for (int t = 0; t < n; ++t)
    // BACKWARD: :[[@LINE+1]]:5: fusion(site=k/for#25) is illegal: 'last' is written by the second loop and used by the first; fused, the first loop would see those writes{{$}}
    last = x[t];
  // The second loop starts where the first loop's stores leave 'len[0]':
  for (int t = len[0]; t < n; ++t)
    len[0] = t;
  // HEADER: :[[@LINE+1]]:16: fusion(site=k/for#27) is illegal: the second loop's initial value reads memory that the loop may write (the first loop); fused, it would be read before that loop runs{{$}}
  for (int t = len[0]; t < n; ++t)
    z[t] = x[t];
  for (int t = 0; t < n; ++t)
    y[t] = x[t];
  // MIDBARRIER: :[[@LINE+1]]:3: fusion(site=k/for#29) is illegal: the statements between the loops have a call to '__syncthreads', which synchronizes or exchanges data between threads; fused, the first loop would run after them{{$}}
  __syncthreads();
  for (int t = 0; t < n; ++t)
    z[t] = x[t];
  float q = 0.0f;
  for (int t = 0; t < n; ++t)
    q += x[t];
  // MIDREAD: :[[@LINE+1]]:10: fusion(site=k/for#31) is illegal: 'q' is written by the first loop and used between the loops; fused, the first loop would run after them{{$}}
  y[0] = q;
  for (int t = 0; t < n; ++t)
    z[t] = x[t];
  for (int t = 0; t < n; ++t)
    y[t] = x[t] + q;
  // MIDWRITE: :[[@LINE+1]]:3: fusion(site=k/for#33) is illegal: 'q' is written between the loops and used by the first loop; fused, the first loop would run after them{{$}}
  q = 1.0f;
  for (int t = 0; t < n; ++t)
    z[t] = x[t];
  for (int t = 0; t < n; ++t)
    y[t] = x[t];
  // MIDMEMORY: :[[@LINE+1]]:10: fusion(site=k/for#35) is illegal: 'y[1]' between the loops and 'y[t]' in the first loop may touch the same memory (both reach 'y'); fused, the first loop would run after them{{$}}
  z[0] = y[1];
  for (int t = 0; t < n; ++t)
    z[t] = x[t];
  for (int t = 0; t < n; ++t)
    y[t] = x[t];
  for (int t = 0; t < n; ++t)
    // REVERSED: :[[@LINE+1]]:12: fusion(site=k/for#37) is illegal: 'y[t + 1]' (second loop) reaches the element that 'y[t]' (first loop) reaches 1 iteration later; fused, the second loop's access would run first{{$}}
    z[t] = y[t + 1];
  for (int t = 0; t < n; ++t)
    acc[0] += x[t];
  for (int t = 0; t < n; ++t)
    // EVERY: :[[@LINE+1]]:12: fusion(site=k/for#39) is illegal: 'acc[0]' (second loop) and 'acc[0]' (first loop) reach the same element on every iteration; fusion would interleave them{{$}}
    z[t] = acc[0];
  for (int t = 0; t < n; ++t)
    y[t * n] = x[t];
  for (int t = 0; t < n; ++t)
    // SYMBOLIC: :[[@LINE+1]]:12: fusion(site=k/for#41) is illegal: OptiML cannot prove that 'y[t * n]' (second loop) and 'y[t * n]' (first loop) keep their order when fused: their stride in 't', 'n', is not a constant and may be zero{{$}}
    z[t] = y[t * n];
  // The 'r' declared between the loops would capture the first loop's 'r':
  float r = 1.0f;
  {
    for (int t = 0; t < n; ++t)
      y[t] = x[t] * r;
    // CAPTURE: :[[@LINE+1]]:11: fusion(site=k/for#43) is not applicable: 'r' is declared between the loops and names another variable in the first loop, which fusion moves after it{{$}}
    float r = 2.0f;
    for (int t = 0; t < n; ++t)
      z[t] = x[t] * r;
  }
  // LAST: :[[@LINE+1]]:3: fusion(site=k/for#45) is not applicable: no loop follows 'k/for#45' in its block{{$}}
  for (int t = 0; t < n; ++t)
    z[t] = x[t];
}

void launch(float *y, float *z, const float *x, float *acc, int *len, int n) {
  k<<<1, 32>>>(y, z, x, acc, len, n, n);
}
