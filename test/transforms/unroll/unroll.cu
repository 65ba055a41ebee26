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
//
// The factor suggested (--list-sites, the search's first move at a loop)
// unrolls the outer loop of a nest whose loops all have constant trip
// counts fully, with the smallest factor that covers it. An innermost loop
// keeps 4 (nvcc unrolls a short one of known trip count by itself: a
// covering factor would build the same code), as do loops of unknown or
// more than 16 trips and nests holding a loop of unknown trip count. A step
// that leaves the factor out still means 4:
// RUN: %clang-optiml --list-sites %s 2>&1 | %FileCheck --check-prefix=SITES %s
// SITES: unroll window/for#0 legal: --apply='unroll(site=window/for#0,factor=8)'
// SITES: unroll window/for#0/for#0 legal: --apply='unroll(site=window/for#0/for#0,factor=4)'
// SITES: unroll window/for#1 legal: --apply='unroll(site=window/for#1,factor=4)'
// SITES: unroll window/for#2 legal: --apply='unroll(site=window/for#2,factor=4)'
// SITES: unroll window/for#3 legal: --apply='unroll(site=window/for#3,factor=4)'
// SITES: unroll window/for#4 legal: --apply='unroll(site=window/for#4,factor=4)'
// SITES: unroll window/for#5 legal: --apply='unroll(site=window/for#5,factor=4)'
// SITES: unroll window/for#6 legal: --apply='unroll(site=window/for#6,factor=16)'
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=window/for#0)' | %FileCheck --check-prefix=OMITTED %s
// OMITTED: {{^}}  #pragma unroll 4{{$}}
// OMITTED-NEXT: {{^}}  for (int dy = -3; dy <= 3; ++dy){{$}}

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

// Trip counts 7 (a nest of two), 12 (step 2), 3, 20, unknown; 5 around an
// unknown one; 12 around a loop of 2 trips inside a branch.
__global__ void window(const float *in, float *out, int w, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int dy = -3; dy <= 3; ++dy)
    for (int dx = -3; dx < 4; dx++)
      s += in[(x + dy) * w + dx];
  for (int i = 0; i < 24; i += 2)
    s += in[x + i];
  for (int i = 0; i < 3; ++i)
    s *= 0.5f;
  for (int i = 20; i > 0; --i)
    s += in[x - i];
  for (int i = 0; i < n; ++i)
    s -= in[i];
  for (int r = 0; r < 5; ++r)
    for (int i = r; i < n; i += 5)
      s += in[i];
  for (int r = 11; r >= 0; --r)
    if (r % 3 == 0)
      for (int c = 0; c < 2; ++c)
        s += in[r * 2 + c];
  out[x] = s;
}
