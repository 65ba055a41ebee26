//===- device_side_launch.cu - adversarial: a kernel launched from the kernel -===//
//
// REFUSED before building: a launch from device code (dynamic parallelism)
// runs work the timing of the parent cannot see.
//
//===----------------------------------------------------------------------===//

__global__ void finish(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0.0f;
}

__global__ void blend(int n, float a, const float *x, const float *w,
                      float *y, float *acc) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    finish<<<(n + 255) / 256, 256>>>(n, y);
}
