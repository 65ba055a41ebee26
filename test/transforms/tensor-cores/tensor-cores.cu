// tensor-cores(site, precision, tile): the outputs of a matrix-product
// loop computed by tiles with nvcuda::wmma; every launch gets the new block
// and grid, the mark too.
//
// sgemm-like, launched here, precision and tile by default (tf32x3, 64):
// RUN: %clang-optiml %s --format-style=none --apply='tensor-cores(site=nn/for#0)' -o %t.nn.cu
// RUN: %FileCheck --match-full-lines --check-prefix=NN --input-file=%t.nn.cu %s
// RUN: %nvcc -c %t.nn.cu -o %t.nn.o
//
// PolyBench-style: the sum goes to the output in global memory, scaled:
// RUN: %clang-optiml %s --format-style=none --apply='tensor-cores(site=poly/for#0,precision=tf32,tile=32)' -o %t.poly.cu
// RUN: %FileCheck --check-prefix=POLY --input-file=%t.poly.cu %s
// RUN: %nvcc -c %t.poly.cu -o %t.poly.o
//
// The left operand stored column-major, the right one as rows of k; the
// mark stands for the launches:
// RUN: %clang-optiml %s --format-style=none --apply='tensor-cores(site=tn/for#0,precision=bf16,tile=128)' -o %t.tn.cu
// RUN: %FileCheck --check-prefix=TN --match-full-lines --input-file=%t.tn.cu %s
// RUN: %nvcc -c %t.tn.cu -o %t.tn.o
//
// __half inputs stay as they are with precision=half (the default there):
// RUN: %clang-optiml %s --list-sites --kernel=hgemm | %FileCheck --check-prefix=HDEF %s
// HDEF: tensor-cores{{ +}}hgemm/for#0{{ +}}legal: --apply='tensor-cores(site=hgemm/for#0,precision=half,tile=64)'
// RUN: %clang-optiml %s --format-style=none --apply='tensor-cores(site=hgemm/for#0)' -o %t.h.cu
// RUN: %FileCheck --check-prefix=HALF --match-full-lines --input-file=%t.h.cu %s
// RUN: %nvcc -c %t.h.cu -o %t.h.o
//
// __nv_bfloat16 inputs likewise with precision=bf16:
// RUN: %clang-optiml %s --format-style=none --apply='tensor-cores(site=bgemm/for#0,tile=32)' -o %t.b.cu
// RUN: %FileCheck --check-prefix=BF16 --match-full-lines --input-file=%t.b.cu %s
// RUN: %nvcc -c %t.b.cu -o %t.b.o
//
// A loose tolerance in the mark suggests tf32; a tighter one (down to
// tf32x3's floor, rtol 1e-3 and norm 1e-4) tf32x3:
// RUN: %clang-optiml %s --list-sites --kernel=poly | %FileCheck --check-prefix=PDEF %s
// PDEF: tensor-cores{{ +}}poly/for#0{{ +}}legal: --apply='tensor-cores(site=poly/for#0,precision=tf32,tile=64)'
// RUN: %clang-optiml %s --list-sites --kernel=nn | %FileCheck --check-prefix=NDEF %s
// NDEF: tensor-cores{{ +}}nn/for#0{{ +}}legal: --apply='tensor-cores(site=nn/for#0,precision=tf32x3,tile=64)'
//
// Parameters outside their domains:
// RUN: not %clang-optiml %s --apply='tensor-cores(site=nn/for#0,tile=16)' 2>&1 | %FileCheck --check-prefix=TILE %s
// TILE: tile=16 is outside its domain {32, 64, 128}
// RUN: not %clang-optiml %s --apply='tensor-cores(site=nn/for#0,precision=fp8)' 2>&1 | %FileCheck --check-prefix=PREC %s
// PREC: precision=fp8 is outside its domain {tf32x3, tf32, bf16, half}
//
// It is listed, as changing numerics:
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  tensor-cores {{ *}}loop {{ *}}compute a matrix-product loop's outputs by tiles on the tensor cores (nvcuda::wmma), the inputs staged through shared memory in tf32, bf16 or half (changes numerics)

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(M = 512, N = 512, K = 256) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-3, atol = 1e-3, norm = 1e-4)
__global__ void nn(const float *A, const float *B, float *C, int m, int n,
                   int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc; // the epilogue
}

// NN:      #include <mma.h>
// NN-NEXT: #include <cuda_bf16.h>
// NN:      #pragma optiml kernel sizes(M = 512, N = 512, K = 256) \
// NN-NEXT:     in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
// NN-NEXT:     grid((N + 63) / 64, (M + 63) / 64) block(32, 4) \
// NN:      __global__ void nn(const float *A, const float *B, float *C, int m, int n,
// NN-NEXT:                    int k) {
// NN-NEXT:   // tensor-cores(precision=tf32x3, tile=64): the block computes 64 x 64 outputs, each of
// NN-NEXT:   // its 4 warps 2 x 2 pieces of 16 x 16 on the tensor cores.
// NN-NEXT:   namespace wmma = nvcuda::wmma;
// NN-NEXT:   __shared__ __align__(32) float optiml_ta[64][32 + 4];
// NN-NEXT:   __shared__ __align__(32) float optiml_ta_lo[64][32 + 4];
// NN-NEXT:   __shared__ __align__(32) float optiml_tb[32][64 + 4];
// NN-NEXT:   __shared__ __align__(32) float optiml_tb_lo[32][64 + 4];
// NN-NEXT:   __shared__ __align__(32) float optiml_tc[4][16][16 + 4];
// NN-NEXT:   const int optiml_tid = threadIdx.y * 32 + threadIdx.x;
// NN-NEXT:   const int optiml_wr = threadIdx.y / 2 * 32, optiml_wc = threadIdx.y % 2 * 32;
// NN-NEXT:   wmma::fragment<wmma::accumulator, 16, 16, 8, float> optiml_acc[2][2];
// NN-NEXT:   #pragma unroll
// NN-NEXT:   for (int optiml_i = 0; optiml_i < 2; ++optiml_i)
// NN-NEXT:     #pragma unroll
// NN-NEXT:     for (int optiml_j = 0; optiml_j < 2; ++optiml_j)
// NN-NEXT:       wmma::fill_fragment(optiml_acc[optiml_i][optiml_j], 0.0f);
// NN-NEXT:   for (int optiml_k0 = 0; optiml_k0 < k; optiml_k0 += 32) {
// NN-NEXT:     #pragma unroll
// NN-NEXT:     for (int optiml_e = optiml_tid; optiml_e < 64 * 32; optiml_e += 128) {
// NN-NEXT:       const int row = blockIdx.y * 64 + optiml_e / 32;
// NN-NEXT:       const int i = optiml_k0 + optiml_e % 32;
// NN-NEXT:       const float optiml_x = !(row >= m) && i < k ? A[row * k + i] : 0.0f;
// NN-NEXT:       const float optiml_hi = wmma::__float_to_tf32(optiml_x);
// NN-NEXT:       optiml_ta[optiml_e / 32][optiml_e % 32] = optiml_hi;
// NN-NEXT:       optiml_ta_lo[optiml_e / 32][optiml_e % 32] = wmma::__float_to_tf32(optiml_x - optiml_hi);
// NN-NEXT:     }
// NN-NEXT:     #pragma unroll
// NN-NEXT:     for (int optiml_e = optiml_tid; optiml_e < 32 * 64; optiml_e += 128) {
// NN-NEXT:       const int col = blockIdx.x * 64 + optiml_e % 64;
// NN-NEXT:       const int i = optiml_k0 + optiml_e / 64;
// NN-NEXT:       const float optiml_x = !(col >= n) && i < k ? B[i * n + col] : 0.0f;
// NN-NEXT:       const float optiml_hi = wmma::__float_to_tf32(optiml_x);
// NN-NEXT:       optiml_tb[optiml_e / 64][optiml_e % 64] = optiml_hi;
// NN-NEXT:       optiml_tb_lo[optiml_e / 64][optiml_e % 64] = wmma::__float_to_tf32(optiml_x - optiml_hi);
// NN-NEXT:     }
// NN-NEXT:     __syncthreads();
// NN-NEXT:     for (int optiml_ks = 0; optiml_ks < 32; optiml_ks += 8) {
// NN-NEXT:       wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> optiml_fa[2];
// NN-NEXT:       wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> optiml_fa_lo[2];
// NN-NEXT:       wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> optiml_fb[2];
// NN-NEXT:       wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> optiml_fb_lo[2];
// NN-NEXT:       #pragma unroll
// NN-NEXT:       for (int optiml_i = 0; optiml_i < 2; ++optiml_i) {
// NN-NEXT:         wmma::load_matrix_sync(optiml_fa[optiml_i], &optiml_ta[optiml_wr + 16 * optiml_i][optiml_ks], 36);
// NN-NEXT:         wmma::load_matrix_sync(optiml_fa_lo[optiml_i], &optiml_ta_lo[optiml_wr + 16 * optiml_i][optiml_ks], 36);
// NN-NEXT:       }
// NN-NEXT:       #pragma unroll
// NN-NEXT:       for (int optiml_j = 0; optiml_j < 2; ++optiml_j) {
// NN-NEXT:         wmma::load_matrix_sync(optiml_fb[optiml_j], &optiml_tb[optiml_ks][optiml_wc + 16 * optiml_j], 68);
// NN-NEXT:         wmma::load_matrix_sync(optiml_fb_lo[optiml_j], &optiml_tb_lo[optiml_ks][optiml_wc + 16 * optiml_j], 68);
// NN-NEXT:       }
// NN-NEXT:       #pragma unroll
// NN-NEXT:       for (int optiml_i = 0; optiml_i < 2; ++optiml_i)
// NN-NEXT:         #pragma unroll
// NN-NEXT:         for (int optiml_j = 0; optiml_j < 2; ++optiml_j) {
// NN-NEXT:           wmma::mma_sync(optiml_acc[optiml_i][optiml_j], optiml_fa_lo[optiml_i], optiml_fb[optiml_j], optiml_acc[optiml_i][optiml_j]);
// NN-NEXT:           wmma::mma_sync(optiml_acc[optiml_i][optiml_j], optiml_fa[optiml_i], optiml_fb_lo[optiml_j], optiml_acc[optiml_i][optiml_j]);
// NN-NEXT:           wmma::mma_sync(optiml_acc[optiml_i][optiml_j], optiml_fa[optiml_i], optiml_fb[optiml_j], optiml_acc[optiml_i][optiml_j]);
// NN-NEXT:         }
// NN-NEXT:     }
// NN-NEXT:     __syncthreads();
// NN-NEXT:   }
// NN-NEXT:   #pragma unroll
// NN-NEXT:   for (int optiml_i = 0; optiml_i < 2; ++optiml_i)
// NN-NEXT:     #pragma unroll
// NN-NEXT:     for (int optiml_j = 0; optiml_j < 2; ++optiml_j) {
// NN-NEXT:       wmma::store_matrix_sync(&optiml_tc[threadIdx.y][0][0], optiml_acc[optiml_i][optiml_j], 16 + 4, wmma::mem_row_major);
// NN-NEXT:       __syncwarp();
// NN-NEXT:       for (int optiml_e = threadIdx.x; optiml_e < 16 * 16; optiml_e += 32) {
// NN-NEXT:         const int optiml_row = blockIdx.y * 64 + optiml_wr + 16 * optiml_i + optiml_e / 16;
// NN-NEXT:         const int optiml_col = blockIdx.x * 64 + optiml_wc + 16 * optiml_j + optiml_e % 16;
// NN-NEXT:         const float optiml_sum = optiml_tc[threadIdx.y][optiml_e / 16][optiml_e % 16];
// NN-NEXT:         int row = optiml_row;
// NN-NEXT:         int col = optiml_col;
// NN-NEXT:         if (row >= m || col >= n)
// NN-NEXT:           continue;
// NN-NEXT:         float acc = 0.0f;
// NN-NEXT:         acc += optiml_sum;
// NN-NEXT:         C[row * n + col] = acc; // the epilogue
// NN-NEXT:       }
// NN-NEXT:       __syncwarp();
// NN-NEXT:     }
// NN-NEXT: }
// NN:        dim3 block(32, 4), grid((n + 63) / 64, (m + 63) / 64);
// NN-NEXT:   nn<<<grid, block>>>(A, B, C, m, n, k);

void launch_nn(const float *A, const float *B, float *C, int m, int n, int k) {
  dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
  nn<<<grid, block>>>(A, B, C, m, n, k);
}

typedef float DATA_TYPE;

#pragma optiml kernel sizes(NI = 512, NJ = 512, NK = 512) \
    in(a[NI * NK], b[NK * NJ]) inout(c[NI * NJ]) \
    scalar(alpha = 1.5, beta = 1.2, ni = NI, nj = NJ, nk = NK) \
    grid((NJ + 31) / 32, (NI + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-2, atol = 1e-1, norm = 5e-3)
__global__ void poly(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c, DATA_TYPE alpha,
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

// POLY:      grid((NJ + 31) / 32, (NI + 31) / 32) block(32, 4) \
// POLY:      // tensor-cores(precision=tf32, tile=32): the block computes 32 x 32 outputs, each of
// POLY-NEXT: // its 4 warps 1 x 1 pieces of 16 x 16 on the tensor cores.
// POLY:      __shared__ __align__(32) float optiml_ta[32][32 + 4];
// POLY-NEXT: __shared__ __align__(32) float optiml_tb[32][32 + 4];
// POLY:      const int optiml_wr = threadIdx.y / 2 * 16, optiml_wc = threadIdx.y % 2 * 16;
// POLY:      const int i = blockIdx.y * 32 + optiml_e / 32;
// POLY-NEXT: const int k = optiml_k0 + optiml_e % 32;
// POLY-NEXT: optiml_ta[optiml_e / 32][optiml_e % 32] = (i < ni) && k < nk ? wmma::__float_to_tf32(a[i * nk + k]) : 0.0f;
// POLY:      optiml_tb[optiml_e / 32][optiml_e % 32] = (j < nj) && k < nk ? wmma::__float_to_tf32(b[k * nj + j]) : 0.0f;
// POLY:      wmma::mma_sync(optiml_acc[optiml_i][optiml_j], optiml_fa[optiml_i], optiml_fb[optiml_j], optiml_acc[optiml_i][optiml_j]);
// POLY:      int j = optiml_col;
// POLY-NEXT: int i = optiml_row;
// POLY-EMPTY:
// POLY-NEXT: if ((i < ni) && (j < nj)) {
// POLY-NEXT:   c[i * nj + j] *= beta;
// POLY-NEXT:   c[i * nj + j] += alpha * optiml_sum;
// POLY-NEXT: }
// POLY:      dim3 block(32, 4);
// POLY-NEXT: dim3 grid((size_t)((nj + 31) / 32), (size_t)((ni + 31) / 32));

void launch_poly(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE alpha,
                 DATA_TYPE beta, int ni, int nj, int nk) {
  dim3 block(32, 8);
  dim3 grid((size_t)(ceil(((float)nj) / ((float)block.x))),
            (size_t)(ceil(((float)ni) / ((float)block.y))));
  poly<<<grid, block>>>(A, B, C, alpha, beta, ni, nj, nk);
}

#pragma optiml kernel sizes(M = 512, N = 512, K = 512) \
    in(a[K * M], b[N * K]) inout(c[M * N]) \
    scalar(alpha = 0.5, beta = 2.0, m = M, n = N, k = K) \
    grid((N + 31) / 32, (M + 7) / 8) block(32, 8) \
    tolerance(rtol = 5e-2, atol = 0.5, norm = 2e-2)
__global__ void tn(const float *a, const float *b, float *c, float alpha,
                   float beta, int m, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n)
    return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p)
    acc = acc + a[p * m + i] * b[j * k + p];
  c[i * n + j] = alpha * acc + beta * c[i * n + j];
}

// TN:      grid((N + 127) / 128, (M + 127) / 128) block(32, 8) \
// TN:      __shared__ __align__(32) __nv_bfloat16 optiml_ta[32][128 + 8];
// TN-NEXT: __shared__ __align__(32) __nv_bfloat16 optiml_tb[128][32 + 8];
// TN-NEXT: __shared__ __align__(32) float optiml_tc[8][16][16 + 4];
// TN-NEXT: const int optiml_tid = threadIdx.y * 32 + threadIdx.x;
// TN-NEXT: const int optiml_wr = threadIdx.y / 4 * 64, optiml_wc = threadIdx.y % 4 * 32;
// TN-NEXT: wmma::fragment<wmma::accumulator, 16, 16, 16, float> optiml_acc[4][2];
// TN:      for (int optiml_e = optiml_tid; optiml_e < 32 * 128; optiml_e += 256) {
// TN-NEXT:   const int i = blockIdx.y * 128 + optiml_e % 128;
// TN-NEXT:   const int p = optiml_k0 + optiml_e / 128;
// TN-NEXT:   optiml_ta[optiml_e / 128][optiml_e % 128] = !(i >= m) && p < k ? __float2bfloat16(a[p * m + i]) : __float2bfloat16(0.0f);
// TN:      for (int optiml_e = optiml_tid; optiml_e < 128 * 32; optiml_e += 256) {
// TN-NEXT:   const int j = blockIdx.x * 128 + optiml_e / 32;
// TN-NEXT:   const int p = optiml_k0 + optiml_e % 32;
// TN-NEXT:   optiml_tb[optiml_e / 32][optiml_e % 32] = !(j >= n) && p < k ? __float2bfloat16(b[j * k + p]) : __float2bfloat16(0.0f);
// TN:      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::col_major> optiml_fa[4];
// TN-NEXT: wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> optiml_fb[2];
// TN-NEXT: #pragma unroll
// TN-NEXT: for (int optiml_i = 0; optiml_i < 4; ++optiml_i)
// TN-NEXT:   wmma::load_matrix_sync(optiml_fa[optiml_i], &optiml_ta[optiml_ks][optiml_wr + 16 * optiml_i], 136);
// TN-NEXT: #pragma unroll
// TN-NEXT: for (int optiml_j = 0; optiml_j < 2; ++optiml_j)
// TN-NEXT:   wmma::load_matrix_sync(optiml_fb[optiml_j], &optiml_tb[optiml_wc + 16 * optiml_j][optiml_ks], 40);
// TN:      const int j = optiml_col;
// TN-NEXT: const int i = optiml_row;
// TN-NEXT: if (i >= m || j >= n)
// TN-NEXT:   continue;
// TN-NEXT: float acc = 0.0f;
// TN-NEXT: acc += optiml_sum;
// TN-NEXT: c[i * n + j] = alpha * acc + beta * c[i * n + j];

#pragma optiml kernel sizes(M = 512, N = 512, K = 512) \
    in(a[M * K], b[K * N]) out(c[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
__global__ void hgemm(const __half *a, const __half *b, float *c, int m, int n,
                      int k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < m && x < n) {
    float s = 0.0f;
    for (int t = 0; t < k; ++t)
      s += __half2float(a[y * k + t]) * __half2float(b[t * n + x]);
    c[y * n + x] = s;
  }
}

// HALF:      __shared__ __align__(32) __half optiml_ta[64][32 + 8];
// HALF-NEXT: __shared__ __align__(32) __half optiml_tb[32][64 + 8];
// HALF:      optiml_ta[optiml_e / 32][optiml_e % 32] = (y < m) && t < k ? a[y * k + t] : __float2half(0.0f);
// HALF:      optiml_tb[optiml_e / 64][optiml_e % 64] = (x < n) && t < k ? b[t * n + x] : __float2half(0.0f);
// HALF:      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> optiml_fa[2];
// HALF-NEXT: wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> optiml_fb[2];
// HALF:      if (y < m && x < n) {
// HALF-NEXT:   float s = 0.0f;
// HALF-NEXT:   s += optiml_sum;
// HALF-NEXT:   c[y * n + x] = s;
// HALF-NEXT: }

// Rows of b hold k: the right operand is staged [column][k] and loaded
// column-major.
#pragma optiml kernel sizes(M = 512, N = 512, K = 512) \
    in(a[M * K], b[N * K]) out(c[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
__global__ void bgemm(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                      float *c, int m, int n, int k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < m && x < n) {
    float s = 0.0f;
    for (int t = 0; t < k; ++t)
      s += __bfloat162float(a[y * k + t]) * __bfloat162float(b[x * k + t]);
    c[y * n + x] = s;
  }
}

// BF16:      // tensor-cores(precision=bf16, tile=32): the block computes 32 x 32 outputs, each of
// BF16:      __shared__ __align__(32) __nv_bfloat16 optiml_ta[32][32 + 8];
// BF16-NEXT: __shared__ __align__(32) __nv_bfloat16 optiml_tb[32][32 + 8];
// BF16:      optiml_tb[optiml_e / 32][optiml_e % 32] = (x < n) && t < k ? b[x * k + t] : __float2bfloat16(0.0f);
// BF16:      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> optiml_fb[1];
// BF16:      wmma::load_matrix_sync(optiml_fb[optiml_j], &optiml_tb[optiml_wc + 16 * optiml_j][optiml_ks], 40);
