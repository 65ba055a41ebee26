// Per-row work with one thread per row, the layout of layernorm_forward.
// row_moments: a loop for the sum of a row, then a second loop over the
// same columns for the sum of squares, then the mean and the (biased)
// variance as E[x^2] - E[x]^2. complex_polar: interleaved complex rows
// (re, im, re, im, ...) to magnitude and phase rows, one loop writing both
// outputs with sqrtf and atan2f. Neither is launched in this file.
#include <cuda_runtime.h>
#include <math.h>

#pragma optiml kernel sizes(R = 16384, C = 2048) in(x[R * C]) \
    out(mean[R], var[R]) scalar(rows = R, cols = C) grid((R + 127) / 128) \
    block(128) tolerance(rtol = 1e-4, atol = 1e-4) \
    instance(odd: R = 333, C = 771)
__global__ void row_moments(const float *x, float *mean, float *var, int rows,
                            int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + (size_t)r * cols;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c)
    sum += row[c];
  float sumsq = 0.0f;
  for (int c = 0; c < cols; ++c)
    sumsq += row[c] * row[c];
  float mu = sum / cols;
  mean[r] = mu;
  var[r] = sumsq / cols - mu * mu;
}

#pragma optiml kernel sizes(R = 8192, C = 2048) in(z[R * 2 * C]) \
    out(mag[R * C], phase[R * C]) scalar(rows = R, cols = C) \
    grid((R + 127) / 128) block(128) tolerance(rtol = 1e-5, atol = 1e-6) \
    instance(odd: R = 333, C = 771)
__global__ void complex_polar(const float *z, float *mag, float *phase,
                              int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *zr = z + (size_t)r * 2 * cols;
  float *mr = mag + (size_t)r * cols;
  float *pr = phase + (size_t)r * cols;
  for (int c = 0; c < cols; ++c) {
    mr[c] = sqrtf(zr[2 * c] * zr[2 * c] + zr[2 * c + 1] * zr[2 * c + 1]);
    pr[c] = atan2f(zr[2 * c + 1], zr[2 * c]);
  }
}
