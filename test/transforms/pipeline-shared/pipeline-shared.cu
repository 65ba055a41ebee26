// pipeline-shared(site=<kernel>/<loop>, stages=N): the __shared__ tiles of a
// tile loop get N buffers; the copies of the next N-1 tiles are issued with
// cp.async while the current one is used, and one barrier per iteration
// remains.
//
// After stage-shared on a naive matmul: the first tile is issued before the
// loop; each iteration waits for its tile, issues the next one into the
// other buffer (zero fill where the staging's guard fails) and works on the
// current buffer.
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/A)' --apply='stage-shared(site=mm/for#0/B)' --apply='pipeline-shared(site=mm/for#0)' -o %t.mm.cu
// RUN: %FileCheck --check-prefix=MM --match-full-lines --input-file=%t.mm.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.mm.cu -o %t.mm.o
//
// Staging another buffer into the pipelined loop would load it into a
// single buffer at the top of the next tile, while others may still read
// it: stage-shared refuses to join a loop without its last barrier.
// RUN: not %clang-optiml %s --apply='stage-shared(site=mm/for#0/A)' --apply='pipeline-shared(site=mm/for#0)' --apply='stage-shared(site=mm/for#1/B)' 2>&1 | %FileCheck --check-prefix=JOIN %s
// JOIN: stage-shared(site=mm/for#1/B) is not applicable: this tile loop has no barrier at its end (it is pipelined); stage the buffer before pipelining the loop (in the source after step 2)
//
// A hand-written tiled matmul, its copies guarded by an if/else and by a
// conditional with a fill that is not zero (stored as before):
// RUN: %clang-optiml --format-style=none %s --apply='pipeline-shared(site=tiled/for#0)' -o %t.tiled.cu
// RUN: %FileCheck --check-prefix=TILED --match-full-lines --input-file=%t.tiled.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.tiled.cu -o %t.tiled.o
//
// Three and four stages: a prologue loop over the first tiles, and the
// wait lets the newer copies fly.
// RUN: %clang-optiml --format-style=none %s --apply='pipeline-shared(site=tiled/for#0,stages=3)' -o %t.s3.cu
// RUN: %FileCheck --check-prefix=S3 --match-full-lines --input-file=%t.s3.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.s3.cu -o %t.s3.o
// RUN: %clang-optiml --format-style=none %s --apply='pipeline-shared(site=tiled/for#0,stages=4)' -o %t.s4.cu
// RUN: %FileCheck --check-prefix=S4 --match-full-lines --input-file=%t.s4.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.s4.cu -o %t.s4.o
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=tiled/for#0,stages=5)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: stages=5 is outside its domain {2, 3, 4}
//
// Shared memory read after the loop keeps a barrier at its end; two
// pipelined loops of one kernel get counters of their own, and the include
// comes once:
// RUN: %clang-optiml --format-style=none %s --apply='pipeline-shared(site=twice/for#0)' --apply='pipeline-shared(site=twice/for#2)' -o %t.twice.cu
// RUN: %FileCheck --check-prefix=TWICE --match-full-lines --input-file=%t.twice.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.twice.cu -o %t.twice.o
//
// 16-byte elements (float4, copied by its trivial assignment), the fill a
// vector maker, stored as before:
// RUN: %clang-optiml --format-style=none %s --apply='pipeline-shared(site=vec4/for#0)' -o %t.vec4.cu
// RUN: %FileCheck --check-prefix=VEC4 --match-full-lines --input-file=%t.vec4.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.vec4.cu -o %t.vec4.o
//
// A loop that is the body of an `if` gets braces around its prologue; a
// guarded copy that is the body of a copy loop gets braces of its own:
// RUN: %clang-optiml --format-style=none %s --apply='pipeline-shared(site=nested/for#0)' -o %t.nested.cu
// RUN: %FileCheck --check-prefix=NESTED --match-full-lines --input-file=%t.nested.cu %s
// RUN: %nvcc -Werror all-warnings -c %t.nested.cu -o %t.nested.o
//
// It is listed with its kind of site:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  pipeline-shared {{ *}}loop {{ *}}N-buffer a tile loop's __shared__ tiles

// MM: #include <cuda_runtime.h>
// MM-NEXT: #include <cuda_pipeline.h>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 64, N = 64, K = 64) in(A[M * K], B[K * N]) \
    out(C[M * N]) scalar(m = M, n = N, k = K) grid((N + 15) / 16, (M + 15) / 16) \
    block(16, 16)
__global__ void mm(const float *A, const float *B, float *C, int m, int n,
                   int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  // MM: __shared__ float optiml_A_s[2][16][16];
  // MM-NEXT: __shared__ float optiml_B_s[2][16][16];
  // MM-NEXT: int optiml_stage = 0;
  // MM-NEXT: {
  // MM-NEXT: const int optiml_i0 = 0;
  // MM-NEXT: if (optiml_i0 < k) {
  // MM-NEXT: for (int optiml_e = threadIdx.y * 16 + threadIdx.x; optiml_e < 16 * 16; optiml_e += 256) {
  // MM-NEXT: const int optiml_w = optiml_e / 16;
  // MM-NEXT: const int optiml_t = optiml_e % 16;
  // MM-NEXT: const int i = optiml_i0 + optiml_t;
  // MM-NEXT: const int row = 16 * blockIdx.y + optiml_w;
  // MM-NEXT: if (i < k && !(row >= m))
  // MM-NEXT: __pipeline_memcpy_async(&optiml_A_s[0][optiml_w][optiml_t], &A[row * k + i], sizeof(float));
  // MM-NEXT: else
  // MM-NEXT: __pipeline_memcpy_async(&optiml_A_s[0][optiml_w][optiml_t], A, sizeof(float), sizeof(float));
  // MM-NEXT: }
  // MM: __pipeline_memcpy_async(&optiml_B_s[0][optiml_t][optiml_w], B, sizeof(float), sizeof(float));
  // MM-NEXT: }
  // MM-NEXT: }
  // MM-NEXT: }
  // MM-NEXT: __pipeline_commit();
  // MM-NEXT: for (int optiml_i0 = 0; optiml_i0 < k; optiml_i0 += 16) {
  // MM-NEXT: __pipeline_wait_prior(0);
  // MM-NEXT: __syncthreads();
  // MM-NEXT: {
  // MM-NEXT: const int optiml_next = optiml_i0 + 16;
  // MM-NEXT: const int optiml_i0 = optiml_next;
  // MM-NEXT: if (optiml_i0 < k) {
  // MM-NEXT: for (int optiml_e = threadIdx.y * 16 + threadIdx.x; optiml_e < 16 * 16; optiml_e += 256) {
  // MM: __pipeline_memcpy_async(&optiml_A_s[(optiml_stage + 1) % 2][optiml_w][optiml_t], &A[row * k + i], sizeof(float));
  // MM: __pipeline_memcpy_async(&optiml_B_s[(optiml_stage + 1) % 2][optiml_t][optiml_w], B, sizeof(float), sizeof(float));
  // MM-NEXT: }
  // MM-NEXT: }
  // MM-NEXT: }
  // MM-NEXT: __pipeline_commit();
  // MM-NEXT: if (!(row >= m || col >= n)) {
  // MM-NEXT: if (optiml_i0 + 16 <= k) {
  // MM-NEXT: #pragma unroll
  // MM-NEXT: for (int i = optiml_i0; i < optiml_i0 + 16; ++i)
  // MM-NEXT: acc += optiml_A_s[optiml_stage][threadIdx.y][i - optiml_i0] * optiml_B_s[optiml_stage][i - optiml_i0][threadIdx.x];
  // MM: optiml_stage = (optiml_stage + 1) % 2;
  // MM-NEXT: }
  // MM-NEXT: if (!(row >= m || col >= n)) C[row * n + col] = acc;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

#define TILE 16

// TILED: __shared__ float As[2][TILE][TILE];
// TILED-NEXT: __shared__ float Bs[2][TILE][TILE];
__global__ void tiled(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  // TILED: int optiml_stage = 0;
  // TILED-NEXT: {
  // TILED-NEXT: const int t = 0;
  // TILED-NEXT: if (t < (K + TILE - 1) / TILE) {
  // TILED-NEXT: int aCol = t * TILE + tx;
  // TILED-NEXT: int bRow = t * TILE + ty;
  // TILED-NEXT: if (row < M && aCol < K)
  // TILED-NEXT: __pipeline_memcpy_async(&As[0][ty][tx], &A[row * K + aCol], sizeof(float));
  // TILED-NEXT: else
  // TILED-NEXT: __pipeline_memcpy_async(&As[0][ty][tx], A, sizeof(float), sizeof(float));
  // TILED-NEXT: if (bRow < K && col < N)
  // TILED-NEXT: __pipeline_memcpy_async(&Bs[0][ty][tx], &B[bRow * N + col], sizeof(float));
  // TILED-NEXT: else
  // TILED-NEXT: Bs[0][ty][tx] = -1.0f;
  // TILED-NEXT: }
  // TILED-NEXT: }
  // TILED-NEXT: __pipeline_commit();
  // TILED-NEXT: for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
  // TILED-NEXT: __pipeline_wait_prior(0);
  // TILED-NEXT: __syncthreads();
  // TILED-NEXT: {
  // TILED-NEXT: const int optiml_next = t + 1;
  // TILED-NEXT: const int t = optiml_next;
  // TILED-NEXT: if (t < (K + TILE - 1) / TILE) {
  // TILED-NEXT: int aCol = t * TILE + tx;
  // TILED-NEXT: int bRow = t * TILE + ty;
  // TILED-NEXT: if (row < M && aCol < K)
  // TILED-NEXT: __pipeline_memcpy_async(&As[(optiml_stage + 1) % 2][ty][tx], &A[row * K + aCol], sizeof(float));
  // TILED-NEXT: else
  // TILED-NEXT: __pipeline_memcpy_async(&As[(optiml_stage + 1) % 2][ty][tx], A, sizeof(float), sizeof(float));
  // TILED-NEXT: if (bRow < K && col < N)
  // TILED-NEXT: __pipeline_memcpy_async(&Bs[(optiml_stage + 1) % 2][ty][tx], &B[bRow * N + col], sizeof(float));
  // TILED-NEXT: else
  // TILED-NEXT: Bs[(optiml_stage + 1) % 2][ty][tx] = -1.0f;
  // TILED-NEXT: }
  // TILED-NEXT: }
  // TILED-NEXT: __pipeline_commit();
  // TILED-NEXT: for (int i = 0; i < TILE; ++i)
  // TILED-NEXT: acc += As[optiml_stage][ty][i] * Bs[optiml_stage][i][tx];
  // TILED-NEXT: optiml_stage = (optiml_stage + 1) % 2;
  // TILED-NEXT: }
  // TILED-NEXT: if (row < M && col < N)
  //
  // S3: int optiml_stage = 0;
  // S3-NEXT: for (int optiml_p = 0; optiml_p < 2; ++optiml_p) {
  // S3-NEXT: const int t = 0 + optiml_p;
  // S3-NEXT: if (t < (K + TILE - 1) / TILE) {
  // S3: __pipeline_memcpy_async(&As[optiml_p][ty][tx], &A[row * K + aCol], sizeof(float));
  // S3: Bs[optiml_p][ty][tx] = -1.0f;
  // S3-NEXT: }
  // S3-NEXT: __pipeline_commit();
  // S3-NEXT: }
  // S3-NEXT: for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
  // S3-NEXT: __pipeline_wait_prior(1);
  // S3-NEXT: __syncthreads();
  // S3-NEXT: {
  // S3-NEXT: const int optiml_next = t + 2;
  // S3: __pipeline_memcpy_async(&As[(optiml_stage + 2) % 3][ty][tx], &A[row * K + aCol], sizeof(float));
  // S3: acc += As[optiml_stage][ty][i] * Bs[optiml_stage][i][tx];
  // S3-NEXT: optiml_stage = (optiml_stage + 1) % 3;
  //
  // S4: __shared__ float As[4][TILE][TILE];
  // S4: for (int optiml_p = 0; optiml_p < 3; ++optiml_p) {
  // S4: __pipeline_wait_prior(2);
  // S4: const int optiml_next = t + 3;
  // S4: optiml_stage = (optiml_stage + 1) % 4;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + tx;
    int bRow = t * TILE + ty;
    if (row < M && aCol < K)
      As[ty][tx] = A[row * K + aCol];
    else
      As[ty][tx] = 0.0f;
    Bs[ty][tx] = (bRow < K && col < N) ? B[bRow * N + col] : -1.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Two tile loops: the first is followed by shared memory use (the second
// loop's tile), so a barrier still ends it; nothing after the second needs
// one.
__global__ void twice(const float *x, float *y, int n) {
  __shared__ float a[256];
  __shared__ float b[256];
  float s = 0.0f;
  // TWICE: int optiml_stage = 0;
  // TWICE: for (int j = 0; j < n; j += 256) {
  // TWICE: s += a[optiml_stage][(threadIdx.x + 1) % 256];
  // TWICE-NEXT: optiml_stage = (optiml_stage + 1) % 2;
  // TWICE-NEXT: }
  // TWICE-NEXT: __syncthreads();
  // TWICE-NEXT: for (int j = 0; j < 256; ++j)
  for (int j = 0; j < n; j += 256) {
    a[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += a[(threadIdx.x + 1) % 256];
    __syncthreads();
  }
  for (int j = 0; j < 256; ++j)
    s += 1.0f;
  // TWICE: int optiml_stage0 = 0;
  // TWICE: for (int j = 0; j < n; j += 256) {
  // TWICE: s += b[optiml_stage0][255 - threadIdx.x];
  // TWICE-NEXT: optiml_stage0 = (optiml_stage0 + 1) % 2;
  // TWICE-NEXT: }
  // TWICE-NEXT: y[threadIdx.x] = s;
  for (int j = 0; j < n; j += 256) {
    b[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += b[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

// NESTED: if (n > 0)
// NESTED-NEXT: {
// NESTED-NEXT: int optiml_stage = 0;
// NESTED: for (int e = threadIdx.x; e < 128; e += blockDim.x)
// NESTED-NEXT: {
// NESTED-NEXT: if (j + e < n)
// NESTED-NEXT: __pipeline_memcpy_async(&a[0][e], &x[j + e], sizeof(double));
// NESTED-NEXT: else
// NESTED-NEXT: __pipeline_memcpy_async(&a[0][e], x, sizeof(double), sizeof(double));
// NESTED-NEXT: }
// NESTED: for (int j = 0; j < n; j += 128) {
// NESTED: optiml_stage = (optiml_stage + 1) % 2;
// NESTED-NEXT: }
// NESTED-NEXT: }
// NESTED-NEXT: y[threadIdx.x] = s;
__global__ void nested(const double *x, double *y, int n) {
  __shared__ double a[128];
  double s = 0.0;
  if (n > 0)
    for (int j = 0; j < n; j += 128) {
      for (int e = threadIdx.x; e < 128; e += blockDim.x)
        a[e] = (j + e < n) ? x[j + e] : 0.0;
      __syncthreads();
      s += a[127 - threadIdx.x];
      __syncthreads();
    }
  y[threadIdx.x] = s;
}

// VEC4: __shared__ float4 t[2][64];
__global__ void vec4(const float4 *x, float4 *y, int n) {
  __shared__ float4 t[64];
  float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  // VEC4: if (j + threadIdx.x < n)
  // VEC4-NEXT: __pipeline_memcpy_async(&t[0][threadIdx.x], &x[j + threadIdx.x], sizeof(float4));
  // VEC4-NEXT: else
  // VEC4-NEXT: t[0][threadIdx.x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  // VEC4: s.x += t[optiml_stage][63 - threadIdx.x].x;
  for (int j = 0; j < n; j += 64) {
    if (j + threadIdx.x < n)
      t[threadIdx.x] = x[j + threadIdx.x];
    else
      t[threadIdx.x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    s.x += t[63 - threadIdx.x].x;
    __syncthreads();
  }
  y[threadIdx.x] = s;
}
