// stage-shared on loops as people write them in templates: a loop pragma
// before the k-loop (`#pragma unroll 4`) is part of the loop, not a loop
// around it (it used to be refused as "nested in another loop"), and goes
// with it: the tiles' inner loop carries its own `#pragma unroll`, also
// with a comment between the pragma and the loop (the declarations used to
// land between the two, which then no longer parsed). A bound
// made of a template's value parameter (`K`, `2 * R`) is the same for
// every thread of the block, so every thread reaches the barriers. Each
// result compiles.
// RUN: %clang-optiml %s --list-sites --kernel=matmul_unrolled | %FileCheck --check-prefix=LIST %s
// LIST: stage-shared  matmul_unrolled/for#0/A {{ *}}legal: --apply='stage-shared(site=matmul_unrolled/for#0/A,tile=16)'
// LIST: stage-shared  matmul_unrolled/for#0/B {{ *}}legal: --apply='stage-shared(site=matmul_unrolled/for#0/B,tile=16)'
// RUN: %clang-optiml %s --list-sites --kernel=matmul_fixed_k | %FileCheck --check-prefix=FIXED %s
// FIXED: stage-shared  matmul_fixed_k/for#0/B {{ *}}legal: --apply='stage-shared(site=matmul_fixed_k/for#0/B,tile=16)'
//
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=matmul_unrolled/for#0/A,tile=16)' --apply='stage-shared(site=matmul_unrolled/for#0/B,tile=16)' --apply='stage-shared(site=matmul_fixed_k/for#0/B,tile=16)' --apply='stage-shared(site=matmul_commented/for#0/A,tile=16)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void matmul_unrolled(
// CHECK-NOT: {{^}}#pragma unroll 4
// CHECK: {{^ *}}__shared__ float optiml_A_s[16][16];
// CHECK-NEXT: {{^ *}}__shared__ float optiml_B_s[16][16];
// CHECK-NEXT: {{^ *}}for (int optiml_i0 = 0; optiml_i0 < n; optiml_i0 += 16) {
// CHECK: {{^ *}}__syncthreads();
// CHECK: {{^ *}}#pragma unroll
// CHECK-NEXT: {{^ *}}for (int i = optiml_i0; i < optiml_i0 + 16; ++i)
// CHECK-NEXT: {{^ *}}acc += optiml_A_s[threadIdx.y][i - optiml_i0] *
template <int TILE_K>
__global__ void matmul_unrolled(const float *A, const float *B, float *C,
                                int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
#pragma unroll 4
    for (int i = 0; i < n; ++i)
      acc += A[row * n + i] * B[i * n + col];
    C[row * n + col] = acc;
  }
}

// CHECK-LABEL: {{^}}__global__ void matmul_fixed_k(
// CHECK: {{^ *}}__shared__ float optiml_B_s[16][16];
// CHECK-NEXT: {{^ *}}for (int optiml_i0 = 0; optiml_i0 < K; optiml_i0 += 16) {
template <int K>
__global__ void matmul_fixed_k(const float *A, const float *B, float *C,
                               int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int i = 0; i < K; ++i)
      acc += A[row * K + i] * B[i * n + col];
    C[row * n + col] = acc;
  }
}

// CHECK-LABEL: {{^}}__global__ void matmul_commented(
// CHECK-NOT: {{^}}#pragma unroll 2
// CHECK: {{^ *}}__shared__ float optiml_A_s[16][16];
// CHECK-NEXT: {{^ *}}for (int optiml_i0 = 0; optiml_i0 < n; optiml_i0 += 16) {
// CHECK: {{^ *}}#pragma unroll
// CHECK-NEXT: {{^ *}}for (int i = optiml_i0; i < optiml_i0 + 16; ++i)
__global__ void matmul_commented(const float *A, const float *B, float *C,
                                 int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
#pragma unroll 2

    // The reduction over k.
    for (int i = 0; i < n; ++i)
      acc += A[row * n + i] * B[i * n + col];
    C[row * n + col] = acc;
  }
}

template __global__ void matmul_unrolled<8>(const float *, const float *,
                                            float *, int);
template __global__ void matmul_fixed_k<64>(const float *, const float *,
                                            float *, int);

void run(const float *A, const float *B, float *C, int n) {
  dim3 b(16, 16), g((n + 15) / 16, (n + 15) / 16);
  matmul_unrolled<8><<<g, b>>>(A, B, C, n);
  matmul_fixed_k<64><<<g, b>>>(A, B, C, n);
  matmul_commented<<<g, b>>>(A, B, C, n);
}
