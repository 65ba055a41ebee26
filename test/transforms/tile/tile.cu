// tile(site, size): strip-mining a canonical for-loop into a loop over tiles
// of S iterations and a loop within the tile; the body moves into the inner
// loop, indented one step further.
//
// Default size (16), and every size of the domain:
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#0)' -o %t.default.cu
// RUN: %FileCheck --check-prefix=DEFAULT --input-file=%t.default.cu %s
// RUN: %nvcc -c %t.default.cu -o %t.default.o
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#0,size=4)' | %FileCheck --check-prefix=SIZE -DS=4 %s
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#0,size=8)' | %FileCheck --check-prefix=SIZE -DS=8 %s
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#0,size=16)' | %FileCheck --check-prefix=SIZE -DS=16 %s
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#0,size=32)' | %FileCheck --check-prefix=SIZE -DS=32 %s
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#0,size=64)' -o %t.64.cu
// RUN: %FileCheck --check-prefix=SIZE -DS=64 --input-file=%t.64.cu %s
// RUN: %nvcc -c %t.64.cu -o %t.64.o
//
// A size outside the domain is refused before parsing:
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#0,size=12)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: clang-optiml: error: in step 'tile(site=k/for#0,size=12)': size=12 is outside its domain {4, 8, 16, 32, 64}
//
// `<=` with a nest (only the named loop is tiled), an IV declared before the
// loop, a bound on the left, a loop sharing its line with an if, chained:
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#1,size=8)' --apply='tile(site=k/for#2,size=32)' --apply='tile(site=k/for#3,size=4)' --apply='tile(site=k/for#4)' -o %t.chain.cu
// RUN: %FileCheck --check-prefix=CHAIN --input-file=%t.chain.cu %s
// RUN: %nvcc -c %t.chain.cu -o %t.chain.o
//
// The inner loop of a nest, and a kernel that already uses the name:
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#1/for#0)' --apply='tile(site=taken/for#0)' -o %t.inner.cu
// RUN: %FileCheck --check-prefix=INNER --input-file=%t.inner.cu %s
// RUN: %nvcc -c %t.inner.cu -o %t.inner.o
//
// The tile loop itself counts by S, and the intra-tile loop's condition is
// no longer a single comparison: tiling again finds nothing to do.
// RUN: not %clang-optiml --format-style=none %t.default.cu --apply='tile(site=k/for#0)' 2>&1 | %FileCheck --check-prefix=AGAIN %s
// RUN: not %clang-optiml --format-style=none %t.default.cu --apply='tile(site=k/for#0/for#0)' 2>&1 | %FileCheck --check-prefix=AGAIN-INNER %s
// AGAIN: tile(site=k/for#0) is not applicable: the step is 16; tile strip-mines loops that count up by 1
// AGAIN-INNER: tile(site=k/for#0/for#0) is not applicable: the condition is not a comparison (<, <=, >, >=, !=) of 'i' with a bound

#include <cuda_runtime.h>

__global__ void k(float *p, const float *q, int n, size_t len) {
  // DEFAULT: {{^}}  for (int optiml_i_t = 0; optiml_i_t < n; optiml_i_t += 16){{$}}
  // DEFAULT-NEXT: {{^}}    for (int i = optiml_i_t; i < optiml_i_t + 16 && i < n; ++i) {{{$}}
  // DEFAULT-NEXT: {{^}}      p[i] += q[i];{{$}}
  // DEFAULT-NEXT: {{^}}      if (q[i] > 0){{$}}
  // DEFAULT-NEXT: {{^}}        continue;{{$}}
  // DEFAULT-NEXT: {{^}}      p[i] *= 2;{{$}}
  // DEFAULT-NEXT: {{^}}    }{{$}}
  // SIZE: {{^}}  for (int optiml_i_t = 0; optiml_i_t < n; optiml_i_t += [[S]]){{$}}
  // SIZE-NEXT: {{^}}    for (int i = optiml_i_t; i < optiml_i_t + [[S]] && i < n; ++i) {{{$}}
  for (int i = 0; i < n; ++i) {
    p[i] += q[i];
    if (q[i] > 0)
      continue;
    p[i] *= 2;
  }
  // CHAIN: {{^}}  for (int optiml_i_t = 1; optiml_i_t <= n; optiml_i_t += 8){{$}}
  // CHAIN-NEXT: {{^}}    for (int i = optiml_i_t; i < optiml_i_t + 8 && i <= n; i++){{$}}
  // CHAIN-NEXT: {{^}}      for (int j = 0; j < n; ++j){{$}}
  // CHAIN-NEXT: {{^}}        p[i * n + j] = 0;{{$}}
  // INNER: {{^}}  for (int i = 1; i <= n; i++){{$}}
  // INNER-NEXT: {{^}}    for (int optiml_j_t = 0; optiml_j_t < n; optiml_j_t += 16){{$}}
  // INNER-NEXT: {{^}}      for (int j = optiml_j_t; j < optiml_j_t + 16 && j < n; ++j){{$}}
  // INNER-NEXT: {{^}}        p[i * n + j] = 0;{{$}}
  for (int i = 1; i <= n; i++)
    for (int j = 0; j < n; ++j)
      p[i * n + j] = 0;
  int t;
  // CHAIN: {{^}}  for (int optiml_t_t = t = 2; optiml_t_t < n; optiml_t_t += 32){{$}}
  // CHAIN-NEXT: {{^}}    for (t = optiml_t_t; t < optiml_t_t + 32 && t < n; t += 1){{$}}
  // CHAIN-NEXT: {{^}}      p[t] = 1;{{$}}
  for (t = 2; t < n; t += 1)
    p[t] = 1;
  p[0] = t;
  // The kernel now has an `optiml_i_t` (the `<=` loop's), so a new name:
  // CHAIN: {{^}}  for (size_t optiml_i_t1 = 0; optiml_i_t1 < len; optiml_i_t1 += 4){{$}}
  // CHAIN-NEXT: {{^}}    for (size_t i = optiml_i_t1; i < optiml_i_t1 + 4 && len > i; ++i) p[i] = 3;{{$}}
  for (size_t i = 0; len > i; ++i) p[i] = 3;
  // CHAIN: {{^}}  if (n > 3) for (unsigned int optiml_u_t = 0; optiml_u_t < n; optiml_u_t += 16) for (unsigned int u = optiml_u_t; u < optiml_u_t + 16 && u < n; u = u + 1) p[u] -= 1;{{$}}
  if (n > 3) for (unsigned u = 0; u < n; u = u + 1) p[u] -= 1;
}

__global__ void taken(float *p, int n) {
  int optiml_i_t = 1;
  // INNER: {{^}}  for (int optiml_i_t1 = 0; optiml_i_t1 < n - 1; optiml_i_t1 += 16){{$}}
  // INNER-NEXT: {{^}}    for (int i = optiml_i_t1; i < optiml_i_t1 + 16 && i < n - 1; ++i){{$}}
  // INNER-NEXT: {{^}}      p[i] = optiml_i_t;{{$}}
  for (int i = 0; i < n - 1; ++i)
    p[i] = optiml_i_t;
}
