// vectorize(site, width) on grid-stride kernels: the loop walks whole
// vectors with the same start and stride, the original loop takes the last
// n % W elements, and unaligned buffers run the original loop. A grid
// written ceil(N / B) at every launch is divided by W; any other stays.
// RUN: %clang-optiml --format-style=none %s --apply='vectorize(site=axpby)' --apply='vectorize(site=scale)' --apply='vectorize(site=dscale)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// RUN: not %clang-optiml %s --apply='vectorize(site=by_grid)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='vectorize(site=not_last)' 2>&1 | %FileCheck --check-prefix=LAST %s
// RUN: not %clang-optiml %s --apply='vectorize(site=dot)' 2>&1 | %FileCheck --check-prefix=SUM %s
// RUN: not %clang-optiml %s --apply='vectorize(site=shifted)' 2>&1 | %FileCheck --check-prefix=SHIFTED %s
// RUN: not %clang-optiml %s --apply='vectorize(site=bounded_by_memory)' 2>&1 | %FileCheck --check-prefix=BOUND %s

#include <cuda_runtime.h>

__device__ __forceinline__ float lerp2(float a, float x, float b, float y) {
  return a * x + b * y;
}

// A 64-bit index, the stride in a local, a helper with value parameters; a
// fixed grid keeps its launch.
// CHECK-LABEL: {{^}}__global__ void axpby(
// CHECK-NEXT:  {{^}}  size_t stride = (size_t)gridDim.x * blockDim.x;{{$}}
// CHECK-NEXT:  {{^}}  if (reinterpret_cast<size_t>(x) % (4 * sizeof(float)) == 0 &&{{$}}
// CHECK-NEXT:  {{^}}      reinterpret_cast<size_t>(y) % (4 * sizeof(float)) == 0) {{{$}}
// CHECK-NEXT:  {{^}}    for (size_t optiml_v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; optiml_v < n / 4; optiml_v += stride) {{{$}}
// CHECK-NEXT:  {{^}}      const size_t optiml_base = optiml_v * 4;{{$}}
// CHECK-NEXT:  {{^}}      const float4 optiml_x = *reinterpret_cast<const float4 *>(x + optiml_base);{{$}}
// CHECK-NEXT:  {{^}}      float4 optiml_y = *reinterpret_cast<const float4 *>(y + optiml_base);{{$}}
// CHECK-NEXT:  {{^}}      optiml_y.x = lerp2(a, optiml_x.x, b, optiml_y.x);{{$}}
// CHECK:       {{^}}      optiml_y.w = lerp2(a, optiml_x.w, b, optiml_y.w);{{$}}
// CHECK-NEXT:  {{^}}      *reinterpret_cast<float4 *>(y + optiml_base) = optiml_y;{{$}}
// CHECK-NEXT:  {{^}}    }{{$}}
// CHECK-NEXT:  {{^}}    for (size_t i = n / 4 * 4 + (blockIdx.x * (size_t)blockDim.x + threadIdx.x); i < n; i += stride) {{{$}}
// CHECK-NEXT:  {{^}}      y[i] = lerp2(a, x[i], b, y[i]);{{$}}
// CHECK-NEXT:  {{^}}    }{{$}}
// CHECK-NEXT:  {{^}}  } else {{{$}}
// CHECK-NEXT:  {{^}}    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;{{$}}
// CHECK-NEXT:  {{^}}         i += stride){{$}}
// CHECK-NEXT:  {{^}}      y[i] = lerp2(a, x[i], b, y[i]);{{$}}
// CHECK-NEXT:  {{^}}  }{{$}}
// CHECK-NEXT:  {{^}}}{{$}}
__global__ void axpby(size_t n, float a, const float *x, float b, float *y) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += stride)
    y[i] = lerp2(a, x[i], b, y[i]);
}

// An int index stepping by gridDim.x * blockDim.x, a bound that is an
// expression, a local per element (each lane gets braces).
// CHECK-LABEL: {{^}}__global__ void scale(
// CHECK:       {{^}}    for (int optiml_v = threadIdx.x + blockIdx.x * blockDim.x; optiml_v < (n - skip) / 4; optiml_v += gridDim.x * blockDim.x) {{{$}}
// CHECK:       {{^}}      {{{$}}
// CHECK-NEXT:  {{^}}        float v = optiml_in.x;{{$}}
// CHECK:       {{^}}    for (int i = (n - skip) / 4 * 4 + (threadIdx.x + blockIdx.x * blockDim.x); i < (n - skip); i += gridDim.x * blockDim.x) {{{$}}
__global__ void scale(const float *in, float *out, int n, int skip, float s) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n - skip;
       i += gridDim.x * blockDim.x) {
    float v = in[i];
    out[i] = v * s;
  }
}

// Doubles go by two; a launch with a ceil-div grid is divided.
// CHECK-LABEL: {{^}}__global__ void dscale(
// CHECK:       {{^}}      const double2 optiml_in = *reinterpret_cast<const double2 *>(in + optiml_base);{{$}}
// CHECK:       {{^}}  dscale<<<(n + 511) / 512, 256>>>(d, d, n);{{$}}
__global__ void dscale(const double *in, double *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = 2.0 * in[i];
}

// Every other thread count would skip or repeat elements.
__global__ void by_grid(float *s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       // STEP: :[[@LINE+1]]:8: vectorize(site=by_grid) is illegal: the loop does not step 'i' by the grid's thread count blockDim.x * gridDim.x
       i += blockDim.x * gridDim.x * 2)
    s[i] = 0.0f;
}

__global__ void not_last(float *s, int *done, int n) {
  // LAST: :[[@LINE+1]]:12: vectorize(site=not_last) is illegal: the grid-stride loop over 'i' must declare it and be the kernel's last statement
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s[i] = 0.0f;
  done[0] = 1;
}

// A running sum across the thread's elements is not elementwise.
__global__ void dot(const float *a, float *run, int n) {
  float t = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    // SUM: :[[@LINE+1]]:5: vectorize(site=dot) is illegal: the body changes 't', declared outside it
    t += a[i];
    run[i] = t;
  }
}

__global__ void shifted(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    // SHIFTED: :[[@LINE+1]]:14: vectorize(site=shifted) is illegal: this access is at 'i + 1', not at 'i' itself
    out[i] = in[i + 1];
}

__global__ void bounded_by_memory(float *s, const int *count) {
  // BOUND: :[[@LINE+1]]:3: vectorize(site=bounded_by_memory) is illegal: the loop's condition must be 'i < n' with n reading neither memory nor the index
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count[0];
       i += blockDim.x * gridDim.x)
    s[i] = 0.0f;
}

void launch(float *f, double *d, int *c, int n) {
  axpby<<<1024, 256>>>(n, 2.0f, f, 0.5f, f);
  scale<<<(n + 255) / 256, 256>>>(f, f, n, 3, 2.0f);
  dscale<<<(n + 255) / 256, 256>>>(d, d, n);
}
