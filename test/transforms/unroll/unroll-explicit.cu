// unroll(site, factor, mode=explicit): F copies of the body per iteration of
// an unrolled loop, each declaring the induction variable's value for its
// iteration, then a remainder loop (under '#pragma unroll 1') for the
// iterations left; without a remainder when the trip count is a known
// multiple of F. Every output compiles with nvcc.
//
// Unknown trip count, factor 4 and 2: a body with a local declaration and a
// comment.
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=sum/for#0,factor=4,mode=explicit)' -o %t.f4.cu
// RUN: %FileCheck --check-prefix=F4 --strict-whitespace --match-full-lines --input-file=%t.f4.cu %s
// RUN: %nvcc -c %t.f4.cu -o %t.f4.o
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=sum/for#0,factor=2,mode=explicit)' -o %t.f2.cu
// RUN: %FileCheck --check-prefix=F2 --strict-whitespace --match-full-lines --input-file=%t.f2.cu %s
// RUN: %nvcc -c %t.f2.cu -o %t.f2.o
//
// A constant trip count: 8 is a multiple of 4 (no remainder), 10 is not.
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=fixed/for#0,factor=4,mode=explicit)' --apply='unroll(site=fixed/for#1,factor=4,mode=explicit)' -o %t.fixed.cu
// RUN: %FileCheck --check-prefix=FIXED --strict-whitespace --match-full-lines --input-file=%t.fixed.cu %s
// RUN: %nvcc -c %t.fixed.cu -o %t.fixed.o
//
// '<=' with a step of 2, and a barrier in the body (the copies keep their
// order), with the default factor (4):
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=step2/for#0,mode=explicit)' -o %t.step2.cu
// RUN: %FileCheck --check-prefix=STEP2 --strict-whitespace --match-full-lines --input-file=%t.step2.cu %s
// RUN: %nvcc -c %t.step2.cu -o %t.step2.o
//
// An induction variable declared before the loop keeps its final value
// after it, with and without a remainder loop (after the first step, for#1
// is its remainder loop):
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=visible/for#0,factor=2,mode=explicit)' --apply='unroll(site=visible/for#2,factor=2,mode=explicit)' -o %t.visible.cu
// RUN: %FileCheck --check-prefix=VISIBLE --strict-whitespace --match-full-lines --input-file=%t.visible.cu %s
// RUN: %nvcc -c %t.visible.cu -o %t.visible.o
//
// The inner loop of a nest; then a loop that shares its line with an 'if'
// is wrapped in braces, and a second unrolling takes a fresh counter name:
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=nest/for#0/for#0,factor=4,mode=explicit)' --apply='unroll(site=nest/for#1,factor=2,mode=explicit)' -o %t.nest.cu
// RUN: %FileCheck --check-prefix=NEST --strict-whitespace --match-full-lines --input-file=%t.nest.cu %s
// RUN: %nvcc -c %t.nest.cu -o %t.nest.o
//
// The examples' counted loops: sgemm's k loop, and softmax's three passes
// chained (each unrolling adds a loop, so the next pass is two sites on):
// RUN: %clang-optiml --format-style=none %examples/sgemm.cu --apply='unroll(site=sgemm/for#0,factor=4,mode=explicit)' -o %t.sgemm.cu
// RUN: %FileCheck --check-prefix=SGEMM --strict-whitespace --match-full-lines --input-file=%t.sgemm.cu %s
// RUN: %nvcc -c %t.sgemm.cu -o %t.sgemm.o
// RUN: %clang-optiml --format-style=none %examples/softmax.cu --apply='unroll(site=softmax/for#0,factor=4,mode=explicit)' --apply='unroll(site=softmax/for#2,factor=4,mode=explicit)' --apply='unroll(site=softmax/for#4,factor=4,mode=explicit)' -o %t.softmax.cu
// RUN: %FileCheck --check-prefix=SOFTMAX --strict-whitespace --match-full-lines --input-file=%t.softmax.cu %s
// RUN: %nvcc -c %t.softmax.cu -o %t.softmax.o
// SGEMM:  float acc = 0.0f;
// SGEMM-NEXT:  int optiml_i_u = 0;
// SGEMM-NEXT:  for (; optiml_i_u + 3 < k; optiml_i_u += 4) {
// SGEMM-NEXT:    {
// SGEMM-NEXT:      const int i = optiml_i_u;
// SGEMM-NEXT:      acc += A[row * k + i] * B[i * n + col];
// SGEMM-NEXT:    }
// SGEMM:      const int i = optiml_i_u + 3;
// SGEMM-NEXT:      acc += A[row * k + i] * B[i * n + col];
// SGEMM-NEXT:    }
// SGEMM-NEXT:  }
// SGEMM-NEXT:  #pragma unroll 1
// SGEMM-NEXT:  for (int i = optiml_i_u; i < k; ++i)
// SGEMM-NEXT:    acc += A[row * k + i] * B[i * n + col];
// SGEMM-NEXT:  C[row * n + col] = acc;
// SOFTMAX:  int optiml_c_u = 0;
// SOFTMAX:  for (int c = optiml_c_u; c < cols; ++c)
// SOFTMAX-NEXT:    m = fmaxf(m, x[c]);
// SOFTMAX-NEXT:  float sum = 0.0f;
// SOFTMAX-NEXT:  int optiml_c_u1 = 0;
// SOFTMAX:  for (int c = optiml_c_u1; c < cols; ++c)
// SOFTMAX-NEXT:    sum += expf(x[c] - m);
// SOFTMAX-NEXT:  int optiml_c_u2 = 0;
// SOFTMAX:      y[c] = expf(x[c] - m) / sum;
// SOFTMAX:  for (int c = optiml_c_u2; c < cols; ++c)
// SOFTMAX-NEXT:    y[c] = expf(x[c] - m) / sum;
// SOFTMAX-NEXT:}
//
// mode=pragma is the default and is not spelled in the suggested steps;
// the explicit mode is named in the completed step only when given:
// RUN: %clang-optiml %s --list-sites --kernel=sum | %FileCheck --check-prefix=SITES %s
// SITES: unroll sum/for#0 legal: --apply='unroll(site=sum/for#0,factor=4)'
// RUN: %clang-optiml --format-style=none %s --apply='unroll(site=sum/for#0,mode=pragma)' | %FileCheck --check-prefix=PRAGMA %s
// PRAGMA: {{^}}  #pragma unroll 4{{$}}
// PRAGMA-NEXT: {{^}}  for (int i = 0; i < n; ++i) { // one element{{$}}
// RUN: not %clang-optiml --format-style=none %s --apply='unroll(site=sum/for#0,mode=unrolled)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: clang-optiml: error: in step 'unroll(site=sum/for#0,mode=unrolled)': mode=unrolled is outside its domain {pragma, explicit}

#include <cuda_runtime.h>

__global__ void sum(float *p, const float *q, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) { // one element
    float v = q[i] * 2.0f;

    acc += v;
  }
  p[0] = acc;
}
// F4:__global__ void sum(float *p, const float *q, int n) {
// F4-NEXT:  float acc = 0.0f;
// F4-NEXT:  int optiml_i_u = 0;
// F4-NEXT:  for (; optiml_i_u + 3 < n; optiml_i_u += 4) {
// F4-NEXT:    { // one element
// F4-NEXT:      const int i = optiml_i_u;
// F4-NEXT:      float v = q[i] * 2.0f;
// F4-EMPTY:
// F4-NEXT:      acc += v;
// F4-NEXT:    }
// F4-NEXT:    { // one element
// F4-NEXT:      const int i = optiml_i_u + 1;
// F4-NEXT:      float v = q[i] * 2.0f;
// F4-EMPTY:
// F4-NEXT:      acc += v;
// F4-NEXT:    }
// F4-NEXT:    { // one element
// F4-NEXT:      const int i = optiml_i_u + 2;
// F4-NEXT:      float v = q[i] * 2.0f;
// F4-EMPTY:
// F4-NEXT:      acc += v;
// F4-NEXT:    }
// F4-NEXT:    { // one element
// F4-NEXT:      const int i = optiml_i_u + 3;
// F4-NEXT:      float v = q[i] * 2.0f;
// F4-EMPTY:
// F4-NEXT:      acc += v;
// F4-NEXT:    }
// F4-NEXT:  }
// F4-NEXT:  #pragma unroll 1
// F4-NEXT:  for (int i = optiml_i_u; i < n; ++i) { // one element
// F4-NEXT:    float v = q[i] * 2.0f;
// F4-EMPTY:
// F4-NEXT:    acc += v;
// F4-NEXT:  }
// F4-NEXT:  p[0] = acc;
// F4-NEXT:}

// F2:  int optiml_i_u = 0;
// F2-NEXT:  for (; optiml_i_u + 1 < n; optiml_i_u += 2) {
// F2-NEXT:    { // one element
// F2-NEXT:      const int i = optiml_i_u;
// F2:    { // one element
// F2-NEXT:      const int i = optiml_i_u + 1;
// F2:    }
// F2-NEXT:  }
// F2-NEXT:  #pragma unroll 1
// F2-NEXT:  for (int i = optiml_i_u; i < n; ++i) { // one element

__global__ void fixed(float *p) {
  for (int j = 0; j < 8; j++)
    p[j] = 0.0f;
  for (int j = 0; j < 10; j++)
    p[j] += 1.0f;
}
// FIXED:__global__ void fixed(float *p) {
// FIXED-NEXT:  for (int optiml_j_u = 0; optiml_j_u + 3 < 8; optiml_j_u += 4) {
// FIXED-NEXT:    {
// FIXED-NEXT:      const int j = optiml_j_u;
// FIXED-NEXT:      p[j] = 0.0f;
// FIXED-NEXT:    }
// FIXED-NEXT:    {
// FIXED-NEXT:      const int j = optiml_j_u + 1;
// FIXED-NEXT:      p[j] = 0.0f;
// FIXED-NEXT:    }
// FIXED-NEXT:    {
// FIXED-NEXT:      const int j = optiml_j_u + 2;
// FIXED-NEXT:      p[j] = 0.0f;
// FIXED-NEXT:    }
// FIXED-NEXT:    {
// FIXED-NEXT:      const int j = optiml_j_u + 3;
// FIXED-NEXT:      p[j] = 0.0f;
// FIXED-NEXT:    }
// FIXED-NEXT:  }
// FIXED-NEXT:  int optiml_j_u1 = 0;
// FIXED-NEXT:  for (; optiml_j_u1 + 3 < 10; optiml_j_u1 += 4) {
// FIXED-NEXT:    {
// FIXED-NEXT:      const int j = optiml_j_u1;
// FIXED-NEXT:      p[j] += 1.0f;
// FIXED-NEXT:    }
// FIXED:      const int j = optiml_j_u1 + 3;
// FIXED-NEXT:      p[j] += 1.0f;
// FIXED-NEXT:    }
// FIXED-NEXT:  }
// FIXED-NEXT:  #pragma unroll 1
// FIXED-NEXT:  for (int j = optiml_j_u1; j < 10; j++)
// FIXED-NEXT:    p[j] += 1.0f;
// FIXED-NEXT:}

__global__ void step2(float *p, int n) {
  __shared__ float s[64];
  for (int i = 1; i <= n; i += 2) {
    s[threadIdx.x] = p[i];
    __syncthreads();
    p[i] = s[63 - threadIdx.x];
    __syncthreads();
  }
}
// STEP2:__global__ void step2(float *p, int n) {
// STEP2-NEXT:  __shared__ float s[64];
// STEP2-NEXT:  int optiml_i_u = 1;
// STEP2-NEXT:  for (; optiml_i_u + 6 <= n; optiml_i_u += 8) {
// STEP2-NEXT:    {
// STEP2-NEXT:      const int i = optiml_i_u;
// STEP2-NEXT:      s[threadIdx.x] = p[i];
// STEP2-NEXT:      __syncthreads();
// STEP2-NEXT:      p[i] = s[63 - threadIdx.x];
// STEP2-NEXT:      __syncthreads();
// STEP2-NEXT:    }
// STEP2-NEXT:    {
// STEP2-NEXT:      const int i = optiml_i_u + 2;
// STEP2:      const int i = optiml_i_u + 4;
// STEP2:      const int i = optiml_i_u + 6;
// STEP2-NEXT:      s[threadIdx.x] = p[i];
// STEP2-NEXT:      __syncthreads();
// STEP2-NEXT:      p[i] = s[63 - threadIdx.x];
// STEP2-NEXT:      __syncthreads();
// STEP2-NEXT:    }
// STEP2-NEXT:  }
// STEP2-NEXT:  #pragma unroll 1
// STEP2-NEXT:  for (int i = optiml_i_u; i <= n; i += 2) {

__global__ void visible(float *p, int n) {
  int i;
  for (i = 0; i < n; ++i)
    p[i] *= 2.0f;
  p[0] = i;
  unsigned k;
  for (k = 0; k < 4u; ++k)
    p[k] += 1.0f;
  p[1] = k;
}
// VISIBLE:__global__ void visible(float *p, int n) {
// VISIBLE-NEXT:  int i;
// VISIBLE-NEXT:  int optiml_i_u = 0;
// VISIBLE-NEXT:  for (; optiml_i_u + 1 < n; optiml_i_u += 2) {
// VISIBLE-NEXT:    {
// VISIBLE-NEXT:      const int i = optiml_i_u;
// VISIBLE-NEXT:      p[i] *= 2.0f;
// VISIBLE-NEXT:    }
// VISIBLE-NEXT:    {
// VISIBLE-NEXT:      const int i = optiml_i_u + 1;
// VISIBLE-NEXT:      p[i] *= 2.0f;
// VISIBLE-NEXT:    }
// VISIBLE-NEXT:  }
// VISIBLE-NEXT:  #pragma unroll 1
// VISIBLE-NEXT:  for (i = optiml_i_u; i < n; ++i)
// VISIBLE-NEXT:    p[i] *= 2.0f;
// VISIBLE-NEXT:  p[0] = i;
// VISIBLE-NEXT:  unsigned k;
// VISIBLE-NEXT:  unsigned int optiml_k_u = 0;
// VISIBLE-NEXT:  for (; optiml_k_u + 1 < 4u; optiml_k_u += 2) {
// VISIBLE-NEXT:    {
// VISIBLE-NEXT:      const unsigned int k = optiml_k_u;
// VISIBLE-NEXT:      p[k] += 1.0f;
// VISIBLE-NEXT:    }
// VISIBLE-NEXT:    {
// VISIBLE-NEXT:      const unsigned int k = optiml_k_u + 1;
// VISIBLE-NEXT:      p[k] += 1.0f;
// VISIBLE-NEXT:    }
// VISIBLE-NEXT:  }
// VISIBLE-NEXT:  k = optiml_k_u;
// VISIBLE-NEXT:  p[1] = k;
// VISIBLE-NEXT:}

__global__ void nest(float *p, int n) {
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < 16; ++c)
      p[r * 16 + c] *= 2.0f;
  }
  if (n > 3) for (int i = 0; i < n; ++i) p[i] -= 1.0f;
}
// NEST:__global__ void nest(float *p, int n) {
// NEST-NEXT:  for (int r = 0; r < n; ++r) {
// NEST-NEXT:    for (int optiml_c_u = 0; optiml_c_u + 3 < 16; optiml_c_u += 4) {
// NEST-NEXT:      {
// NEST-NEXT:        const int c = optiml_c_u;
// NEST-NEXT:        p[r * 16 + c] *= 2.0f;
// NEST-NEXT:      }
// NEST:        const int c = optiml_c_u + 3;
// NEST-NEXT:        p[r * 16 + c] *= 2.0f;
// NEST-NEXT:      }
// NEST-NEXT:    }
// NEST-NEXT:  }
// NEST-NEXT:  if (n > 3) {
// NEST-NEXT:    int optiml_i_u = 0;
// NEST-NEXT:    for (; optiml_i_u + 1 < n; optiml_i_u += 2) {
// NEST-NEXT:      {
// NEST-NEXT:        const int i = optiml_i_u;
// NEST-NEXT:        p[i] -= 1.0f;
// NEST-NEXT:      }
// NEST-NEXT:      {
// NEST-NEXT:        const int i = optiml_i_u + 1;
// NEST-NEXT:        p[i] -= 1.0f;
// NEST-NEXT:      }
// NEST-NEXT:    }
// NEST-NEXT:    #pragma unroll 1
// NEST-NEXT:    for (int i = optiml_i_u; i < n; ++i) p[i] -= 1.0f;
// NEST-NEXT:  }
// NEST-NEXT:}
