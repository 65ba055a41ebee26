// unroll(mode=explicit) on grid-stride loops (and block-stride ones): the
// step, the grid's (the block's) thread count, is read once into a constant, and each pass runs F strided
// iterations with no test between them, so their loads can all be in
// flight; the remainder loop runs what is left. --list-sites suggests the
// explicit mode for such loops (the pragma cannot give the compiler F
// iterations without a test between them) and the pragma elsewhere.
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=counts/for#1,factor=4,mode=explicit)' --apply='unroll(site=counts/for#0,factor=2,mode=explicit)' --apply='unroll(site=axpy/for#0,factor=2,mode=explicit)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: %clang-optiml --list-sites %s 2>&1 | %FileCheck --check-prefix=SITES %s
// SITES: unroll counts/for#0 legal: --apply='unroll(site=counts/for#0,factor=4,mode=explicit)'
// SITES: unroll counts/for#1 legal: --apply='unroll(site=counts/for#1,factor=4,mode=explicit)'
// SITES: unroll axpy/for#0 legal: --apply='unroll(site=axpy/for#0,factor=4,mode=explicit)'
// SITES: unroll stride_param/for#0 legal: --apply='unroll(site=stride_param/for#0,factor=4)'
// A step that only looks like a stride (a parameter) stays unknown:
// RUN: not %clang-optiml %s --apply='unroll(site=stride_param/for#0,mode=explicit)' 2>&1 | %FileCheck --check-prefix=PARAM %s
// PARAM: unroll(site=stride_param/for#0,mode=explicit) is not applicable: the increment is not a constant add or subtract on 'i'
// A stride variable that changes is no grid stride either:
// RUN: not %clang-optiml %s --apply='unroll(site=moving/for#0,mode=explicit)' 2>&1 | %FileCheck --check-prefix=MOVING %s
// MOVING: unroll(site=moving/for#0,mode=explicit) is not applicable: the increment is not a constant add or subtract on 'i'

#include <cuda_runtime.h>

__global__ void counts(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned hist[256];
  // CHECK: {{^}}  const int optiml_j_s = blockDim.x;{{$}}
  // CHECK-NEXT: {{^}}  int optiml_j_u = threadIdx.x;{{$}}
  // CHECK-NEXT: {{^}}  for (; optiml_j_u + optiml_j_s < 256; optiml_j_u += 2 * optiml_j_s) {{{$}}
  for (int j = threadIdx.x; j < 256; j += blockDim.x)
    hist[j] = 0;
  __syncthreads();
  // CHECK: {{^}}  const int optiml_i_s = blockDim.x * gridDim.x;{{$}}
  // CHECK-NEXT: {{^}}  int optiml_i_u = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
  // CHECK-NEXT: {{^}}  for (; optiml_i_u + 3 * optiml_i_s < n; optiml_i_u += 4 * optiml_i_s) {{{$}}
  // CHECK-NEXT: {{^}}    {{{$}}
  // CHECK-NEXT: {{^}}      const int i = optiml_i_u;{{$}}
  // CHECK-NEXT: {{^}}      atomicAdd(&hist[data[i]], 1u);{{$}}
  // CHECK-NEXT: {{^}}    }{{$}}
  // CHECK-NEXT: {{^}}    {{{$}}
  // CHECK-NEXT: {{^}}      const int i = optiml_i_u + optiml_i_s;{{$}}
  // CHECK: {{^}}      const int i = optiml_i_u + 3 * optiml_i_s;{{$}}
  // CHECK: {{^}}  #pragma unroll 1{{$}}
  // CHECK-NEXT: {{^}}  for (int i = optiml_i_u; i < n;{{$}}
  // CHECK-NEXT: {{^}}       i += blockDim.x * gridDim.x){{$}}
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&hist[data[i]], 1u);
  __syncthreads();
  for (int j = threadIdx.x; j < 256; j += blockDim.x)
    atomicAdd(&bins[j], hist[j]);
}

// The stride held in a local, a size_t index.
__global__ void axpy(size_t n, float a, const float *x, float *y) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  // CHECK: {{^}}  const size_t optiml_i_s = stride;{{$}}
  // CHECK-NEXT: {{^}}  size_t optiml_i_u = blockIdx.x * (size_t)blockDim.x + threadIdx.x;{{$}}
  // CHECK-NEXT: {{^}}  for (; optiml_i_u + optiml_i_s < n; optiml_i_u += 2 * optiml_i_s) {{{$}}
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += stride) {
    y[i] = a * x[i] + y[i];
  }
}

__global__ void stride_param(float *y, int n, int stride) {
  for (int i = threadIdx.x; i < n; i += stride)
    y[i] = 0.0f;
}

__global__ void moving(float *y, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = 0.0f;
    stride = 1;
  }
}
