// pad-shared(site) is refused where the padding would be seen or would not
// help, with the reason at the array or the use that decides it.
// RUN: not %clang-optiml %s --apply='pad-shared(site=row_pointer)' 2>&1 | %FileCheck --check-prefix=ROW %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=sized)' 2>&1 | %FileCheck --check-prefix=SIZEOF %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=address)' 2>&1 | %FileCheck --check-prefix=ADDRESS %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=copied)' 2>&1 | %FileCheck --check-prefix=COPIED %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=rows_only)' 2>&1 | %FileCheck --check-prefix=ROWS %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=padded)' 2>&1 | %FileCheck --check-prefix=PADDED %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=huge)' 2>&1 | %FileCheck --check-prefix=HUGE %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=bytes)' 2>&1 | %FileCheck --check-prefix=BYTES %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=typed)' 2>&1 | %FileCheck --check-prefix=TYPEDEF %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=generic)' 2>&1 | %FileCheck --check-prefix=TEMPLATE %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=flat)' 2>&1 | %FileCheck --check-prefix=FLAT %s
// RUN: not %clang-optiml %s --apply='pad-shared(site=odd,pad=2)' 2>&1 | %FileCheck --check-prefix=NOHELP %s

#include <cuda_runtime.h>

__device__ float first(const float *row) { return row[0]; }

__global__ void row_pointer(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.x][0] = 1;
  // ROW: :[[@LINE+1]]:18: pad-shared(site=row_pointer) is illegal: 't' is used here other than as an element t[i][j], which would see the padding
  out[0] = first(t[threadIdx.x]);
}

__global__ void sized(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.x][0] = 1;
  // SIZEOF: :[[@LINE+1]]:19: pad-shared(site=sized) is illegal: 't' is used here other than as an element t[i][j], which would see the padding
  out[0] = sizeof(t);
}

__global__ void address(float *out) {
  __shared__ float t[32][32];
  // ADDRESS: :[[@LINE+1]]:14: pad-shared(site=address) is illegal: the address of an element of 't' is taken here; a pointer into it may walk across rows, which the padding moves
  float *p = &t[threadIdx.x][0];
  out[0] = p[33];
}

__global__ void copied(const float *in) {
  __shared__ float t[32][32];
  // COPIED: :[[@LINE+1]]:10: pad-shared(site=copied) is illegal: 't' is used here other than as an element t[i][j], which would see the padding
  memcpy(t, in, sizeof(float) * 32 * 32);
  float v = t[threadIdx.x][0];
}

// Lanes walk along a row: no two share a bank.
// ROWS: :[[@LINE+2]]:20: pad-shared(site=rows_only) is not applicable: no access of 't' reads down a column with lanes in the same bank (a row index that varies with threadIdx.x)
__global__ void rows_only(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1;
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}

// PADDED: :[[@LINE+2]]:20: pad-shared(site=padded) is not applicable: no access of 't' reads down a column
__global__ void padded(float *out) {
  __shared__ float t[32][33];
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

// 4 KiB and 44 KiB fill the 48 KiB; 128 more floats do not fit.
// HUGE: :[[@LINE+3]]:20: pad-shared(site=huge) is illegal: padding 't' brings 'huge' to 49664 bytes of static shared memory, over the 49152 allowed
__global__ void huge(float *out) {
  __shared__ float s[1024];
  __shared__ float t[128][88];
  out[threadIdx.x] = t[threadIdx.x][0] + s[0];
}

// BYTES: :[[@LINE+2]]:19: pad-shared(site=bytes) is not applicable: the elements of 't' are narrower than a bank's 4 bytes
__global__ void bytes(char *out) {
  __shared__ char t[32][32];
  out[threadIdx.x] = t[threadIdx.x][0];
}

typedef float Tile[32][32];
// TYPEDEF: :[[@LINE+2]]:19: pad-shared(site=typed) is not applicable: the dimensions of 't' are not written in its declaration
__global__ void typed(float *out) {
  __shared__ Tile t;
  out[threadIdx.x] = t[threadIdx.x][0];
}

// TEMPLATE: :[[@LINE+3]]:20: pad-shared(site=generic) is not applicable: the size of 't' depends on a template parameter
template <int BS>
__global__ void generic(float *out) {
  __shared__ float t[BS][BS];
  out[threadIdx.x] = t[threadIdx.x][0];
}
template __global__ void generic<32>(float *);

// FLAT: :[[@LINE+1]]:17: pad-shared(site=flat) is not applicable: 'flat' declares no statically sized 2-D __shared__ array
__global__ void flat(float *out) {
  __shared__ float t[32 * 32];
  out[threadIdx.x] = t[threadIdx.x * 32];
}

// A row of 30 words puts lanes two to a bank; 30 + 2 puts them all in one.
// NOHELP: :[[@LINE+2]]:20: pad-shared(site=odd,pad=2) is not applicable: padding the rows of 't' by 2 leaves its column accesses 32-way bank-conflicted
__global__ void odd(float *out) {
  __shared__ float t[32][30];
  out[threadIdx.x] = t[threadIdx.x][0];
}
