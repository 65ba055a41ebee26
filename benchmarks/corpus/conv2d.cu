// 2-D convolution of a single-channel image, textbook style: 16x16 blocks,
// the row from y and the column from x, a nested loop over the mask with
// ghost cells skipped by a bounds test on each tap, the mask a buffer
// `mask[mr * mask_width + mc]`, no launch in the file.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(H = 4096, W = 4096, MW = 7) in(in[H * W], mask[MW * MW]) \
    out(out[H * W]) scalar(mask_width = MW, w = W, h = H) \
    grid((W + 15) / 16, (H + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: H = 301, W = 199)
__global__ void conv2d_basic(const float *in, const float *mask, float *out,
                             int mask_width, int w, int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;

  if (col < w && row < h) {
    float pixVal = 0;
    int startCol = col - mask_width / 2;
    int startRow = row - mask_width / 2;
    for (int mr = 0; mr < mask_width; ++mr) {
      for (int mc = 0; mc < mask_width; ++mc) {
        int curRow = startRow + mr;
        int curCol = startCol + mc;
        if (curRow > -1 && curRow < h && curCol > -1 && curCol < w)
          pixVal += in[curRow * w + curCol] * mask[mr * mask_width + mc];
      }
    }
    out[row * w + col] = pixVal;
  }
}
