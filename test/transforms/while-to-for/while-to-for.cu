// while-to-for(site): a while-loop whose body ends by stepping the variable
// its condition reads becomes the same for-loop, so that loop transforms
// take it. The counter's declaration moves into the for-init when nothing
// else reads it and its value is fixed for the thread.
// RUN: %clang-optiml --format-style=none %s --apply='while-to-for(site=dot/while#0)' --apply='while-to-for(site=kept/while#0)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// The grid-stride for-loop is one explicit unrolling takes, the halving
// one a tree warp-reduce finishes:
// RUN: %clang-optiml --list-sites %t.cu 2>&1 | %FileCheck --check-prefix=AFTER %s
// AFTER: unroll dot/for#0 legal: --apply='unroll(site=dot/for#0,factor=4,mode=explicit)'
// RUN: %clang-optiml --format-style=none %s --apply='while-to-for(site=dot/while#1)' -o %t.tree.cu
// RUN: %clang-optiml --list-sites %t.tree.cu 2>&1 | %FileCheck --check-prefix=TREE %s
// TREE: warp-reduce dot/for#0 legal
//
// The chain strided-batches writes every counted while-loop as a for-loop
// (each rewrite renames the later ones: dot/while#1 becomes dot/while#0),
// then unrolls the grid-stride one:
// RUN: %clang-optiml --format-style=none %s --apply='chain:strided-batches(site=dot,factor=2)' -o %t.chain.cu 2>&1 | %FileCheck --check-prefix=CHAIN %s
// RUN: %nvcc -c %t.chain.cu -o %t.chain.o
// CHAIN: chain:strided-batches(site=dot,factor=2) applied: while-to-for(site=dot/while#0); while-to-for(site=dot/while#0); unroll(site=dot/for#0,factor=2,mode=explicit)
//
// Refusals:
// RUN: not %clang-optiml %s --apply='while-to-for(site=refused/while#0)' 2>&1 | %FileCheck --check-prefix=CONTINUE %s
// RUN: not %clang-optiml %s --apply='while-to-for(site=refused/while#1)' 2>&1 | %FileCheck --check-prefix=LAST %s
// RUN: not %clang-optiml %s --apply='while-to-for(site=refused/while#2)' 2>&1 | %FileCheck --check-prefix=COND %s
// RUN: not %clang-optiml %s --apply='while-to-for(site=refused/do#0)' 2>&1 | %FileCheck --check-prefix=DO %s
// RUN: not %clang-optiml %s --apply='while-to-for(site=refused/for#0)' 2>&1 | %FileCheck --check-prefix=FOR %s

#include <cuda_runtime.h>

__global__ void dot(const float *a, const float *b, float *c, int n) {
  __shared__ float cache[256];
  // CHECK-LABEL: void dot(
  // CHECK-NOT: {{^}}  int tid =
  // CHECK: {{^}}  for (int tid = threadIdx.x + blockIdx.x * blockDim.x; tid < n; tid += blockDim.x * gridDim.x) {{{$}}
  // CHECK-NEXT: {{^}}    temp += a[tid] * b[tid];{{$}}
  // CHECK-NEXT: {{^}}  }{{$}}
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;
  float temp = 0;
  while (tid < n) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[cacheIndex] = temp;
  __syncthreads();
  int i = blockDim.x / 2;
  while (i != 0) {
    if (cacheIndex < i)
      cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
    i /= 2;
  }
  if (cacheIndex == 0)
    c[blockIdx.x] = cache[0];
}

// The counter is read after the loop: its declaration stays, the init is
// empty.
__global__ void kept(const int *in, int *out, int n) {
  // CHECK-LABEL: void kept(
  // CHECK: {{^}}  int i = threadIdx.x;{{$}}
  // CHECK-NEXT: {{^}}  int sum = 0;{{$}}
  // CHECK-NEXT: {{^}}  for (; i < n; i = i + blockDim.x) {{{$}}
  // CHECK-NEXT: {{^}}    if (in[i] < 0){{$}}
  // CHECK-NEXT: {{^}}      break;{{$}}
  // CHECK-NEXT: {{^}}    sum += in[i];{{$}}
  // CHECK-NEXT: {{^}}  }{{$}}
  int i = threadIdx.x;
  int sum = 0;
  while (i < n) {
    if (in[i] < 0)
      break;
    sum += in[i];
    i = i + blockDim.x;
  }
  out[threadIdx.x] = sum + i;
}

__global__ void refused(int *p, int n) {
  int i = threadIdx.x;
  while (i < n) {
    if (p[i] == 0) {
      i += 32;
      // CONTINUE: :[[@LINE+1]]:7: while-to-for(site=refused/while#0) is illegal: 'continue' here skips the step 'i += 32', which a for-loop would run
      continue;
    }
    p[i] = 1;
    i += 32;
  }
  // LAST: :[[@LINE+1]]:3: while-to-for(site=refused/while#1) is not applicable: the body of 'refused/while#1' does not end by stepping a variable ('i += s;', '++i;', ...)
  while (n > 0) {
    n /= 2;
    p[n] = 0;
  }
  int j = 0;
  // COND: :[[@LINE+1]]:10: while-to-for(site=refused/while#2) is not applicable: the condition does not read 'j', which the body steps last
  while (n < 4) {
    p[j] = n;
    ++j;
  }
  // DO: :[[@LINE+1]]:3: while-to-for(site=refused/do#0) is not applicable: 'refused/do#0' is not a while-loop
  do {
    ++j;
  } while (j < n);
  // FOR: :[[@LINE+1]]:3: while-to-for(site=refused/for#0) is not applicable: 'refused/for#0' is not a while-loop
  for (int k = 0; k < n; ++k)
    p[k] = 0;
}

void host(const float *a, const float *b, float *c, int n) {
  dot<<<1024, 256>>>(a, b, c, n);
}
