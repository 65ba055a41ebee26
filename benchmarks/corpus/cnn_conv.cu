// Direct convolution layer, NCHW, stride 1, no padding (a "valid" conv), as
// written in deep-learning course code: a 3-D grid whose z packs the batch
// and the output channel (`blockIdx.z / K`, `blockIdx.z % K`), three nested
// loops over input channels and the filter window, and a bias. Launched
// from a host function through a `cdiv` helper.
#include <cuda_runtime.h>

static inline unsigned cdiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

#pragma optiml kernel sizes(NB = 8, C = 64, K = 64, H = 130, W = 130, RS = 3) \
    in(input[NB * C * H * W], weight[K * C * RS * RS], bias[K]) \
    out(output[NB * K * (H - RS + 1) * (W - RS + 1)]) \
    scalar(n = NB, c = C, k = K, h = H, w = W, r = RS) \
    grid((W - RS + 1 + 15) / 16, (H - RS + 1 + 15) / 16, NB * K) block(16, 16) \
    dist(weight = uniform(-0.1, 0.1)) tolerance(rtol = 1e-4, atol = 1e-4) \
    instance(odd: NB = 2, C = 5, K = 3, H = 37, W = 29)
__global__ void conv2d_nchw(const float *input, const float *weight,
                            const float *bias, float *output, int n, int c,
                            int k, int h, int w, int r) {
  const int out_h = h - r + 1;
  const int out_w = w - r + 1;
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  const int img = blockIdx.z / k;
  const int oc = blockIdx.z % k;
  if (ox >= out_w || oy >= out_h || img >= n)
    return;

  float acc = bias[oc];
  for (int ic = 0; ic < c; ++ic)
    for (int fy = 0; fy < r; ++fy)
      for (int fx = 0; fx < r; ++fx)
        acc += input[((img * c + ic) * h + oy + fy) * w + ox + fx] *
               weight[((oc * c + ic) * r + fy) * r + fx];
  output[((img * k + oc) * out_h + oy) * out_w + ox] = acc;
}

void conv_forward(const float *input, const float *weight, const float *bias,
                  float *output, int n, int c, int k, int h, int w, int r) {
  dim3 block(16, 16);
  dim3 grid(cdiv(w - r + 1, 16), cdiv(h - r + 1, 16), n * k);
  conv2d_nchw<<<grid, block>>>(input, weight, bias, output, n, c, k, h, w, r);
}
