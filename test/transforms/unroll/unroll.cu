// unroll(site, factor): '#pragma unroll F' on its own line above a for-loop.
//
// It applies, with the default factor and each factor of the domain:
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0)' -o %t.default.cu
// RUN: %FileCheck --check-prefix=DEFAULT --input-file=%t.default.cu %s
// RUN: %nvcc -c %t.default.cu -o %t.default.o
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0,factor=2)' | %FileCheck --check-prefix=FACTOR -DF=2 %s
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0,factor=4)' | %FileCheck --check-prefix=FACTOR -DF=4 %s
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0,factor=8)' | %FileCheck --check-prefix=FACTOR -DF=8 %s
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0,factor=16)' | %FileCheck --check-prefix=FACTOR -DF=16 %s
//
// Nested loops and a loop sharing its line with an if, chained:
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0/for#0,factor=16)' --apply='unroll(site=k/for#4,factor=2)' -o %t.nested.cu
// RUN: %FileCheck --check-prefix=NESTED --input-file=%t.nested.cu %s
// RUN: %nvcc -c %t.nested.cu -o %t.nested.o
//
// A factor outside {2, 4, 8, 16} is refused before parsing:
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#0,factor=3)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: clang-optiml: error: in step 'unroll(site=k/for#0,factor=3)': factor=3 is outside its domain {2, 4, 8, 16}
//
// Refusals, each with its reason at the loop:
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/do#0)' 2>&1 | %FileCheck --check-prefix=DO %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#1)' 2>&1 | %FileCheck --check-prefix=HAS %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#2)' 2>&1 | %FileCheck --check-prefix=NOUNROLL %s
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=k/for#3)' 2>&1 | %FileCheck --check-prefix=MACRO %s

#include <cuda_runtime.h>
#define ZERO4(p, i) for (int i = 0; i < 4; ++i) p[i] = 0

__global__ void k(float *p, int n) {
  // DEFAULT: {{^}}  #pragma unroll 4{{$}}
  // DEFAULT-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // FACTOR: {{^}}  #pragma unroll [[F]]{{$}}
  // FACTOR-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // NESTED: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // NESTED-NEXT: {{^}}    #pragma unroll 16{{$}}
  // NESTED-NEXT: {{^}}    for (int j = 0; j < 4; ++j){{$}}
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      p[i] += j;
  }
  int t = 0;
  // WHILE: :[[@LINE+1]]:3: unroll(site=k/while#0) is not applicable: 'k/while#0' is a while-loop; '#pragma unroll' is placed on for-loops only
  while (t < n)
    ++t;
  // DO: :[[@LINE+1]]:3: unroll(site=k/do#0) is not applicable: 'k/do#0' is a do-loop
  do {
    ++t;
  } while (t < 2 * n);
  // HAS: :[[@LINE+1]]:9: unroll(site=k/for#1) is not applicable: 'k/for#1' already has '#pragma unroll'
#pragma unroll 2
  for (int i = 0; i < n; ++i)
    p[i] *= 2;
  // NOUNROLL: :[[@LINE+1]]:9: unroll(site=k/for#2) is not applicable: 'k/for#2' already has '#pragma nounroll'
#pragma nounroll
  for (int i = 0; i < n; ++i)
    p[i] *= 3;
  // MACRO: :[[@LINE+1]]:3: unroll(site=k/for#3) is not applicable: 'k/for#3' is written inside a macro; a pragma cannot be placed there
  ZERO4(p, q);
  // NESTED: {{^}}  if (n > 3){{$}}
  // NESTED-NEXT: {{^}}    #pragma unroll 2{{$}}
  // NESTED-NEXT: {{^}}    for (int i = 0; i < n; ++i) p[i] -= 1;{{$}}
  if (n > 3) for (int i = 0; i < n; ++i) p[i] -= 1;
}
