// fission(site, split) refuses, with the place and the rule, each loop it
// cannot split: NotApplicable where there is nothing it can split (not a
// counted for-loop of statements), Illegal where splitting would change what
// the kernel computes.
// RUN: not %clang-optiml %s --apply='fission(site=k/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#0)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#1)' 2>&1 | %FileCheck --check-prefix=PRAGMA %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#2)' 2>&1 | %FileCheck --check-prefix=NONCANONICAL %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#3)' 2>&1 | %FileCheck --check-prefix=SINGLE %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#4,split=3)' 2>&1 | %FileCheck --check-prefix=TOOFAR %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#5)' 2>&1 | %FileCheck --check-prefix=START %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#6)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#7)' 2>&1 | %FileCheck --check-prefix=ATOMIC %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#8)' 2>&1 | %FileCheck --check-prefix=CALL %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#9)' 2>&1 | %FileCheck --check-prefix=BREAK %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#10)' 2>&1 | %FileCheck --check-prefix=CONTINUE %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#11)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#12)' 2>&1 | %FileCheck --check-prefix=DECL %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#13)' 2>&1 | %FileCheck --check-prefix=FORWARD %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#14)' 2>&1 | %FileCheck --check-prefix=BACKWARD %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#15)' 2>&1 | %FileCheck --check-prefix=REVERSED %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#16)' 2>&1 | %FileCheck --check-prefix=EVERY %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#17)' 2>&1 | %FileCheck --check-prefix=STRIDES %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#18)' 2>&1 | %FileCheck --check-prefix=SYMBOLIC %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#19)' 2>&1 | %FileCheck --check-prefix=NONPOLY %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#20)' 2>&1 | %FileCheck --check-prefix=DISTANCE %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#21,split=2)' 2>&1 | %FileCheck --check-prefix=VARIANT %s
// RUN: not %clang-optiml %s --apply='fission(site=k/for#22)' 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
// RUN: not %clang-optiml %s --apply='fission(site=aliased/for#0)' 2>&1 | %FileCheck --check-prefix=ALIAS %s

#include <cuda_runtime.h>
#define TWICE(i) for (int i = 0; i < n; ++i) { y[i] = 1.0f; z[i] = 2.0f; }

__device__ float helper(float *p) { return *p; }

__global__ void k(float *y, float *z, const float *x, float *acc, int *idx,
                  int n, int lo) {
  int w = 0;
  // WHILE: :[[@LINE+1]]:3: fission(site=k/while#0) is not applicable: 'k/while#0' is a while-loop; fission splits for-loops{{$}}
  while (w < n) {
    y[w] = x[w];
    z[w] = x[w];
    ++w;
  }
  // MACRO: :[[@LINE+1]]:3: fission(site=k/for#0) is not applicable: 'k/for#0' is written inside a macro; its header cannot be copied{{$}}
  TWICE(i);
  // PRAGMA: :[[@LINE+1]]:9: fission(site=k/for#1) is not applicable: 'k/for#1' has a loop pragma or attribute, which the two loops could not share{{$}}
#pragma unroll 2
  for (int i = 0; i < n; ++i) {
    y[i] = x[i];
    z[i] = x[i];
  }
  // NONCANONICAL: :[[@LINE+1]]:26: fission(site=k/for#2) is not applicable: the increment is not a constant add or subtract on 'i'{{$}}
  for (int i = 1; i < n; i *= 2) {
    y[i] = x[i];
    z[i] = x[i];
  }
  // SINGLE: :[[@LINE+2]]:5: fission(site=k/for#3) is not applicable: the body is a single statement; fission splits a block of statements{{$}}
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  // A split past the last statement:
  // TOOFAR: :[[@LINE+1]]:3: fission(site=k/for#4,split=3) is not applicable: split=3 leaves a loop without statements: the body has 2 statements{{$}}
  for (int i = 0; i < n; ++i) {
    y[i] = x[i];
    z[i] = x[i];
  }
  // The second loop would start again from the changed 'lo':
  // START: :[[@LINE+1]]:16: fission(site=k/for#5) is illegal: the initial value reads 'lo', which is assigned in the loop; the second loop would start from another value{{$}}
  for (int i = lo; i < n; ++i) {
    y[i] = x[i];
    lo = 0;
  }
  for (int i = 0; i < n; ++i) {
    y[i] = x[i];
    // BARRIER: :[[@LINE+1]]:5: fission(site=k/for#6) is illegal: the loop body has a call to '__syncthreads', which synchronizes or exchanges data between threads; fission cannot split the loop around it{{$}}
    __syncthreads();
  }
  for (int i = 0; i < n; ++i) {
    // ATOMIC: :[[@LINE+1]]:5: fission(site=k/for#7) is illegal: the loop body has a call to 'atomicAdd', whose side effects OptiML does not follow; fission cannot split the loop around it{{$}}
    atomicAdd(&acc[0], x[i]);
    z[i] = x[i];
  }
  for (int i = 0; i < n; ++i) {
    // CALL: :[[@LINE+1]]:12: fission(site=k/for#8) is illegal: the loop body has a call to 'helper', whose side effects OptiML does not follow; fission cannot split the loop around it{{$}}
    y[i] = helper(z);
    z[i] = x[i];
  }
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0.0f)
      // BREAK: :[[@LINE+1]]:7: fission(site=k/for#9) is illegal: the loop body has a 'break' out of the loop; fission cannot split the loop around it{{$}}
      break;
    z[i] = x[i];
  }
  for (int i = 0; i < n; ++i) {
    y[i] = x[i];
    if (x[i] < 0.0f)
      // CONTINUE: :[[@LINE+1]]:7: fission(site=k/for#10) is illegal: the loop body has a 'continue' of the loop; fission cannot split the loop around it{{$}}
      continue;
  }
  for (int i = 0; i < n; ++i) {
    y[i] = x[i];
    if (x[i] < 0.0f)
      // RETURN: :[[@LINE+1]]:7: fission(site=k/for#11) is illegal: the loop body has a 'return'; fission cannot split the loop around it{{$}}
      return;
  }
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    // DECL: :[[@LINE+1]]:12: fission(site=k/for#12) is illegal: 'v' is declared in the first part and used in the second; the second loop could not see it{{$}}
    z[i] = v;
  }
  // A running sum: the second loop would store only the total.
  float running = 0.0f;
  for (int i = 0; i < n; ++i) {
    running += x[i];
    // FORWARD: :[[@LINE+1]]:12: fission(site=k/for#13) is illegal: 'running' is written in the first part and used in the second; the second loop would see only its value after the last iteration{{$}}
    z[i] = running;
  }
  // The first part reads what the second wrote one iteration before.
  float last = 0.0f;
  for (int i = 0; i < n; ++i) {
    y[i] = last;
    // BACKWARD: :[[@LINE+1]]:5: fission(site=k/for#14) is illegal: 'last' is written in the second part and used in the first; the first loop would no longer see those writes{{$}}
    last = x[i];
  }
  for (int i = 0; i < n; ++i) {
    y[i] = i > 0 ? z[i - 1] : 0.0f;
    // REVERSED: :[[@LINE+1]]:5: fission(site=k/for#15) is illegal: 'z[i]' (second part) reaches the element that 'z[i - 1]' (first part) reaches 1 iteration later; fission would run the two in the opposite order{{$}}
    z[i] = x[i];
  }
  for (int i = 0; i < n; ++i) {
    acc[0] += x[i];
    // EVERY: :[[@LINE+1]]:12: fission(site=k/for#16) is illegal: 'acc[0]' (second part) and 'acc[0]' (first part) reach the same element on every iteration; fission would reorder them{{$}}
    y[i] = acc[0];
  }
  for (int i = 0; i < n; ++i) {
    y[2 * i] = x[i];
    // STRIDES: :[[@LINE+1]]:12: fission(site=k/for#17) is illegal: OptiML cannot prove that 'y[i]' (second part) and 'y[2 * i]' (first part) keep their order after fission: their indices move with 'i' at different strides ('1' and '2'){{$}}
    z[i] = y[i];
  }
  for (int i = 0; i < n; ++i) {
    y[i * n] = x[i];
    // SYMBOLIC: :[[@LINE+1]]:12: fission(site=k/for#18) is illegal: OptiML cannot prove that 'y[i * n]' (second part) and 'y[i * n]' (first part) keep their order after fission: their stride in 'i', 'n', is not a constant and may be zero{{$}}
    z[i] = y[i * n];
  }
  for (int i = 0; i < n; ++i) {
    y[idx[i]] = x[i];
    // NONPOLY: :[[@LINE+1]]:12: fission(site=k/for#19) is illegal: OptiML cannot prove that 'y[i]' (second part) and 'y[idx[i]]' (first part) keep their order after fission: the index of 'y[idx[i]]' is unknown (the index is not a polynomial of thread and loop indices: a ArraySubscriptExpr){{$}}
    z[i] = y[i];
  }
  for (int i = 0; i < n; ++i) {
    y[i + n] = x[i];
    // DISTANCE: :[[@LINE+1]]:12: fission(site=k/for#20) is illegal: OptiML cannot prove that 'y[i]' (second part) and 'y[i + n]' (first part) keep their order after fission: their distance, 'n', is not a constant{{$}}
    z[i] = y[i];
  }
  for (int i = 0; i < n; ++i) {
    int j = idx[i];
    y[j] = x[i];
    // VARIANT: :[[@LINE+1]]:12: fission(site=k/for#21,split=2) is illegal: OptiML cannot prove that 'y[i]' (second part) and 'y[j]' (first part) keep their order after fission: the index of 'y[j]' reads 'j', which is declared in the loop{{$}}
    z[i] = y[i];
  }
  float *p = y;
  p += n;
  for (int i = 0; i < n; ++i) {
    p[i] = x[i];
    // UNKNOWN: :[[@LINE+1]]:5: fission(site=k/for#22) is illegal: OptiML cannot prove that 'z[i]' (second part) and 'p[i]' (first part) keep their order after fission: OptiML cannot tell which buffer 'p[i]' reaches ('p' is assigned in the kernel){{$}}
    z[i] = y[i];
  }
}

// Launched with one buffer for both 'y' and 'z':
__global__ void aliased(float *y, float *z, const float *x, int n) {
  for (int i = 0; i < n; ++i) {
    y[i] = x[i];
    // ALIAS: :[[@LINE+1]]:5: fission(site=aliased/for#0) is illegal: OptiML cannot prove that 'z[i]' (second part) and 'y[i]' (first part) keep their order after fission: 'z' and 'y' may point into the same buffer (this launch passes 'y' for both 'y' and 'z'){{$}}
    z[i] = 2.0f * x[i];
  }
}

void launch(float *y, float *z, const float *x, float *acc, int *idx, int n) {
  k<<<1, 32>>>(y, z, x, acc, idx, n, 0);
  aliased<<<1, 32>>>(y, y, x, n);
}
