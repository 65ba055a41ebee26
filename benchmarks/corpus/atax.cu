// ATAX, y = A^T * (A * x), PolyBench-GPU style with the problem size fixed
// by macros: the kernels take only pointers and read NX / NY directly, as
// the suite's kernels do. atax_kernel1 is one thread per row (tmp = A * x,
// uncoalesced), atax_kernel2 one thread per column (y = A^T * tmp,
// coalesced). Both accumulate in global memory. Because the sizes are
// compile-time constants, the spec has no odd-size instance.
#include <cuda_runtime.h>

#define NX 8192
#define NY 8192
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

#pragma optiml kernel sizes(X = 8192, Y = 8192) in(A[X * Y], x[Y]) \
    out(tmp[X]) grid((X + 255) / 256) block(256) tolerance(rtol = 1e-4, atol = 1e-4)
__global__ void atax_kernel1(float *A, float *x, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < NX) {
    tmp[i] = 0;
    int j;
    for (j = 0; j < NY; j++) {
      tmp[i] += A[i * NY + j] * x[j];
    }
  }
}

#pragma optiml kernel sizes(X = 8192, Y = 8192) in(A[X * Y], tmp[X]) \
    out(y[Y]) grid((Y + 255) / 256) block(256) tolerance(rtol = 1e-4, atol = 1e-4)
__global__ void atax_kernel2(float *A, float *y, float *tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if (j < NY) {
    y[j] = 0;
    int i;
    for (i = 0; i < NX; i++) {
      y[j] += A[i * NY + j] * tmp[i];
    }
  }
}

void ataxGpu(float *A_gpu, float *x_gpu, float *y_gpu, float *tmp_gpu) {
  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
  dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);
  atax_kernel1<<<grid1, block>>>(A_gpu, x_gpu, tmp_gpu);
  cudaDeviceSynchronize();
  atax_kernel2<<<grid2, block>>>(A_gpu, y_gpu, tmp_gpu);
  cudaDeviceSynchronize();
}
