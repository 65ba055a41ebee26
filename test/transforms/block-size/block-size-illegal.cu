// block-size(site, x, y, z) is refused, with the reason, wherever a new
// block could change what the kernel computes or a launch cannot follow.
// RUN: not %clang-optiml %s --apply='block-size(site=shared_tile)' 2>&1 | %FileCheck --check-prefix=SHARED %s
// RUN: not %clang-optiml %s --apply='block-size(site=barrier)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
// RUN: not %clang-optiml %s --apply='block-size(site=no_guard)' 2>&1 | %FileCheck --check-prefix=NOGUARD %s
// RUN: not %clang-optiml %s --apply='block-size(site=early_read)' 2>&1 | %FileCheck --check-prefix=EARLY %s
// RUN: not %clang-optiml %s --apply='block-size(site=loose)' 2>&1 | %FileCheck --check-prefix=LOOSE %s
// RUN: not %clang-optiml %s --apply='block-size(site=lane)' 2>&1 | %FileCheck --check-prefix=LANE %s
// RUN: not %clang-optiml %s --apply='block-size(site=helper)' 2>&1 | %FileCheck --check-prefix=HELPER %s
// RUN: not %clang-optiml %s --apply='block-size(site=fixed_tile)' 2>&1 | %FileCheck --check-prefix=FIXED %s
// RUN: not %clang-optiml %s --apply='block-size(site=changed)' 2>&1 | %FileCheck --check-prefix=CHANGED %s
// RUN: not %clang-optiml %s --apply='block-size(site=bounded,x=256)' 2>&1 | %FileCheck --check-prefix=BOUNDED %s
// RUN: not %clang-optiml %s --apply='block-size(site=plain,x=1024,y=2)' 2>&1 | %FileCheck --check-prefix=TOOBIG %s
// RUN: not %clang-optiml %s --apply='block-size(site=plain,x=128,y=2)' 2>&1 | %FileCheck --check-prefix=NOY %s
// RUN: not %clang-optiml %s --apply='block-size(site=floor_grid)' 2>&1 | %FileCheck --check-prefix=FLOOR %s
// RUN: not %clang-optiml %s --apply='block-size(site=inverted_flag)' 2>&1 | %FileCheck --check-prefix=INVERTED %s
// RUN: not %clang-optiml %s --apply='block-size(site=stale_count)' 2>&1 | %FileCheck --check-prefix=STALE %s
// RUN: not %clang-optiml %s --apply='block-size(site=runtime_block)' 2>&1 | %FileCheck --check-prefix=RUNTIME %s
// RUN: not %clang-optiml %s --apply='block-size(site=unlaunched)' 2>&1 | %FileCheck --check-prefix=UNLAUNCHED %s
// RUN: not %clang-optiml %s --apply='block-size(site=by_address)' 2>&1 | %FileCheck --check-prefix=ADDRESS %s

#include <cuda_runtime.h>

__device__ int global_id() { return blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void shared_tile(const float *in, float *out, int n) {
  // SHARED: :[[@LINE+1]]:20: block-size(site=shared_tile) is illegal: the kernel uses __shared__ 'tile', whose size or indexing may assume the block size
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  out[i] = tile[threadIdx.x];
}

__global__ void barrier(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // BARRIER: :[[@LINE+1]]:3: block-size(site=barrier) is illegal: the kernel calls '__syncthreads', so its threads cooperate within a block
  __syncthreads();
  y[i] = 1.0f;
}

__global__ void no_guard(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // NOGUARD: :[[@LINE+1]]:3: block-size(site=no_guard) is illegal: this statement runs before 'i' is checked against the problem bound, so threads past the bound would run it
  y[i] = 1.0f;
}

__global__ void early_read(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // EARLY: :[[@LINE+1]]:3: block-size(site=early_read) is illegal: this statement runs before 'i' is checked
  float v = x[i];
  if (i < n)
    y[i] = v;
}

__global__ void loose(float *y, int n) {
  // LOOSE: :[[@LINE+1]]:7: block-size(site=loose) is illegal: this global index is not kept in a variable, so its bounds check cannot be followed
  if (blockIdx.x * blockDim.x + threadIdx.x < n)
    y[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

__global__ void lane(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // LANE: :[[@LINE+1]]:10: block-size(site=lane) is illegal: the kernel uses threadIdx.x outside a global index, so it may assume the block size
  y[i] = threadIdx.x % 32;
}

__global__ void helper(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // HELPER: :[[@LINE+1]]:10: block-size(site=helper) is illegal: the kernel calls 'global_id', which reads the thread geometry, so it may assume the block size
  y[i] = global_id();
}

// A number in place of blockDim.x that is not the launch's block (256).
// FIXED: :[[@LINE+2]]:11: block-size(site=fixed_tile) is illegal: the kernel uses blockIdx.x outside a global index, so it may assume the block size
__global__ void fixed_tile(float *y, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void changed(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHANGED: :[[@LINE+1]]:3: block-size(site=changed) is illegal: the global index 'i' is changed after its bounds check
  i += 1;
  y[i - 1] = 1.0f;
}

// BOUNDED: :[[@LINE+1]]:17: block-size(site=bounded,x=256) is illegal: the kernel's __launch_bounds__ allows fewer than 256 threads per block
__global__ void __launch_bounds__(128) bounded(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

// TOOBIG: :[[@LINE+1]]:17: block-size(site=plain,x=1024,y=2) is illegal: a block of (1024, 2, 1) has 2048 threads; CUDA allows at most 1024
__global__ void plain(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

// One block too many when 256 divides n, one too few otherwise.
__global__ void inverted_flag(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

// The grid's count is computed before n changes: written at the launch,
// it would mean another count.
__global__ void stale_count(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void floor_grid(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void runtime_block(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

// UNLAUNCHED: :[[@LINE+1]]:17: block-size(site=unlaunched) is illegal: 'unlaunched' is not launched in this file and has no #pragma optiml mark with its launch, so its launch configuration is out of reach
__global__ void unlaunched(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void by_address(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

void host(float *y, int n, int threads, cudaStream_t s) {
  shared_tile<<<(n + 255) / 256, 256>>>(y, y, n);
  barrier<<<(n + 255) / 256, 256>>>(y, n);
  no_guard<<<(n + 255) / 256, 256>>>(y);
  early_read<<<(n + 255) / 256, 256>>>(y, y, n);
  loose<<<(n + 255) / 256, 256>>>(y, n);
  lane<<<(n + 255) / 256, 256>>>(y, n);
  helper<<<(n + 255) / 256, 256>>>(y, n);
  fixed_tile<<<(n + 255) / 256, 256>>>(y, n);
  changed<<<(n + 255) / 256, 256>>>(y, n);
  bounded<<<(n + 127) / 128, 128>>>(y, n);
  // NOY: :[[@LINE+1]]:28: block-size(site=plain,x=128,y=2) is illegal: the kernel has no global index in y, so the block's y must stay 1
  plain<<<(n + 255) / 256, 256>>>(y, n);
  // FLOOR: :[[@LINE+1]]:16: block-size(site=floor_grid) is illegal: grid x 'n / 256 + 1' is not ceil(N / 256) in a known form ((N + 255) / 256, ceil_div(N, 256), N / 256), so it cannot follow the block
  floor_grid<<<n / 256 + 1, 256>>>(y, n);
  int blocks = n / 256 + (n % 256 != 0);
  n += 1;
  // STALE: :[[@LINE+1]]:22: block-size(site=stale_count) is illegal: grid x 'blocks' is not ceil(N / 256)
  stale_count<<<dim3(blocks), 256>>>(y, n);
  // INVERTED: :[[@LINE+1]]:19: block-size(site=inverted_flag) is illegal: grid x 'n / 256 + (!(n % 256) ? 1 : 0)' is not ceil(N / 256)
  inverted_flag<<<n / 256 + (!(n % 256) ? 1 : 0), 256>>>(y, n);
  // RUNTIME: :[[@LINE+1]]:48: block-size(site=runtime_block) is illegal: the block of this launch is not a compile-time constant
  runtime_block<<<(n + threads - 1) / threads, threads>>>(y, n);
  void *args[] = {&y, &n};
  // ADDRESS: :[[@LINE+1]]:34: block-size(site=by_address) is illegal: 'by_address' is launched through 'cudaLaunchKernel', whose grid and block rewrites do not follow
  cudaLaunchKernel((const void *)by_address, 1, 1, args, 0, s);
}
