// block-size reads the launch forms host code uses: sizes in variables, dim3
// members, float ceil, a remainder test (in a variable that serves both
// axes of a square grid), indices that write the block's extent as the
// number every launch uses (it becomes blockDim), truncating grids of guarded kernels,
// grid-stride loops with any grid, and kernels launched only through their
// #pragma optiml mark. Each result compiles.
// RUN: %clang-optiml %s --apply='block-size(site=vars,x=128)' --apply='block-size(site=members,x=16,y=16)' --apply='block-size(site=remainder,x=512)' --apply='block-size(site=truncated,x=128)' --apply='block-size(site=stride,x=512)' --apply='block-size(site=marked,x=64)' --apply='block-size(site=square,x=32,y=8)' --apply='block-size(site=fixed,x=32,y=8)' -o %t.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// NOTE: note: block-size(site=marked,x=64,y=1,z=1): 'marked' is not launched in this file: its callers must now launch it with block(64) and grid((N + 63) / 64), as its #pragma optiml mark says

#include <cmath>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void vars(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] *= 2.0f;
}

__global__ void members(float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    b[y * w + x] += 1.0f;
}

__global__ void remainder(float *y, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void truncated(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 1.0f;
}

__global__ void stride(float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = 2.0f;
}

// CHECK: {{^}}#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) scalar(n = N) grid((N + 63) / 64) block(64){{$}}
#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) scalar(n = N) grid((N + 255) / 256) block(256)
__global__ void marked(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 3.0f;
}

__global__ void square(float *a, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    a[y * n + x] *= 0.5f;
}

#define TILE 16

// CHECK:      {{^}}  int c = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-NEXT: {{^}}  int r = blockIdx.y * blockDim.y + threadIdx.y;{{$}}
__global__ void fixed(float *b, int w, int h) {
  int c = blockIdx.x * TILE + threadIdx.x;
  int r = blockIdx.y * TILE + threadIdx.y;
  if (r >= h || c >= w)
    return;
  b[r * w + c] *= 2.0f;
}

void run(float *y, int n, int w, int h) {
  // CHECK: {{^}}  fixed<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(y, w, h);{{$}}
  fixed<<<dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), dim3(TILE, TILE)>>>(y, w, h);

  // CHECK:      {{^}}  int threadsPerBlock = 128;{{$}}
  // CHECK-NEXT: {{^}}  int blocksPerGrid = (n + 127) / 128;{{$}}
  // CHECK-NEXT: {{^}}  vars<<<blocksPerGrid, threadsPerBlock>>>(y, n);{{$}}
  int threadsPerBlock = 256;
  int blocksPerGrid = (n + threadsPerBlock - 1) / threadsPerBlock;
  vars<<<blocksPerGrid, threadsPerBlock>>>(y, n);

  // CHECK:      {{^}}  dim3 block(16, 16);{{$}}
  // CHECK-NEXT: {{^}}  dim3 grid((w + 15) / 16,{{$}}
  // CHECK-NEXT: {{^}}            (h + 15) / 16);{{$}}
  dim3 block(32, 8);
  dim3 grid((unsigned int)ceil((float)w / (float)block.x),
            (unsigned int)ceil((float)h / block.y));
  members<<<grid, block>>>(y, w, h);

  // CHECK: {{^}}  remainder<<<(n + 511) / 512, 512>>>(y, n);{{$}}
  remainder<<<n / THREADS + (n % THREADS != 0), THREADS>>>(y, n);
  // CHECK: {{^}}  remainder<<<(n + 511) / 512, 512>>>(y, n);{{$}}
  remainder<<<(n / THREADS) + (!(n % THREADS) ? 0 : 1), THREADS>>>(y, n);
  // The shared count is written out in each axis.
  // CHECK:      {{^}}  dim3 sq_block(32, 8);{{$}}
  // CHECK-NEXT: {{^}}  dim3 sq_grid((n + 31) / 32, (n + 7) / 8);{{$}}
  dim3 sq_block(16, 16);
  int tiles = (n / 16) + (!(n % 16) ? 0 : 1);
  dim3 sq_grid(tiles, tiles);
  square<<<sq_grid, sq_block>>>(y, n);
  // Rounded up: the kernel stops threads past n.
  // CHECK: {{^}}  truncated<<<(n + 127) / 128, 128>>>(y, n);{{$}}
  truncated<<<n / THREADS, THREADS>>>(y, n);
  // The grid-stride loop covers n with any grid: only the block changes.
  // CHECK: {{^}}  stride<<<1024, 512>>>(y, n);{{$}}
  stride<<<1024, THREADS>>>(y, n);
}
