// A 2-D kernel, its launch sized by locals of the host function, and a
// local the user left unused.
#include <cuda_runtime.h>

__global__ void add2d(float *a, int nx, int ny) {
  int spare = nx * 2;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny)
    a[y * nx + x] += 1.0f;
}

void host(float *a, int nx, int ny) {
  int unusedHere = nx + ny;
  dim3 threads(32, 8);
  dim3 blocks((nx + 31) / 32, (ny + 7) / 8);
  add2d<<<blocks, threads>>>(a, nx, ny);
}
