// aggregate-atomics(site) is refused where one atomic per warp would not
// add the same amounts to the same places, with the reason.
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=per_thread)' 2>&1 | %FileCheck --check-prefix=VARIES %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=own)' 2>&1 | %FileCheck --check-prefix=OWN %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=counter)' 2>&1 | %FileCheck --check-prefix=LOOP %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=ticket)' 2>&1 | %FileCheck --check-prefix=USED %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=wide)' 2>&1 | %FileCheck --check-prefix=TYPE %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=effects)' 2>&1 | %FileCheck --check-prefix=EFFECTS %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=through_call)' 2>&1 | %FileCheck --check-prefix=CALL %s
// RUN: not %clang-optiml %s --apply='aggregate-atomics(site=none)' 2>&1 | %FileCheck --check-prefix=NONE %s

#include <cuda_runtime.h>

__device__ int pick(int b) { return b; }

__global__ void per_thread(const int *data, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // VARIES: :[[@LINE+1]]:24: aggregate-atomics(site=per_thread) is not applicable: the address '&bins[data[i]]' may differ between the lanes of a warp ('i' does)
  atomicAdd(&bins[data[i]], 1u);
}

__global__ void own(float *out) {
  float mine = 0;
  // OWN: :[[@LINE+1]]:14: aggregate-atomics(site=own) is not applicable: the address '&mine' may differ between the lanes of a warp ('mine' does)
  atomicAdd(&mine, 1.0f);
  out[threadIdx.x] = mine;
}

__global__ void counter(float *out, int n) {
  for (int k = 0; k < n; ++k)
    // LOOP: :[[@LINE+1]]:21: aggregate-atomics(site=counter) is not applicable: the address 'out + k' may differ between the lanes of a warp ('k' does)
    atomicAdd(out + k, 1.0f);
}

__global__ void ticket(int *next, int *slots) {
  // USED: :[[@LINE+1]]:14: aggregate-atomics(site=ticket) is illegal: the value this atomicAdd returns (each thread's old value) is used, which one atomic per warp cannot give
  int slot = atomicAdd(next, 1);
  slots[slot] = threadIdx.x;
}

__global__ void wide(unsigned long long *total) {
  // TYPE: :[[@LINE+1]]:3: aggregate-atomics(site=wide) is not applicable: this atomicAdd adds 'unsigned long long': the warp sum shuffles int, unsigned, float or double only
  atomicAdd(total, 1ull);
}

__global__ void effects(float *out, int *cursor) {
  int k = 0;
  // EFFECTS: :[[@LINE+1]]:13: aggregate-atomics(site=effects) is illegal: the address has side effects, and only one lane would evaluate it
  atomicAdd(out + k++, 1.0f);
}

__global__ void through_call(float *out) {
  // A call may do anything, and only the lowest lane would make it.
  // CALL: :[[@LINE+1]]:13: aggregate-atomics(site=through_call) is illegal: the address has side effects, and only one lane would evaluate it
  atomicAdd(&out[pick(blockIdx.x)], 1.0f);
}

// NONE: :[[@LINE+1]]:17: aggregate-atomics(site=none) is not applicable: 'none' calls no atomicAdd
__global__ void none(float *out) { out[threadIdx.x] = 0; }
