// A kernel that reads its matrices through an accessor taking `const float
// *` writes nothing through them: coarsen copies its body. An accessor
// that casts the const away, itself or through a function it calls, may
// write, and coarsen refuses.
// RUN: %clang-optiml --format-style=none %s --apply='coarsen(site=through_accessor,dim=y,factor=2)' -o %t.cu
// RUN: %FileCheck --match-full-lines --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: not %clang-optiml %s --apply='coarsen(site=through_cast,dim=y,factor=2)' 2>&1 | %FileCheck --check-prefix=CAST %s

__device__ inline float at(const float *m, int ld, int r, int c) {
  return m[r * ld + c];
}

__device__ inline float poke(const float *m, int i) {
  float *w = (float *)m;
  w[i] += 1.0f;
  return w[i];
}

// Casts nothing itself, but calls a function that does.
__device__ inline float bump(const float *m, int i) { return poke(m, i); }

#pragma optiml kernel sizes(N = 64) in(a[N * N], b[N * N]) out(c[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void through_accessor(const float *a, const float *b, float *c,
                                 int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || j >= n)
    return;
  float acc = 0.0f;
  for (int k = i; k < n; ++k)
    acc += at(a, n, k, i) * at(b, n, k, j);
  c[i * n + j] = acc;
}
// CHECK-LABEL: __global__ void through_accessor(const float *a, const float *b, float *c,
// CHECK: float acc[2];
// CHECK: acc[optiml_cy] += at(a, n, k, i) * at(b, n, k, j);

#pragma optiml kernel sizes(N = 64) in(a[N * N]) out(c[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void through_cast(const float *a, float *c, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n)
    // CAST: :[[@LINE+1]]:25: coarsen(site=through_cast,dim=y,factor=2) is illegal: 'a' is written, and this use is not an element access
    c[i * n + j] = bump(a, i * n + j);
}
