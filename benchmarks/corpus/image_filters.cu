// Nonlinear image filters on float images. median3x3: each thread gathers
// its 3x3 neighbourhood (clamped at the border with min/max) into a local
// array and runs an insertion sort on it, the way a first median filter is
// written. bilateral: a (2 * r + 1)^2 window weighted by a spatial and a
// range Gaussian with expf, the radius a scalar, the sigmas passed as
// 1 / (2 sigma^2) factors. Both are launched from main with dim3 and 16x16
// blocks.
#include <cstdio>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(W = 8192, H = 8192) in(in[W * H]) out(out[W * H]) \
    scalar(w = W, h = H) grid((W + 15) / 16, (H + 15) / 16) block(16, 16) \
    dist(in = uniform(0, 1)) tolerance(rtol = 0, atol = 0) instance(odd: W = 301, H = 199)
__global__ void median3x3(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float window[9];
    int count = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        int xx = min(max(x + dx, 0), w - 1);
        int yy = min(max(y + dy, 0), h - 1);
        window[count++] = in[yy * w + xx];
      }
    }
    for (int i = 1; i < 9; ++i) {
      float key = window[i];
      int j = i - 1;
      while (j >= 0 && window[j] > key) {
        window[j + 1] = window[j];
        --j;
      }
      window[j + 1] = key;
    }
    out[y * w + x] = window[4];
  }
}

#pragma optiml kernel sizes(W = 4096, H = 4096) in(in[W * H]) out(out[W * H]) \
    scalar(w = W, h = H, r = 3, inv_two_sigma_s2 = 0.125, inv_two_sigma_r2 = 50.0) \
    grid((W + 15) / 16, (H + 15) / 16) block(16, 16) dist(in = uniform(0, 1)) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: W = 301, H = 199)
__global__ void bilateral(const float *in, float *out, int w, int h, int r,
                          float inv_two_sigma_s2, float inv_two_sigma_r2) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float center = in[y * w + x];
  float num = 0.0f, den = 0.0f;
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      int xx = x + dx, yy = y + dy;
      if (xx < 0 || xx >= w || yy < 0 || yy >= h)
        continue;
      float v = in[yy * w + xx];
      float d = v - center;
      float wgt = expf(-(dx * dx + dy * dy) * inv_two_sigma_s2 -
                       d * d * inv_two_sigma_r2);
      num += wgt * v;
      den += wgt;
    }
  }
  out[y * w + x] = num / den;
}

int main() {
  const int w = 4096, h = 4096;
  float *a, *b;
  cudaMalloc(&a, sizeof(float) * w * h);
  cudaMalloc(&b, sizeof(float) * w * h);
  cudaMemset(a, 0, sizeof(float) * w * h);
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  median3x3<<<grid, block>>>(a, b, w, h);
  bilateral<<<grid, block>>>(a, b, w, h, 3, 0.125f, 50.0f);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("filters: %s\n", cudaGetErrorString(err));
  cudaFree(a);
  cudaFree(b);
  return err == cudaSuccess ? 0 : 1;
}
