// warp-reduce(site) is refused, with the reason: not applicable where the
// loop is not a halving tree reduction it can finish with shuffles, illegal
// where the rewrite could change what the kernel computes.
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#0)' 2>&1 | %FileCheck --check-prefix=COUNT %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#1)' 2>&1 | %FileCheck --check-prefix=COND %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#2)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#3)' 2>&1 | %FileCheck --check-prefix=START %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#4)' 2>&1 | %FileCheck --check-prefix=SMALL %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#5)' 2>&1 | %FileCheck --check-prefix=ODD %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#6)' 2>&1 | %FileCheck --check-prefix=BODY %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#7)' 2>&1 | %FileCheck --check-prefix=GUARD %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#8)' 2>&1 | %FileCheck --check-prefix=UPDATE %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#9)' 2>&1 | %FileCheck --check-prefix=LOCAL %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=shapes/for#10)' 2>&1 | %FileCheck --check-prefix=SHORT %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=global_buf/for#0)' 2>&1 | %FileCheck --check-prefix=GLOBAL %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=reads_more/for#0)' 2>&1 | %FileCheck --check-prefix=READ %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=writes_after/for#0)' 2>&1 | %FileCheck --check-prefix=UPDATE_AFTER %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=escapes/for#0)' 2>&1 | %FileCheck --check-prefix=ADDRESS_OF %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=passes/for#0)' 2>&1 | %FileCheck --check-prefix=ESCAPE %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=nested/for#0)' 2>&1 | %FileCheck --check-prefix=NESTED %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=early_exit/for#0)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=small_block/for#0)' 2>&1 | %FileCheck --check-prefix=BLOCK32 %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=odd_block/for#0)' 2>&1 | %FileCheck --check-prefix=BLOCK96 %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=two_d/for#0)' 2>&1 | %FileCheck --check-prefix=BLOCK2D %s
// Blocks unknown here (a run-time block, a launch through the kernel's
// address, no launch in the file) are tested at run time instead:
// RUN: %clang-optiml %s --list-sites 2>&1 | %FileCheck --check-prefix=TESTED %s
// TESTED-DAG: warp-reduce runtime_block/for#0 legal: {{.*}}tested at run time
// TESTED-DAG: warp-reduce by_address/for#0 legal: {{.*}}tested at run time
// TESTED-DAG: warp-reduce unlaunched/for#0 legal: {{.*}}tested at run time
//
// A read of another element is fine once every thread stored its own
// element again, not before:
// RUN: %clang-optiml %s --list-sites 2>&1 | %FileCheck --check-prefix=RESTORED %s
// RESTORED: warp-reduce restored/for#0 legal
// RUN: not %clang-optiml %s --apply='warp-reduce(site=partly_restored/for#0)' 2>&1 | %FileCheck --check-prefix=PARTLY %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=carried_out/for#0)' 2>&1 | %FileCheck --check-prefix=CARRIED %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=mark_small/for#0)' 2>&1 | %FileCheck --check-prefix=MARK32 %s
// RUN: not %clang-optiml %s --apply='warp-reduce(site=mark_symbolic/for#0)' 2>&1 | %FileCheck --check-prefix=MARKSYM %s

#include <cuda_runtime.h>

#define TREE(buf, s)                                                          \
  if (threadIdx.x < s)                                                         \
    buf[threadIdx.x] += buf[threadIdx.x + s];                                  \
  __syncthreads();

// GLOBAL: :[[@LINE+1]]:18: warp-reduce(site=global_buf/for#0) is illegal: 'shared_sums' is declared outside 'global_buf', so code elsewhere may read the elements the warp step leaves behind
__shared__ float shared_sums[256];

__global__ void shapes(float *out, int n) {
  __shared__ float buf[256];
  // SHORT: :[[@LINE+1]]:20: warp-reduce(site=shapes/for#10) is not applicable: elements of type 'short' cannot be exchanged by __shfl_down_sync (int, unsigned, long, long long, float or double only)
  __shared__ short small[256];
  // LOCAL: :[[@LINE+1]]:9: warp-reduce(site=shapes/for#9) is not applicable: 'local' is not a __shared__ array
  float local[256];
  int t = threadIdx.x;
  // WHILE: :[[@LINE+1]]:3: warp-reduce(site=shapes/while#0) is not applicable: 'shapes/while#0' is not a for-loop; warp-reduce acts on a for-loop tree reduction
  while (t < n)
    t += 256;
  // COUNT: :[[@LINE+1]]:19: warp-reduce(site=shapes/for#0) is not applicable: the condition of 'shapes/for#0' is not 'i > 0'
  for (int i = 0; i < n; ++i)
    buf[i % 256] = 0;
  // COND: :[[@LINE+1]]:32: warp-reduce(site=shapes/for#1) is not applicable: the condition of 'shapes/for#1' is not 's > 0'
  for (int s = blockDim.x / 2; s > 1; s /= 2) {
    TREE(buf, s)
  }
  // STEP: :[[@LINE+1]]:39: warp-reduce(site=shapes/for#2) is not applicable: the step of 'shapes/for#2' is not 's /= 2' or 's >>= 1'
  for (int s = blockDim.x / 2; s > 0; s -= 1) {
    TREE(buf, s)
  }
  // START: :[[@LINE+1]]:16: warp-reduce(site=shapes/for#3) is not applicable: the stride starts at 'n / 2', neither blockDim.x / 2 nor a constant
  for (int s = n / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  // SMALL: :[[@LINE+1]]:16: warp-reduce(site=shapes/for#4) is not applicable: the stride starts at 16, below a warp's 32: no step is left for warp shuffles to take over
  for (int s = 16; s > 0; s /= 2) {
    TREE(buf, s)
  }
  // ODD: :[[@LINE+1]]:16: warp-reduce(site=shapes/for#5) is illegal: the stride starts at 96, not a power of two, so the tree does not halve down to a warp's 32
  for (int s = 96; s > 0; s /= 2) {
    TREE(buf, s)
  }
  // BODY: :[[@LINE+1]]:47: warp-reduce(site=shapes/for#6) is not applicable: the body of 'shapes/for#6' is not '{ if (threadIdx.x < s) STEP; __syncthreads(); }'
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
  }
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    // GUARD: :[[@LINE+1]]:9: warp-reduce(site=shapes/for#7) is not applicable: the guard is not 'threadIdx.x < s' (or a variable holding threadIdx.x): the reduction must run along x
    if (threadIdx.y < s)
      buf[threadIdx.y] += buf[threadIdx.y + s];
    __syncthreads();
  }
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      // UPDATE: :[[@LINE+1]]:7: warp-reduce(site=shapes/for#8) is not applicable: the step is not 'buf[t] += buf[t + s]' (or *=, &=, |=, ^=), 'buf[t] = buf[t] + buf[t + s]', 'buf[t] = fmaxf(buf[t], buf[t + s])' (max, min, fminf, fmax, fmin) or 'buf[t] = v = v + buf[t + s]'
      buf[threadIdx.x] -= buf[threadIdx.x + s];
    __syncthreads();
  }
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(local, s)
  }
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(small, s)
  }
  out[0] = buf[0] + local[0] + small[0];
}

__global__ void global_buf(float *out) {
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(shared_sums, s)
  }
  out[blockIdx.x] = shared_sums[0];
}

__global__ void reads_more(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  // READ: :[[@LINE+1]]:30: warp-reduce(site=reads_more/for#0) is illegal: 'buf[1]' is read after the loop, but after warp-reduce only buf[0] holds the tree's result
  out[blockIdx.x] = buf[0] + buf[1];
}

__global__ void writes_after(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  // Stores to any element, and updates of buf[0], read nothing left behind.
  buf[threadIdx.x + 1] = 0.0f;
  buf[0] += 1.0f;
  // UPDATE_AFTER: :[[@LINE+1]]:3: warp-reduce(site=writes_after/for#0) is illegal: 'buf[threadIdx.x]' is read after the loop, but after warp-reduce only buf[0] holds the tree's result
  buf[threadIdx.x] *= 2.0f;
  out[blockIdx.x] = buf[0];
}

__device__ float first(const float *p) { return p[0]; }

__global__ void escapes(float *out) {
  __shared__ float buf[256];
  // ADDRESS_OF: :[[@LINE+1]]:15: warp-reduce(site=escapes/for#0) is illegal: 'buf[0]' is neither read nor assigned here, so the elements the warp step leaves behind may be read through it
  float *p = &buf[0];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = p[1];
}

__global__ void passes(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  // ESCAPE: :[[@LINE+1]]:27: warp-reduce(site=passes/for#0) is illegal: 'buf' is used here other than as 'buf[i]', so the elements the warp step leaves behind may be read
  out[blockIdx.x] = first(buf);
}

__global__ void nested(float *out, int n) {
  __shared__ float buf[256];
  if (threadIdx.x < n) {
    // NESTED: :[[@LINE+1]]:5: warp-reduce(site=nested/for#0) is illegal: the loop is nested in another loop or in a condition that threads of a block may answer differently, so warp 0 may reach the shuffles with threads missing
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
      TREE(buf, s)
    }
  }
  out[blockIdx.x] = buf[0];
}

__global__ void early_exit(float *out, int n) {
  __shared__ float buf[256];
  if (blockIdx.x * blockDim.x + threadIdx.x >= n)
    // RETURN: :[[@LINE+1]]:5: warp-reduce(site=early_exit/for#0) is illegal: threads may return here, before the reduction, and others not, so warp 0 may reach the shuffles with threads missing
    return;
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void small_block(float *out) {
  __shared__ float buf[32];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void odd_block(float *out) {
  __shared__ float buf[96];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void two_d(float *out) {
  __shared__ float buf[64];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void runtime_block(float *out) {
  __shared__ float buf[1024];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void by_address(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void unlaunched(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

// MARK32: :[[@LINE+1]]:1: warp-reduce(site=mark_small/for#0) is illegal: the #pragma optiml mark launches a block of (32, 1, 1); warp-reduce needs (x, 1, 1) with x a power of two from 64 to 1024
#pragma optiml kernel sizes(N = 1024) out(out[N / 32]) grid(N / 32) block(32)
__global__ void mark_small(float *out) {
  __shared__ float buf[32];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

// MARKSYM: :[[@LINE+1]]:1: warp-reduce(site=mark_symbolic/for#0) is illegal: the block(...) of the #pragma optiml mark is not made of integer literals, so the block the spec launches is unknown
#pragma optiml kernel sizes(N = 1024, B = 128) out(out[N / B]) grid(N / B) block(B)
__global__ void mark_symbolic(float *out) {
  __shared__ float buf[128];
  for (int s = 64; s > 0; s /= 2) {
    TREE(buf, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void restored(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  float total = buf[0];
  __syncthreads();
  buf[threadIdx.x] = total;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x];
}

__global__ void partly_restored(float *out) {
  __shared__ float buf[256];
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    TREE(buf, s)
  }
  if (threadIdx.x > 31)
    buf[threadIdx.x] = 0.0f;
  __syncthreads();
  // PARTLY: :[[@LINE+1]]:41: warp-reduce(site=partly_restored/for#0) is illegal: 'buf[255 - threadIdx.x]' is read after the loop, but after warp-reduce only buf[0] holds the tree's result
  out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x];
}

__global__ void carried_out(const float *in, float *out) {
  __shared__ float buf[256];
  float v = in[threadIdx.x];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      buf[threadIdx.x] = v = v + buf[threadIdx.x + s];
    __syncthreads();
  }
  // CARRIED: :[[@LINE+1]]:22: warp-reduce(site=carried_out/for#0) is illegal: 'v' is used after the loop outside 'if (threadIdx.x == 0)', but after warp-reduce only thread 0 holds the tree's partial in it
  out[threadIdx.x] = v;
}

void host(float *out, int threads, cudaStream_t stream) {
  restored<<<1, 256>>>(out);
  partly_restored<<<1, 256>>>(out);
  carried_out<<<1, 256>>>(out, out);
  shapes<<<1, 256>>>(out, 256);
  global_buf<<<1, 256>>>(out);
  reads_more<<<1, 256>>>(out);
  writes_after<<<1, 256>>>(out);
  escapes<<<1, 256>>>(out);
  passes<<<1, 256>>>(out);
  nested<<<1, 256>>>(out, 1);
  early_exit<<<1, 256>>>(out, 256);
  // BLOCK32: :[[@LINE+1]]:20: warp-reduce(site=small_block/for#0) is illegal: this launch uses a block of (32, 1, 1); warp-reduce needs (x, 1, 1) with x a power of two from 64 to 1024
  small_block<<<1, 32>>>(out);
  odd_block<<<1, 64>>>(out);
  // BLOCK96: :[[@LINE+1]]:18: warp-reduce(site=odd_block/for#0) is illegal: this launch uses a block of (96, 1, 1); warp-reduce needs (x, 1, 1) with x a power of two from 64 to 1024
  odd_block<<<1, 96>>>(out);
  // BLOCK2D: :[[@LINE+1]]:14: warp-reduce(site=two_d/for#0) is illegal: this launch uses a block of (64, 2, 1); warp-reduce needs (x, 1, 1) with x a power of two from 64 to 1024
  two_d<<<1, dim3(64, 2)>>>(out);
  runtime_block<<<1, threads>>>(out);
  by_address<<<1, 256>>>(out);
  void *args[] = {&out};
  cudaLaunchKernel((const void *)by_address, 1, 256, args, 0, stream);
}
