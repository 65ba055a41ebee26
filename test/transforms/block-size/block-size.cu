// block-size(site, x, y, z): every launch of the kernel gets the new block,
// and each grid dimension written as ceil(N / B) is rescaled with it.
// RUN: %clang-optiml --format-style=none %s --apply='block-size(site=scale,x=128)' --apply='block-size(site=shift,x=512)' --apply='block-size(site=stride,x=1024)' --apply='block-size(site=add2d,x=32,y=8)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// Each parameter, and defaults: a 1-D kernel gets x=128, a 2-D one (32, 8)
// unless it already runs so.
// RUN: %clang-optiml --format-style=none %s --apply='block-size(site=add2d,x=16,y=32)' | %FileCheck --check-prefix=Y %s
// RUN: %clang-optiml --format-style=none %s --apply='block-size(site=add3d,x=32,y=4,z=4)' | %FileCheck --check-prefix=Z %s
// RUN: %clang-optiml %s --list-sites --kernel=scale | %FileCheck --check-prefix=DEF1 %s
// DEF1: block-size    scale              legal: --apply='block-size(site=scale,x=128,y=1,z=1)'
// RUN: %clang-optiml %s --list-sites --kernel=add2d | %FileCheck --check-prefix=DEF2 %s
// DEF2: block-size    add2d              legal: --apply='block-size(site=add2d,x=32,y=8,z=1)'
// RUN: not %clang-optiml --format-style=none %s --apply='block-size(site=scale,x=100)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: x=100 is outside its domain {8, 16, 32, 64, 128, 256, 512, 1024}
// RUN: not %clang-optiml --format-style=none %s --apply='block-size(site=scale,x=256)' 2>&1 | %FileCheck --check-prefix=SAME %s
// SAME: block-size(site=scale,x=256) is not applicable: every launch of 'scale' already uses a block of (256, 1, 1)

#include <cuda_runtime.h>
#define BLOCK 256

__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// An early return guards the index.
__global__ void scale(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] *= 2.0f;
}

// An if around the body guards it; operands in any order.
__global__ void shift(float *y, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    y[i] += 1.0f;
  }
}

// A grid-stride loop guards itself.
__global__ void stride(float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = 0.0f;
}

__global__ void add2d(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  b[y * w + x] += a[y * w + x];
}

__global__ void add3d(float *v, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < w && y < h && z < d)
    v[(z * h + y) * w + x] = 1.0f;
}

void host(float *a, float *b, int n, int w, int h, cudaStream_t s) {
  // CHECK: {{^}}  scale<<<(n + 127) / 128, 128>>>(b, n);{{$}}
  scale<<<(n + 255) / 256, 256>>>(b, n);
  // CHECK: {{^}}  scale<<<(n + 127) / 128, 128>>>(a, n);{{$}}
  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(a, n);
  // CHECK: {{^}}  shift<<<ceil_div(n, 512), 512, 0, s>>>(b, n);{{$}}
  shift<<<ceil_div(n, 256), 256, 0, s>>>(b, n);
  // A grid variable used only by this launch is rewritten where declared.
  // CHECK: {{^}}  const int blocks = (n + 1023) / 1024;{{$}}
  // CHECK-NEXT: {{^}}  stride<<<blocks, 1024>>>(b, n);{{$}}
  const int blocks = (n - 1) / 128 + 1;
  stride<<<blocks, 128>>>(b, n);
  // So are dim3 variables; `grid` also sizes a buffer, so this launch gets
  // its own grid and the variable keeps its value.
  // CHECK: {{^}}  dim3 block(32, 8), grid((w + 15) / 16, (h + 15) / 16);{{$}}
  // CHECK-NEXT: {{^}}  add2d<<<dim3((w + 31) / 32, (h + 7) / 8), block>>>(a, b, w, h);{{$}}
  // Y: {{^}}  dim3 block(16, 32), grid((w + 15) / 16, (h + 15) / 16);{{$}}
  // Y-NEXT: {{^}}  add2d<<<dim3((w + 15) / 16, (h + 31) / 32), block>>>(a, b, w, h);{{$}}
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  add2d<<<grid, block>>>(a, b, w, h);
  cudaMemsetAsync(b, 0, grid.x * sizeof(float), s);
  // Z: {{^}}  add3d<<<dim3((w + 31) / 32, (h + 3) / 4, (4 + 3) / 4), dim3(32, 4, 4)>>>(b, w, h, 4);{{$}}
  add3d<<<dim3((w + 7) / 8, (h + 7) / 8, (4 + 3) / 4), dim3(8, 8, 4)>>>(b, w, h, 4);
}
