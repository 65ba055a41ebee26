// aggregate-atomics(site): an atomicAdd whose address a warp shares becomes
// a shuffle sum over the lanes that arrive together and one atomicAdd from
// the lowest of them; atomics at per-thread addresses stay.
// RUN: %clang-optiml --format-style=none %s --apply='aggregate-atomics(site=sum_atomic)' --apply='aggregate-atomics(site=guarded)' --apply='aggregate-atomics(site=mixed)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// It is listed as changing numerics: a float sum is reassociated.
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  aggregate-atomics {{ *}}kernel {{.*}}(changes numerics)

#include <cuda_runtime.h>

// CHECK-LABEL: __global__ void sum_atomic(
// CHECK:      {{^}}  {{{$}}
// CHECK-NEXT: {{^}}    unsigned optiml_mask0 = __activemask();{{$}}
// CHECK-NEXT: {{^}}    float optiml_sum0 = local;{{$}}
// CHECK-NEXT: {{^}}    if (optiml_mask0 == 0xffffffffu) {{{$}}
// CHECK-NEXT: {{^}}      for (int optiml_step0 = 16; optiml_step0 > 0; optiml_step0 /= 2){{$}}
// CHECK-NEXT: {{^}}        optiml_sum0 += __shfl_xor_sync(0xffffffffu, optiml_sum0, optiml_step0);{{$}}
// CHECK-NEXT: {{^}}    } else {{{$}}
// CHECK-NEXT: {{^}}      float optiml_all0 = 0;{{$}}
// CHECK-NEXT: {{^}}      for (unsigned optiml_rest0 = optiml_mask0; optiml_rest0; optiml_rest0 &= optiml_rest0 - 1){{$}}
// CHECK-NEXT: {{^}}        optiml_all0 += __shfl_sync(optiml_mask0, optiml_sum0, __ffs(optiml_rest0) - 1);{{$}}
// CHECK-NEXT: {{^}}      optiml_sum0 = optiml_all0;{{$}}
// CHECK-NEXT: {{^}}    }{{$}}
// CHECK-NEXT: {{^}}    unsigned optiml_lane0 = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;{{$}}
// CHECK-NEXT: {{^}}    if (optiml_lane0 == __ffs(optiml_mask0) - 1){{$}}
// CHECK-NEXT: {{^}}      atomicAdd(result, optiml_sum0);{{$}}
// CHECK-NEXT: {{^}}  }{{$}}
// CHECK-NEXT: {{^}}}{{$}}
__global__ void sum_atomic(const float *x, float *result, int n) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    local += x[i];
  atomicAdd(result, local);
}

// Under a bounds guard, without braces: the block takes the call's place,
// its semicolon included; a per-block address is shared by the warp.
// CHECK-LABEL: __global__ void guarded(
// CHECK:      {{^}}  if (i < n){{$}}
// CHECK-NEXT: {{^}}    {{{$}}
// CHECK-NEXT: {{^}}      unsigned optiml_mask0 = __activemask();{{$}}
// CHECK-NEXT: {{^}}      int optiml_sum0 = x[i] > 0;{{$}}
// CHECK:      {{^}}        atomicAdd(&counts[b], optiml_sum0);{{$}}
// CHECK-NEXT: {{^}}    }{{$}}
// CHECK-NEXT: {{^}}  else{{$}}
__global__ void guarded(const float *x, int *counts, int n) {
  int b = blockIdx.x;
  int i = b * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&counts[b], x[i] > 0);
  else
    counts[gridDim.x] = 0;
}

// CHECK-LABEL: __global__ void mixed(
// CHECK:      {{^}}    atomicAdd(&bins[data[i]], 1u);{{$}}
// CHECK:      {{^}}      atomicAdd(&total[0], optiml_sum0);{{$}}
__global__ void mixed(const unsigned *data, unsigned *bins, unsigned *total,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
  atomicAdd(&total[0], 1u);
}
