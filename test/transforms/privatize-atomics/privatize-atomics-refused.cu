// privatize-atomics(site) is refused, with the reason, where a block's
// private copy could not give the same counts or could not be merged.
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=unbounded/bins)' 2>&1 | %FileCheck --check-prefix=UNBOUNDED %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=negative/bins)' 2>&1 | %FileCheck --check-prefix=NEGATIVE %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=read/bins)' 2>&1 | %FileCheck --check-prefix=READ %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=ticket/bins)' 2>&1 | %FileCheck --check-prefix=USED %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=early/bins)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=floats/bins)' 2>&1 | %FileCheck --check-prefix=FLOAT %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=large/bins)' 2>&1 | %FileCheck --check-prefix=LARGE %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=none/bins)' 2>&1 | %FileCheck --check-prefix=NONE %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=assigned_twice/bins)' 2>&1 | %FileCheck --check-prefix=TWICE %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=varying_bound/bins)' 2>&1 | %FileCheck --check-prefix=VARYING %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=nested_return/bins)' 2>&1 | %FileCheck --check-prefix=NESTED %s
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=unbounded/for#0/bins)' 2>&1 | %FileCheck --check-prefix=LOOP %s

#include <cuda_runtime.h>

// LOOP: privatize-atomics(site=unbounded/for#0/bins) is not applicable: privatize-atomics takes a buffer of the whole kernel ('unbounded/BUFFER')
__global__ void unbounded(const int *keys, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += blockDim.x * gridDim.x)
    // UNBOUNDED: :[[@LINE+1]]:21: privatize-atomics(site=unbounded/bins) is not applicable: the index 'keys[i]' is not provably within [0, C) for a constant C
    atomicAdd(&bins[keys[i]], 1u);
}

__global__ void negative(const int *keys, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // NEGATIVE: :[[@LINE+1]]:19: privatize-atomics(site=negative/bins) is not applicable: the index 'keys[i] % 16'
  atomicAdd(&bins[keys[i] % 16], 1u);
}

__global__ void read(const unsigned char *data, unsigned *bins, unsigned *out) {
  atomicAdd(&bins[data[threadIdx.x]], 1u);
  // READ: :[[@LINE+1]]:12: privatize-atomics(site=read/bins) is not applicable: 'bins' is used here other than as the address of an atomicAdd
  out[0] = bins[0];
}

__global__ void ticket(const unsigned char *data, unsigned *bins, unsigned *out) {
  // USED: :[[@LINE+1]]:22: privatize-atomics(site=ticket/bins) is illegal: the value this atomicAdd returns (the bin's old count) is used
  out[threadIdx.x] = atomicAdd(&bins[data[threadIdx.x]], 1u);
}

// A return in the last statement cannot become a guard of what follows it
// (top-level `if (...) return;` before it can: privatize-atomics.cu).
__global__ void early(const unsigned char *data, unsigned *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;;
       i += blockDim.x * gridDim.x) {
    if (i >= n)
      // RETURN: :[[@LINE+1]]:7: privatize-atomics(site=early/bins) is illegal: a thread that returns here would not reach the barrier
      return;
    atomicAdd(&bins[data[i]], 1u);
  }
}

// FLOAT: :[[@LINE+1]]:58: privatize-atomics(site=floats/bins) is not applicable: 'bins' does not point to int, unsigned or unsigned long long counts
__global__ void floats(const unsigned char *data, float *bins) {
  atomicAdd(&bins[data[threadIdx.x]], 1.0f);
}

// LARGE: :[[@LINE+1]]:61: privatize-atomics(site=large/bins) is not applicable: 65536 bins take 262144 bytes; with the 0 bytes of __shared__ the kernel declares, over the 48 KiB a block may declare
__global__ void large(const unsigned short *data, unsigned *bins) {
  atomicAdd(&bins[data[threadIdx.x]], 1u);
}

// NONE: :[[@LINE+1]]:41: privatize-atomics(site=none/bins) is not applicable: 'bins' is not the address of any atomicAdd
__global__ void none(const int *x, int *bins) { bins[threadIdx.x] = x[0]; }

// A bin assigned twice has no single value to bound.
__global__ void assigned_twice(const int *keys, unsigned *bins, int nbins) {
  int b = keys[threadIdx.x];
  b = min(max(b, 0), nbins - 1);
  if (b > 3)
    b = keys[0];
  // TWICE: :[[@LINE+1]]:19: privatize-atomics(site=assigned_twice/bins) is not applicable: the index 'b' is not provably within [0, C)
  atomicAdd(&bins[b], 1u);
}

// A bound that changes along the kernel is not one count for the block.
__global__ void varying_bound(const int *keys, unsigned *bins, int nbins) {
  nbins = nbins - threadIdx.x;
  // VARYING: :[[@LINE+1]]:19: privatize-atomics(site=varying_bound/bins) is not applicable: the index 'min(max(keys[threadIdx.x], 0), nbins - 1)' is not provably within [0, C)
  atomicAdd(&bins[min(max(keys[threadIdx.x], 0), nbins - 1)], 1u);
}

// A return nested in an earlier statement leaves threads out as well.
__global__ void nested_return(const unsigned char *data, unsigned *bins,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (data[i] == 0)
      // NESTED: :[[@LINE+1]]:7: privatize-atomics(site=nested_return/bins) is illegal: this return may leave some threads out of the barriers the rewrite adds; only top-level 'if (...) return;' can be turned into guards
      return;
    atomicAdd(&bins[data[i]], 1u);
  }
  atomicAdd(&bins[0], 1u);
}
