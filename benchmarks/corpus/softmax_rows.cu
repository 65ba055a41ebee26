// Row softmax variants. softmax_block_row: one block per row (PyTorch
// tutorial style), a block-stride loop for the row maximum and the sum of
// exponentials, each reduced through a static __shared__ array with a
// `for (s = blockDim.x / 2; s > 0; s >>= 1)` tree, then a normalizing pass.
// log_softmax_online: one thread per row with the single-pass "online"
// max/sum recurrence and logf, through a __device__ helper.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

#pragma optiml kernel sizes(R = 8192, C = 4096) in(x[R * C]) out(y[R * C]) \
    scalar(rows = R, cols = C) grid(R) block(256) dist(x = uniform(-10, 10)) \
    tolerance(rtol = 1e-5, atol = 1e-7) instance(odd: R = 77, C = 1001)
__global__ void softmax_block_row(const float *x, float *y, int rows, int cols) {
  __shared__ float red[THREADS];
  int row = blockIdx.x;
  if (row >= rows)
    return;
  const float *xr = x + (size_t)row * cols;
  float *yr = y + (size_t)row * cols;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, xr[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();

  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    sum += expf(xr[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  sum = red[0];

  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = expf(xr[c] - m) / sum;
}

__device__ inline void online_update(float v, float &m, float &s) {
  if (v > m) {
    s = s * expf(m - v) + 1.0f;
    m = v;
  } else {
    s += expf(v - m);
  }
}

#pragma optiml kernel sizes(R = 16384, C = 2048) in(x[R * C]) out(y[R * C]) \
    scalar(rows = R, cols = C) grid((R + 127) / 128) block(128) \
    dist(x = uniform(-10, 10)) tolerance(rtol = 1e-4, atol = 1e-5) \
    instance(odd: R = 77, C = 1001)
__global__ void log_softmax_online(const float *x, float *y, int rows,
                                   int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float m = -INFINITY, s = 0.0f;
    for (int c = 0; c < cols; ++c)
      online_update(x[row * cols + c], m, s);
    float lse = m + logf(s);
    for (int c = 0; c < cols; ++c)
      y[row * cols + c] = x[row * cols + c] - lse;
  }
}

void softmax_forward(const float *x, float *y, int rows, int cols) {
  softmax_block_row<<<rows, THREADS>>>(x, y, rows, cols);
  log_softmax_online<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
