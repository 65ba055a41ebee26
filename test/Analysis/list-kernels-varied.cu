// Kernel discovery over a varied file: 2-D indexing, templates with explicit
// and implicit instantiations, namespaces, __launch_bounds__, device helpers,
// macros, __constant__ and __shared__ memory, grid-stride loops, early
// returns and several kernels per file.
// RUN: %clang-optiml %s --list-kernels | %FileCheck %s
// RUN: %nvcc -c %s -o %t.o

#include <cuda_runtime.h>
#define IDX(r, c, ld) ((r) * (ld) + (c))
#define TILE 16

__constant__ float weights[4];
__device__ float twice(float x) { return 2.0f * x; }

// CHECK: list-kernels-varied.cu: 5 kernels

// CHECK: kernel scale2d ({{.*}}list-kernels-varied.cu:[[@LINE+8]]:17)
// CHECK-NEXT:   params:
// CHECK-NEXT:     float *m
// CHECK-NEXT:     int rows
// CHECK-NEXT:     int cols
// CHECK-NEXT:   mark: #pragma optiml kernel sizes(R = 64, C = 32) (line [[@LINE+2]])
// CHECK-NEXT:   loops: none
#pragma optiml kernel sizes(R = 64, C = 32)
__global__ void scale2d(float *m, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols)
    return;
  m[IDX(r, c, cols)] = twice(m[IDX(r, c, cols)]) * weights[0];
}
// CHECK:        launch sites:
// CHECK-NEXT:     {{.*}}list-kernels-varied.cu:{{[0-9]+}}:3 in launch_all: scale2d<<<dim3(2, 4), dim3(TILE, TILE)>>>

namespace blas {
// CHECK-LABEL: kernel blas::gemm_t
// CHECK-NEXT:   template <typename T, int BS>
// CHECK-NEXT:     instantiation gemm_t<float, 16> (explicit)
// CHECK-NEXT:     instantiation gemm_t<double, 8> (implicit)
// CHECK-NEXT:   __launch_bounds__(BS * BS, 2)
// CHECK-NEXT:   params:
// CHECK-NEXT:     const T *__restrict A
// CHECK-NEXT:     const T *__restrict B
// CHECK-NEXT:     T *C
// CHECK-NEXT:     int n
// CHECK-NEXT:   mark: none
// CHECK-NEXT:   loops:
// CHECK-NEXT:     gemm_t/for#0  line [[@LINE+8]]: for (int k = 0; k < n; ++k)
template <typename T, int BS>
__global__ void __launch_bounds__(BS * BS, 2)
    gemm_t(const T *__restrict__ A, const T *__restrict__ B, T *C, int n) {
  int row = blockIdx.y * BS + threadIdx.y;
  int col = blockIdx.x * BS + threadIdx.x;
  if (row < n && col < n) {
    T acc = 0;
    for (int k = 0; k < n; ++k)
      acc += A[IDX(row, k, n)] * B[IDX(k, col, n)];
    C[IDX(row, col, n)] = acc;
  }
}
template __global__ void gemm_t<float, 16>(const float *__restrict__,
                                           const float *__restrict__, float *,
                                           int);
} // namespace blas

// CHECK-LABEL: kernel grid_stride
// CHECK:        loops:
// CHECK-NEXT:     grid_stride/for#0  line [[@LINE+4]]: for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
// CHECK-NEXT:     grid_stride/for#0/while#0  line [[@LINE+7]]: while (j < 4)
// CHECK-NEXT:   launch sites: none
__global__ void grid_stride(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float v = in[i];
    int j = 0;
    while (j < 4) {
      v += weights[j];
      ++j;
    }
    out[i] = v;
  }
}

// CHECK-LABEL: kernel tree_sum
// CHECK:          tree_sum/for#0  line [[@LINE+7]]: for (int s = blockDim.x / 2; s > 0; s >>= 1)
// CHECK:        launch sites:
// CHECK-NEXT:     {{.*}} in launch_all: tree_sum<<<4, 256, 256 * sizeof(float), stream>>>
__global__ void tree_sum(const float *in, float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

// CHECK-LABEL: kernel by_address
// CHECK:        launch sites: none
// CHECK-NEXT:   address taken: yes (launch geometry cannot be rewritten)
__global__ void by_address(int *flag) { *flag = 1; }

void launch_all(float *m, float *out, double *d, cudaStream_t stream) {
  scale2d<<<dim3(2, 4), dim3(TILE, TILE)>>>(m, 64, 32);
  blas::gemm_t<double, 8><<<1, dim3(8, 8)>>>(d, d, d, 8);
  tree_sum<<<4, 256, 256 * sizeof(float), stream>>>(m, out);
  void *args[] = {&m};
  cudaLaunchKernel((const void *)by_address, 1, 1, args, 0, stream);
}
