// Image kernels from the first chapters of a textbook (Kirk & Hwu):
// color_to_gray converts interleaved RGB bytes to luminance bytes (the
// column from x, the row from y, a CHANNELS offset, a float formula cast
// back to unsigned char); blur_box averages a (2 * BLUR_SIZE + 1)^2 window
// of bytes, counting only the pixels inside the image. 16x16 blocks and a
// host function that launches both with (unsigned)ceil(w / 16.0) grids.
#include <cuda_runtime.h>
#include <math.h>

#define CHANNELS 3
#define BLUR_SIZE 3

#pragma optiml kernel sizes(W = 8192, H = 8192) in(Pin[W * H * 3]) out(Pout[W * H]) \
    scalar(width = W, height = H) grid((W + 15) / 16, (H + 15) / 16) block(16, 16) \
    dist(Pin = int(0, 255)) tolerance(rtol = 0, atol = 1) instance(odd: W = 301, H = 199)
__global__ void color_to_gray(unsigned char *Pout, const unsigned char *Pin,
                              int width, int height) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col < width && row < height) {
    int grayOffset = row * width + col;
    int rgbOffset = grayOffset * CHANNELS;
    unsigned char r = Pin[rgbOffset];
    unsigned char g = Pin[rgbOffset + 1];
    unsigned char b = Pin[rgbOffset + 2];
    Pout[grayOffset] = (unsigned char)(0.21f * r + 0.71f * g + 0.07f * b);
  }
}

#pragma optiml kernel sizes(W = 8192, H = 8192) in(in[W * H]) out(out[W * H]) \
    scalar(w = W, h = H) grid((W + 15) / 16, (H + 15) / 16) block(16, 16) \
    dist(in = int(0, 255)) tolerance(rtol = 0, atol = 0) instance(odd: W = 301, H = 199)
__global__ void blur_box(const unsigned char *in, unsigned char *out, int w,
                         int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;

  if (col < w && row < h) {
    int pixVal = 0;
    int pixels = 0;
    for (int blurRow = -BLUR_SIZE; blurRow < BLUR_SIZE + 1; ++blurRow) {
      for (int blurCol = -BLUR_SIZE; blurCol < BLUR_SIZE + 1; ++blurCol) {
        int curRow = row + blurRow;
        int curCol = col + blurCol;
        if (curRow > -1 && curRow < h && curCol > -1 && curCol < w) {
          pixVal += in[curRow * w + curCol];
          pixels++;
        }
      }
    }
    out[row * w + col] = (unsigned char)(pixVal / pixels);
  }
}

void process_image(const unsigned char *rgb, unsigned char *gray,
                   unsigned char *blurred, int w, int h) {
  dim3 dimGrid((unsigned)ceil(w / 16.0), (unsigned)ceil(h / 16.0), 1);
  dim3 dimBlock(16, 16, 1);
  color_to_gray<<<dimGrid, dimBlock>>>(gray, rgb, w, h);
  blur_box<<<dimGrid, dimBlock>>>(gray, blurred, w, h);
}
