// Sobel edge magnitude on a float image with clamp-to-edge borders: a
// `__device__ inline` clamp helper, a `#define PIX(x, y)` macro that reads
// the (clamped) pixel through the kernel's pointer and pitch, the two 3x3
// gradients written out by hand, sqrtf, and a threshold as a scalar.
// 32x8 blocks; no launch in this file.
#include <cuda_runtime.h>

__device__ inline int clamp_coord(int v, int hi) {
  return v < 0 ? 0 : (v >= hi ? hi - 1 : v);
}

#define PIX(x, y) src[clamp_coord((y), height) * width + clamp_coord((x), width)]

#pragma optiml kernel sizes(W = 8192, H = 8192) in(src[W * H]) out(dst[W * H]) \
    scalar(width = W, height = H, threshold = 0.05) \
    grid((W + 31) / 32, (H + 7) / 8) block(32, 8) dist(src = uniform(0, 1)) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: W = 301, H = 199)
__global__ void sobel_magnitude(const float *src, float *dst, int width,
                                int height, float threshold) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;

  float gx = -PIX(x - 1, y - 1) + PIX(x + 1, y - 1) - 2.0f * PIX(x - 1, y) +
             2.0f * PIX(x + 1, y) - PIX(x - 1, y + 1) + PIX(x + 1, y + 1);
  float gy = -PIX(x - 1, y - 1) - 2.0f * PIX(x, y - 1) - PIX(x + 1, y - 1) +
             PIX(x - 1, y + 1) + 2.0f * PIX(x, y + 1) + PIX(x + 1, y + 1);
  float mag = sqrtf(gx * gx + gy * gy);
  dst[y * width + x] = mag > threshold ? mag : 0.0f;
}
