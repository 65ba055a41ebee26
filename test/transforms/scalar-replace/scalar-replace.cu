// scalar-replace keeps a buffer element that a loop accumulates into in a
// register: one load before the loop, one store after it. The load runs
// where it cannot fault: after an access of the same element, before a loop
// with a constant trip count, or under the loop's entry test. Each result
// compiles.
// RUN: %clang-optiml --format-style=none %s --apply='scalar-replace(site=gemm/for#0)' --apply='scalar-replace(site=gemv/for#0)' --apply='scalar-replace(site=two/do#0)' --apply='scalar-replace(site=alone/for#0)' --apply='scalar-replace(site=nested/for#0/for#0)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: %clang-optiml --format-style=none %s --apply='scalar-replace(site=unlaunched/for#0)' -o %t2.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// NOTE: note: scalar-replace(site=unlaunched/for#0): 'unlaunched' is not launched in this file: keeping the element in a register relies on the kernel spec's buffers being distinct
// RUN: %clang-optiml %s --list-sites | %FileCheck --check-prefix=LIST %s
// LIST: scalar-replace gemm/for#0          legal: --apply='scalar-replace(site=gemm/for#0)'

#define N 1024

// The element was scaled right before the loop, so loading it is safe.
// CHECK-LABEL: __global__ void gemm(
// CHECK:      {{^}}    C[i * N + j] *= beta;{{$}}
// CHECK-NEXT: {{^}}    float optiml_sr0 = C[i * N + j];{{$}}
// CHECK-NEXT: {{^}}    for (int k = 0; k < N; k++) {{{$}}
// CHECK-NEXT: {{^}}      optiml_sr0 += alpha * A[i * N + k] * B[k * N + j];{{$}}
// CHECK-NEXT: {{^}}    }{{$}}
// CHECK-NEXT: {{^}}    C[i * N + j] = optiml_sr0;{{$}}
__global__ void gemm(float alpha, float beta, const float *A, const float *B,
                     float *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    C[i * N + j] *= beta;
    for (int k = 0; k < N; k++) {
      C[i * N + j] += alpha * A[i * N + k] * B[k * N + j];
    }
  }
}

// The trip count is not known: the load and the store go under the loop's
// entry test, so a thread whose loop never runs touches nothing.
// CHECK-LABEL: __global__ void gemv(
// CHECK:      {{^}}    if (0 < n) {{{$}}
// CHECK-NEXT: {{^}}      double optiml_sr0 = y[row];{{$}}
// CHECK-NEXT: {{^}}      for (int c = 0; c < n; ++c){{$}}
// CHECK-NEXT: {{^}}        optiml_sr0 += a[row * n + c] * x[c];{{$}}
// CHECK-NEXT: {{^}}      y[row] = optiml_sr0;{{$}}
// CHECK-NEXT: {{^}}    }{{$}}
__global__ void gemv(const double *a, const double *x, double *y, int m,
                     int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    for (int c = 0; c < n; ++c)
      y[row] += a[row * n + c] * x[c];
  }
}

// Two elements of two buffers, each in its own register; a do-while loop
// always runs once.
// CHECK-LABEL: __global__ void two(
// CHECK:      {{^}}  float optiml_sr0 = lo[i];{{$}}
// CHECK-NEXT: {{^}}  float optiml_sr1 = hi[i];{{$}}
// CHECK-NEXT: {{^}}  do {{{$}}
// CHECK-NEXT: {{^}}    optiml_sr0 = fminf(optiml_sr0, v[k]);{{$}}
// CHECK-NEXT: {{^}}    optiml_sr1 = fmaxf(optiml_sr1, v[k]);{{$}}
// CHECK:      {{^}}  } while (k < n);{{$}}
// CHECK-NEXT: {{^}}  lo[i] = optiml_sr0;{{$}}
// CHECK-NEXT: {{^}}  hi[i] = optiml_sr1;{{$}}
__global__ void two(const float *v, float *lo, float *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  do {
    lo[i] = fminf(lo[i], v[k]);
    hi[i] = fmaxf(hi[i], v[k]);
    ++k;
  } while (k < n);
}

// A loop that is not directly in a block gets braces.
// CHECK-LABEL: __global__ void alone(
// CHECK: {{^}}  if (i < n) { int optiml_sr0 = count[i]; for (int k = 0; k < 8; ++k) optiml_sr0 += (v[i * 8 + k] > 0.0f); count[i] = optiml_sr0; }{{$}}
__global__ void alone(const float *v, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) for (int k = 0; k < 8; ++k) count[i] += (v[i * 8 + k] > 0.0f);
}

// The inner loop's element is kept across it; the outer loop changes the
// index, so it is not a site of its own.
// CHECK-LABEL: __global__ void nested(
// CHECK:      {{^}}    float optiml_sr0 = out[r * 4 + q];{{$}}
// CHECK-NEXT: {{^}}    for (int k = 0; k < 16; ++k){{$}}
// CHECK-NEXT: {{^}}      optiml_sr0 += in[k] * (float)q;{{$}}
// CHECK-NEXT: {{^}}    out[r * 4 + q] = optiml_sr0;{{$}}
__global__ void nested(const float *__restrict__ in, float *__restrict__ out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int q = 0; q < 4; ++q) {
    for (int k = 0; k < 16; ++k)
      out[r * 4 + q] += in[k] * (float)q;
  }
}

#pragma optiml kernel sizes(M = 256) in(x[M * 8]) inout(s[M]) grid(M / 64) block(64)
__global__ void unlaunched(const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; ++k)
    s[i] += x[i * 8 + k];
}

void run(float *A, float *B, float *C, double *a, double *x, double *y,
         float *v, float *lo, float *hi, int *count, float *in, float *out,
         int n) {
  gemm<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(1.0f, 0.5f, A, B, C);
  gemv<<<(n + 127) / 128, 128>>>(a, x, y, n, n);
  two<<<n / 128, 128>>>(v, lo, hi, n);
  alone<<<(n + 127) / 128, 128>>>(v, count, n);
  nested<<<n / 64, 64>>>(in, out);
}
