// unroll(site, factor, mode=explicit) is refused, with the reason at the
// place that decides it, where copies of the body would not do what its
// iterations did (illegal) or where there is no counted loop to copy (not
// applicable).
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0,mode=explicit)' 2>&1 | %FileCheck --check-prefix=BREAK %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#1,mode=explicit)' 2>&1 | %FileCheck --check-prefix=CONTINUE %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#2,mode=explicit)' 2>&1 | %FileCheck --check-prefix=ASSIGNED %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#3,mode=explicit)' 2>&1 | %FileCheck --check-prefix=BOUND %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#4,mode=explicit)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#5,mode=explicit)' 2>&1 | %FileCheck --check-prefix=GOTO %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#6,mode=explicit)' 2>&1 | %FileCheck --check-prefix=LABEL %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#7,mode=explicit)' 2>&1 | %FileCheck --check-prefix=DOWN %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#8,mode=explicit)' 2>&1 | %FileCheck --check-prefix=NE %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#9,factor=8,mode=explicit)' 2>&1 | %FileCheck --check-prefix=FEW %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#10,mode=explicit)' 2>&1 | %FileCheck --check-prefix=SHARED %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#11,mode=explicit)' 2>&1 | %FileCheck --check-prefix=HAS %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#12,mode=explicit)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#13,mode=explicit)' 2>&1 | %FileCheck --check-prefix=OVERFLOW %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#14,mode=explicit)' 2>&1 | %FileCheck --check-prefix=REDECL %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#15,mode=explicit)' 2>&1 | %FileCheck --check-prefix=NOINIT %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/while#0,mode=explicit)' 2>&1 | %FileCheck --check-prefix=WHILE %s
//
// The same loops take the pragma, which cannot change what they compute
// (the refusals above are about the copies):
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0)' --apply='unroll(site=k/for#1)' --apply='unroll(site=k/for#2)' -o %t.pragma.cu
// RUN: %nvcc -c %t.pragma.cu -o %t.pragma.o
//
// A break or continue of a nested loop or switch is fine. The kernel has a
// label, so the counter's declaration gets braces of its own (a goto must
// not jump past it):
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#16,factor=2,mode=explicit)' -o %t.nested.cu
// RUN: %FileCheck --check-prefix=NESTED --strict-whitespace --match-full-lines --input-file=%t.nested.cu %s
// RUN: %nvcc -c %t.nested.cu -o %t.nested.o

#include <cuda_runtime.h>
#define ZERO(p, i) for (int i = 0; i < 100; ++i) p[i] = 0

__global__ void k(float *p, int n, int *limit) {
  int j, t = 0;
  for (int i = 0; i < n; ++i) {
    // BREAK: :[[@LINE+1]]:19: unroll(site=k/for#0,mode=explicit) is illegal: 'break' in the body would end only the unrolled loop; the remainder loop would run on
    if (p[i] < 0) break;
    p[i] = 1.0f;
  }
  for (int i = 0; i < n; ++i) {
    // CONTINUE: :[[@LINE+1]]:19: unroll(site=k/for#1,mode=explicit) is illegal: 'continue' in the body would skip the copies of the following iterations too
    if (p[i] < 0) continue;
    p[i] = 1.0f;
  }
  for (int i = 0; i < n; ++i)
    // ASSIGNED: :[[@LINE+1]]:19: unroll(site=k/for#2,mode=explicit) is not applicable: the induction variable 'i' is assigned in the body
    if (p[i] < 0) i += 2;
  // BOUND: :[[@LINE+1]]:23: unroll(site=k/for#3,mode=explicit) is not applicable: the bound reads memory that the loop may write
  for (int i = 0; i < *limit; ++i)
    p[i] = 0.0f;
  for (int i = 0; i < n; ++i)
    // RETURN: :[[@LINE+1]]:19: unroll(site=k/for#4,mode=explicit) is not applicable: the body has 'return'; explicit unrolling copies only bodies that run to their end without jumps
    if (p[i] < 0) return;
  for (int i = 0; i < n; ++i)
    // GOTO: :[[@LINE+1]]:19: unroll(site=k/for#5,mode=explicit) is not applicable: the body has a 'goto'; explicit unrolling copies only bodies that run to their end without jumps
    if (p[i] < 0) goto out;
  for (int i = 0; i < n; ++i) {
    // LABEL: :[[@LINE+1]]:5: unroll(site=k/for#6,mode=explicit) is not applicable: the body has label 'again'; explicit unrolling copies only bodies that run to their end without jumps
    again:
    p[i] += 1.0f;
  }
  // DOWN: :[[@LINE+1]]:26: unroll(site=k/for#7,mode=explicit) is not applicable: the step is -1; explicit unrolling handles loops that count up
  for (int i = n; i > 0; --i)
    p[i] = 0.0f;
  // NE: :[[@LINE+1]]:19: unroll(site=k/for#8,mode=explicit) is not applicable: the condition is not 'i < bound' or 'i <= bound'; explicit unrolling needs an upper bound
  for (int i = 0; i != n; ++i)
    p[i] = 0.0f;
  // FEW: :[[@LINE+1]]:3: unroll(site=k/for#9,factor=8,mode=explicit) is not applicable: the loop runs 6 times, fewer than the factor 8
  for (int i = 0; i < 6; ++i)
    p[i] = 0.0f;
  for (int i = 0; i < n; ++i) {
    // SHARED: :[[@LINE+1]]:22: unroll(site=k/for#10,mode=explicit) is illegal: the body declares 's' with static storage (static or __shared__); each copy would have its own
    __shared__ float s;
    s = p[i];
  }
  // HAS: :[[@LINE+1]]:9: unroll(site=k/for#11,mode=explicit) is not applicable: 'k/for#11' already has '#pragma unroll'
#pragma unroll 2
  for (int i = 0; i < n; ++i)
    p[i] *= 2.0f;
  // MACRO: :[[@LINE+1]]:3: unroll(site=k/for#12,mode=explicit) is not applicable: 'k/for#12' is written inside a macro; it cannot be copied
  ZERO(p, q);
  // OVERFLOW: :[[@LINE+1]]:32: unroll(site=k/for#13,mode=explicit) is illegal: the unrolled loop's test would overflow 'int' near the bound
  for (int i = 2147483000; i < 2147483646; ++i)
    p[i - 2147483000] = 0.0f;
  for (j = 0; j < n; ++j) {
    // REDECL: :[[@LINE+1]]:9: unroll(site=k/for#14,mode=explicit) is not applicable: the body declares its own 'j', the name of the induction variable each copy declares
    int j = 3;
    p[j] = 0.0f;
  }
  // NOINIT: :[[@LINE+1]]:3: unroll(site=k/for#15,mode=explicit) is not applicable: the loop has no initialization of an induction variable
  for (; j < n; ++j)
    p[j] = 0.0f;
  // WHILE: :[[@LINE+1]]:3: unroll(site=k/while#0,mode=explicit) is not applicable: 'k/while#0' is a while-loop; explicit unrolling needs a counted for-loop
  while (t < n)
    ++t;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) {
      if (c == i)
        continue;
      if (p[c] < 0)
        break;
    }
    switch (i) {
    case 0:
      break;
    default:
      p[i] = 2.0f;
    }
  }
out:
  p[0] = 1.0f;
}
// NESTED:  {
// NESTED-NEXT:    int optiml_i_u = 0;
// NESTED-NEXT:    for (; optiml_i_u + 1 < n; optiml_i_u += 2) {
// NESTED-NEXT:      {
// NESTED-NEXT:        const int i = optiml_i_u;
// NESTED-NEXT:        for (int c = 0; c < 4; ++c) {
// NESTED-NEXT:          if (c == i)
// NESTED-NEXT:            continue;
// NESTED-NEXT:          if (p[c] < 0)
// NESTED-NEXT:            break;
// NESTED-NEXT:        }
// NESTED-NEXT:        switch (i) {
// NESTED-NEXT:        case 0:
// NESTED-NEXT:          break;
// NESTED-NEXT:        default:
// NESTED-NEXT:          p[i] = 2.0f;
// NESTED-NEXT:        }
// NESTED-NEXT:      }
// NESTED-NEXT:      {
// NESTED-NEXT:        const int i = optiml_i_u + 1;
// NESTED:    #pragma unroll 1
// NESTED-NEXT:    for (int i = optiml_i_u; i < n; ++i) {
// NESTED:  }
// NESTED-NEXT:out:
