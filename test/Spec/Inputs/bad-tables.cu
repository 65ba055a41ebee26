__constant__ float coef[4];
__device__ int table[16];

#pragma optiml kernel sizes(N = 1024) out(y[N]) scalar(n = N) symbol(coeff) \
    grid(4) block(256)
__global__ void misspelt(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = coef[i % 4];
}

#pragma optiml kernel sizes(N = 1024) out(y[N]) scalar(n = N) \
    symbol(table[32]) grid(4) block(256)
__global__ void too_long(int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = table[i % 16];
}

#pragma optiml kernel sizes(N = 1024) inout(y[N]) alias(x = n) scalar(n = N) \
    grid(4) block(256)
__global__ void alias_scalar(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}

#pragma optiml kernel sizes(N = 1024) inout(y[N]) alias(x = y) scalar(n = N) \
    dist(x = uniform(0, 1)) grid(4) block(256)
__global__ void alias_dist(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}
