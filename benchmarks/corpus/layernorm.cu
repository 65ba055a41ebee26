// Normalization layers in the style of llm.c's first kernels.
// layernorm_forward: one thread per row (B * T rows of C channels), pointer
// bumps `inp + idx * C`, three loops (mean, variance, normalize with weight
// and bias), writing mean and rstd for the backward pass. rmsnorm_block:
// one block per row, a block-stride loop for the sum of squares reduced
// through __shared__ memory, rsqrtf, and a weight.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(BT = 16384, C = 1024) \
    in(inp[BT * C], weight[C], bias[C]) out(out[BT * C], mean[BT], rstd[BT]) \
    scalar(N = BT, C = C) grid((BT + 127) / 128) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: BT = 333, C = 771)
__global__ void layernorm_forward(float *out, float *mean, float *rstd,
                                  const float *inp, const float *weight,
                                  const float *bias, int N, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float eps = 1e-5f;

  if (idx < N) {
    const float *x = inp + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++)
      m += x[i];
    m = m / C;
    float v = 0.0f;
    for (int i = 0; i < C; i++) {
      float xshift = x[i] - m;
      v += xshift * xshift;
    }
    v = v / C;
    float s = 1.0f / sqrtf(v + eps);
    float *out_idx = out + idx * C;
    for (int i = 0; i < C; i++) {
      float n = (s * (x[i] - m));
      out_idx[i] = n * weight[i] + bias[i];
    }
    mean[idx] = m;
    rstd[idx] = s;
  }
}

#pragma optiml kernel sizes(BT = 32768, C = 2048) in(inp[BT * C], weight[C]) \
    out(out[BT * C]) scalar(N = BT, C = C) grid(BT) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: BT = 333, C = 771)
__global__ void rmsnorm_block(float *out, const float *inp,
                              const float *weight, int N, int C) {
  __shared__ float partial[256];
  int row = blockIdx.x;
  const float *x = inp + (size_t)row * C;

  float ss = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    ss += x[i] * x[i];
  partial[threadIdx.x] = ss;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  float scale = rsqrtf(partial[0] / C + 1e-6f);
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    out[(size_t)row * C + i] = x[i] * scale * weight[i];
}
