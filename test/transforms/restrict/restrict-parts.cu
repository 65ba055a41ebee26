// restrict(site) where a launch passes parts of one allocation (x, y and z
// arrays of n elements at p, p + n, p + 2 * n): legal when the parts sit at
// distinct multiples of one size, that size is what the kernel receives as
// its bound, and every access of each part is below it (a global index
// under `if (i < n)`, or a loop counter from 0 below n).
// RUN: %clang-optiml --format-style=none %s --apply='restrict(site=soa)' --apply='restrict(site=pairs)' -o %t.cu
// RUN: %FileCheck --match-full-lines --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: not %clang-optiml %s --apply='restrict(site=neighbour)' 2>&1 | %FileCheck --check-prefix=NEIGHBOUR %s
// RUN: not %clang-optiml %s --apply='restrict(site=other_size)' 2>&1 | %FileCheck --check-prefix=SIZE %s
// RUN: not %clang-optiml %s --apply='restrict(site=same_slot)' 2>&1 | %FileCheck --check-prefix=SLOT %s

#include <cuda_runtime.h>

// CHECK: __global__ void soa(float *__restrict__ px, float *__restrict__ py, const float *__restrict__ pz, int n) {
__global__ void soa(float *px, float *py, const float *pz, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    px[i] += pz[i];
    py[i] *= 2.0f;
  }
}

// Every thread reads all of y below n in a loop.
// CHECK: __global__ void pairs(const float *__restrict__ y, float *__restrict__ out, int n) {
__global__ void pairs(const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && n > 0) {
    float s = 0.0f;
    for (int j = 0; j < n; ++j)
      s += y[j];
    out[i] = s;
  }
}

// One element past its own part: y's last thread reads z's first.
__global__ void neighbour(float *y, const float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = z[i + 1];
}

__global__ void other_size(float *y, const float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = z[i];
}

__global__ void same_slot(float *y, const float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = z[i];
}

void host(float *p, int n, int m) {
  soa<<<(n + 255) / 256, 256>>>(p, p + n, p + 2 * n, n);
  pairs<<<(n + 255) / 256, 256>>>(p + n * 1, p, n);
  // NEIGHBOUR: :[[@LINE+1]]:28: restrict(site=neighbour) is illegal: this launch passes parts of 'p' for both 'y' and 'z', and the kernel's accesses are not all below the size that separates them
  neighbour<<<1, 256>>>(p, p + n, n);
  // SIZE: :[[@LINE+1]]:29: restrict(site=other_size) is illegal: this launch passes parts of 'p' for both 'y' and 'z', and the kernel's accesses are not all below the size that separates them
  other_size<<<1, 256>>>(p, p + n, m);
  // SLOT: :[[@LINE+1]]:32: restrict(site=same_slot) is illegal: this launch passes parts of 'p' for both 'y' and 'z', and the kernel's accesses are not all below the size that separates them
  same_slot<<<1, 256>>>(p + n, n * 1 + p, n);
}
