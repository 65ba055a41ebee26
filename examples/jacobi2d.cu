// 2-D five-point stencil (one Jacobi sweep) on an ny x nx grid; the border is
// copied. Neighbouring threads re-read each other's inputs: a shared-memory
// tile with a one-element halo removes most global loads.
#include <cstdio>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(NX = 8192, NY = 8192) in(in[NX * NY]) out(out[NX * NY]) \
    scalar(nx = NX, ny = NY) grid((NX + 31) / 32, (NY + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: NX = 513, NY = 301)
__global__ void jacobi2d(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

int main() {
  const int nx = 8192, ny = 8192;
  float *in, *out;
  cudaMalloc(&in, sizeof(float) * nx * ny);
  cudaMalloc(&out, sizeof(float) * nx * ny);
  cudaMemset(in, 0, sizeof(float) * nx * ny);
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  jacobi2d<<<grid, block>>>(in, out, nx, ny);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("jacobi2d: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
