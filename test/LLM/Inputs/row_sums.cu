// A row sum with a thread per row, known only by its mark: the mark is its
// launch, so an edit may change that launch.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(R = 4096, C = 1024) in(mat[R * C]) out(sums[R]) \
    scalar(rows = R, cols = C) grid((R + 127) / 128) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: R = 77, C = 1001)
__global__ void row_sums(const float *mat, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += mat[(size_t)r * cols + c];
    sums[r] = s;
  }
}
