// sequential-reduce(site) is refused, with the reason: not applicable where
// the loop is not an interleaved tree over the block, illegal where the
// halving tree could leave other results behind.
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=shapes/for#0)' 2>&1 | %FileCheck --check-prefix=FROM %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=shapes/for#1)' 2>&1 | %FileCheck --check-prefix=BOUND %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=shapes/for#2)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=shapes/for#3)' 2>&1 | %FileCheck --check-prefix=GUARD %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=shapes/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=reads_more/for#0)' 2>&1 | %FileCheck --check-prefix=READ %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=odd_block/for#0)' 2>&1 | %FileCheck --check-prefix=BLOCK96 %s
// RUN: not %clang-optiml %s --apply='sequential-reduce(site=two_names/for#0)' 2>&1 | %FileCheck --check-prefix=ALIAS %s

#include <cuda_runtime.h>

#define STEP(buf, t, s)                                                        \
  if ((t) % (2 * (s)) == 0)                                                    \
    buf[t] += buf[(t) + (s)];                                                  \
  __syncthreads();

__global__ void shapes(float *out, int n) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  // FROM: :[[@LINE+1]]:3: sequential-reduce(site=shapes/for#0) is not applicable: 'shapes/for#0' does not declare a stride from 1 as in 'for (int s = 1; s < blockDim.x; s *= 2)'
  for (unsigned s = 2; s < blockDim.x; s *= 2) {
    STEP(buf, t, s)
  }
  // BOUND: :[[@LINE+1]]:3: sequential-reduce(site=shapes/for#1) is not applicable: the condition of 'shapes/for#1' is not 's < blockDim.x'
  for (unsigned s = 1; s < 128; s *= 2) {
    STEP(buf, t, s)
  }
  // STEP: :[[@LINE+1]]:40: sequential-reduce(site=shapes/for#2) is not applicable: the step of 'shapes/for#2' is not 's *= 2' or 's <<= 1'
  for (unsigned s = 1; s < blockDim.x; s += 2) {
    STEP(buf, t, s)
  }
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    // GUARD: :[[@LINE+1]]:9: sequential-reduce(site=shapes/for#3) is not applicable: the guard is not 't % (2 * s) == 0' with t threadIdx.x (or a variable holding it)
    if (t % s == 0)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  // WHILE: :[[@LINE+1]]:3: sequential-reduce(site=shapes/while#0) is not applicable: 'shapes/while#0' is not a for-loop; sequential-reduce acts on a for-loop tree reduction
  while (n > 1)
    n /= 2;
  out[blockIdx.x] = buf[0] + n;
}

__global__ void reads_more(float *out) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    STEP(buf, t, s)
  }
  // READ: :[[@LINE+1]]:30: sequential-reduce(site=reads_more/for#0) is illegal: 'buf[128]' is read after the loop, but after sequential-reduce only buf[0] holds the tree's result
  out[blockIdx.x] = buf[0] + buf[128];
}

__global__ void odd_block(float *out) {
  __shared__ float buf[96];
  unsigned t = threadIdx.x;
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    STEP(buf, t, s)
  }
  out[blockIdx.x] = buf[0];
}

__global__ void two_names(float *out) {
  extern __shared__ float sums[];
  extern __shared__ int counts[];
  unsigned t = threadIdx.x;
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    STEP(sums, t, s)
  }
  // ALIAS: :[[@LINE+1]]:31: sequential-reduce(site=two_names/for#0) is illegal: 'counts' shares the dynamic shared memory of 'sums', so the elements the halving tree leaves behind may be read through it
  out[blockIdx.x] = sums[0] + counts[1];
}

void host(float *out) {
  shapes<<<1, 256>>>(out, 256);
  reads_more<<<1, 256>>>(out);
  // BLOCK96: :[[@LINE+1]]:18: sequential-reduce(site=odd_block/for#0) is illegal: this launch uses a block of (96, 1, 1); sequential-reduce needs (x, 1, 1) with x a power of two from 2 to 1024
  odd_block<<<1, 96>>>(out);
  two_names<<<1, 256, 1024>>>(out);
}
