//===- device_helpers.cu - adversarial: extra __device__ helpers and a __constant__ table -===//
//
// ACCEPTED. New __device__ helpers and a __constant__ table of offsets:
// nothing that runs when the library loads.
//
//===----------------------------------------------------------------------===//

__constant__ int offsets[4] = {0, 1, 2, 3};

__device__ __forceinline__ int wrap(int j, int n) { return j < n ? j : j - n; }

__device__ float term(float ax, const float *w, int i, int k, int n) {
  return ax * w[wrap(i + offsets[k], n)];
}

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float ax = a * x[i];
  float v = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    v += term(ax, w, i, k, n);
  y[i] = v;
  acc[i] += v;
}
