// read-only(site): every load of a buffer the kernel never writes goes
// through __ldg, directly or through a local pointer derived from it; a
// load inside another's index is wrapped too, a vector element is loaded
// whole before its member is taken; a kernel template's loads are checked
// in each of its specializations.
// RUN: %clang-optiml --format-style=none %s --apply='read-only(site=axpy/x)' --apply='read-only(site=rows/in)' --apply='read-only(site=gather/x)' --apply='read-only(site=gather/idx)' --apply='read-only(site=vec/v)' --apply='read-only(site=scale/in)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: note
//
// With no launch in the file and another buffer written, the result rests
// on the spec's distinct buffers, and says so; when both are __restrict__
// the promise is the user's, and nothing is said.
// RUN: %clang-optiml --format-style=none %s --apply='read-only(site=unlaunched/x)' 2>&1 | %FileCheck --check-prefix=NOTE %s
// NOTE: clang-optiml: note: read-only(site=unlaunched/x): 'unlaunched' is not launched in this file: the read-only path relies on the kernel spec's buffers being distinct
// RUN: %clang-optiml --format-style=none %s --apply='read-only(site=promised/x)' -o %t.promised.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --check-prefix=PROMISED --input-file=%t.promised.cu %s
// PROMISED: {{^}}__global__ void promised(const float *__restrict__ x, float *__restrict__ y) { y[0] = __ldg(&x[0]); }{{$}}
//
// Loads written inside a macro are left as they are.
// RUN: %clang-optiml --format-style=none %s --apply='read-only(site=macro/x)' | %FileCheck --check-prefix=MACRO %s
//
// --list-sites offers the kernel-wide site and explains the loop ones.
// RUN: %clang-optiml %s --list-sites --kernel=rows | %FileCheck --check-prefix=LIST %s
// LIST: read-only     rows/in            legal: --apply='read-only(site=rows/in)'

#include <cuda_runtime.h>

#define AT(p, i) p[i]

// CHECK: {{^}}    y[i] = a * __ldg(&x[i]) + y[i];{{$}}
__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// CHECK: {{^}}    dst[c] = __ldg(&src[c]) + __ldg(&*(in + c));{{$}}
__global__ void rows(const float *in, float *out, int n) {
  int r = blockIdx.x;
  const float *src = in + r * n;
  float *dst = out + r * n;
  // LIST: read-only     rows/for#0/in      not-applicable: read-only routes every load of 'in' in the kernel: its site is 'rows/in' (line [[@LINE+1]])
  for (int c = 0; c < n; ++c)
    dst[c] = src[c] + *(in + c);
}

// CHECK: {{^}}  y[i] = __ldg(&x[__ldg(&idx[i])]);{{$}}
__global__ void gather(const int *idx, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[idx[i]];
}

// CHECK: {{^}}  out[i] = __ldg(&v[i]).x + __ldg(&v[i]).w;{{$}}
__global__ void vec(const float4 *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = v[i].x + v[i].w;
}

// NOTE: {{^}}__global__ void unlaunched(const float *x, float *y) { y[0] = __ldg(&x[0]); }{{$}}
__global__ void unlaunched(const float *x, float *y) { y[0] = x[0]; }
__global__ void promised(const float *__restrict__ x, float *__restrict__ y) { y[0] = x[0]; }

// MACRO: {{^}}  y[1] = AT(x, 1) + __ldg(&x[2]);{{$}}
__global__ void macro(const float *x, float *y) {
  y[1] = AT(x, 1) + x[2];
}

// CHECK: {{^}}  if (i < n) out[i] = alpha * __ldg(&in[i]);{{$}}
template <typename T>
__global__ void scale(const T *in, T *out, T alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * in[i];
}
template __global__ void scale<double>(const double *, double *, double, int);

void host(int n, float a, float *x, float *y, int *idx, float4 *v) {
  scale<<<(n + 255) / 256, 256>>>(x, y, a, n);
  axpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
  rows<<<n, 1>>>(x, y, n);
  gather<<<n / 256, 256>>>(idx, x, y);
  vec<<<n / 256, 256>>>(v, y);
  macro<<<1, 1>>>(x, y);
}
