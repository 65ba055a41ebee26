// Reduced-precision element types as mixed-precision training and inference
// code passes them: __half, half2, __nv_bfloat16 and __nv_fp8_e4m3.
//
// haxpy: y = a*x + y in half with __hmul and __hadd (two roundings to half),
// the scalar passed as float and converted once, a grid-stride loop.
// hscale2: out = in * s on half2 pairs with __hmul2, two halves a 32-bit
// load.
// bf16_to_float_scaled: widen bf16 to float and multiply by a scale (an
// unscale step), size_t indices.
// quantize_rows_bf16: a block per row finds the row's largest magnitude
// with a __shared__ max tree, writes it to row_scale and the row divided
// by it as bf16 (a quantize step with bf16 standing in for the integer
// type). The max is exact; the bf16 outputs are only good to about 2^-8,
// so rtol = 1e-2.
// dequant_fp8_rows: fp8 (e4m3) weights back to float with a float scale per
// row, a 2-D grid whose y is the row.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1 << 27) in(x[N]) inout(y[N]) \
    scalar(n = N, alpha = 0.75) grid(4096) block(256) \
    tolerance(rtol = 1e-2, atol = 1e-2, norm = 1e-2) instance(odd: N = 100003)
__global__ void haxpy(int n, float alpha, const __half *x, __half *y) {
  const __half a = __float2half(alpha);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = __hadd(__hmul(a, x[i]), y[i]);
}

#pragma optiml kernel sizes(N2 = 1 << 27) in(in[N2]) out(out[N2]) \
    scalar(n2 = N2, scale = 0.3) grid((N2 + 255) / 256) block(256) \
    tolerance(rtol = 1e-2, atol = 1e-2, norm = 1e-2) instance(odd: N2 = 100003)
__global__ void hscale2(const __half2 *in, __half2 *out, float scale, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __half2 s = __float2half2_rn(scale);
    out[i] = __hmul2(in[i], s);
  }
}

#pragma optiml kernel sizes(N = 1 << 27) in(in[N]) out(out[N]) \
    scalar(n = N, scale = 0.0078125) grid((N + 255) / 256) block(256) \
    dist(in = uniform(-512, 512)) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 100003)
__global__ void bf16_to_float_scaled(const __nv_bfloat16 *in, float *out,
                                     float scale, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __bfloat162float(in[i]) * scale;
}

#define QBLOCK 256

#pragma optiml kernel sizes(R = 16384, C = 8192) in(x[R * C]) \
    out(q[R * C], row_scale[R]) scalar(cols = C) grid(R) block(256) \
    dist(x = normal(0, 2)) \
    tolerance(rtol = 1e-2, atol = 1e-3, norm = 1e-2) \
    instance(odd: R = 1001, C = 1003)
__global__ void quantize_rows_bf16(const float *x, __nv_bfloat16 *q,
                                   float *row_scale, int cols) {
  __shared__ float smax[QBLOCK];
  const int row = blockIdx.x;
  const int tid = threadIdx.x;
  const float *xr = x + (size_t)row * cols;
  __nv_bfloat16 *qr = q + (size_t)row * cols;

  float m = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x)
    m = fmaxf(m, fabsf(xr[c]));
  smax[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      smax[tid] = fmaxf(smax[tid], smax[tid + s]);
    __syncthreads();
  }
  const float amax = smax[0];
  const float inv = amax > 0.0f ? 1.0f / amax : 0.0f;

  for (int c = tid; c < cols; c += blockDim.x)
    qr[c] = __float2bfloat16(xr[c] * inv);
  if (tid == 0)
    row_scale[row] = amax;
}

#pragma optiml kernel sizes(R = 16384, C = 8192) in(w[R * C], scale[R]) \
    out(out[R * C]) scalar(rows = R, cols = C) \
    grid((C + 255) / 256, R) block(256) \
    dist(w = uniform(-8, 8), scale = uniform(0.001, 0.1)) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: R = 1001, C = 1003)
__global__ void dequant_fp8_rows(const __nv_fp8_e4m3 *w, const float *scale,
                                 float *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y;
  if (row < rows && col < cols) {
    size_t idx = (size_t)row * cols + col;
    out[idx] = static_cast<float>(w[idx]) * scale[row];
  }
}

// Host side: one mixed-precision step as a training loop runs it.
void mixed_precision_step(int n, float lr, const __half *d_grad,
                          __half *d_param, const __half2 *d_act,
                          __half2 *d_act_scaled, float act_scale) {
  haxpy<<<4096, 256>>>(n, -lr, d_grad, d_param);
  int n2 = n / 2;
  hscale2<<<(n2 + 255) / 256, 256>>>(d_act, d_act_scaled, act_scale, n2);
}

void unscale_bf16(const __nv_bfloat16 *d_in, float *d_out, float loss_scale,
                  size_t n, cudaStream_t stream) {
  unsigned blocks = (unsigned)((n + 255) / 256);
  bf16_to_float_scaled<<<blocks, 256, 0, stream>>>(d_in, d_out,
                                                   1.0f / loss_scale, n);
}

void quantize_weights(const float *d_w, __nv_bfloat16 *d_q, float *d_scales,
                      int rows, int cols) {
  quantize_rows_bf16<<<rows, QBLOCK>>>(d_w, d_q, d_scales, cols);
}

void load_fp8_weights(const __nv_fp8_e4m3 *d_w8, const float *d_scales,
                      float *d_w, int rows, int cols) {
  dim3 grid((cols + 255) / 256, rows);
  dequant_fp8_rows<<<grid, 256>>>(d_w8, d_scales, d_w, rows, cols);
}
