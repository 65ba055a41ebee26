// restrict(site) is refused where buffers may overlap, with the reason.
// RUN: not %clang-optiml %s --apply='restrict(site=same)' 2>&1 | %FileCheck --check-prefix=SAME %s
// RUN: not %clang-optiml %s --apply='restrict(site=offset)' 2>&1 | %FileCheck --check-prefix=OFFSET %s
// RUN: not %clang-optiml %s --apply='restrict(site=cross)' 2>&1 | %FileCheck --check-prefix=CROSS %s
// RUN: not %clang-optiml %s --apply='restrict(site=by_address)' 2>&1 | %FileCheck --check-prefix=ADDRESS %s
// RUN: not %clang-optiml %s --apply='restrict(site=array_same)' 2>&1 | %FileCheck --check-prefix=ARRAY %s
// RUN: not %clang-optiml %s --apply='restrict(site=done)' 2>&1 | %FileCheck --check-prefix=DONE %s
// RUN: not %clang-optiml %s --apply='restrict(site=scalars)' 2>&1 | %FileCheck --check-prefix=SCALARS %s

#include <cuda_runtime.h>

__global__ void same(float *x, float *y) { y[0] = x[0]; }
__global__ void offset(float *x, float *y) { y[0] = x[0]; }
// CROSS: :[[@LINE+1]]:45: restrict(site=cross) is illegal: a pointer parameter is assigned a pointer based on another parameter, so the two alias
__global__ void cross(float *x, float *y) { x = y + 1; x[0] = 1; }
__global__ void by_address(float *x, float *y) { y[0] = x[0]; }
__global__ void array_same(float *x, float *y) { y[0] = x[0]; }
// DONE: :[[@LINE+1]]:17: restrict(site=done) is not applicable: 'done' has no pointer parameter left to qualify
__global__ void done(const float *__restrict__ x, float *__restrict__ y) { y[0] = x[0]; }
// SCALARS: :[[@LINE+1]]:17: restrict(site=scalars) is not applicable: 'scalars' has no pointer parameter left to qualify
__global__ void scalars(int n) {}

void host(float *a, float *b, cudaStream_t s) {
  // SAME: :[[@LINE+1]]:21: restrict(site=same) is illegal: this launch passes 'a' for both 'x' and 'y'
  same<<<1, 1>>>(a, a);
  // OFFSET: :[[@LINE+1]]:23: restrict(site=offset) is illegal: this launch passes 'a + 4' for 'y', not a variable of its own or a part of one ('p + 2 * n'), so it may overlap another buffer
  offset<<<1, 1>>>(a, a + 4);
  cross<<<1, 1>>>(a, b);
  done<<<1, 1>>>(a, b);
  scalars<<<1, 1>>>(1);
  // An argument array changed after its initializer: what the launch
  // passes is not read.
  void *args[] = {&a, &b};
  args[1] = &a;
  // ADDRESS: :[[@LINE+1]]:34: restrict(site=by_address) is illegal: the address of 'by_address' is taken, so its arguments are out of reach
  cudaLaunchKernel((const void *)by_address, 1, 1, args, 0, s);
  // ARRAY: :[[@LINE+1]]:29: restrict(site=array_same) is illegal: this launch passes 'a' for both 'x' and 'y'
  void *same_args[] = {&a, &a};
  cudaLaunchKernel((const void *)array_same, 1, 1, same_args, 0, s);
}
