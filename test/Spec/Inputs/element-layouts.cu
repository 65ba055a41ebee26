// Buffers of the element types real programs pass: CUDA vector types,
// structs of numbers (array of structs), the 16- and 8-bit floats, with a
// distribution per field. Every kernel here checks; bad-layouts.cu holds
// the ones the runner cannot walk.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

struct Option {
  float spot, strike, years;
};

struct Hit {
  float t;
  int id;
};

#pragma optiml kernel sizes(N = 1 << 20) in(opt[N]) out(call[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256) \
    dist(opt.spot = uniform(5, 30), opt.strike = uniform(1, 100), \
         opt.years = uniform(0.25, 10)) tolerance(rtol = 1e-4, atol = 1e-4)
__global__ void intrinsic_value(const Option *opt, float *call, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    call[i] = fmaxf(opt[i].spot - opt[i].strike, 0.0f) / opt[i].years;
}

#pragma optiml kernel sizes(N = 1 << 20) in(z[N]) out(w[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256) dist(z.x = uniform(-2, 2))
__global__ void complex_square(const float2 *z, float2 *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] = make_float2(z[i].x * z[i].x - z[i].y * z[i].y, 2 * z[i].x * z[i].y);
}

#pragma optiml kernel sizes(N = 1 << 20) in(rgba[N]) out(gray[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256) \
    dist(rgba = int(0, 255)) tolerance(rtol = 0, atol = 0)
__global__ void to_gray(const uchar4 *rgba, unsigned char *gray, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    gray[i] = (unsigned char)((77 * rgba[i].x + 150 * rgba[i].y +
                               29 * rgba[i].z) >> 8);
}

#pragma optiml kernel sizes(N = 1 << 20) in(t[N]) out(hits[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256) dist(t = uniform(0, 8))
__global__ void nearest(const float *t, Hit *hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    hits[i] = Hit{t[i] * 0.5f, (int)t[i]};
}

#pragma optiml kernel sizes(N = 1 << 20) in(x[N], q[N]) inout(y[N]) \
    out(b[N]) scalar(n = N, a = 0.5) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-2, atol = 1e-2)
__global__ void half_axpy(const __half *x, const __nv_fp8_e4m3 *q, half2 *y,
                          __nv_bfloat16 *b, int n, __half a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = __hfma2(__half2half2(a), __half2half2(x[i]), y[i]);
    b[i] = __float2bfloat16(float(q[i]) + __half2float(x[i]));
  }
}

// An optional input, passed as NULL: the kernel tests for it.
#pragma optiml kernel sizes(N = 1 << 20) in(x[N]) null(bias) out(y[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256)
__global__ void add_bias(const float *x, const float *bias, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + (bias ? bias[i] : 0.0f);
}

// A mask of bools and a mode passed as a scoped enum: a u8 of 0 or 1 and
// the enum's integer type.
enum class Blend : unsigned char { Keep, Add, Scale };

#pragma optiml kernel sizes(N = 1 << 20) in(mask[N], x[N]) inout(y[N]) \
    scalar(mode = 2, n = N) grid((N + 255) / 256) block(256)
__global__ void masked_blend(const bool *mask, const float *x, float *y,
                             Blend mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !mask[i])
    return;
  if (mode == Blend::Add)
    y[i] += x[i];
  else if (mode == Blend::Scale)
    y[i] *= x[i];
}
