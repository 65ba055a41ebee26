// A kernel that builds only with its project's flags: its header is found
// through an -I of the compile command and SCALE comes from a -D.
#include "proj/scale.h"

#pragma optiml kernel sizes(N = 4096) in(x[N]) out(y[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256)
__global__ void scale_kernel(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scaled(x[i]);
}
