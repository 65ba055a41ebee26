// stage-shared(site=<kernel>/<loop>/<buffer>, tile=T): a read-only buffer's
// tile goes through __shared__ memory once per T iterations of the loop.
//
// A alone, with the default tile: the early return becomes a guard, the
// loop a tile loop with a cooperative load, a barrier, a full-tile copy of
// the body (unrolled) and a remainder copy.
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/A)' -o %t.a.cu
// RUN: %FileCheck --check-prefix=A --match-full-lines --input-file=%t.a.cu %s
// RUN: %nvcc -c %t.a.cu -o %t.a.o
//
// Then B joins A's tiles (one load more before the same barrier):
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/A,tile=8)' --apply='stage-shared(site=mm/for#0/B)' -o %t.ab.cu
// RUN: %FileCheck --check-prefix=AB --match-full-lines --input-file=%t.ab.cu %s
// RUN: %nvcc -c %t.ab.cu -o %t.ab.o
//
// Each tile of the domain:
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/B,tile=8)' | %FileCheck --check-prefix=TILE -DT=8 %s
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/B,tile=32)' | %FileCheck --check-prefix=TILE -DT=32 %s
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/B,tile=64)' | %FileCheck --check-prefix=TILE -DT=64 %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/B,tile=12)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// DOMAIN: tile=12 is outside its domain {8, 16, 32, 64}
//
// A buffer joining a staged loop must use its tile:
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=mm/for#0/A,tile=8)' --apply='stage-shared(site=mm/for#0/B,tile=32)' 2>&1 | %FileCheck --check-prefix=JOINTILE %s
// JOINTILE: already staged with tiles of 8; a buffer joining it must use the same
//
// Stores exchanged through a padded tile (the transpose form):
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=tr/out)' -o %t.tr.cu
// RUN: %FileCheck --check-prefix=TR --match-full-lines --input-file=%t.tr.cu %s
// RUN: %nvcc -c %t.tr.cu -o %t.tr.o
//
// With coarsening copies in y, the block (32, 8) and its 4 copies make the
// square; the partner's stores get copies too:
// RUN: %clang-optiml --format-style=none %s --apply='coarsen(site=tr4,dim=y,factor=4)' --apply='stage-shared(site=tr4/out)' -o %t.tr4.cu
// RUN: %FileCheck --check-prefix=TR4 --match-full-lines --input-file=%t.tr4.cu %s
// RUN: %nvcc -c %t.tr4.cu -o %t.tr4.o

#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 64, N = 64, K = 64) in(A[M * K], B[K * N]) \
    out(C[M * N]) scalar(m = M, n = N, k = K) grid((N + 15) / 16, (M + 15) / 16) \
    block(16, 16)
__global__ void mm(const float *A, const float *B, float *C, int m, int n,
                   int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  // A-NOT: {{^ *}}return;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  // A: __shared__ float optiml_A_s[16][16];
  // A-NEXT: for (int optiml_i0 = 0; optiml_i0 < k; optiml_i0 += 16) {
  // A-NEXT: for (int optiml_e = threadIdx.y * 16 + threadIdx.x; optiml_e < 16 * 16; optiml_e += 256) {
  // A-NEXT: const int optiml_w = optiml_e / 16;
  // A-NEXT: const int optiml_t = optiml_e % 16;
  // A-NEXT: const int i = optiml_i0 + optiml_t;
  // A-NEXT: const int row = 16 * blockIdx.y + optiml_w;
  // A-NEXT: optiml_A_s[optiml_w][optiml_t] =
  // A-NEXT: (i < k && !(row >= m)) ? A[row * k + i] : float(0);
  // A-NEXT: }
  // A-NEXT: __syncthreads();
  // A-NEXT: if (!(row >= m || col >= n)) {
  // A-NEXT: if (optiml_i0 + 16 <= k) {
  // A-NEXT: #pragma unroll
  // A-NEXT: for (int i = optiml_i0; i < optiml_i0 + 16; ++i)
  // A-NEXT: acc += optiml_A_s[threadIdx.y][i - optiml_i0] * B[i * n + col];
  // A-NEXT: } else {
  // A-NEXT: for (int i = optiml_i0; i < k; ++i)
  // A-NEXT: acc += optiml_A_s[threadIdx.y][i - optiml_i0] * B[i * n + col];
  // A-NEXT: }
  // A-NEXT: }
  // A-NEXT: __syncthreads();
  // A-NEXT: }
  // A-NEXT: if (!(row >= m || col >= n)) C[row * n + col] = acc;
  //
  // AB: __shared__ float optiml_A_s[16][8];
  // AB-NEXT: __shared__ float optiml_B_s[8][16];
  // AB: const int col = 16 * blockIdx.x + optiml_w;
  // AB-NEXT: optiml_B_s[optiml_t][optiml_w] =
  // AB-NEXT: (i < k && !(col >= n)) ? B[i * n + col] : float(0);
  // AB-NEXT: }
  // AB-NEXT: __syncthreads();
  // AB: acc += optiml_A_s[threadIdx.y][i - optiml_i0] * optiml_B_s[i - optiml_i0][threadIdx.x];
  // AB: acc += optiml_A_s[threadIdx.y][i - optiml_i0] * optiml_B_s[i - optiml_i0][threadIdx.x];
  //
  // TILE: __shared__ float optiml_B_s[[[T]]][16];
  // TILE: optiml_i0 += [[T]]) {
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

#pragma optiml kernel sizes(R = 64, C = 64) in(in[R * C]) out(out[C * R]) \
    scalar(rows = R, cols = C) grid((C + 31) / 32, (R + 31) / 32) block(32, 32)
// TR: __global__ void tr({{.*}}
// TR-NEXT: __shared__ float optiml_out_s[32][32 + 1];
__global__ void tr(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  // TR: if (r < rows && c < cols)
  // TR-NEXT: optiml_out_s[threadIdx.y][threadIdx.x] = in[r * cols + c];
  // TR-NEXT: __syncthreads();
  // TR-NEXT: {
  // TR-NEXT: const int c = 32 * blockIdx.x + threadIdx.y;
  // TR-NEXT: const int r = 32 * blockIdx.y + threadIdx.x;
  // TR-NEXT: if ((r < rows) && (c < cols))
  // TR-NEXT: out[c * rows + r] = optiml_out_s[threadIdx.x][threadIdx.y];
  // TR-NEXT: }
  if (r < rows && c < cols)
    out[c * rows + r] = in[r * cols + c];
}

#pragma optiml kernel sizes(R = 64, C = 64) in(in[R * C]) out(out[C * R]) \
    scalar(rows = R, cols = C) grid((C + 31) / 32, (R + 7) / 8) block(32, 8)
// TR4: __global__ void tr4({{.*}}
// TR4-NEXT: __shared__ float optiml_out_s[32][32 + 1];
// TR4: optiml_out_s[threadIdx.y + 8 * optiml_cy][threadIdx.x] = in[r * cols + c];
// TR4-NEXT: }
// TR4-NEXT: __syncthreads();
// TR4-NEXT: #pragma unroll
// TR4-NEXT: for (int optiml_cy = 0; optiml_cy < 4; ++optiml_cy) {
// TR4-NEXT: const int c = 32 * blockIdx.x + threadIdx.y + 8 * optiml_cy;
// TR4-NEXT: const int r = 32 * blockIdx.y + threadIdx.x;
// TR4-NEXT: if ((r < rows) && (c < cols))
// TR4-NEXT: out[c * rows + r] = optiml_out_s[threadIdx.x][threadIdx.y + 8 * optiml_cy];
__global__ void tr4(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[c * rows + r] = in[r * cols + c];
}

void launch_tr4(const float *in, float *out, int rows, int cols) {
  tr4<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows,
                                                              cols);
}
