// coarsen(site, dim, factor): each thread computes F outputs along dim, the
// copies jammed statement by statement; every launch's grid is divided.
// RUN: %clang-optiml %s --apply='coarsen(site=rows,dim=y,factor=2)' --apply='coarsen(site=axpy,dim=x,factor=8)' --apply='coarsen(site=tcopy)' --apply='coarsen(site=enabled,dim=y)' -o %t.cu
// RUN: %FileCheck --match-full-lines --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// Defaults: along y when the kernel reads blockIdx.y, else x; factor 4.
// RUN: %clang-optiml %s --list-sites --kernel=rows | %FileCheck --check-prefix=DEFY %s
// DEFY: coarsen{{ +}}rows{{ +}}legal: --apply='coarsen(site=rows,dim=y,factor=4)'
// RUN: %clang-optiml %s --list-sites --kernel=axpy | %FileCheck --check-prefix=DEFX %s
// DEFX: coarsen{{ +}}axpy{{ +}}legal: --apply='coarsen(site=axpy,dim=x,factor=4)'
// RUN: not %clang-optiml %s --apply='coarsen(site=axpy,dim=z)' 2>&1 | %FileCheck --check-prefix=DIM %s
// DIM: dim=z is outside its domain {x, y}
// RUN: not %clang-optiml %s --apply='coarsen(site=axpy,factor=3)' 2>&1 | %FileCheck --check-prefix=FACTOR %s
// FACTOR: factor=3 is outside its domain {2, 4, 8}

#include <cuda_runtime.h>

__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
__device__ float twice(float v) { return 2 * v; }

// A value loaded per row becomes a private array; a loop whose header is
// the same for all rows is kept once, and its body jammed; comments and
// loop pragmas stay; a call that may have effects runs once per copy.
__global__ void rows(const float *in, float *out, int n, int w) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n || c >= w)
    return;
  // Load once.
  float v = in[r * w + c];
  float s = 0.0f;
#pragma unroll 2
  for (int j = 0; j < 4; ++j) {
    s += v * j; // accumulate
    if (j == 2)
      break;
  }
  out[r * w + c] = twice(s) + expf(v);
}

// CHECK:      __global__ void rows(const float *in, float *out, int n, int w) {
// CHECK-NEXT:   int c = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   // Load once.
// CHECK-NEXT:   float v[2];
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int optiml_cy = 0; optiml_cy < 2; ++optiml_cy) {
// CHECK-NEXT:     const int r = (blockIdx.y * 2 + optiml_cy) * blockDim.y + threadIdx.y;
// CHECK-NEXT:     if (!(r >= n || c >= w))
// CHECK-NEXT:       v[optiml_cy] = in[r * w + c];
// CHECK-NEXT:   }
// CHECK-NEXT:   float s[2];
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int optiml_cy = 0; optiml_cy < 2; ++optiml_cy) {
// CHECK-NEXT:     s[optiml_cy] = 0.0f;
// CHECK-NEXT:   }
// CHECK-NEXT:   #pragma unroll 2
// CHECK-NEXT:   for (int j = 0; j < 4; ++j) {
// CHECK-NEXT:     #pragma unroll
// CHECK-NEXT:     for (int optiml_cy = 0; optiml_cy < 2; ++optiml_cy) {
// CHECK-NEXT:       s[optiml_cy] += v[optiml_cy] * j; // accumulate
// CHECK-NEXT:     }
// CHECK-NEXT:     if (j == 2)
// CHECK-NEXT:       break;
// CHECK-NEXT:   }
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int optiml_cy = 0; optiml_cy < 2; ++optiml_cy) {
// CHECK-NEXT:     const int r = (blockIdx.y * 2 + optiml_cy) * blockDim.y + threadIdx.y;
// CHECK-NEXT:     if (!(r >= n || c >= w))
// CHECK-NEXT:       out[r * w + c] = twice(s[optiml_cy]) + expf(v[optiml_cy]);
// CHECK-NEXT:   }
// CHECK-NEXT: }

// An if around the body is jammed whole; index variables computed from
// index variables come along, in order.
__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = n - 1 - i;
  if (i < n) {
    y[j] = a * x[j] + y[j];
  }
}

// CHECK:      __global__ void axpy(int n, float a, const float *x, float *y) {
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int optiml_cx = 0; optiml_cx < 8; ++optiml_cx) {
// CHECK-NEXT:     const int i = (blockIdx.x * 8 + optiml_cx) * blockDim.x + threadIdx.x;
// CHECK-NEXT:     const int j = n - 1 - i;
// CHECK-NEXT:     if (i < n) {
// CHECK-NEXT:       y[j] = a * x[j] + y[j];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Templates are rewritten on their pattern; locals of a jammed statement
// stay in it.
template <typename T> __global__ void tcopy(const T *a, T *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T t = a[i];
    b[i] = t;
  }
}

// CHECK:      template <typename T> __global__ void tcopy(const T *a, T *b, int n) {
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int optiml_cx = 0; optiml_cx < 4; ++optiml_cx) {
// CHECK-NEXT:     const int i = (blockIdx.x * 4 + optiml_cx) * blockDim.x + threadIdx.x;
// CHECK-NEXT:     if (i < n) {
// CHECK-NEXT:       T t = a[i];
// CHECK-NEXT:       b[i] = t;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// An early return that does not depend on the row stays as it is.
__global__ void enabled(float *v, int n, int w, int on) {
  if (!on)
    return;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n || c >= w)
    return;
  v[r * w + c] *= 2.0f;
}

// CHECK:      __global__ void enabled(float *v, int n, int w, int on) {
// CHECK-NEXT:   if (!on)
// CHECK-NEXT:     return;
// CHECK-NEXT:   int c = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int optiml_cy = 0; optiml_cy < 4; ++optiml_cy) {
// CHECK-NEXT:     const int r = (blockIdx.y * 4 + optiml_cy) * blockDim.y + threadIdx.y;
// CHECK-NEXT:     if (!(r >= n || c >= w))
// CHECK-NEXT:       v[r * w + c] *= 2.0f;
// CHECK-NEXT:   }
// CHECK-NEXT: }

void host(const float *in, float *out, int n, int w) {
  dim3 block(32, 8);
  // CHECK: rows<<<dim3((w + 31) / 32, (n + 15) / 16), block>>>(in, out, n, w);
  rows<<<dim3((w + 31) / 32, (n + 7) / 8), block>>>(in, out, n, w);
  // CHECK: axpy<<<ceil_div(n, 2048), 256>>>(n, 2.0f, in, out);
  axpy<<<ceil_div(n, 256), 256>>>(n, 2.0f, in, out);
  // CHECK: tcopy<float><<<(n + 511) / 512, 128>>>(in, out, n);
  tcopy<float><<<(n + 127) / 128, 128>>>(in, out, n);
  // A grid variable that other code reads is left; the launch gets its own.
  // CHECK: const dim3 grid((w + 15) / 16, (n + 15) / 16);
  // CHECK-NEXT: enabled<<<dim3((w + 15) / 16, (n + 63) / 64), dim3(16, 16)>>>(out, n, w, 1);
  const dim3 grid((w + 15) / 16, (n + 15) / 16);
  enabled<<<grid, dim3(16, 16)>>>(out, n, w, 1);
  cudaMemset(out, 0, grid.y);
}
