// pad-shared(site, pad): each statically sized 2-D __shared__ array whose
// column accesses put a warp's lanes in one bank gets `pad` more elements
// a row; arrays without such accesses stay as they are.
// RUN: %clang-optiml %s --apply='pad-shared(site=transpose)' --apply='pad-shared(site=gemm_tiles,pad=2)' --apply='pad-shared(site=wide)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// --list-sites offers it with its default.
// RUN: %clang-optiml %s --list-sites --kernel=transpose | %FileCheck --check-prefix=LIST %s
// LIST: pad-shared    transpose          legal: --apply='pad-shared(site=transpose,pad=1)'

#include <cuda_runtime.h>

#define TILE 32

// The tile is written by rows and read down its columns; the macro stays.
// CHECK: {{^}}  __shared__ float tile[TILE][TILE + 1];{{$}}
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < n && y < n)
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < n && y < n)
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Only the array read down its columns is padded; a size that is not one
// token is parenthesized.
// CHECK: {{^}}  __shared__ float as[16][16];{{$}}
// CHECK-NEXT: {{^}}  __shared__ float bs[16][(8 * 2) + 2];{{$}}
__global__ void gemm_tiles(const float *a, const float *b, float *c) {
  __shared__ float as[16][16];
  __shared__ float bs[16][8 * 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  as[ty][tx] = a[ty * 16 + tx];
  bs[ty][tx] = b[ty * 16 + tx];
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < 16; ++k)
    sum += as[ty][k] * bs[tx][k];
  atomicAdd(&bs[tx][0], sum);
  c[ty * 16 + tx] = sum;
}

// Doubles span two banks: a row of 32 puts every lane in the same pair.
// CHECK: {{^}}  __shared__ double d[32][32 + 1];{{$}}
__global__ void wide(double *out) {
  __shared__ double d[32][32];
  d[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = d[threadIdx.x][threadIdx.y];
}

void host(const float *in, float *out, float *c, double *d, int n) {
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(in, out, n);
  gemm_tiles<<<1, dim3(16, 16)>>>(in, in, c);
  wide<<<1, dim3(32, 32)>>>(d);
}
