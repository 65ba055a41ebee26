// restrict(site): __restrict__ on every pointer parameter, const on the
// element type of the buffers the kernel only reads; every declaration of
// the kernel changes alike.
// RUN: %clang-optiml %s --apply='restrict(site=axpy)' --apply='restrict(site=rows)' --apply='restrict(site=by_runtime_api)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: note
//
// With no launch in the file the result rests on the spec's distinct
// buffers, and says so:
// RUN: %clang-optiml %s --apply='restrict(site=unlaunched)' 2>&1 | %FileCheck --check-prefix=NOTE %s
// NOTE: clang-optiml: note: restrict(site=unlaunched): 'unlaunched' is not launched in this file: __restrict__ relies on the kernel spec's buffers being distinct
// RUN: %clang-optiml %s --list-sites --kernel=unlaunched | %FileCheck --check-prefix=LIST %s
// LIST: restrict      unlaunched         legal: --apply='restrict(site=unlaunched)' ('unlaunched' is not launched in this file: __restrict__ relies on the kernel spec's buffers being distinct)

#include <cuda_runtime.h>

__device__ void store(float *p, float v) { *p = v; }

// The changed lines come out formatted (LLVM's style: no .clang-format
// here but the project's).
// CHECK: {{^}}__global__ void axpy(int n, float a, const float *__restrict__ x,{{$}}
// CHECK-NEXT: {{^}}                     float *__restrict__ y);{{$}}
__global__ void axpy(int n, float a, float *x, float *y);
// CHECK: {{^}}__global__ void axpy(int n, float a, const float *__restrict__ x,{{$}}
// CHECK-NEXT: {{^}}                     float *__restrict__ y) {{{$}}
__global__ void axpy(int n, float a, float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// Writes through a derived pointer and through a call count as writes;
// reads through a derived pointer do not; a pointer to pointers keeps its
// element type.
// CHECK: {{^}}__global__ void rows(const float *__restrict__ in, float *__restrict__ out,{{$}}
// CHECK-NEXT: {{^}}                     float *__restrict__ scratch, float **__restrict__ table,{{$}}
// CHECK-NEXT: {{^}}                     int n) {{{$}}
__global__ void rows(const float *in, float *out,
                     float *scratch, float **table, int n) {
  int r = blockIdx.x;
  const float *src = in + r * n;
  float *dst = out + r * n;
  for (int c = 0; c < n; ++c)
    dst[c] = src[c] + table[0][c];
  store(scratch + r, 1.0f);
}

// Launched through cudaLaunchKernel with an array of its arguments'
// addresses: the arguments are read from the array.
// CHECK:      {{^}}__global__ void by_runtime_api(const float *__restrict__ x,{{$}}
// CHECK-NEXT: {{^}}                               float *__restrict__ y, int n) {{{$}}
__global__ void by_runtime_api(float *x, float *y, int n) {
  if (threadIdx.x < n)
    y[threadIdx.x] = x[threadIdx.x];
}

// NOTE: {{^}}__global__ void unlaunched(const float *__restrict__ x, float *__restrict__ y) {{{$}}
// NOTE-NEXT: {{^}}  y[0] = x[0];{{$}}
// NOTE-NEXT: {{^}}}{{$}}
__global__ void unlaunched(float *x, float *y) { y[0] = x[0]; }

void host(int n, float *x, float *y, float *z, float **t) {
  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  rows<<<n, 1>>>(x, y, z, t, n);
  rows<<<n, 1>>>(x, y, nullptr, t, n); // A null pointer aliases nothing.
  void *args[] = {&x, &y, &n};
  cudaLaunchKernel((const void *)by_runtime_api, dim3(1), dim3(256), args, 0,
                   nullptr);
}
