// sequential-reduce(site): an interleaved shared-memory tree (threads whose
// index is a multiple of 2s add buf[t + s]) becomes the halving tree (the
// first s threads add buf[t + s]): the same sum of buf[0, blockDim.x) in
// another order, with whole warps idle instead of every warp divergent.
// RUN: %clang-optiml --format-style=none %s --apply='sequential-reduce(site=modulo/for#0)' --apply='sequential-reduce(site=unrolled/for#0)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: note
//
// A block known only at run time gets a test, the interleaved tree kept for
// blocks that are not a power of two wide:
// RUN: %clang-optiml --format-style=none %s --apply='sequential-reduce(site=masked/for#0)' -o %t.masked.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --check-prefix=MASKED --input-file=%t.masked.cu %s
// RUN: %nvcc -c %t.masked.cu -o %t.masked.o
// NOTE: note: sequential-reduce(site=masked/for#0): some blocks of 'masked' are not known here: the halving tree runs for blocks (x, 1, 1) with x a power of two, tested at run time, the interleaved one for others
//
// The kept tree is not offered again, and the halving one can end in warp
// shuffles; the chain shuffle-trees does both:
// RUN: %clang-optiml --list-sites %t.masked.cu 2>&1 | %FileCheck --check-prefix=AFTER %s
// AFTER: sequential-reduce masked/for#1 not-applicable: the loop is what runs where '(blockDim.x & (blockDim.x - 1)) == 0 && blockDim.y == 1 && blockDim.z == 1' fails, which sequential-reduce would test again
// AFTER: warp-reduce masked/for#0 legal
// RUN: %clang-optiml --format-style=none %s --apply='chain:shuffle-trees(site=modulo)' -o %t.chain.cu 2>&1 | %FileCheck --check-prefix=CHAIN %s
// RUN: %FileCheck --check-prefix=CHAINED --input-file=%t.chain.cu %s
// RUN: %nvcc -c %t.chain.cu -o %t.chain.o
// CHAIN: chain:shuffle-trees(site=modulo) applied: sequential-reduce(site=modulo/for#0); warp-reduce(site=modulo/for#0)
//
// It changes numerics (another order of additions):
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LIST %s
// LIST: {{^}}  sequential-reduce loop turn an interleaved shared-memory tree

#include <cuda_runtime.h>

__global__ void modulo(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  // CHECK: {{^}}  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {{{$}}
  // CHECK-NEXT: {{^}}    if (tid < s){{$}}
  // CHECK-NEXT: {{^}}      sdata[tid] += sdata[tid + s];{{$}}
  // CHECK-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-NEXT: {{^}}  }{{$}}
  // CHECK-NEXT: {{^}}  if (tid == 0){{$}}
  // CHAINED: {{^}}  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {{{$}}
  // CHAINED: {{^}}      optiml_v += __shfl_down_sync(0xffffffffu, optiml_v, optiml_o);{{$}}
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void masked(const int *in, int *out) {
  extern __shared__ int smax[];
  int t = threadIdx.x;
  smax[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  // MASKED: {{^}}  if ((blockDim.x & (blockDim.x - 1)) == 0 && blockDim.y == 1 && blockDim.z == 1) {{{$}}
  // MASKED-NEXT: {{^}}    for (int s = blockDim.x / 2; s > 0; s >>= 1) {{{$}}
  // MASKED-NEXT: {{^}}      if (t < s){{$}}
  // MASKED-NEXT: {{^}}        smax[t] = max(smax[s + t], smax[t]);{{$}}
  // MASKED-NEXT: {{^}}      __syncthreads();{{$}}
  // MASKED-NEXT: {{^}}    }{{$}}
  // MASKED-NEXT: {{^}}  } else {{{$}}
  // MASKED-NEXT: {{^}}    for (int s = 1; s < blockDim.x; s <<= 1) {{{$}}
  for (int s = 1; s < blockDim.x; s <<= 1) {
    if ((t & (2 * s - 1)) == 0)
      smax[t] = max(smax[s + t], smax[t]);
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = smax[0];
}

// A loop pragma stays above the halving loop.
__global__ void unrolled(const double *in, double *out) {
  __shared__ double d[128];
  d[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  // CHECK: {{^}}#pragma unroll{{$}}
  // CHECK-NEXT: {{^}}  for (int s = blockDim.x / 2; s > 0; s >>= 1) {{{$}}
  // CHECK-NEXT: {{^}}    if (threadIdx.x < s){{$}}
  // CHECK-NEXT: {{^}}      d[threadIdx.x] = d[threadIdx.x] * d[threadIdx.x + s];{{$}}
#pragma unroll
  for (int s = 1; s < blockDim.x; s = s * 2) {
    if (!(threadIdx.x % (s * 2)))
      d[threadIdx.x] = d[threadIdx.x] * d[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = d[0];
}

void host(const float *x, float *y, const int *a, int *b, int n,
          int threads) {
  unrolled<<<n, 128>>>((const double *)x, (double *)y);
  modulo<<<n / 256, 256>>>(x, y);
  masked<<<n / threads, threads, threads * sizeof(int)>>>(a, b);
}
