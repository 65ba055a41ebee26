// fusion(site): a for-loop and the for-loop after it in its block, over the
// same iterations, become one loop at the second loop's place, with the
// first loop's header; the first body comes first.
//
// Each pair of f, last first so that the site names stay: two sums with the
// statement between them now before the fused loop and the second counter
// renamed (single statements get braces); a dependence fusion keeps (the
// second loop reads what the first wrote at the same and the previous
// iteration) and a comment after `{`; a first body whose declaration would
// hide the 't' the second body reads (it keeps a block of its own); both
// loops counting with one variable declared before them:
// RUN: %clang-optiml --format-style=none %s --apply='fusion(site=f/for#6)' --apply='fusion(site=f/for#4)' --apply='fusion(site=f/for#2)' --apply='fusion(site=f/for#0)' -o %t.basic.cu
// RUN: %FileCheck --check-prefix=BASIC --input-file=%t.basic.cu %s
// RUN: %nvcc -c %t.basic.cu -o %t.basic.o
//
// A kernel without a launch in the file: fusion rests on the spec's buffers
// being distinct, and says so:
// RUN: %clang-optiml --format-style=none %s --apply='fusion(site=g/for#0)' -o %t.g.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// NOTE: clang-optiml: note: fusion(site=g/for#0): 'g' is not launched in this file: fusion relies on the kernel spec's buffers being distinct
// RUN: %FileCheck --check-prefix=G --input-file=%t.g.cu %s
// RUN: %nvcc -c %t.g.cu -o %t.g.o
//
// fission undoes it:
// RUN: %clang-optiml --format-style=none %s --apply='fusion(site=g/for#0)' --apply='fission(site=g/for#0)' -o %t.back.cu
// RUN: %FileCheck --check-prefix=BACK --input-file=%t.back.cu %s
//
// --list-sites:
// RUN: %clang-optiml %s --list-sites --kernel=f | %FileCheck --check-prefix=LIST %s
// LIST: fusion            f/for#0            legal: --apply='fusion(site=f/for#0)'
// LIST: fusion            f/for#1            illegal: 'sq' is written by the first loop and used between the loops; fused, the first loop would run after them (line {{[0-9]+}})
//
// It is registered, with its kind of site:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  fusion {{ *}}loop {{ *}}merge a for-loop with the for-loop after it

#include <cuda_runtime.h>

__global__ void f(float *y, float *z, const float *x, float *stats, int n,
                  int m) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m)
    return;
  const float *xr = x + (size_t)row * n;
  float *yr = y + row * n;
  float *zr = z + row * n;
  // BASIC: {{^}}  float s = 0.0f;{{$}}
  // BASIC-NEXT: {{^}}  float sq = 0.0f;{{$}}
  // BASIC-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    s += xr[i];{{$}}
  // BASIC-NEXT: {{^}}    sq += xr[i] * xr[i];{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  // BASIC-NEXT: {{^}}  stats[2 * row] = s;{{$}}
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += xr[i];
  float sq = 0.0f;
  for (int j = 0; j < n; ++j)
    sq += xr[j] * xr[j];
  stats[2 * row] = s;
  stats[2 * row + 1] = sq;
  // BASIC: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    // scale{{$}}
  // BASIC-NEXT: {{^}}    yr[i] = 2.0f * xr[i];{{$}}
  // BASIC-NEXT: {{^}}    zr[i] = yr[i] + (i > 0 ? yr[i - 1] : 0.0f);{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  for (int i = 0; i < n; ++i) { // scale
    yr[i] = 2.0f * xr[i];
  }
  for (int i = 0; i < n; ++i) {
    zr[i] = yr[i] + (i > 0 ? yr[i - 1] : 0.0f);
  }
  float t = 0.5f;
  // BASIC: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    {{{$}}
  // BASIC-NEXT: {{^}}      float t = xr[i] * xr[i];{{$}}
  // BASIC-NEXT: {{^}}      yr[i] += t;{{$}}
  // BASIC-NEXT: {{^}}    }{{$}}
  // BASIC-NEXT: {{^}}    zr[i] *= t;{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  for (int i = 0; i < n; ++i) {
    float t = xr[i] * xr[i];
    yr[i] += t;
  }
  for (int k = 0; k < n; ++k)
    zr[k] *= t;
  int c;
  // BASIC: {{^}}  for (c = 0; c < n; c++) {{{$}}
  // BASIC-NEXT: {{^}}    yr[c] -= 1.0f;{{$}}
  // BASIC-NEXT: {{^}}    zr[c] += 1.0f;{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  for (c = 0; c < n; c++)
    yr[c] -= 1.0f;
  for (c = 0; c < n; c++)
    zr[c] += 1.0f;
}

// G: {{^}}__global__ void g(float *out, float *out2, const float *in, int n) {{{$}}
// G-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
// G-NEXT: {{^}}    out[i] = in[i];{{$}}
// G-NEXT: {{^}}    out2[i] = 2.0f * in[i];{{$}}
// G-NEXT: {{^}}  }{{$}}
// G-NEXT: {{^}}}{{$}}
// BACK: {{^}}__global__ void g(float *out, float *out2, const float *in, int n) {{{$}}
// BACK-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
// BACK-NEXT: {{^}}    out[i] = in[i];{{$}}
// BACK-NEXT: {{^}}  }{{$}}
// BACK-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
// BACK-NEXT: {{^}}    out2[i] = 2.0f * in[i];{{$}}
// BACK-NEXT: {{^}}  }{{$}}
__global__ void g(float *out, float *out2, const float *in, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i];
  for (int i = 0; i < n; ++i)
    out2[i] = 2.0f * in[i];
}

void launch(float *y, float *z, const float *x, float *stats, int n, int m) {
  f<<<(m + 127) / 128, 128>>>(y, z, x, stats, n, m);
}
