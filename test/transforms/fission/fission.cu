// fission(site, split): a for-loop whose body is a block of statements
// becomes two loops with the same header, the first with the body's first
// `split` statements, the second with the rest.
//
// Each loop of k, last first so that the site names stay: the default
// split (the first legal one: 2 for k/for#1, whose first statement declares
// what the second uses), a comment at the end of the first part's last
// line, a dependence the split keeps (the second part reads what the first
// wrote at the same and the previous iteration), a multi-line header with
// the counter declared before the loop, and a loop that is not directly in
// a block (the two loops get braces):
// RUN: %clang-optiml --format-style=none %s --apply='fission(site=k/for#5)' --apply='fission(site=k/for#4)' --apply='fission(site=k/for#2)' --apply='fission(site=k/for#1)' --apply='fission(site=k/for#0)' -o %t.basic.cu
// RUN: %FileCheck --check-prefix=BASIC --input-file=%t.basic.cu %s
// RUN: %nvcc -c %t.basic.cu -o %t.basic.o
//
// The parameter picks the split:
// RUN: %clang-optiml --format-style=none %s --apply='fission(site=k/for#3,split=2)' -o %t.split.cu
// RUN: %FileCheck --check-prefix=SPLIT --input-file=%t.split.cu %s
// RUN: %nvcc -c %t.split.cu -o %t.split.o
//
// --list-sites suggests the first legal split:
// RUN: %clang-optiml %s --list-sites --kernel=k | %FileCheck --check-prefix=LIST %s
// LIST: fission           k/for#0            legal: --apply='fission(site=k/for#0,split=1)'
// LIST: fission           k/for#1            legal: --apply='fission(site=k/for#1,split=2)'
//
// A kernel without a launch in the file: a __shared__ 2-D array, pure math
// and a load intrinsic, a `break` that only leaves a nested loop; the split
// rests on the spec's buffers being distinct, and says so:
// RUN: %clang-optiml --format-style=none %s --apply='fission(site=st/for#0)' -o %t.st.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// NOTE: clang-optiml: note: fission(site=st/for#0,split=1): 'st' is not launched in this file: the split relies on the kernel spec's buffers being distinct
// RUN: %FileCheck --check-prefix=ST --input-file=%t.st.cu %s
// RUN: %nvcc -c %t.st.cu -o %t.st.o
//
// fusion undoes it:
// RUN: %clang-optiml --format-style=none %s --apply='fission(site=k/for#0)' --apply='fusion(site=k/for#0)' -o %t.back.cu
// RUN: %FileCheck --check-prefix=BACK --input-file=%t.back.cu %s
//
// It is registered, with its kind of site:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  fission {{ *}}loop {{ *}}split a for-loop in two at a statement boundary

#include <cuda_runtime.h>

__global__ void k(float *y, float *z, const float *x, const float *c, float a,
                  float b, int n, int m) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m)
    return;
  const float *xr = x + (size_t)row * n;
  float *yr = y + row * n;
  float *zr = z + row * n;
  // BASIC: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    yr[i] = a * xr[i];{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  // BASIC-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    zr[i] = b * xr[i] + c[i]; // a comment stays{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  // BACK: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BACK-NEXT: {{^}}    yr[i] = a * xr[i];{{$}}
  // BACK-NEXT: {{^}}    zr[i] = b * xr[i] + c[i]; // a comment stays{{$}}
  // BACK-NEXT: {{^}}  }{{$}}
  // BACK-NEXT: {{^}}  // BASIC: {{.*}}
  for (int i = 0; i < n; ++i) {
    yr[i] = a * xr[i];
    zr[i] = b * xr[i] + c[i]; // a comment stays
  }
  // BASIC: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    float v = xr[i];{{$}}
  // BASIC-NEXT: {{^}}    yr[i] = v * v;{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  // BASIC-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    // the second part{{$}}
  // BASIC-NEXT: {{^}}    zr[i] = c[i] - a;{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  for (int i = 0; i < n; ++i) {
    float v = xr[i];
    yr[i] = v * v;
    // the second part
    zr[i] = c[i] - a;
  }
  // BASIC: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    yr[i] = xr[i] + 1.0f;{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  // BASIC-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}    zr[i] = yr[i] + (i > 0 ? yr[i - 1] : 0.0f);{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  for (int i = 0; i < n; ++i) {
    yr[i] = xr[i] + 1.0f;
    zr[i] = yr[i] + (i > 0 ? yr[i - 1] : 0.0f);
  }
  // SPLIT: {{^}}  // Three statements.{{$}}
  // SPLIT-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // SPLIT-NEXT: {{^}}    yr[i] = xr[i];{{$}}
  // SPLIT-NEXT: {{^}}    zr[i] = 2.0f * xr[i];{{$}}
  // SPLIT-NEXT: {{^}}  }{{$}}
  // SPLIT-NEXT: {{^}}  for (int i = 0; i < n; ++i) {{{$}}
  // SPLIT-NEXT: {{^}}    yr[i] += c[i];{{$}}
  // SPLIT-NEXT: {{^}}  }{{$}}
  // Three statements.
  for (int i = 0; i < n; ++i) {
    yr[i] = xr[i];
    zr[i] = 2.0f * xr[i];
    yr[i] += c[i];
  }
  int j;
  // BASIC: {{^}}  for (j = 0;{{$}}
  // BASIC-NEXT: {{^}}       j < n; j++) {{{$}}
  // BASIC-NEXT: {{^}}    yr[j] = xr[j];{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  // BASIC-NEXT: {{^}}  for (j = 0;{{$}}
  // BASIC-NEXT: {{^}}       j < n; j++) {{{$}}
  // BASIC-NEXT: {{^}}    zr[j] = xr[j];{{$}}
  // BASIC-NEXT: {{^}}  }{{$}}
  for (j = 0;
       j < n; j++) {
    yr[j] = xr[j];
    zr[j] = xr[j];
  }
  // BASIC: {{^}}  if (n > 4){{$}}
  // BASIC-NEXT: {{^}}    { {{$}}
  // BASIC-NEXT: {{^}}    for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}      yr[i] = 0.0f;{{$}}
  // BASIC-NEXT: {{^}}    }{{$}}
  // BASIC-NEXT: {{^}}    for (int i = 0; i < n; ++i) {{{$}}
  // BASIC-NEXT: {{^}}      zr[i] = 1.0f;{{$}}
  // BASIC-NEXT: {{^}}    } }{{$}}
  if (n > 4)
    for (int i = 0; i < n; ++i) {
      yr[i] = 0.0f;
      zr[i] = 1.0f;
    }
}

// ST: {{^}}  for (int r = 0; r < 4; ++r) {{{$}}
// ST-NEXT: {{^}}    tile[r][t] = expf(in[r * n + t]);{{$}}
// ST-NEXT: {{^}}  }{{$}}
// ST-NEXT: {{^}}  for (int r = 0; r < 4; ++r) {{{$}}
// ST-NEXT: {{^}}    for (int q = 0; q < n; ++q){{$}}
// ST-NEXT: {{^}}      if (in[q] > 0.0f){{$}}
// ST-NEXT: {{^}}        break;{{$}}
// ST-NEXT: {{^}}    out[r * n + t] = __ldg(&in[r * n + t]) + tile[r][t];{{$}}
// ST-NEXT: {{^}}  }{{$}}
__global__ void st(float *out, const float *in, int n) {
  __shared__ float tile[4][32];
  int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    tile[r][t] = expf(in[r * n + t]);
    for (int q = 0; q < n; ++q)
      if (in[q] > 0.0f)
        break;
    out[r * n + t] = __ldg(&in[r * n + t]) + tile[r][t];
  }
}

void launch(float *y, float *z, const float *x, const float *c, int n, int m) {
  k<<<(m + 127) / 128, 128>>>(y, z, x, c, 2.0f, 3.0f, n, m);
}
