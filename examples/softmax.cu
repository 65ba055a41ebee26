// Row-wise softmax of a rows x cols matrix, one thread per row, three passes
// (max, sum of exponentials, normalize). Uncoalesced: neighbouring threads
// walk different rows. A block per row with a warp-level reduction is the
// expected improvement.
#include <cstdio>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(R = 4096, C = 4096) in(in[R * C]) out(out[R * C]) \
    scalar(rows = R, cols = C) grid((R + 127) / 128) block(128) \
    dist(in = uniform(-8, 8)) tolerance(rtol = 1e-5, atol = 1e-7) \
    instance(odd: R = 77, C = 1001)
__global__ void softmax(const float *in, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  const float *x = in + (size_t)row * cols;
  float *y = out + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c)
    m = fmaxf(m, x[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c)
    sum += expf(x[c] - m);
  for (int c = 0; c < cols; ++c)
    y[c] = expf(x[c] - m) / sum;
}

int main() {
  const int rows = 4096, cols = 4096;
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * rows * cols);
  cudaMalloc(&out, sizeof(float) * rows * cols);
  cudaMemset(in, 0, sizeof(float) * rows * cols);
  softmax<<<(rows + 127) / 128, 128>>>(in, out, rows, cols);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("softmax: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
