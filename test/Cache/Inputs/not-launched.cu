// A marked kernel launched from another file: its launch geometry is not
// this file's to change.
#pragma optiml kernel sizes(N = 1 << 20) inout(y[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256)
__global__ void bump(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 1.0f;
}
