// coarsen divides grids written the ways host code writes them, and the
// grid of a kernel launched only through its #pragma optiml mark; indices
// may write the block's extent as the number every launch uses. Each
// result compiles.
// RUN: %clang-optiml %s --apply='coarsen(site=vars,dim=x,factor=4)' --apply='coarsen(site=members,dim=y,factor=2)' --apply='coarsen(site=marked,dim=x,factor=2)' --apply='coarsen(site=fixed,dim=y,factor=2)' -o %t.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// NOTE: note: coarsen(site=marked,dim=x,factor=2): 'marked' is not launched in this file: its callers must now launch it with block(128) and grid(ceil_div(N, 256)), as its #pragma optiml mark says

#include <cmath>
#include <cuda_runtime.h>

__global__ void vars(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

__global__ void members(float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    b[y * w + x] += 1.0f;
}

// CHECK: {{^}}#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) scalar(n = N) grid(ceil_div(N, 256)) block(128){{$}}
#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) scalar(n = N) grid(ceil_div(N, 128)) block(128)
__global__ void marked(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 3.0f;
}

#define TILE 16

// The index keeps its constant: coarsening keeps the block.
// CHECK: {{^}}  for (int optiml_cy = 0; optiml_cy < 2; ++optiml_cy) {{{$}}
// CHECK-NEXT: {{^}}    const int r = (blockIdx.y * 2 + optiml_cy) * TILE + threadIdx.y;{{$}}
__global__ void fixed(float *b, int w, int h) {
  int c = blockIdx.x * TILE + threadIdx.x;
  int r = blockIdx.y * TILE + threadIdx.y;
  if (r >= h || c >= w)
    return;
  b[r * w + c] *= 2.0f;
}

void run(const float *x, float *y, int n, int w, int h) {
  // CHECK: {{^}}  dim3 tiles((w + TILE - 1) / TILE, (h + 31) / 32);{{$}}
  dim3 tiles((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  fixed<<<tiles, dim3(TILE, TILE)>>>(y, w, h);

  // CHECK:      {{^}}  int threads = 256;{{$}}
  // CHECK-NEXT: {{^}}  int blocks = (n + 1023) / 1024;{{$}}
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vars<<<blocks, threads>>>(x, y, n);

  // CHECK:      {{^}}  dim3 grid((unsigned int)ceil((float)w / (float)block.x),{{$}}
  // CHECK-NEXT: {{^}}            (h + 15) / 16);{{$}}
  dim3 block(32, 8);
  dim3 grid((unsigned int)ceil((float)w / (float)block.x),
            (unsigned int)ceil((float)h / block.y));
  members<<<grid, block>>>(y, w, h);
}
