// fast-math(site, ops) is not applicable, with the reason, where the kernel
// has nothing of the chosen group to replace, or only inside macros.
// RUN: not %clang-optiml %s --apply='fast-math(site=doubles)' 2>&1 | %FileCheck --check-prefix=NONE %s
// RUN: not %clang-optiml %s --apply='fast-math(site=macros)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml %s --apply='fast-math(site=exps,ops=trig)' 2>&1 | %FileCheck --check-prefix=TRIG %s
// RUN: not %clang-optiml %s --apply='fast-math(site=exps,ops=div)' 2>&1 | %FileCheck --check-prefix=DIV %s
// RUN: not %clang-optiml %s --apply='fast-math(site=exps,ops=rsqrt)' 2>&1 | %FileCheck --check-prefix=RSQRT %s
// RUN: not %clang-optiml %s --apply='fast-math(site=divs,ops=exp-log)' 2>&1 | %FileCheck --check-prefix=EXPLOG %s
// RUN: not %clang-optiml %s --apply='fast-math(site=exps,ops=fast)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: clang-optiml: error: in step 'fast-math(site=exps,ops=fast)': ops=fast is outside its domain {all, exp-log, trig, div, rsqrt}
//
// The group that does apply there, for contrast:
// RUN: %clang-optiml %s --apply='fast-math(site=exps,ops=exp-log)' --apply='fast-math(site=divs,ops=div)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o

#include <cuda_runtime.h>

#define EXP(x) expf(x)
#define RATIO(a, b) ((a) / (b))

// NONE: :[[@LINE+1]]:17: fast-math(site=doubles) is not applicable: 'doubles' has no single-precision call of expf, logf, log2f, log10f, powf, sinf, cosf or tanf, or float division to replace
__global__ void doubles(double *d, int *q, float *p) {
  d[0] = exp(d[1]) / d[2] + pow(d[3], 2.0) + 1.0 / sqrt(d[4]);
  q[0] = q[1] / q[2];
  p[0] = sqrtf(p[1]) + p[2] / 8.0f;
}

__global__ void macros(float *p) {
  // MACRO: :[[@LINE+1]]:10: fast-math(site=macros) is not applicable: every single-precision call of expf, logf, log2f, log10f, powf, sinf, cosf or tanf, or float division in 'macros' is written inside a macro, which is left alone
  p[0] = EXP(p[1]) + RATIO(p[2], p[3]);
}

// TRIG: :[[@LINE+3]]:17: fast-math(site=exps,ops=trig) is not applicable: 'exps' has no single-precision call of sinf, cosf or tanf to replace
// DIV: :[[@LINE+2]]:17: fast-math(site=exps,ops=div) is not applicable: 'exps' has no float division (other than by a constant power of two) to replace
// RSQRT: :[[@LINE+1]]:17: fast-math(site=exps,ops=rsqrt) is not applicable: 'exps' has no float '1.0f / sqrtf(x)' to replace
__global__ void exps(float *p) {
  // CHECK: {{^}}  p[0] = __expf(p[1]) * __logf(p[2]);{{$}}
  p[0] = expf(p[1]) * logf(p[2]);
}

// EXPLOG: :[[@LINE+1]]:17: fast-math(site=divs,ops=exp-log) is not applicable: 'divs' has no single-precision call of expf, logf, log2f, log10f or powf to replace
__global__ void divs(float *p, int n) {
  // CHECK: {{^}}  p[0] = __fdividef(p[1], n) + __fdividef(__fdividef(p[2], p[3]), p[4]);{{$}}
  p[0] = p[1] / n + p[2] / p[3] / p[4];
}
