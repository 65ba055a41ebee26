// Kernels that call an intrinsic CUDA's headers declare for nvcc but
// Clang's CUDA wrappers lack (CUDA 13's __tanhf) still parse: the tool
// includes a compatibility header first. Their rewrites keep the call as
// written, and nvcc compiles them.
// RUN: %clang-optiml %s --list-kernels | %FileCheck --check-prefix=KERNELS %s
// KERNELS: gelu_tanh
// RUN: %clang-optiml --format-style=none %s --apply='restrict(site=gelu_tanh)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void gelu_tanh(const float *__restrict__ x, float *__restrict__ y, int n) {{{$}}
// CHECK:       {{^}}    y[i] = 0.5f * v * (1.0f + __tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));{{$}}
__global__ void gelu_tanh(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + __tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}
