// 1-D convolution, textbook (Kirk & Hwu) style: conv1d_basic takes the mask
// as a buffer and its width as a scalar, starts at `i - mask_width / 2`,
// and skips ghost cells with an `if (start + j >= 0 && start + j < width)`
// test inside the loop. conv1d_const reads a fixed 9-tap mask from
// __constant__ memory (initialized in the file here; real code fills it
// with cudaMemcpyToSymbol, which the spec cannot express).
#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 9

__constant__ float c_mask[MAX_MASK_WIDTH] = {0.05f, 0.08f, 0.12f, 0.15f, 0.2f,
                                             0.15f, 0.12f, 0.08f, 0.05f};

#pragma optiml kernel sizes(W = 1 << 26, MW = 9) in(N[W], M[MW]) out(P[W]) \
    scalar(mask_width = MW, width = W) grid((W + 255) / 256) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: W = 100003)
__global__ void conv1d_basic(const float *N, const float *M, float *P,
                             int mask_width, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < width) {
    float Pvalue = 0;
    int start = i - (mask_width / 2);
    for (int j = 0; j < mask_width; j++) {
      if (start + j >= 0 && start + j < width)
        Pvalue += N[start + j] * M[j];
    }
    P[i] = Pvalue;
  }
}

#pragma optiml kernel sizes(W = 1 << 26) in(N[W]) out(P[W]) scalar(width = W) \
    grid((W + 511) / 512) block(512) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: W = 100003)
__global__ void conv1d_const(const float *N, float *P, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width)
    return;
  float Pvalue = 0;
  int start = i - (MAX_MASK_WIDTH / 2);
  for (int j = 0; j < MAX_MASK_WIDTH; j++) {
    int k = start + j;
    if (k >= 0 && k < width)
      Pvalue += N[k] * c_mask[j];
  }
  P[i] = Pvalue;
}

void conv1d(const float *in, const float *mask, float *out, int mask_width,
            int width) {
  int threads = 256;
  int blocks = (width + threads - 1) / threads;
  conv1d_basic<<<blocks, threads>>>(in, mask, out, mask_width, width);
  conv1d_const<<<(width + 511) / 512, 512>>>(in, out, width);
}
