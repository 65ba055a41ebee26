// warp-reduce(site): a shared-memory tree reduction stops at stride 64 and
// warp 0 takes the last steps with __shfl_down_sync, pairing the same
// elements in the same order as the tree.
// RUN: %clang-optiml --format-style=none %s --apply='warp-reduce(site=sum/for#0)' --apply='warp-reduce(site=maxr/for#0)' --apply='warp-reduce(site=minr/for#0)' --apply='warp-reduce(site=dsum/for#0)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: note
//
// A kernel launched only by its spec (callers elsewhere may use any block)
// tests the block at run time and keeps the tree for other blocks:
// RUN: %clang-optiml --format-style=none %s --apply='warp-reduce(site=marked/for#0)' -o %t.marked.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --check-prefix=MARKED --input-file=%t.marked.cu %s
// RUN: %nvcc -c %t.marked.cu -o %t.marked.o
// NOTE: clang-optiml: note: warp-reduce(site=marked/for#0): some blocks of 'marked' are not known here: the warp step runs for blocks (x, 1, 1) it suits, tested at run time, the original tree for others
//
// A row per block: whole blocks return early, the partial is carried in a
// register, and the array is read again once each thread stored its own
// element; the launch's block is a run-time value:
// RUN: %clang-optiml --format-style=none %s --apply='warp-reduce(site=rows/for#3)' --apply='warp-reduce(site=rows/for#1)' -o %t.rows.cu 2>&1 | %FileCheck --check-prefix=ROWNOTE %s
// RUN: %FileCheck --check-prefix=ROWS --input-file=%t.rows.cu %s
// RUN: %nvcc -c %t.rows.cu -o %t.rows.o
// ROWNOTE: note: warp-reduce(site=rows/for#1): some blocks of 'rows' are not known here
//
// After the run-time test, the tree kept for other blocks is not offered
// again:
// RUN: %clang-optiml --list-sites %t.marked.cu 2>&1 | %FileCheck --check-prefix=FALLBACK %s
// FALLBACK: warp-reduce marked/for#2 not-applicable: the loop is what runs where 'blockDim.x >= 32 && blockDim.y == 1 && blockDim.z == 1' fails, which warp-reduce would test again
//
// Once rewritten, the loop stops at 32 and is no tree down to 1 any more:
// RUN: not %clang-optiml --format-style=none %t.cu --apply='warp-reduce(site=sum/for#0)' 2>&1 | %FileCheck --check-prefix=AGAIN %s
// AGAIN: warp-reduce(site=sum/for#0) is not applicable: the condition of 'sum/for#0' is not 'stride > 0'
//
// It does not change numerics, and takes no parameters:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LIST %s
// LIST: {{^}}  warp-reduce   loop    end a shared-memory tree reduction with warp shuffles{{$}}
// LIST-NEXT: {{^}}  {{[a-z]}}

#include <cuda_runtime.h>

#define BLOCK 512

// The pattern of examples/block_sum.cu.
__global__ void sum(const float *in, float *out, int n) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  // CHECK: {{^}}  for (int stride = blockDim.x / 2; stride > 32; stride /= 2) {{{$}}
  // CHECK-NEXT: {{^}}    if (threadIdx.x < stride){{$}}
  // CHECK-NEXT: {{^}}      buf[threadIdx.x] += buf[threadIdx.x + stride];{{$}}
  // CHECK-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-NEXT: {{^}}  }{{$}}
  // CHECK-NEXT: {{^}}  if (threadIdx.x < 32) {{{$}}
  // CHECK-NEXT: {{^}}    float optiml_v = buf[threadIdx.x] + buf[threadIdx.x + 32];{{$}}
  // CHECK-NEXT: {{^}}    for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2){{$}}
  // CHECK-NEXT: {{^}}      optiml_v += __shfl_down_sync(0xffffffffu, optiml_v, optiml_o);{{$}}
  // CHECK-NEXT: {{^}}    if (threadIdx.x == 0){{$}}
  // CHECK-NEXT: {{^}}      buf[0] = optiml_v;{{$}}
  // CHECK-NEXT: {{^}}  }{{$}}
  // CHECK-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-NEXT: {{^}}  if (threadIdx.x == 0){{$}}
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

// A constant start, `>>= 1`, `>= 1`, the thread index in a variable, a max
// in braces, inside a block of its own.
__global__ void maxr(const float *in, float *out) {
  __shared__ float best[BLOCK];
  const int tid = threadIdx.x;
  best[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  {
    // CHECK: {{^}}    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {{{$}}
    // CHECK-NEXT: {{^}}      if (tid < s) {{{$}}
    // CHECK-NEXT: {{^}}        best[tid] = fmaxf(best[tid], best[tid + s]);{{$}}
    // CHECK-NEXT: {{^}}      }{{$}}
    // CHECK-NEXT: {{^}}      __syncthreads();{{$}}
    // CHECK-NEXT: {{^}}    }{{$}}
    // CHECK-NEXT: {{^}}    if (tid < 32) {{{$}}
    // CHECK-NEXT: {{^}}      float optiml_v = fmaxf(best[tid], best[tid + 32]);{{$}}
    // CHECK-NEXT: {{^}}      for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2){{$}}
    // CHECK-NEXT: {{^}}        optiml_v = fmaxf(optiml_v, __shfl_down_sync(0xffffffffu, optiml_v, optiml_o));{{$}}
    // CHECK-NEXT: {{^}}      if (tid == 0){{$}}
    // CHECK-NEXT: {{^}}        best[0] = optiml_v;{{$}}
    // CHECK-NEXT: {{^}}    }{{$}}
    // CHECK-NEXT: {{^}}    __syncthreads();{{$}}
    for (unsigned s = BLOCK / 2; s >= 1; s >>= 1) {
      if (tid < s) {
        best[tid] = fmaxf(best[tid], best[tid + s]);
      }
      __syncthreads();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = best[0];
}

// An int min with the partner first keeps that operand order.
__global__ void minr(const int *in, int *out) {
  __shared__ int m[64];
  m[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  // CHECK: {{^}}  for (int s = blockDim.x >> 1; s > 32; s = s / 2) {{{$}}
  // CHECK: {{^}}  if (threadIdx.x < 32) {{{$}}
  // CHECK-NEXT: {{^}}    int optiml_v = min(m[threadIdx.x + 32], m[threadIdx.x]);{{$}}
  // CHECK-NEXT: {{^}}    for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2){{$}}
  // CHECK-NEXT: {{^}}      optiml_v = min(__shfl_down_sync(0xffffffffu, optiml_v, optiml_o), optiml_v);{{$}}
  // CHECK-NEXT: {{^}}    if (threadIdx.x == 0){{$}}
  // CHECK-NEXT: {{^}}      m[0] = optiml_v;{{$}}
  for (int s = blockDim.x >> 1; 0 < s; s = s / 2) {
    if (s > threadIdx.x)
      m[threadIdx.x] = min(m[threadIdx.x + s], m[threadIdx.x]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = m[0];
}

// A double sum written out in full, on a loop that carries a pragma.
__global__ void dsum(const double *in, double *out) {
  __shared__ double acc[1024];
  acc[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  // CHECK: {{^}}#pragma unroll{{$}}
  // CHECK-NEXT: {{^}}  for (int s = blockDim.x / 2; s > 32; s /= 2) {{{$}}
  // CHECK: {{^}}  if (threadIdx.x < 32) {{{$}}
  // CHECK-NEXT: {{^}}    double optiml_v = acc[threadIdx.x] + acc[threadIdx.x + 32];{{$}}
  // CHECK-NEXT: {{^}}    for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2){{$}}
  // CHECK-NEXT: {{^}}      optiml_v = optiml_v + __shfl_down_sync(0xffffffffu, optiml_v, optiml_o);{{$}}
#pragma unroll
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      acc[threadIdx.x] = acc[threadIdx.x] + acc[s + threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc[0];
}

#pragma optiml kernel sizes(N = 1 << 20) in(in[N]) out(out[N / 128]) \
    grid(N / 128) block(128)
__global__ void marked(const float *in, float *out) {
  __shared__ float buf[128];
  buf[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  // MARKED: {{^}}  if (blockDim.x >= 32 && blockDim.y == 1 && blockDim.z == 1) {{{$}}
  // MARKED-NEXT: {{^}}    for (int s = 64; s > 32; s /= 2) {{{$}}
  // MARKED: {{^}}      float optiml_v = buf[threadIdx.x] + buf[threadIdx.x + 32];{{$}}
  // MARKED: {{^}}    __syncthreads();{{$}}
  // MARKED-NEXT: {{^}}  } else {{{$}}
  // MARKED-NEXT: {{^}}    for (int s = 64; s > 0; s /= 2) {{{$}}
  for (int s = 64; s > 0; s /= 2) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

__global__ void rows(const float *in, float *out, int nrows, int ncols) {
  __shared__ float part[1024];
  unsigned t = threadIdx.x;
  int row = blockIdx.x;
  if (row >= nrows)
    return;
  float v = 0.0f;
  for (int c = t; c < ncols; c += blockDim.x)
    v += in[row * ncols + c];
  part[t] = v;
  __syncthreads();
  // ROWS: {{^}}  if (blockDim.x >= 64 && (blockDim.x & (blockDim.x - 1)) == 0 && blockDim.y == 1 && blockDim.z == 1) {{{$}}
  // ROWS-NEXT: {{^}}    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {{{$}}
  // ROWS-NEXT: {{^}}      if (t < s){{$}}
  // ROWS-NEXT: {{^}}        part[t] = v = v + part[t + s];{{$}}
  // ROWS-NEXT: {{^}}      __syncthreads();{{$}}
  // ROWS-NEXT: {{^}}    }{{$}}
  // ROWS-NEXT: {{^}}    if (t < 32) {{{$}}
  // ROWS-NEXT: {{^}}      float optiml_v = v + part[t + 32];{{$}}
  // ROWS-NEXT: {{^}}      for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2){{$}}
  // ROWS-NEXT: {{^}}        optiml_v = optiml_v + __shfl_down_sync(0xffffffffu, optiml_v, optiml_o);{{$}}
  // ROWS-NEXT: {{^}}      if (t == 0) {{{$}}
  // ROWS-NEXT: {{^}}        part[0] = optiml_v;{{$}}
  // ROWS-NEXT: {{^}}        v = optiml_v;{{$}}
  // ROWS-NEXT: {{^}}      }{{$}}
  // ROWS-NEXT: {{^}}    }{{$}}
  // ROWS-NEXT: {{^}}    __syncthreads();{{$}}
  // ROWS-NEXT: {{^}}  } else {{{$}}
  // ROWS-NEXT: {{^}}    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {{{$}}
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      part[t] = v = v + part[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[row] = v;
  float mean = part[0] / ncols;
  __syncthreads();
  float d = 0.0f;
  for (int c = t; c < ncols; c += blockDim.x)
    d = fmaxf(d, fabsf(in[row * ncols + c] - mean));
  part[t] = d;
  __syncthreads();
  // ROWS: {{^}}    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {{{$}}
  // ROWS: {{^}}        part[0] = optiml_v;{{$}}
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      part[t] = fmaxf(part[t], part[t + s]);
    __syncthreads();
  }
  if (t == 0)
    out[nrows + row] = part[0];
}

void host(const float *x, float *y, const int *a, int *b, const double *c,
          double *d, int n, int threads) {
  rows<<<n, threads>>>(x, y, n, 1000);
  sum<<<(n + 255) / 256, 256>>>(x, y, n);
  dim3 block(BLOCK);
  maxr<<<n / BLOCK, block>>>(x, y);
  minr<<<n / 64, 64>>>(a, b);
  dsum<<<n / 1024, 1024>>>(c, d);
  dsum<<<n / 128, dim3(128, 1, 1)>>>(c, d);
}
