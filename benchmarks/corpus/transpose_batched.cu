// Batched transpose of double-precision matrices (the (0, 2, 1) permute of
// a B x R x C tensor, as deep-learning code writes it): blockIdx.z picks the
// matrix, a `#define IN_AT(b, r, c)` macro and an OUT_AT macro do the
// index math in size_t, the guard is `if (r < rows && c < cols)`, and the
// launcher is a host function taking a stream.
#include <cstddef>
#include <cuda_runtime.h>

#define IN_AT(b, r, c) ((size_t)(b) * rows * cols + (size_t)(r) * cols + (c))
#define OUT_AT(b, c, r) ((size_t)(b) * rows * cols + (size_t)(c) * rows + (r))

#pragma optiml kernel sizes(B = 16, R = 2048, C = 1024) in(in[B * R * C]) \
    out(out[B * R * C]) scalar(batch = B, rows = R, cols = C) \
    grid((C + 31) / 32, (R + 7) / 8, B) block(32, 8) \
    tolerance(rtol = 0, atol = 0) instance(odd: B = 3, R = 101, C = 67)
__global__ void batched_transpose(const double *in, double *out, int batch,
                                  int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int b = blockIdx.z;
  if (r < rows && c < cols && b < batch)
    out[OUT_AT(b, c, r)] = in[IN_AT(b, r, c)];
}

void permute021(const double *in, double *out, int batch, int rows, int cols,
                cudaStream_t stream) {
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, (rows + 7) / 8, batch);
  batched_transpose<<<grid, block, 0, stream>>>(in, out, batch, rows, cols);
}
