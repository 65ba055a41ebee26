// stage-shared on a loop under bounds guards, the shape of most naive
// kernels: the whole body under `if (i < ni && j < nj) { ... }`. Every
// thread must reach the staging's barriers, so the loop runs in all threads
// (each loads its share of the tile; the loads keep the guard's bounds on
// the staged rows); the guard's braces stay as a plain block, the statements
// around the loop and the loop's body run under the guard's condition, and
// an initializer that reads memory takes its value only there. Guards that
// are the same for the whole block (`if (0 < nk)`, which scalar-replace
// writes) stay as they are. Each result compiles.
//
// PolyBench's gemm, staging 'a' (the loop still accumulates into 'c'):
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=gemm/for#0/a)' -o %t.gemm.cu
// RUN: %FileCheck --check-prefix=GEMM --match-full-lines --input-file=%t.gemm.cu %s
// RUN: %nvcc -c %t.gemm.cu -o %t.gemm.o
//
// The chain the search tries: scalar-replace first, then 'a', then 'b'
// joining a's tiles:
// RUN: %clang-optiml --format-style=none %s --apply='scalar-replace(site=gemm/for#0)' --apply='stage-shared(site=gemm/for#0/a)' --apply='stage-shared(site=gemm/for#0/b)' -o %t.gemmsr.cu
// RUN: %FileCheck --check-prefix=GEMMSR --match-full-lines --input-file=%t.gemmsr.cu %s
// RUN: %nvcc -c %t.gemmsr.cu -o %t.gemmsr.o
//
// A row per thread (gemv):
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=gemv/for#0/A)' -o %t.gemv.cu
// RUN: %FileCheck --check-prefix=GEMV --match-full-lines --input-file=%t.gemv.cu %s
// RUN: %nvcc -c %t.gemv.cu -o %t.gemv.o
//
// A guard that is a conjunction of two indices' bounds, both buffers staged:
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/A)' --apply='stage-shared(site=mm/for#0/B)' -o %t.mm.cu
// RUN: %FileCheck --check-prefix=MM --match-full-lines --input-file=%t.mm.cu %s
// RUN: %nvcc -c %t.mm.cu -o %t.mm.o
//
// Two guards nested, after an early return, with statements before and
// after the loop in both:
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=around/for#0/A,tile=32)' -o %t.around.cu
// RUN: %FileCheck --check-prefix=AROUND --match-full-lines --input-file=%t.around.cu %s
// RUN: %nvcc -c %t.around.cu -o %t.around.o
//
// A guard without braces gets them:
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=unbraced/for#0/A)' -o %t.unbraced.cu
// RUN: %FileCheck --check-prefix=UNBRACED --match-full-lines --input-file=%t.unbraced.cu %s
// RUN: %nvcc -c %t.unbraced.cu -o %t.unbraced.o
//
// Two loops under one guard, staged one after the other; the order does not
// change the result:
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=two/for#0/A,tile=8)' --apply='stage-shared(site=two/for#1/B)' -o %t.two.cu
// RUN: %FileCheck --check-prefix=TWO --match-full-lines --input-file=%t.two.cu %s
// RUN: %nvcc -c %t.two.cu -o %t.two.o
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=two/for#1/B)' --apply='stage-shared(site=two/for#0/A,tile=8)' -o %t.two2.cu
// RUN: diff %t.two.cu %t.two2.cu

#include <cuda_runtime.h>

typedef float DATA_TYPE;

// GEMM: __global__ void gemm(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c, DATA_TYPE alpha,
// GEMM-NEXT: DATA_TYPE beta, int ni, int nj, int nk) {
// GEMM-NEXT: int j = blockIdx.x * blockDim.x + threadIdx.x;
// GEMM-NEXT: int i = blockIdx.y * blockDim.y + threadIdx.y;
// GEMM-EMPTY:
// GEMM-NEXT: {
// GEMM-NEXT: if ((i < ni) && (j < nj)) c[i * nj + j] *= beta;
// GEMM-NEXT: __shared__ DATA_TYPE optiml_a_s[8][16];
// GEMM-NEXT: for (int optiml_k0 = 0; optiml_k0 < nk; optiml_k0 += 16) {
// GEMM-NEXT: for (int optiml_e = threadIdx.y * 32 + threadIdx.x; optiml_e < 8 * 16; optiml_e += 256) {
// GEMM-NEXT: const int optiml_w = optiml_e / 16;
// GEMM-NEXT: const int optiml_t = optiml_e % 16;
// GEMM-NEXT: const int k = optiml_k0 + optiml_t;
// GEMM-NEXT: const int i = 8 * blockIdx.y + optiml_w;
// GEMM-NEXT: optiml_a_s[optiml_w][optiml_t] =
// GEMM-NEXT: (k < nk && (i < ni)) ? a[i * nk + k] : DATA_TYPE(0);
// GEMM-NEXT: }
// GEMM-NEXT: __syncthreads();
// GEMM-NEXT: if ((i < ni) && (j < nj)) {
// GEMM-NEXT: if (optiml_k0 + 16 <= nk) {
// GEMM-NEXT: #pragma unroll
// GEMM-NEXT: for (int k = optiml_k0; k < optiml_k0 + 16; ++k) {
// GEMM-NEXT: c[i * nj + j] += alpha * optiml_a_s[threadIdx.y][k - optiml_k0] * b[k * nj + j];
// GEMM-NEXT: }
// GEMM-NEXT: } else {
// GEMM-NEXT: for (int k = optiml_k0; k < nk; ++k) {
// GEMM-NEXT: c[i * nj + j] += alpha * optiml_a_s[threadIdx.y][k - optiml_k0] * b[k * nj + j];
// GEMM-NEXT: }
// GEMM-NEXT: }
// GEMM-NEXT: }
// GEMM-NEXT: __syncthreads();
// GEMM-NEXT: }
// GEMM-NEXT: }
// GEMM-NEXT: }
//
// GEMMSR: __global__ void gemm(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c, DATA_TYPE alpha,
// GEMMSR-NEXT: DATA_TYPE beta, int ni, int nj, int nk) {
// GEMMSR-NEXT: int j = blockIdx.x * blockDim.x + threadIdx.x;
// GEMMSR-NEXT: int i = blockIdx.y * blockDim.y + threadIdx.y;
// GEMMSR-EMPTY:
// GEMMSR-NEXT: {
// GEMMSR-NEXT: if ((i < ni) && (j < nj)) c[i * nj + j] *= beta;
// GEMMSR-NEXT: if (0 < nk) {
// GEMMSR-NEXT: DATA_TYPE optiml_sr0 = ((i < ni) && (j < nj)) ? c[i * nj + j] : 0;
// GEMMSR-NEXT: __shared__ DATA_TYPE optiml_a_s[8][16];
// GEMMSR-NEXT: __shared__ DATA_TYPE optiml_b_s[16][32];
// GEMMSR-NEXT: for (int optiml_k0 = 0; optiml_k0 < nk; optiml_k0 += 16) {
// GEMMSR-NEXT: for (int optiml_e = threadIdx.y * 32 + threadIdx.x; optiml_e < 8 * 16; optiml_e += 256) {
// GEMMSR-NEXT: const int optiml_w = optiml_e / 16;
// GEMMSR-NEXT: const int optiml_t = optiml_e % 16;
// GEMMSR-NEXT: const int k = optiml_k0 + optiml_t;
// GEMMSR-NEXT: const int i = 8 * blockIdx.y + optiml_w;
// GEMMSR-NEXT: optiml_a_s[optiml_w][optiml_t] =
// GEMMSR-NEXT: (k < nk && (i < ni)) ? a[i * nk + k] : DATA_TYPE(0);
// GEMMSR-NEXT: }
// GEMMSR-NEXT: for (int optiml_e = threadIdx.y * 32 + threadIdx.x; optiml_e < 32 * 16; optiml_e += 256) {
// GEMMSR-NEXT: const int optiml_t = optiml_e / 32;
// GEMMSR-NEXT: const int optiml_w = optiml_e % 32;
// GEMMSR-NEXT: const int k = optiml_k0 + optiml_t;
// GEMMSR-NEXT: const int j = 32 * blockIdx.x + optiml_w;
// GEMMSR-NEXT: optiml_b_s[optiml_t][optiml_w] =
// GEMMSR-NEXT: (k < nk && (j < nj)) ? b[k * nj + j] : DATA_TYPE(0);
// GEMMSR-NEXT: }
// GEMMSR-NEXT: __syncthreads();
// GEMMSR-NEXT: if ((i < ni) && (j < nj)) {
// GEMMSR-NEXT: if (optiml_k0 + 16 <= nk) {
// GEMMSR-NEXT: #pragma unroll
// GEMMSR-NEXT: for (int k = optiml_k0; k < optiml_k0 + 16; ++k) {
// GEMMSR-NEXT: optiml_sr0 += alpha * optiml_a_s[threadIdx.y][k - optiml_k0] * optiml_b_s[k - optiml_k0][threadIdx.x];
// GEMMSR-NEXT: }
// GEMMSR-NEXT: } else {
// GEMMSR-NEXT: for (int k = optiml_k0; k < nk; ++k) {
// GEMMSR-NEXT: optiml_sr0 += alpha * optiml_a_s[threadIdx.y][k - optiml_k0] * optiml_b_s[k - optiml_k0][threadIdx.x];
// GEMMSR-NEXT: }
// GEMMSR-NEXT: }
// GEMMSR-NEXT: }
// GEMMSR-NEXT: __syncthreads();
// GEMMSR-NEXT: }
// GEMMSR-NEXT: if ((i < ni) && (j < nj)) c[i * nj + j] = optiml_sr0;
// GEMMSR-NEXT: }
// GEMMSR-NEXT: }
// GEMMSR-NEXT: }

#pragma optiml kernel sizes(NI = 64, NJ = 64, NK = 64) in(a[NI * NK], b[NK * NJ]) \
    inout(c[NI * NJ]) scalar(alpha = 1.5, beta = 1.2, ni = NI, nj = NJ, nk = NK) \
    grid((NJ + 31) / 32, (NI + 7) / 8) block(32, 8)
__global__ void gemm(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c, DATA_TYPE alpha,
                     DATA_TYPE beta, int ni, int nj, int nk) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < ni) && (j < nj)) {
    c[i * nj + j] *= beta;
    int k;
    for (k = 0; k < nk; k++) {
      c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
  }
}

// GEMV: __global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
// GEMV-NEXT: int row = blockIdx.x * blockDim.x + threadIdx.x;
// GEMV-NEXT: {
// GEMV-NEXT: float sum = 0.0f;
// GEMV-NEXT: __shared__ float optiml_A_s[128][17];
// GEMV-NEXT: for (int optiml_j0 = 0; optiml_j0 < n; optiml_j0 += 16) {
// GEMV-NEXT: for (int optiml_e = threadIdx.x; optiml_e < 128 * 16; optiml_e += 128) {
// GEMV-NEXT: const int optiml_w = optiml_e / 16;
// GEMV-NEXT: const int optiml_t = optiml_e % 16;
// GEMV-NEXT: const int j = optiml_j0 + optiml_t;
// GEMV-NEXT: const int row = 128 * blockIdx.x + optiml_w;
// GEMV-NEXT: optiml_A_s[optiml_w][optiml_t] =
// GEMV-NEXT: (j < n && (row < m)) ? A[row * n + j] : float(0);
// GEMV-NEXT: }
// GEMV-NEXT: __syncthreads();
// GEMV-NEXT: if (row < m) {
// GEMV-NEXT: if (optiml_j0 + 16 <= n) {
// GEMV-NEXT: #pragma unroll
// GEMV-NEXT: for (int j = optiml_j0; j < optiml_j0 + 16; ++j)
// GEMV-NEXT: sum += optiml_A_s[threadIdx.x][j - optiml_j0] * x[j];
// GEMV-NEXT: } else {
// GEMV-NEXT: for (int j = optiml_j0; j < n; ++j)
// GEMV-NEXT: sum += optiml_A_s[threadIdx.x][j - optiml_j0] * x[j];
// GEMV-NEXT: }
// GEMV-NEXT: }
// GEMV-NEXT: __syncthreads();
// GEMV-NEXT: }
// GEMV-NEXT: if (row < m) y[row] = sum;
// GEMV-NEXT: }
// GEMV-NEXT: }

#pragma optiml kernel sizes(M = 64, N = 64) in(A[M * N], x[N]) out(y[M]) \
    scalar(m = M, n = N) grid((M + 127) / 128) block(128)
__global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
      sum += A[row * n + j] * x[j];
    y[row] = sum;
  }
}

// MM: __global__ void mm(const float *A, const float *B, float *C, int m, int n,
// MM-NEXT: int k) {
// MM-NEXT: int col = blockIdx.x * blockDim.x + threadIdx.x;
// MM-NEXT: int row = blockIdx.y * blockDim.y + threadIdx.y;
// MM-NEXT: {
// MM-NEXT: float acc = 0.0f;
// MM-NEXT: __shared__ float optiml_A_s[16][16];
// MM-NEXT: __shared__ float optiml_B_s[16][16];
// MM-NEXT: for (int optiml_i0 = 0; optiml_i0 < k; optiml_i0 += 16) {
// MM-NEXT: for (int optiml_e = threadIdx.y * 16 + threadIdx.x; optiml_e < 16 * 16; optiml_e += 256) {
// MM-NEXT: const int optiml_w = optiml_e / 16;
// MM-NEXT: const int optiml_t = optiml_e % 16;
// MM-NEXT: const int i = optiml_i0 + optiml_t;
// MM-NEXT: const int row = 16 * blockIdx.y + optiml_w;
// MM-NEXT: optiml_A_s[optiml_w][optiml_t] =
// MM-NEXT: (i < k && (row < m)) ? A[row * k + i] : float(0);
// MM-NEXT: }
// MM-NEXT: for (int optiml_e = threadIdx.y * 16 + threadIdx.x; optiml_e < 16 * 16; optiml_e += 256) {
// MM-NEXT: const int optiml_t = optiml_e / 16;
// MM-NEXT: const int optiml_w = optiml_e % 16;
// MM-NEXT: const int i = optiml_i0 + optiml_t;
// MM-NEXT: const int col = 16 * blockIdx.x + optiml_w;
// MM-NEXT: optiml_B_s[optiml_t][optiml_w] =
// MM-NEXT: (i < k && (col < n)) ? B[i * n + col] : float(0);
// MM-NEXT: }
// MM-NEXT: __syncthreads();
// MM-NEXT: if (row < m && col < n) {
// MM-NEXT: if (optiml_i0 + 16 <= k) {
// MM-NEXT: #pragma unroll
// MM-NEXT: for (int i = optiml_i0; i < optiml_i0 + 16; ++i)
// MM-NEXT: acc += optiml_A_s[threadIdx.y][i - optiml_i0] * optiml_B_s[i - optiml_i0][threadIdx.x];
// MM-NEXT: } else {
// MM-NEXT: for (int i = optiml_i0; i < k; ++i)
// MM-NEXT: acc += optiml_A_s[threadIdx.y][i - optiml_i0] * optiml_B_s[i - optiml_i0][threadIdx.x];
// MM-NEXT: }
// MM-NEXT: }
// MM-NEXT: __syncthreads();
// MM-NEXT: }
// MM-NEXT: if (row < m && col < n) C[row * n + col] = acc;
// MM-NEXT: }
// MM-NEXT: }

#pragma optiml kernel sizes(M = 64, N = 64, K = 64) in(A[M * K], B[K * N]) \
    out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
__global__ void mm(const float *A, const float *B, float *C, int m, int n,
                   int k) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    float acc = 0.0f;
    for (int i = 0; i < k; ++i)
      acc += A[row * k + i] * B[i * n + col];
    C[row * n + col] = acc;
  }
}

// AROUND: __global__ void around(const float *A, const float *bias, float *y, int m,
// AROUND-NEXT: int n) {
// AROUND-NEXT: int col = blockIdx.x * blockDim.x + threadIdx.x;
// AROUND-NEXT: int row = blockIdx.y * blockDim.y + threadIdx.y;
// AROUND-NEXT: {
// AROUND-NEXT: float b = (!(row >= m) && col < n) ? bias[row] : 0;
// AROUND-NEXT: if (!(row >= m) && col < n) y[row * n + col] = 0.0f;
// AROUND-NEXT: {
// AROUND-NEXT: float acc = b;
// AROUND-NEXT: __shared__ float optiml_A_s[16][32];
// AROUND-NEXT: for (int optiml_j0 = 0; optiml_j0 < n; optiml_j0 += 32) {
// AROUND-NEXT: for (int optiml_e = threadIdx.y * 16 + threadIdx.x; optiml_e < 16 * 32; optiml_e += 256) {
// AROUND-NEXT: const int optiml_w = optiml_e / 32;
// AROUND-NEXT: const int optiml_t = optiml_e % 32;
// AROUND-NEXT: const int j = optiml_j0 + optiml_t;
// AROUND-NEXT: const int row = 16 * blockIdx.y + optiml_w;
// AROUND-NEXT: optiml_A_s[optiml_w][optiml_t] =
// AROUND-NEXT: (j < n && !(row >= m)) ? A[row * n + j] : float(0);
// AROUND-NEXT: }
// AROUND-NEXT: __syncthreads();
// AROUND-NEXT: if (!(row >= m) && col < n && col > 0) {
// AROUND-NEXT: if (optiml_j0 + 32 <= n) {
// AROUND-NEXT: #pragma unroll
// AROUND-NEXT: for (int j = optiml_j0; j < optiml_j0 + 32; ++j)
// AROUND-NEXT: acc += optiml_A_s[threadIdx.y][j - optiml_j0];
// AROUND-NEXT: } else {
// AROUND-NEXT: for (int j = optiml_j0; j < n; ++j)
// AROUND-NEXT: acc += optiml_A_s[threadIdx.y][j - optiml_j0];
// AROUND-NEXT: }
// AROUND-NEXT: }
// AROUND-NEXT: __syncthreads();
// AROUND-NEXT: }
// AROUND-NEXT: if (!(row >= m) && col < n && col > 0) y[row * n + col] = acc;
// AROUND-NEXT: }
// AROUND-NEXT: if (!(row >= m) && col < n) y[row * n + col] *= 2.0f;
// AROUND-NEXT: }
// AROUND-NEXT: }

#pragma optiml kernel sizes(M = 64, N = 64) in(A[M * N], bias[M]) \
    out(y[M * N]) scalar(m = M, n = N) grid((N + 15) / 16, (M + 15) / 16) \
    block(16, 16)
__global__ void around(const float *A, const float *bias, float *y, int m,
                       int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m)
    return;
  if (col < n) {
    float b = bias[row];
    y[row * n + col] = 0.0f;
    if (col > 0) {
      float acc = b;
      for (int j = 0; j < n; j++)
        acc += A[row * n + j];
      y[row * n + col] = acc;
    }
    y[row * n + col] *= 2.0f;
  }
}

// UNBRACED: __global__ void unbraced(const float *A, float *y, int m, int n) {
// UNBRACED-NEXT: int row = blockIdx.x * blockDim.x + threadIdx.x;
// UNBRACED-NEXT: {
// UNBRACED-NEXT: __shared__ float optiml_A_s[128][17];
// UNBRACED-NEXT: for (int optiml_j0 = 0; optiml_j0 < n; optiml_j0 += 16) {
// UNBRACED-NEXT: for (int optiml_e = threadIdx.x; optiml_e < 128 * 16; optiml_e += 128) {
// UNBRACED-NEXT: const int optiml_w = optiml_e / 16;
// UNBRACED-NEXT: const int optiml_t = optiml_e % 16;
// UNBRACED-NEXT: const int j = optiml_j0 + optiml_t;
// UNBRACED-NEXT: const int row = 128 * blockIdx.x + optiml_w;
// UNBRACED-NEXT: optiml_A_s[optiml_w][optiml_t] =
// UNBRACED-NEXT: (j < n && (row < m)) ? A[row * n + j] : float(0);
// UNBRACED-NEXT: }
// UNBRACED-NEXT: __syncthreads();
// UNBRACED-NEXT: if (row < m) {
// UNBRACED-NEXT: if (optiml_j0 + 16 <= n) {
// UNBRACED-NEXT: #pragma unroll
// UNBRACED-NEXT: for (int j = optiml_j0; j < optiml_j0 + 16; ++j)
// UNBRACED-NEXT: y[row] += optiml_A_s[threadIdx.x][j - optiml_j0];
// UNBRACED-NEXT: } else {
// UNBRACED-NEXT: for (int j = optiml_j0; j < n; ++j)
// UNBRACED-NEXT: y[row] += optiml_A_s[threadIdx.x][j - optiml_j0];
// UNBRACED-NEXT: }
// UNBRACED-NEXT: }
// UNBRACED-NEXT: __syncthreads();
// UNBRACED-NEXT: }
// UNBRACED-NEXT: }
// UNBRACED-NEXT: }

#pragma optiml kernel sizes(M = 64, N = 64) in(A[M * N]) inout(y[M]) \
    scalar(m = M, n = N) grid((M + 127) / 128) block(128)
__global__ void unbraced(const float *A, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m)
    for (int j = 0; j < n; j++)
      y[row] += A[row * n + j];
}

// TWO: __global__ void two(const float *A, const float *B, float *y, int m, int n) {
// TWO-NEXT: int row = blockIdx.x * blockDim.x + threadIdx.x;
// TWO-NEXT: {
// TWO-NEXT: float sa = 0.0f, sb = 0.0f;
// TWO-NEXT: __shared__ float optiml_A_s[128][9];
// TWO-NEXT: for (int optiml_j0 = 0; optiml_j0 < n; optiml_j0 += 8) {
// TWO-NEXT: for (int optiml_e = threadIdx.x; optiml_e < 128 * 8; optiml_e += 128) {
// TWO-NEXT: const int optiml_w = optiml_e / 8;
// TWO-NEXT: const int optiml_t = optiml_e % 8;
// TWO-NEXT: const int j = optiml_j0 + optiml_t;
// TWO-NEXT: const int row = 128 * blockIdx.x + optiml_w;
// TWO-NEXT: optiml_A_s[optiml_w][optiml_t] =
// TWO-NEXT: (j < n && (row < m)) ? A[row * n + j] : float(0);
// TWO-NEXT: }
// TWO-NEXT: __syncthreads();
// TWO-NEXT: if (row < m) {
// TWO-NEXT: if (optiml_j0 + 8 <= n) {
// TWO-NEXT: #pragma unroll
// TWO-NEXT: for (int j = optiml_j0; j < optiml_j0 + 8; ++j)
// TWO-NEXT: sa += optiml_A_s[threadIdx.x][j - optiml_j0];
// TWO-NEXT: } else {
// TWO-NEXT: for (int j = optiml_j0; j < n; ++j)
// TWO-NEXT: sa += optiml_A_s[threadIdx.x][j - optiml_j0];
// TWO-NEXT: }
// TWO-NEXT: }
// TWO-NEXT: __syncthreads();
// TWO-NEXT: }
// TWO-NEXT: __shared__ float optiml_B_s[128][17];
// TWO-NEXT: for (int optiml_j0 = 0; optiml_j0 < n; optiml_j0 += 16) {
// TWO-NEXT: for (int optiml_e = threadIdx.x; optiml_e < 128 * 16; optiml_e += 128) {
// TWO-NEXT: const int optiml_w = optiml_e / 16;
// TWO-NEXT: const int optiml_t = optiml_e % 16;
// TWO-NEXT: const int j = optiml_j0 + optiml_t;
// TWO-NEXT: const int row = 128 * blockIdx.x + optiml_w;
// TWO-NEXT: optiml_B_s[optiml_w][optiml_t] =
// TWO-NEXT: (j < n && (row < m)) ? B[row * n + j] : float(0);
// TWO-NEXT: }
// TWO-NEXT: __syncthreads();
// TWO-NEXT: if (row < m) {
// TWO-NEXT: if (optiml_j0 + 16 <= n) {
// TWO-NEXT: #pragma unroll
// TWO-NEXT: for (int j = optiml_j0; j < optiml_j0 + 16; ++j)
// TWO-NEXT: sb += optiml_B_s[threadIdx.x][j - optiml_j0];
// TWO-NEXT: } else {
// TWO-NEXT: for (int j = optiml_j0; j < n; ++j)
// TWO-NEXT: sb += optiml_B_s[threadIdx.x][j - optiml_j0];
// TWO-NEXT: }
// TWO-NEXT: }
// TWO-NEXT: __syncthreads();
// TWO-NEXT: }
// TWO-NEXT: if (row < m) y[row] = sa * sb;
// TWO-NEXT: }
// TWO-NEXT: }

#pragma optiml kernel sizes(M = 64, N = 64) in(A[M * N], B[M * N]) out(y[M]) \
    scalar(m = M, n = N) grid((M + 127) / 128) block(128)
__global__ void two(const float *A, const float *B, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sa = 0.0f, sb = 0.0f;
    for (int j = 0; j < n; j++)
      sa += A[row * n + j];
    for (int j = 0; j < n; j++)
      sb += B[row * n + j];
    y[row] = sa * sb;
  }
}

// Declarations after an early return that read memory or call (a bias, a
// float3 made from it) keep their place and get their value only where the
// folded guard holds; a record's other value is its default.
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=read_after_return/for#0/A)' -o %t.rar.cu
// RUN: %FileCheck --check-prefix=RAR --input-file=%t.rar.cu %s
// RUN: %nvcc -c %t.rar.cu -o %t.rar.o
// RAR-LABEL: __global__ void read_after_return(
// RAR: {{^}}  int row = blockIdx.x * blockDim.x + threadIdx.x;
// RAR-NEXT: {{^}}  float b = (!(row >= m)) ? bias[row] : 0;
// RAR-NEXT: {{^}}  float3 acc = (!(row >= m)) ? make_float3(b, 0.0f, 0.0f) : float3();
// RAR: {{^}}  if (!(row >= m)) y[row] = acc.x + acc.y;
#pragma optiml kernel sizes(M = 256, N = 64) in(A[M * N], bias[M]) out(y[M]) \
    scalar(m = M, n = N) grid((M + 127) / 128) block(128)
__global__ void read_after_return(const float *A, const float *bias, float *y,
                                  int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m)
    return;
  float b = bias[row];
  float3 acc = make_float3(b, 0.0f, 0.0f);
  for (int j = 0; j < n; j++)
    acc.x += A[row * n + j];
  y[row] = acc.x + acc.y;
}
