// Transpose of a rows x cols row-major matrix: reads coalesce, writes stride
// by rows. Staging a tile through shared memory makes both coalesce.
#include <cstdio>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(R = 8192, C = 8192) in(in[R * C]) out(out[C * R]) \
    scalar(rows = R, cols = C) grid((C + 31) / 32, (R + 31) / 32) block(32, 32) \
    tolerance(rtol = 0, atol = 0) instance(odd: R = 1000, C = 777)
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[c * rows + r] = in[r * cols + c];
}

int main() {
  const int rows = 8192, cols = 8192;
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * rows * cols);
  cudaMalloc(&out, sizeof(float) * rows * cols);
  cudaMemset(in, 0, sizeof(float) * rows * cols);
  dim3 block(32, 32), grid((cols + 31) / 32, (rows + 31) / 32);
  transpose<<<grid, block>>>(in, out, rows, cols);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("transpose: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
