// GEMM, C = alpha * A * B + beta * C, PolyBench-GPU style: one thread per
// element of C, the whole body under an `if ((i < ni) && (j < nj))` guard,
// the product accumulated straight into C in global memory, the loop
// counter declared before the loop, a typedef'd element type, and a host
// launcher whose grid is computed with (size_t)ceil((float)n / block.x).
#include <cuda_runtime.h>
#include <math.h>

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

typedef float DATA_TYPE;

#pragma optiml kernel sizes(NI = 2048, NJ = 2048, NK = 2048) \
    in(a[NI * NK], b[NK * NJ]) inout(c[NI * NJ]) \
    scalar(alpha = 1.5, beta = 1.2, ni = NI, nj = NJ, nk = NK) \
    grid((NJ + 31) / 32, (NI + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-4, atol = 1e-3) instance(odd: NI = 129, NJ = 97, NK = 75)
__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c,
                            DATA_TYPE alpha, DATA_TYPE beta, int ni, int nj,
                            int nk) {
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

void gemmCuda(DATA_TYPE *A_gpu, DATA_TYPE *B_gpu, DATA_TYPE *C_gpu,
              DATA_TYPE alpha, DATA_TYPE beta, int ni, int nj, int nk) {
  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid((size_t)(ceil(((float)nj) / ((float)block.x))),
            (size_t)(ceil(((float)ni) / ((float)block.y))));
  gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu, alpha, beta, ni, nj, nk);
  cudaDeviceSynchronize();
}
