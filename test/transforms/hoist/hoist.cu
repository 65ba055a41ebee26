// hoist(site): each maximal loop-invariant integer/pointer expression with a
// multiplication that the loop evaluates on every iteration is computed once
// before the loop, as `const T optiml_invN = ...;`, and used by name.
//
// The condition and the body, equal expressions sharing one name, a cast
// to size_t, a pointer, parentheses, a constant divisor, and the invariant
// part of a division by a variable:
// RUN: %clang-optiml --format-style=none %s --apply='hoist(site=k/for#0)' --apply='hoist(site=k/for#1)' -o %t.basic.cu
// RUN: %FileCheck --check-prefix=BASIC --input-file=%t.basic.cu %s
// RUN: %nvcc -c %t.basic.cu -o %t.basic.o
//
// Hoisting again finds nothing new (hoisted names are plain variables):
// RUN: not %clang-optiml --format-style=none %t.basic.cu --apply='hoist(site=k/for#0)' 2>&1 | %FileCheck --check-prefix=AGAIN %s
// AGAIN: hoist(site=k/for#0) is not applicable: nothing to hoist: no loop-invariant integer arithmetic with a multiplication is evaluated on every iteration
//
// A loop under a pragma (the declarations go above the pragma), a loop that
// is not directly in a block (braces are added), an inner loop that is the
// body of another, a while-loop and a do-loop:
// RUN: %clang-optiml --format-style=none %s --apply='hoist(site=k/for#2)' --apply='hoist(site=k/for#3)' --apply='hoist(site=k/for#4/for#0)' --apply='hoist(site=k/while#0)' --apply='hoist(site=k/do#0)' -o %t.places.cu
// RUN: %FileCheck --check-prefix=PLACES --input-file=%t.places.cu %s
// RUN: %nvcc -c %t.places.cu -o %t.places.o
//
// Names already used in the kernel are skipped; hoisting the inner loop of a
// nest and then the outer one moves the value out step by step:
// RUN: %clang-optiml --format-style=none %s --apply='hoist(site=named/for#0/for#0)' --apply='hoist(site=named/for#0)' -o %t.named.cu
// RUN: %FileCheck --check-prefix=NAMED --input-file=%t.named.cu %s
// RUN: %nvcc -c %t.named.cu -o %t.named.o

#include <cuda_runtime.h>

__global__ void k(float *p, const float *q, int n, int m, int ld, int d) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  // BASIC: {{^}}  const int optiml_inv0 = n * m;{{$}}
  // BASIC-NEXT: {{^}}  const int optiml_inv1 = row * ld;{{$}}
  // BASIC-NEXT: {{^}}  const int optiml_inv2 = row * ld + col;{{$}}
  // BASIC-NEXT: {{^}}  const size_t optiml_inv3 = (size_t)row * ld;{{$}}
  // BASIC-NEXT: {{^}}  for (int i = 0; i < optiml_inv0; ++i){{$}}
  // BASIC-NEXT: {{^}}    acc += q[optiml_inv1 + i] + q[optiml_inv2 + i] + q[i * ld + col] + q[optiml_inv3] + q[optiml_inv1 - i];{{$}}
  for (int i = 0; i < n * m; ++i)
    acc += q[row * ld + i] + q[row * ld + col + i] + q[i * ld + col] + q[(size_t)row * ld] + q[row * ld - i];
  // BASIC: {{^}}  const float *const optiml_inv4 = q + row * ld;{{$}}
  // BASIC-NEXT: {{^}}  const int optiml_inv5 = row * ld;{{$}}
  // BASIC-NEXT: {{^}}  const int optiml_inv6 = row * 4 / 4;{{$}}
  // BASIC-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    const float *r = optiml_inv4;{{$}}
  // BASIC-NEXT: {{^}}    acc += r[i] + q[optiml_inv5 / d] + q[optiml_inv6] + q[i] * optiml_inv5;{{$}}
  for (int i = 0; i < n; ++i) {
    const float *r = q + row * ld;
    acc += r[i] + q[(row * ld) / d] + q[row * 4 / 4] + q[i] * (row * ld);
  }
  // PLACES: {{^}}  const int optiml_inv0 = col * m;{{$}}
  // PLACES-NEXT: {{^}}#pragma unroll 4{{$}}
  // PLACES-NEXT: {{^}}  for (int i = 0; i < n; ++i){{$}}
  // PLACES-NEXT: {{^}}    acc += q[optiml_inv0 + i];{{$}}
#pragma unroll 4
  for (int i = 0; i < n; ++i)
    acc += q[col * m + i];
  // PLACES: {{^}}  if (n > 3) { const int optiml_inv1 = row * m; for (int i = 0; i < n; ++i) acc += q[optiml_inv1 + i]; }{{$}}
  if (n > 3) for (int i = 0; i < n; ++i) acc += q[row * m + i];
  // PLACES: {{^}}  for (int i = 0; i < n; ++i){{$}}
  // PLACES-NEXT: {{^}}    { const int optiml_inv2 = row * ld;{{$}}
  // PLACES-NEXT: {{^}}    for (int j = 0; j < m; ++j){{$}}
  // PLACES-NEXT: {{^}}      acc += q[optiml_inv2 + j]; }{{$}}
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      acc += q[row * ld + j];
  int t = 0;
  // PLACES: {{^}}  const int optiml_inv3 = n * m;{{$}}
  // PLACES-NEXT: {{^}}  const int optiml_inv4 = col * ld;{{$}}
  // PLACES-NEXT: {{^}}  while (t < optiml_inv3) {{{$}}
  // PLACES-NEXT: {{^}}    p[t] = q[optiml_inv4];{{$}}
  while (t < n * m) {
    p[t] = q[col * ld];
    ++t;
  }
  // PLACES: {{^}}  const int optiml_inv5 = col * n;{{$}}
  // PLACES-NEXT: {{^}}  do {{{$}}
  // PLACES-NEXT: {{^}}    acc += q[optiml_inv5 + t];{{$}}
  do {
    acc += q[col * n + t];
    --t;
  } while (t > 0);
  p[row * ld + col] = acc;
}

__global__ void named(float *p, int n, int ld) {
  int optiml_inv0 = blockIdx.x, optiml_inv2 = threadIdx.x;
  // `optiml_inv2 * i` is invariant in the inner loop, not in the outer one:
  // NAMED: {{^}}  const int optiml_inv4 = optiml_inv0 * ld;{{$}}
  // NAMED-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // NAMED-NEXT: {{^}}    const int optiml_inv1 = optiml_inv4;{{$}}
  // NAMED-NEXT: {{^}}    const int optiml_inv3 = optiml_inv2 * i;{{$}}
  // NAMED-NEXT: {{^}}    for (int j = 0; j < n; ++j){{$}}
  // NAMED-NEXT: {{^}}      p[optiml_inv1 + j] += optiml_inv3;{{$}}
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      p[optiml_inv0 * ld + j] += optiml_inv2 * i;
  }
}
