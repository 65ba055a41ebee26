// vectorize(site, width): each thread handles W consecutive elements, as
// one vector load per buffer read and one store per buffer written when
// all W are in range and every buffer is aligned, else one by one.
// RUN: %clang-optiml --format-style=none %s --apply='vectorize(site=axpy)' --apply='vectorize(site=daxpy,width=2)' --apply='vectorize(site=affine)' --apply='vectorize(site=split,width=2)' -o %t.cu
// RUN: %FileCheck --match-full-lines --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// Defaults: width 4, or 2 when a buffer holds doubles.
// RUN: %clang-optiml %s --list-sites --kernel=axpy | %FileCheck --check-prefix=DEF4 %s
// DEF4: vectorize{{ +}}axpy{{ +}}legal: --apply='vectorize(site=axpy,width=4)'
// RUN: %clang-optiml %s --list-sites --kernel=daxpy | %FileCheck --check-prefix=DEF2 %s
// DEF2: vectorize{{ +}}daxpy{{ +}}legal: --apply='vectorize(site=daxpy,width=2)'
// RUN: not %clang-optiml --format-style=none %s --apply='vectorize(site=axpy,width=8)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: width=8 is outside its domain {2, 4}
// RUN: not %clang-optiml --format-style=none %t.cu --apply='vectorize(site=axpy)' 2>&1 | %FileCheck --check-prefix=TWICE %s
// TWICE: vectorize(site=axpy) is not applicable: 'axpy' is already vectorized (it uses optiml_base)

#include <cuda_runtime.h>

__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// An if around the body; y is read and written, x only read.
__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// CHECK:      __global__ void axpy(int n, float a, const float *x, float *y) {
// CHECK-NEXT:   const int optiml_base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT:   if (optiml_base + 3 < n &&
// CHECK-NEXT:       reinterpret_cast<size_t>(x) % (4 * sizeof(float)) == 0 &&
// CHECK-NEXT:       reinterpret_cast<size_t>(y) % (4 * sizeof(float)) == 0) {
// CHECK-NEXT:     const float4 optiml_x = *reinterpret_cast<const float4 *>(x + optiml_base);
// CHECK-NEXT:     float4 optiml_y = *reinterpret_cast<const float4 *>(y + optiml_base);
// CHECK-NEXT:     optiml_y.x = a * optiml_x.x + optiml_y.x;
// CHECK-NEXT:     optiml_y.y = a * optiml_x.y + optiml_y.y;
// CHECK-NEXT:     optiml_y.z = a * optiml_x.z + optiml_y.z;
// CHECK-NEXT:     optiml_y.w = a * optiml_x.w + optiml_y.w;
// CHECK-NEXT:     *reinterpret_cast<float4 *>(y + optiml_base) = optiml_y;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     for (int optiml_l = 0; optiml_l < 4; ++optiml_l) {
// CHECK-NEXT:       const int i = optiml_base + optiml_l;
// CHECK-NEXT:       if (i < n)
// CHECK-NEXT:         y[i] = a * x[i] + y[i];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// An early return, doubles (double2), a local per lane.
__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double t = a * x[i];
  y[i] = t + y[i];
}

// CHECK:      __global__ void daxpy(int n, double a, const double *x, double *y) {
// CHECK-NEXT:   const int optiml_base = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
// CHECK-NEXT:   if (optiml_base + 1 < n &&
// CHECK-NEXT:       reinterpret_cast<size_t>(x) % (2 * sizeof(double)) == 0 &&
// CHECK-NEXT:       reinterpret_cast<size_t>(y) % (2 * sizeof(double)) == 0) {
// CHECK-NEXT:     const double2 optiml_x = *reinterpret_cast<const double2 *>(x + optiml_base);
// CHECK-NEXT:     double2 optiml_y = *reinterpret_cast<const double2 *>(y + optiml_base);
// CHECK-NEXT:     {
// CHECK-NEXT:       double t = a * optiml_x.x;
// CHECK-NEXT:       optiml_y.x = t + optiml_y.x;
// CHECK-NEXT:     }
// CHECK-NEXT:     {
// CHECK-NEXT:       double t = a * optiml_x.y;
// CHECK-NEXT:       optiml_y.y = t + optiml_y.y;
// CHECK-NEXT:     }
// CHECK-NEXT:     *reinterpret_cast<double2 *>(y + optiml_base) = optiml_y;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     for (int optiml_l = 0; optiml_l < 2; ++optiml_l) {
// CHECK-NEXT:       const int i = optiml_base + optiml_l;
// CHECK-NEXT:       if (i >= n)
// CHECK-NEXT:         return;
// CHECK-NEXT:       double t = a * x[i];
// CHECK-NEXT:       y[i] = t + y[i];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// int4; a declaration before the check stays first; the index used as a
// value becomes each lane's own; an output written whole is not loaded.
__global__ void affine(int *out, const int *in, int n) {
  const int scale = 3;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * scale + i;
  }
}

// CHECK:      __global__ void affine(int *out, const int *in, int n) {
// CHECK-NEXT:   const int scale = 3;
// CHECK-NEXT:   const int optiml_base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
// CHECK-NEXT:   if (optiml_base + 3 < n &&
// CHECK-NEXT:       reinterpret_cast<size_t>(out) % (4 * sizeof(int)) == 0 &&
// CHECK-NEXT:       reinterpret_cast<size_t>(in) % (4 * sizeof(int)) == 0) {
// CHECK-NEXT:     int4 optiml_out;
// CHECK-NEXT:     const int4 optiml_in = *reinterpret_cast<const int4 *>(in + optiml_base);
// CHECK-NEXT:     optiml_out.x = optiml_in.x * scale + (optiml_base + 0);
// CHECK-NEXT:     optiml_out.y = optiml_in.y * scale + (optiml_base + 1);
// CHECK-NEXT:     optiml_out.z = optiml_in.z * scale + (optiml_base + 2);
// CHECK-NEXT:     optiml_out.w = optiml_in.w * scale + (optiml_base + 3);
// CHECK-NEXT:     *reinterpret_cast<int4 *>(out + optiml_base) = optiml_out;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     for (int optiml_l = 0; optiml_l < 4; ++optiml_l) {
// CHECK-NEXT:       const int i = optiml_base + optiml_l;
// CHECK-NEXT:       if (i < n) {
// CHECK-NEXT:         out[i] = in[i] * scale + i;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Two outputs after reading both inputs: __restrict__ says they do not
// overlap, so the reads may all come first; stores in the original order.
__global__ void split(const float *__restrict__ a, float *__restrict__ lo,
                      float *__restrict__ hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    hi[i] = a[i] * 2.0f;
    lo[i] = a[i] * 0.5f;
  }
}

// CHECK:      {{ +}}float *__restrict__ hi, int n) {
// CHECK-NEXT:   const int optiml_base = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
// CHECK-NEXT:   if (optiml_base + 1 < n &&
// CHECK-NEXT:       reinterpret_cast<size_t>(a) % (2 * sizeof(float)) == 0 &&
// CHECK-NEXT:       reinterpret_cast<size_t>(lo) % (2 * sizeof(float)) == 0 &&
// CHECK-NEXT:       reinterpret_cast<size_t>(hi) % (2 * sizeof(float)) == 0) {
// CHECK-NEXT:     const float2 optiml_a = *reinterpret_cast<const float2 *>(a + optiml_base);
// CHECK-NEXT:     float2 optiml_lo;
// CHECK-NEXT:     float2 optiml_hi;
// CHECK-NEXT:     optiml_hi.x = optiml_a.x * 2.0f;
// CHECK-NEXT:     optiml_lo.x = optiml_a.x * 0.5f;
// CHECK-NEXT:     optiml_hi.y = optiml_a.y * 2.0f;
// CHECK-NEXT:     optiml_lo.y = optiml_a.y * 0.5f;
// CHECK-NEXT:     *reinterpret_cast<float2 *>(hi + optiml_base) = optiml_hi;
// CHECK-NEXT:     *reinterpret_cast<float2 *>(lo + optiml_base) = optiml_lo;
// CHECK-NEXT:   } else {

void host(float *f, float *g, float *h, double *d, double *e, int *o,
          const int *in, int n) {
  // CHECK: axpy<<<(n + 1023) / 1024, 256>>>(n, 2.0f, f, g);
  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, f, g);
  // CHECK: daxpy<<<ceil_div(n, 256), 128>>>(n, 2.0, d, e);
  daxpy<<<ceil_div(n, 128), 128>>>(n, 2.0, d, e);
  // CHECK: affine<<<(n + 2047) / 2048, 512>>>(o, in, n);
  affine<<<(n + 511) / 512, 512>>>(o, in, n);
  // CHECK: split<<<(n + 511) / 512, 256>>>(f, g, h, n);
  split<<<(n + 255) / 256, 256>>>(f, g, h, n);
}
