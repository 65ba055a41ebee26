// Separable Gaussian convolution, CUDA samples style but before the
// shared-memory tiling: a row pass and a column pass, each reading a
// 17-tap kernel from __constant__ memory (initialized in the file; real
// code uploads it with cudaMemcpyToSymbol), KERNEL_RADIUS from a #define,
// zero outside the image, pitch-free row-major images, and 32x8 blocks.
#include <cuda_runtime.h>

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__constant__ float c_Kernel[KERNEL_LENGTH] = {
    0.0005f, 0.0024f, 0.0092f, 0.0278f, 0.0656f, 0.1210f, 0.1747f, 0.1974f,
    0.1747f, 0.1210f, 0.0656f, 0.0278f, 0.0092f, 0.0024f, 0.0005f, 0.0001f,
    0.0001f};

#pragma optiml kernel sizes(W = 8192, H = 8192) in(d_Src[W * H]) out(d_Dst[W * H]) \
    scalar(imageW = W, imageH = H) grid((W + 31) / 32, (H + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: W = 301, H = 199)
__global__ void convolutionRowsNaive(float *d_Dst, const float *d_Src,
                                     int imageW, int imageH) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= imageW || y >= imageH)
    return;

  float sum = 0;
  for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) {
    int d = x + k;
    if (d >= 0 && d < imageW)
      sum += d_Src[y * imageW + d] * c_Kernel[KERNEL_RADIUS - k];
  }
  d_Dst[y * imageW + x] = sum;
}

#pragma optiml kernel sizes(W = 8192, H = 8192) in(d_Src[W * H]) out(d_Dst[W * H]) \
    scalar(imageW = W, imageH = H) grid((W + 31) / 32, (H + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: W = 301, H = 199)
__global__ void convolutionColumnsNaive(float *d_Dst, const float *d_Src,
                                        int imageW, int imageH) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= imageW || y >= imageH)
    return;

  float sum = 0;
  for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) {
    int d = y + k;
    if (d >= 0 && d < imageH)
      sum += d_Src[d * imageW + x] * c_Kernel[KERNEL_RADIUS - k];
  }
  d_Dst[y * imageW + x] = sum;
}

void convolutionSeparable(float *d_Dst, float *d_Tmp, const float *d_Src,
                          int imageW, int imageH) {
  dim3 threads(32, 8);
  dim3 blocks((imageW + threads.x - 1) / threads.x,
              (imageH + threads.y - 1) / threads.y);
  convolutionRowsNaive<<<blocks, threads>>>(d_Tmp, d_Src, imageW, imageH);
  convolutionColumnsNaive<<<blocks, threads>>>(d_Dst, d_Tmp, imageW, imageH);
}
