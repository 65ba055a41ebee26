// A mark whose spec names an argument the kernel does not have.
#pragma optiml kernel sizes(N = 1024) in(x[N], z[N]) out(y[N]) scalar(n = N) \
    grid(N / 256) block(256)
__global__ void copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}
