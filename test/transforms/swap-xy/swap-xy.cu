// swap-xy(site): exchange the x and y roles of threadIdx and blockDim (and of
// every launch's block), so that the index that walks contiguous memory varies
// fastest within a warp. docs/transforms/swap-xy.md says what it does and when
// it is legal.
//
// It is registered, with its kind of site:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  swap-xy {{ *}}kernel {{ *}}exchange the x and y roles of threadIdx and blockDim (and of every launch's block), so that the index that walks contiguous memory varies fastest within a warp
//
// A kernel whose rows follow threadIdx.x: the indices are renamed, the
// launch's own block operand is swapped, and the dim3 that also sizes the
// grid keeps its value (the grid does not change).
// RUN: %clang-optiml %s --apply='swap-xy(site=by_rows)' -o %t.rows.cu
// RUN: %FileCheck --check-prefix=ROWS %s < %t.rows.cu
// RUN: %nvcc -c %t.rows.cu -o %t.rows.o
// ROWS-LABEL: {{^}}__global__ void by_rows(
// ROWS-NEXT: {{^}}  int row = blockIdx.x * blockDim.y + threadIdx.y;
// ROWS-NEXT: {{^}}  int col = blockIdx.y * blockDim.x + threadIdx.x;
// ROWS: {{^}}  dim3 block(32, 8);
// ROWS-NEXT: {{^}}  dim3 grid((h + block.x - 1) / block.x, (w + block.y - 1) / block.y);
// ROWS-NEXT: {{^}}  by_rows<<<grid, dim3(8, 32)>>>(out, in, w, h);
//
// A square block: only the kernel changes; a linear thread id and a
// __shared__ tile are renamed consistently, and the barrier is block-wide.
// RUN: %clang-optiml %s --apply='swap-xy(site=square_tile)' -o %t.square.cu
// RUN: %FileCheck --check-prefix=SQUARE %s < %t.square.cu
// RUN: %nvcc -c %t.square.cu -o %t.square.o
// SQUARE-LABEL: {{^}}__global__ void square_tile(
// SQUARE: {{^}}  int src = (by + threadIdx.x) * n + bx + threadIdx.y;
// SQUARE-NEXT: {{^}}  tile[threadIdx.x][threadIdx.y] = in[src];
// SQUARE: {{^}}  int tid = threadIdx.x * blockDim.y + threadIdx.y;
// SQUARE: {{^}}  square_tile<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(in, out, n);
//
// Without a launch in the file the mark's block changes, and the note says
// how callers must now launch the kernel.
// RUN: %clang-optiml %s --apply='swap-xy(site=marked)' -o %t.marked.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --check-prefix=MARKED %s < %t.marked.cu
// RUN: %nvcc -c %t.marked.cu -o %t.marked.o
// NOTE: 'marked' is not launched in this file: its callers must now launch it with block(4, 64) and grid(N / 64, N / 4), as its #pragma optiml mark says
// MARKED: {{^}}#pragma optiml kernel sizes(N = 256) in(x[N * N]) out(y[N * N]) grid(N / 64, N / 4) block(4, 64)
//
// Refusals, one per rule:
// RUN: not %clang-optiml %s --apply='swap-xy(site=one_d)' 2>&1 | %FileCheck --check-prefix=ONED %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=shuffles)' 2>&1 | %FileCheck --check-prefix=SHFL %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=lanes)' 2>&1 | %FileCheck --check-prefix=WARPSIZE %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=warp_sync)' 2>&1 | %FileCheck --check-prefix=VOLATILE %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=helper_reads)' 2>&1 | %FileCheck --check-prefix=HELPER %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=from_macro)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=assembly)' 2>&1 | %FileCheck --check-prefix=ASM %s
// RUN: not %clang-optiml %s --apply='swap-xy(site=runtime_block)' 2>&1 | %FileCheck --check-prefix=RUNTIME %s

#include <cuda_runtime.h>

__global__ void by_rows(float *out, const float *in, int w, int h) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < h && col < w)
    out[row * w + col] = 2.0f * in[row * w + col];
}

void launch_by_rows(float *out, const float *in, int w, int h) {
  dim3 block(32, 8);
  dim3 grid((h + block.x - 1) / block.x, (w + block.y - 1) / block.y);
  by_rows<<<grid, block>>>(out, in, w, h);
}

__global__ void square_tile(const float *in, float *out, int n) {
  __shared__ float tile[16][17];
  int by = blockIdx.y * 16, bx = blockIdx.x * 16;
  int src = (by + threadIdx.y) * n + bx + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = in[src];
  __syncthreads();
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  out[(blockIdx.x * 16) * n + blockIdx.y * 16 + tid] = tile[tid % 16][tid / 16];
}

void launch_square(const float *in, float *out, int n) {
  square_tile<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(in, out, n);
}

#pragma optiml kernel sizes(N = 256) in(x[N * N]) out(y[N * N]) grid(N / 64, N / 4) block(64, 4)
__global__ void marked(const float *x, float *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  y[r * 256 + c] = x[r * 256 + c] + 1.0f;
}

// ONED: :[[@LINE+1]]:17: swap-xy(site=one_d) is not applicable: the block (256, 1, 1) has one thread in x or y: swapping them regroups no warp
__global__ void one_d(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

void launch_one_d(float *y, int n) { one_d<<<(n + 255) / 256, 256>>>(y, n); }

__global__ void shuffles(float *y) {
  float v = y[threadIdx.y * 32 + threadIdx.x];
  // SHFL: :[[@LINE+1]]:8: swap-xy(site=shuffles) is illegal: the kernel calls '__shfl_down_sync': warp-level code assumes which threads share a warp, and the swap regroups them
  v += __shfl_down_sync(0xffffffffu, v, 1);
  y[threadIdx.y * 32 + threadIdx.x] = v;
}

void launch_shuffles(float *y) { shuffles<<<1, dim3(32, 4)>>>(y); }

__global__ void lanes(int *lane_of) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  // WARPSIZE: :[[@LINE+1]]:20: swap-xy(site=lanes) is illegal: the kernel reads warpSize: it reasons about warps, which the swap regroups
  lane_of[t] = t % warpSize;
}

void launch_lanes(int *lane_of) { lanes<<<1, dim3(8, 8)>>>(lane_of); }

__global__ void warp_sync(float *out, const float *in) {
  // VOLATILE: :[[@LINE+1]]:29: swap-xy(site=warp_sync) is illegal: volatile 's' is the mark of warp-synchronous code, which assumes which threads share a warp
  __shared__ volatile float s[64];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  s[t] = in[t];
  if (t < 32)
    s[t] += s[t + 32];
  out[t] = s[t];
}

void launch_warp_sync(float *out, const float *in) {
  warp_sync<<<1, dim3(16, 4)>>>(out, in);
}

__device__ int my_row() { return blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void helper_reads(float *y, int w) {
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  // HELPER: :[[@LINE+1]]:5: swap-xy(site=helper_reads) is illegal: the kernel calls 'my_row', which reads the thread geometry or works per warp; the swap renames threadIdx and blockDim in the kernel only
  y[my_row() * w + col] = 1.0f;
}

void launch_helper(float *y, int w) { helper_reads<<<dim3(4, 4), dim3(16, 16)>>>(y, w); }

#define TX threadIdx.x
__global__ void from_macro(float *y, int w) {
  // MACRO: :[[@LINE+1]]:37: swap-xy(site=from_macro) is illegal: threadIdx.x comes from a macro, whose text the swap cannot rename at one use
  int r = blockIdx.x * blockDim.x + TX;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  y[r * w + c] = 1.0f;
}

void launch_macro(float *y, int w) { from_macro<<<dim3(4, 4), dim3(16, 16)>>>(y, w); }

__global__ void assembly(unsigned *y) {
  unsigned lane;
  // ASM: :[[@LINE+1]]:3: swap-xy(site=assembly) is illegal: inline assembly may read the thread index (%tid) that the swap renames
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  y[threadIdx.y * blockDim.x + threadIdx.x] = lane;
}

void launch_assembly(unsigned *y) { assembly<<<1, dim3(16, 16)>>>(y); }

__global__ void runtime_block(float *y, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  y[r * w + c] = 1.0f;
}

void launch_runtime(float *y, int w, int bx) {
  // RUNTIME: :[[@LINE+1]]:31: swap-xy(site=runtime_block) is illegal: this launch's block is not a compile-time constant
  runtime_block<<<dim3(4, 4), dim3(bx, 8)>>>(y, w);
}
