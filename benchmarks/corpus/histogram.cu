// Histograms with atomics. histo_global: 256 bins of bytes, a grid-stride
// loop and one global atomicAdd per element. histo_shared: the same with a
// privatized __shared__ histogram per block (cleared and merged with
// `for (j = threadIdx.x; j < 256; j += blockDim.x)` loops), as in the CUDA
// samples. histo_float: float samples binned into nbins with the bin index
// clamped to [0, nbins - 1] (values outside [lo, hi) land in the end bins),
// which also keeps random inputs in bounds. Counts must be zeroed first, so
// the bins are inout with constant(0).
#include <cuda_runtime.h>

#define NUM_BINS 256

#pragma optiml kernel sizes(N = 1 << 28) in(data[N]) inout(bins[256]) \
    scalar(n = N) grid(2048) block(256) dist(data = int(0, 255), bins = constant(0)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
__global__ void histo_global(const unsigned char *data, unsigned int *bins,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  while (i < n) {
    atomicAdd(&bins[data[i]], 1u);
    i += stride;
  }
}

#pragma optiml kernel sizes(N = 1 << 28) in(data[N]) inout(bins[256]) \
    scalar(n = N) grid(2048) block(256) dist(data = int(0, 255), bins = constant(0)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
__global__ void histo_shared(const unsigned char *data, unsigned int *bins,
                             int n) {
  __shared__ unsigned int s_hist[NUM_BINS];
  for (int j = threadIdx.x; j < NUM_BINS; j += blockDim.x)
    s_hist[j] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&s_hist[data[i]], 1u);
  __syncthreads();

  for (int j = threadIdx.x; j < NUM_BINS; j += blockDim.x)
    atomicAdd(&bins[j], s_hist[j]);
}

#pragma optiml kernel sizes(N = 1 << 26, B = 1000) in(x[N]) inout(counts[B]) \
    scalar(n = N, nbins = B, lo = -3.0, hi = 3.0) \
    grid((N + 255) / 256) block(256) dist(x = normal(0, 1), counts = constant(0)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
__global__ void histo_float(const float *x, unsigned int *counts, int n,
                            int nbins, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = (int)((x[i] - lo) / (hi - lo) * nbins);
    bin = min(max(bin, 0), nbins - 1);
    atomicAdd(&counts[bin], 1u);
  }
}
