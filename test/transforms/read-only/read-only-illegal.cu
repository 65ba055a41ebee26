// read-only(site) is refused where a load through the read-only path could
// see stale data or where __ldg cannot load the element, with the reason
// at the place that decides it.
// RUN: not %clang-optiml %s --apply='read-only(site=stored/x)' 2>&1 | %FileCheck --check-prefix=STORED %s
// RUN: not %clang-optiml %s --apply='read-only(site=derived/x)' 2>&1 | %FileCheck --check-prefix=DERIVED %s
// RUN: not %clang-optiml %s --apply='read-only(site=atomic/x)' 2>&1 | %FileCheck --check-prefix=ATOMIC %s
// RUN: not %clang-optiml %s --apply='read-only(site=escapes/x)' 2>&1 | %FileCheck --check-prefix=ESCAPES %s
// RUN: not %clang-optiml %s --apply='read-only(site=same/x)' 2>&1 | %FileCheck --check-prefix=SAME %s
// RUN: not %clang-optiml %s --apply='read-only(site=global/x)' 2>&1 | %FileCheck --check-prefix=GLOBAL %s
// RUN: not %clang-optiml %s --apply='read-only(site=moved/x)' 2>&1 | %FileCheck --check-prefix=MOVED %s
// RUN: not %clang-optiml %s --apply='read-only(site=shaky/x)' 2>&1 | %FileCheck --check-prefix=VOLATILE %s
// RUN: not %clang-optiml %s --apply='read-only(site=records/p)' 2>&1 | %FileCheck --check-prefix=RECORD %s
// RUN: not %clang-optiml %s --apply='read-only(site=table/t)' 2>&1 | %FileCheck --check-prefix=POINTERS %s
// RUN: not %clang-optiml %s --apply='read-only(site=generic/x)' 2>&1 | %FileCheck --check-prefix=TEMPLATE %s
// RUN: not %clang-optiml %s --apply='read-only(site=of_records/x)' 2>&1 | %FileCheck --check-prefix=TRECORD %s
// RUN: not %clang-optiml %s --apply='read-only(site=done/x)' 2>&1 | %FileCheck --check-prefix=DONE %s
// RUN: not %clang-optiml %s --apply='read-only(site=done/for#0/x)' 2>&1 | %FileCheck --check-prefix=LOOP %s

#include <cuda_runtime.h>

__device__ void helper(const float *p, int i) { ((float *)p)[i] = 0.0f; }
__device__ float *scratch;
struct Pair { float a, b; };

__global__ void stored(float *x) {
  // STORED: :[[@LINE+1]]:3: read-only(site=stored/x) is illegal: 'x' is written here: the read-only path may return stale data
  x[threadIdx.x] = 1.0f;
}

__global__ void derived(float *x, float *y) {
  float *row = x + blockIdx.x;
  y[0] = x[0];
  // DERIVED: :[[@LINE+1]]:3: read-only(site=derived/x) is illegal: 'x' is written here: the read-only path may return stale data
  row[threadIdx.x]++;
}

__global__ void atomic(float *x, float *y) {
  y[0] = x[1];
  // ATOMIC: :[[@LINE+1]]:14: read-only(site=atomic/x) is illegal: 'x' is passed to 'atomicAdd', which may write through it: the read-only path may return stale data
  atomicAdd(&x[0], 1.0f);
}

// A helper that takes a pointer to const may still cast it away (this one
// does; one that does not only reads).
__global__ void escapes(const float *x, float *y) {
  y[0] = x[0];
  // ESCAPES: :[[@LINE+1]]:10: read-only(site=escapes/x) is illegal: 'x' is passed to 'helper', which may write through it: the read-only path may return stale data
  helper(x, 0);
}

__global__ void same(const float *x, float *y) { y[0] = x[0]; }

__global__ void global(const float *x) {
  // GLOBAL: :[[@LINE+1]]:3: read-only(site=global/x) is illegal: the kernel writes through a pointer variable of static storage here, which may point into 'x'
  scratch[0] = x[0];
}

__global__ void moved(const float *x, float *y, int n) {
  // MOVED: :[[@LINE+1]]:14: read-only(site=moved/x) is illegal: 'x' is made to point elsewhere here, so its loads may not reach its buffer
  if (n < 0) x = nullptr;
  y[0] = x[0];
}

// VOLATILE: :[[@LINE+1]]:45: read-only(site=shaky/x) is illegal: 'x' is volatile: its loads must see other writers, which the read-only path does not
__global__ void shaky(const volatile float *x, float *y) { y[0] = x[0]; }

// RECORD: :[[@LINE+1]]:37: read-only(site=records/p) is not applicable: __ldg has no overload for 'Pair' (char, short, int, long, long long and their unsigned forms, float, double, their vector types; __half with cuda_fp16.h)
__global__ void records(const Pair *p, float *y) { y[0] = p[0].a; }

// POINTERS: :[[@LINE+1]]:43: read-only(site=table/t) is not applicable: __ldg has no overload for 'const float *'
__global__ void table(const float *const *t, float *y) { y[0] = t[0][0]; }

// TEMPLATE: :[[@LINE+2]]:34: read-only(site=generic/x) is not applicable: the element type of 'x' depends on a template parameter, and no specialization of the kernel is in the file
template <typename T>
__global__ void generic(const T *x, T *y) { y[0] = x[0]; }

// Each specialization is checked: one of them loads records.
// TRECORD: :[[@LINE+2]]:37: read-only(site=of_records/x) is not applicable: __ldg has no overload for 'Pair'
template <typename T>
__global__ void of_records(const T *x, float *y) { y[0] = x[0].a; }
template __global__ void of_records<Pair>(const Pair *, float *);

// DONE: :[[@LINE+1]]:35: read-only(site=done/x) is not applicable: 'done' has no plain load of 'x' to route through __ldg
__global__ void done(const float *x, float *y, int n) {
  // LOOP: :[[@LINE+1]]:3: read-only(site=done/for#0/x) is not applicable: read-only routes every load of 'x' in the kernel: its site is 'done/x'
  for (int i = 0; i < n; ++i)
    y[i] = __ldg(&x[i]);
}

void host(float *a, float *b) {
  stored<<<1, 32>>>(a);
  derived<<<1, 32>>>(a, b);
  atomic<<<1, 1>>>(a, b);
  escapes<<<1, 1>>>(a, b);
  // SAME: :[[@LINE+1]]:21: read-only(site=same/x) is illegal: this launch passes 'a' for both 'x' and 'y'
  same<<<1, 1>>>(a, a);
  global<<<1, 1>>>(a);
  moved<<<1, 1>>>(a, b, 1);
  done<<<1, 1>>>(a, b, 1);
}
