// Two marked kernels and one without a spec: --evaluate and --optimize
// without --kernel handle the marked ones in turn.
#pragma optiml kernel sizes(N = 4096) in(x[N]) out(y[N]) scalar(n = N) \
    grid((N + 127) / 128) block(128)
__global__ void scale(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

__global__ void helper(float *p) { p[threadIdx.x] = 0.0f; }

#pragma optiml kernel sizes(N = 4096) in(a[N], b[N]) out(c[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256)
__global__ void add(int n, const float *a, const float *b, float *c) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    c[i] = a[i] + b[i];
}
