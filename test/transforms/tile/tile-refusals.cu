// tile(site, size) is refused, with the reason at the place that decides it,
// where strip-mining would change the loop's meaning (illegal) or where there
// is nothing to strip-mine (not applicable).
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#0)' 2>&1 | %FileCheck --check-prefix=BREAK %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#1)' 2>&1 | %FileCheck --check-prefix=DOWN %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#2)' 2>&1 | %FileCheck --check-prefix=STEP2 %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#3)' 2>&1 | %FileCheck --check-prefix=NE %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#4)' 2>&1 | %FileCheck --check-prefix=ONE %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#5,size=32)' 2>&1 | %FileCheck --check-prefix=ONE32 %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#6)' 2>&1 | %FileCheck --check-prefix=OVERFLOW %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#7)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#8)' 2>&1 | %FileCheck --check-prefix=BOUND %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#9)' 2>&1 | %FileCheck --check-prefix=MUL %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#10)' 2>&1 | %FileCheck --check-prefix=LABEL %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#11)' 2>&1 | %FileCheck --check-prefix=IV %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#12)' 2>&1 | %FileCheck --check-prefix=CALL %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#13)' 2>&1 | %FileCheck --check-prefix=MEMORY %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#14)' 2>&1 | %FileCheck --check-prefix=COND %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/do#0)' 2>&1 | %FileCheck --check-prefix=DO %s
// RUN: not %clang-optiml --format-style=none %s --apply='tile(site=k/for#16)' 2>&1 | %FileCheck --check-prefix=SELF %s
//
// A `break` that belongs to a nested loop or switch is fine, and so is a
// loop running more than one tile:
// RUN: %clang-optiml --format-style=none %s --apply='tile(site=k/for#15)' --apply='tile(site=k/for#5,size=16)' -o %t.cu
// RUN: %FileCheck --check-prefix=OK --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o

#include <cuda_runtime.h>
#define ZERO(p, i) for (int i = 0; i < 100; ++i) p[i] = 0

__device__ int limit(int n) { return n / 2; }

__global__ void k(float *p, int n) {
  for (int i = 0; i < n; ++i)
    // BREAK: :[[@LINE+1]]:19: tile(site=k/for#0) is illegal: 'break' in the body would leave only the current tile, not the loop
    if (p[i] < 0) break;
  // DOWN: :[[@LINE+1]]:26: tile(site=k/for#1) is not applicable: the step is -1; tile strip-mines loops that count up by 1
  for (int i = n; i > 0; --i) p[i] = 0;
  // STEP2: :[[@LINE+1]]:26: tile(site=k/for#2) is not applicable: the step is 2; tile strip-mines loops that count up by 1
  for (int i = 0; i < n; i += 2) p[i] = 0;
  // NE: :[[@LINE+1]]:19: tile(site=k/for#3) is not applicable: the condition is not 'i < bound' or 'i <= bound'; tile needs an upper bound
  for (int i = 0; i != n; ++i) p[i] = 0;
  // ONE: :[[@LINE+1]]:3: tile(site=k/for#4) is not applicable: the loop runs 16 times, which fits in one tile of 16
  for (int i = 0; i < 16; ++i) p[i] = 0;
  // ONE32: :[[@LINE+3]]:3: tile(site=k/for#5,size=32) is not applicable: the loop runs 17 times, which fits in one tile of 32
  // OK: {{^}}  for (int optiml_i_t1 = 0; optiml_i_t1 < 17; optiml_i_t1 += 16){{$}}
  // OK-NEXT: {{^}}    for (int i = optiml_i_t1; i < optiml_i_t1 + 16 && i < 17; ++i) p[i] = 0;{{$}}
  for (int i = 0; i < 17; ++i) p[i] = 0;
  // OVERFLOW: :[[@LINE+1]]:23: tile(site=k/for#6) is illegal: the tile counter would overflow 'int' past the bound
  for (int i = 0; i < 2147483640; ++i) p[i] = 0;
  // MACRO: :[[@LINE+1]]:3: tile(site=k/for#7) is not applicable: 'k/for#7' is written inside a macro; its header cannot be rewritten
  ZERO(p, z);
  // WHILE: :[[@LINE+1]]:3: tile(site=k/while#0) is not applicable: 'k/while#0' is a while-loop; tile strip-mines for-loops only
  while (n > 100) --n;
  // BOUND: :[[@LINE+1]]:23: tile(site=k/for#8) is not applicable: the bound reads 'n', which is assigned in the loop
  for (int i = 0; i < n; ++i) { p[i] = 0; n--; }
  // MUL: :[[@LINE+1]]:26: tile(site=k/for#9) is not applicable: the increment is not a constant add or subtract on 'i'
  for (int i = 1; i < n; i *= 2) p[i] = 0;
  // LABEL: :[[@LINE+1]]:33: tile(site=k/for#10) is illegal: the body has label 'again', which a goto could enter the tiles by
  for (int i = 0; i < n; ++i) { again: p[i] = 1; }
  // IV: :[[@LINE+1]]:43: tile(site=k/for#11) is not applicable: the induction variable 'i' is assigned in the body
  for (int i = 0; i < n; ++i) { p[i] = 0; i += 1; }
  // CALL: :[[@LINE+1]]:23: tile(site=k/for#12) is not applicable: the bound calls 'limit'
  for (int i = 0; i < limit(n); ++i) p[i] = 0;
  // MEMORY: :[[@LINE+1]]:23: tile(site=k/for#13) is not applicable: the bound reads memory that the loop may write
  for (int i = 0; i < p[0]; ++i) p[i] = 0;
  // COND: :[[@LINE+1]]:19: tile(site=k/for#14) is not applicable: the condition is not a comparison (<, <=, >, >=, !=) of 'i' with a bound
  for (int i = 0; i < n && p[i] > 0; ++i) p[i] = 0;
  // DO: :[[@LINE+1]]:3: tile(site=k/do#0) is not applicable: 'k/do#0' is a do-loop; tile strip-mines for-loops only
  do { --n; } while (n > 0);
  // OK: {{^}}  for (int optiml_i_t = 0; optiml_i_t < n; optiml_i_t += 16){{$}}
  // OK-NEXT: {{^}}    for (int i = optiml_i_t; i < optiml_i_t + 16 && i < n; ++i) {{{$}}
  // OK-NEXT: {{^}}      switch (i) { case 0: break; default: p[i] = 1; }{{$}}
  // OK-NEXT: {{^}}      for (int j = 0; j < 4; ++j) { if (j == 2) break; }{{$}}
  // OK-NEXT: {{^}}    }{{$}}
  for (int i = 0; i < n; ++i) {
    switch (i) { case 0: break; default: p[i] = 1; }
    for (int j = 0; j < 4; ++j) { if (j == 2) break; }
  }
  // SELF: :[[@LINE+1]]:16: tile(site=k/for#16) is not applicable: the initial value reads the induction variable 'i' itself
  for (int i = i + 1; i < n; ++i) p[i] = 0;
}
