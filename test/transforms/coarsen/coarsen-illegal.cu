// coarsen(site, dim, factor) is refused, with the reason, wherever copies
// jammed into one thread could compute something else, or a launch cannot
// follow.
// RUN: not %clang-optiml %s --apply='coarsen(site=shared_tile)' 2>&1 | %FileCheck --check-prefix=SHARED %s
// RUN: not %clang-optiml %s --apply='coarsen(site=barrier)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
// RUN: not %clang-optiml %s --apply='coarsen(site=stride)' 2>&1 | %FileCheck --check-prefix=STRIDE %s
// RUN: not %clang-optiml %s --apply='coarsen(site=per_block)' 2>&1 | %FileCheck --check-prefix=PERBLOCK %s
// RUN: not %clang-optiml %s --apply='coarsen(site=atomic)' 2>&1 | %FileCheck --check-prefix=ATOMIC %s
// RUN: not %clang-optiml %s --apply='coarsen(site=shifted)' 2>&1 | %FileCheck --check-prefix=SHIFTED %s
// RUN: not %clang-optiml %s --apply='coarsen(site=colsum,dim=y)' 2>&1 | %FileCheck --check-prefix=COLSUM %s
// RUN: not %clang-optiml %s --apply='coarsen(site=row_pointer)' 2>&1 | %FileCheck --check-prefix=ROWPTR %s
// RUN: not %clang-optiml %s --apply='coarsen(site=unguarded)' 2>&1 | %FileCheck --check-prefix=UNGUARDED %s
// RUN: not %clang-optiml %s --apply='coarsen(site=border)' 2>&1 | %FileCheck --check-prefix=BORDER %s
// RUN: not %clang-optiml %s --apply='coarsen(site=early_exit)' 2>&1 | %FileCheck --check-prefix=BREAK %s
// RUN: not %clang-optiml %s --apply='coarsen(site=global)' 2>&1 | %FileCheck --check-prefix=GLOBAL %s
// RUN: not %clang-optiml %s --apply='coarsen(site=param)' 2>&1 | %FileCheck --check-prefix=PARAM %s
// RUN: not %clang-optiml %s --apply='coarsen(site=helper)' 2>&1 | %FileCheck --check-prefix=HELPER %s
// RUN: not %clang-optiml %s --apply='coarsen(site=changing)' 2>&1 | %FileCheck --check-prefix=CHANGING %s
// RUN: not %clang-optiml %s --apply='coarsen(site=fixed_tile)' 2>&1 | %FileCheck --check-prefix=FIXED %s
// RUN: not %clang-optiml %s --apply='coarsen(site=together)' 2>&1 | %FileCheck --check-prefix=TOGETHER %s
// RUN: not %clang-optiml %s --apply='coarsen(site=window)' 2>&1 | %FileCheck --check-prefix=WINDOW %s
// RUN: not %clang-optiml %s --apply='coarsen(site=floor_grid)' 2>&1 | %FileCheck --check-prefix=FLOOR %s
// RUN: not %clang-optiml %s --apply='coarsen(site=runtime_block)' 2>&1 | %FileCheck --check-prefix=RUNTIME %s
// RUN: not %clang-optiml %s --apply='coarsen(site=flat_grid,dim=y)' 2>&1 | %FileCheck --check-prefix=FLAT %s
// RUN: not %clang-optiml %s --apply='coarsen(site=unlaunched)' 2>&1 | %FileCheck --check-prefix=UNLAUNCHED %s
// RUN: not %clang-optiml %s --apply='coarsen(site=by_address)' 2>&1 | %FileCheck --check-prefix=ADDRESS %s

#include <cuda_runtime.h>

__device__ int counter;
__device__ int block_row() { return blockIdx.y; }

__global__ void shared_tile(const float *in, float *out, int n) {
  // SHARED: :[[@LINE+1]]:20: coarsen(site=shared_tile) is illegal: the kernel uses __shared__ 'tile', which the threads of a block share
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
  // BARRIER: :[[@LINE+1]]:3: coarsen(site=barrier) is illegal: the kernel calls '__syncthreads', so its threads cooperate and their work cannot be merged into fewer threads
  __syncthreads();
  y[i] = 1.0f;
}

__global__ void stride(float *y, int n) {
  // STRIDE: :[[@LINE+2]]:26: coarsen(site=stride) is illegal: the kernel reads gridDim.x, which coarsening divides (grid-stride loops are not coarsened)
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = 0.0f;
}

__global__ void per_block(const float *x, float *partial, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // PERBLOCK: :[[@LINE+1]]:13: coarsen(site=per_block) is illegal: blockIdx.x is used outside the initializer of an index variable (a local integer computed once and never changed), so it cannot be recomputed for each copy
    partial[blockIdx.x] = x[i];
}

// An exchange is not an update that commutes: the last one wins.
__global__ void atomic(const float *x, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // ATOMIC: :[[@LINE+1]]:17: coarsen(site=atomic) is illegal: the address of this element of 'sum' escapes (an atomic, a pointer), so the copies cannot be shown independent
    atomicExch(&sum[i], x[i]);
}

__global__ void shifted(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    // SHIFTED: :[[@LINE+1]]:12: coarsen(site=shifted) is illegal: 'y' is written and accessed both at 'i' and at 'i + 1', so one copy may touch another's element
    y[i] = y[i + 1];
}

__global__ void colsum(const float *a, float *sums, int n, int w) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n || c >= w)
    return;
  // COLSUM: :[[@LINE+1]]:3: coarsen(site=colsum,dim=y) is illegal: 'sums' is written, and the index 'c' does not depend on blockIdx.y, so all copies would touch the same element
  sums[c] = a[r * w + c];
}

__global__ void row_pointer(float *out, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n)
    return;
  float *row = out + r * w;
  // ROWPTR: :[[@LINE+1]]:3: coarsen(site=row_pointer) is illegal: this stores through a pointer that is not a kernel parameter, so the copies cannot be shown to write distinct elements
  row[0] = 1.0f;
}

__global__ void unguarded(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // UNGUARDED: :[[@LINE+1]]:3: coarsen(site=unguarded) is illegal: this statement touches memory before the global index 'i' is checked against the problem bound, so the extra copies of the last blocks would run it
  y[i] = 1.0f;
}

// As in examples/jacobi2d.cu: the border returns from inside a block.
__global__ void border(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (i == 0 || i == n - 1) {
    out[i] = in[i];
    // BORDER: :[[@LINE+1]]:5: coarsen(site=border) is illegal: this return is not a top-level 'if (...) return;', so the copies of a thread could not stop one by one
    return;
  }
  out[i] = 0.5f * (in[i - 1] + in[i + 1]);
}

__global__ void early_exit(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j) {
    s += x[j];
    if (s > i)
      // BREAK: :[[@LINE+1]]:7: coarsen(site=early_exit) is illegal: this jump depends on the copy but leaves a loop that all copies share
      break;
  }
  y[i] = s;
}

__global__ void global(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // GLOBAL: :[[@LINE+1]]:3: coarsen(site=global) is illegal: the kernel changes 'counter', which the copies of a thread would share
  counter = 1;
  y[i] = 0.0f;
}

__global__ void param(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // PARAM: :[[@LINE+1]]:3: coarsen(site=param) is illegal: the kernel changes 'n', which the copies of a thread would share
  n = 2;
  y[i] = n;
}

__global__ void helper(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // HELPER: :[[@LINE+1]]:10: coarsen(site=helper) is illegal: the kernel calls 'block_row', which reads the block geometry
  y[i] = block_row();
}

__global__ void changing(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = x[0];
  // CHANGING: :[[@LINE+1]]:7: coarsen(site=changing) is illegal: this early return depends on the copy and on a variable that changes later, so it cannot be re-checked for each copy
  if (t > i)
    return;
  t = 2.0f;
  if (i >= n)
    return;
  y[i] = t;
}

// A number in place of blockDim.x that is not every launch's block.
// FIXED: :[[@LINE+1]]:17: coarsen(site=fixed_tile) is illegal: 'fixed_tile' keeps no global index blockIdx.x * blockDim.x + threadIdx.x in a variable
__global__ void fixed_tile(float *y, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void together(float *y, int n) {
  // TOGETHER: :[[@LINE+1]]:3: coarsen(site=together) is illegal: declare the index variables of this statement in a declaration of their own
  int i = blockIdx.x * blockDim.x + threadIdx.x, k = 0;
  if (i >= n)
    return;
  y[i] = k;
}

__global__ void window(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // WINDOW: :[[@LINE+1]]:9: coarsen(site=window) is illegal: each copy needs its own 'w', but it is an array with an initializer
  float w[2] = {1.0f, 2.0f};
  w[0] = x[i];
  y[i] = w[0] + w[1];
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

__global__ void flat_grid(float *y, int n, int w) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && c < w)
    y[r * w + c] = 0.0f;
}

// UNLAUNCHED: :[[@LINE+1]]:17: coarsen(site=unlaunched) is illegal: 'unlaunched' is not launched in this file and has no #pragma optiml mark with its launch, so its grid is out of reach
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

void host(float *y, float *x, int n, int threads, cudaStream_t s) {
  shared_tile<<<(n + 255) / 256, 256>>>(y, y, n);
  barrier<<<(n + 255) / 256, 256>>>(y, n);
  stride<<<(n + 255) / 256, 256>>>(y, n);
  per_block<<<(n + 255) / 256, 256>>>(x, y, n);
  atomic<<<(n + 255) / 256, 256>>>(x, y, n);
  shifted<<<(n + 255) / 256, 256>>>(y, n);
  colsum<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(x, y, n, n);
  row_pointer<<<(n + 255) / 256, 256>>>(y, n, n);
  unguarded<<<(n + 255) / 256, 256>>>(y);
  border<<<(n + 255) / 256, 256>>>(x, y, n);
  early_exit<<<(n + 255) / 256, 256>>>(x, y, n);
  global<<<(n + 255) / 256, 256>>>(y, n);
  param<<<(n + 255) / 256, 256>>>(y, n);
  helper<<<(n + 255) / 256, 256>>>(y, n);
  changing<<<(n + 255) / 256, 256>>>(x, y, n);
  fixed_tile<<<(n + 255) / 256, 256>>>(y, n);
  together<<<(n + 255) / 256, 256>>>(y, n);
  window<<<(n + 255) / 256, 256>>>(x, y, n);
  // FLOOR: :[[@LINE+1]]:16: coarsen(site=floor_grid) is illegal: grid x 'n / 256 + 1' is not ceil(N / 256) in a known form ((N + 255) / 256, ceil_div(N, 256), N / 256), so it cannot be divided among fewer threads
  floor_grid<<<n / 256 + 1, 256>>>(y, n);
  // RUNTIME: :[[@LINE+1]]:48: coarsen(site=runtime_block) is illegal: the block of this launch is not a compile-time constant
  runtime_block<<<(n + threads - 1) / threads, threads>>>(y, n);
  // FLAT: :[[@LINE+1]]:15: coarsen(site=flat_grid,dim=y) is illegal: the grid of this launch has no y expression to divide
  flat_grid<<<(n + 255) / 256, dim3(256, 1)>>>(y, n, n);
  void *args[] = {&y, &n};
  // ADDRESS: :[[@LINE+1]]:34: coarsen(site=by_address) is illegal: 'by_address' is launched through 'cudaLaunchKernel', whose grid and block rewrites do not follow
  cudaLaunchKernel((const void *)by_address, 1, 1, args, 0, s);
}
