// fast-math(site, ops): single-precision library calls and float divisions
// in the kernel's body, and in the helpers only it calls, become CUDA's fast
// intrinsics; doubles, integers, divisions by a power of two, macros and
// code shared with other functions stay.
// RUN: %clang-optiml %s --apply='fast-math(site=k)' -o %t.all.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --input-file=%t.all.cu %s
// RUN: %nvcc -c %t.all.cu -o %t.all.o
// NOTE: clang-optiml: note: fast-math(site=k,ops=all): fast intrinsics change results in the last bits (more for large arguments); verification relies on the spec's tolerance
// NOTE-NEXT: clang-optiml: note: fast-math(site=k,ops=all): __powf(x, y) is NaN for x < 0, where powf is not for integer y
//
// Each group alone:
// RUN: %clang-optiml %s --apply='fast-math(site=k,ops=exp-log)' -o %t.explog.cu
// RUN: %FileCheck --check-prefix=EXPLOG --input-file=%t.explog.cu %s
// RUN: %nvcc -c %t.explog.cu -o %t.explog.o
// RUN: %clang-optiml %s --apply='fast-math(site=k,ops=trig)' -o %t.trig.cu
// RUN: %FileCheck --check-prefix=TRIG --input-file=%t.trig.cu %s
// RUN: %nvcc -c %t.trig.cu -o %t.trig.o
// RUN: %clang-optiml %s --apply='fast-math(site=k,ops=div)' -o %t.div.cu
// RUN: %FileCheck --check-prefix=DIV --input-file=%t.div.cu %s
// RUN: %nvcc -c %t.div.cu -o %t.div.o
// RUN: %clang-optiml %s --apply='fast-math(site=k,ops=rsqrt)' -o %t.rsqrt.cu
// RUN: %FileCheck --check-prefix=RSQRT --input-file=%t.rsqrt.cu %s
// RUN: %nvcc -c %t.rsqrt.cu -o %t.rsqrt.o
//
// A template kernel is rewritten on its pattern (dependent operations stay):
// RUN: %clang-optiml %s --apply='fast-math(site=tk)' -o %t.tk.cu
// RUN: %FileCheck --check-prefix=TK --input-file=%t.tk.cu %s
// RUN: %nvcc -c %t.tk.cu -o %t.tk.o
//
// Applied twice, nothing is left:
// RUN: not %clang-optiml %t.all.cu --apply='fast-math(site=k)' 2>&1 | %FileCheck --check-prefix=AGAIN %s
// AGAIN: fast-math(site=k) is not applicable: every single-precision call of expf, logf, log2f, log10f, powf, sinf, cosf or tanf, or float division in 'k' is written inside a macro, which is left alone
//
// The listing says what a legal result rests on, and the transform says it
// changes numerics:
// RUN: %clang-optiml %s --list-sites --kernel=k | %FileCheck --check-prefix=LIST %s
// LIST: fast-math     k                  legal: --apply='fast-math(site=k,ops=all)' (fast intrinsics change results in the last bits (more for large arguments); verification relies on the spec's tolerance; __powf(x, y) is NaN for x < 0, where powf is not for integer y)
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=TRANSFORMS %s
// TRANSFORMS: {{^}}  fast-math     kernel  use CUDA's fast intrinsics for float math calls and divisions in a kernel (changes numerics){{$}}
// TRANSFORMS-NEXT: {{^}}      ops in {all, exp-log, trig, div, rsqrt} (default all):
// RUN: %clang-optiml --list-transforms --format=json | %python -c "import json,sys; print(' '.join('%%s=%%s' %% (t['name'], t['changes_numerics']) for t in json.load(sys.stdin)))" | %FileCheck --check-prefix=JSON %s
// JSON: fast-math=True
// JSON-SAME: block-size=False

#include <cuda_runtime.h>
#include <cmath>

#define SCALE 3.0f
#define EXP(x) expf(x)

namespace user {
__device__ float expf(float x) { return x; }
} // namespace user

// A helper another kernel also calls stays; the helpers only k calls,
// directly or through each other, are rewritten with it.
__device__ float helper(float x) { return expf(x); }
// CHECK: {{^}}__device__ float helper(float x) { return expf(x); }{{$}}
__device__ float own(float x, float y) { return 1.0f / sqrtf(x * x + y); }
// CHECK: {{^}}__device__ float own(float x, float y) { return rsqrtf(x * x + y); }{{$}}
__device__ float calls_own(float x) { return own(x, x) / x; }
// CHECK: {{^}}__device__ float calls_own(float x) { return __fdividef(own(x, x), x); }{{$}}
__global__ void other(float *p) { p[0] = helper(p[1]); }
// CHECK: {{^}}__global__ void other(float *p) { p[0] = helper(p[1]); }{{$}}

__global__ void k(float *p, double *d, int *q, int n) {
  float x = p[0], y = p[1];
  // CHECK: {{^}}  p[2] = __expf(x) + __logf(x) + __log2f(x) + __log10f(x);{{$}}
  // EXPLOG: {{^}}  p[2] = __expf(x) + __logf(x) + __log2f(x) + __log10f(x);{{$}}
  // TRIG: {{^}}  p[2] = expf(x) + logf(x) + log2f(x) + log10f(x);{{$}}
  p[2] = expf(x) + logf(x) + log2f(x) + log10f(x);
  // CHECK: {{^}}  p[3] = __sinf(x) * __cosf(y) + __tanf(x);{{$}}
  // EXPLOG: {{^}}  p[3] = sinf(x) * cosf(y) + tanf(x);{{$}}
  // TRIG: {{^}}  p[3] = __sinf(x) * __cosf(y) + __tanf(x);{{$}}
  p[3] = sinf(x) * cosf(y) + tanf(x);
  // CHECK: {{^}}  p[4] = __powf(x, y) + __expf(x) + __expf(y);{{$}}
  // EXPLOG: {{^}}  p[4] = __powf(x, y) + __expf(x) + __expf(y);{{$}}
  p[4] = powf(x, y) + exp(x) + std::exp(y);
  // CHECK: {{^}}  p[5] = __fdividef(x, y) + __fdividef(x, SCALE) + __fdividef(1.0f, x);{{$}}
  // DIV: {{^}}  p[5] = __fdividef(x, y) + __fdividef(x, SCALE) + __fdividef(1.0f, x);{{$}}
  // RSQRT: {{^}}  p[5] = x / y + x / SCALE + 1.0f / x;{{$}}
  p[5] = x / y + x / SCALE + 1.0f / x;
  // CHECK: {{^}}  p[6] = rsqrtf(x) + rsqrtf(y) + sqrtf(x);{{$}}
  // DIV: {{^}}  p[6] = __fdividef(1.0f, sqrtf(x)) + __fdividef(1, (sqrtf(y))) + sqrtf(x);{{$}}
  // RSQRT: {{^}}  p[6] = rsqrtf(x) + rsqrtf(y) + sqrtf(x);{{$}}
  p[6] = 1.0f / sqrtf(x) + 1 / (sqrtf(y)) + sqrtf(x);
  // Nested rewrites do not overlap.
  // CHECK: {{^}}  p[7] = __fdividef(__fdividef(__expf(x), (__fdividef(y, x))), n);{{$}}
  // EXPLOG: {{^}}  p[7] = __expf(x) / (y / x) / n;{{$}}
  p[7] = expf(x) / (y / x) / n;
  // CHECK: {{^}}  p[8] = rsqrtf(__fdividef(__expf(x), y));{{$}}
  // DIV: {{^}}  p[8] = __fdividef(1.0f, sqrtf(__fdividef(expf(x), y)));{{$}}
  p[8] = 1.0f / sqrtf(expf(x) / y);
  // Divisions by a power of two are already multiplies; constants fold.
  // CHECK: {{^}}  p[9] = x / 2.0f + x / 0.25f + x / 2 + x / -4.0f + 1.0f / 3.0f;{{$}}
  p[9] = x / 2.0f + x / 0.25f + x / 2 + x / -4.0f + 1.0f / 3.0f;
  // Macros, other functions named expf, and shared callees stay.
  // CHECK: {{^}}  p[10] = EXP(x) + user::expf(x) + helper(x) + calls_own(x);{{$}}
  p[10] = EXP(x) + user::expf(x) + helper(x) + calls_own(x);
  // CHECK: {{^}}  p[11] /= y;{{$}}
  p[11] /= y;
  // Double precision and integers stay.
  // CHECK: {{^}}  d[0] = exp(d[1]) + d[2] / d[3] + sqrt(d[4]) + 1.0 / sqrt(d[5]);{{$}}
  d[0] = exp(d[1]) + d[2] / d[3] + sqrt(d[4]) + 1.0 / sqrt(d[5]);
  // CHECK: {{^}}  d[1] = 1.0 / sqrtf(x) + x / d[2];{{$}}
  d[1] = 1.0 / sqrtf(x) + x / d[2];
  // CHECK: {{^}}  q[0] = q[1] / q[2];{{$}}
  q[0] = q[1] / q[2];
}

template <typename T> __global__ void tk(T *p, float s) {
  // TK: {{^}}  p[0] = p[1] / s + __expf(s) + __fdividef(s, (s + 1.0f));{{$}}
  p[0] = p[1] / s + expf(s) + s / (s + 1.0f);
}
template __global__ void tk<float>(float *, float);
