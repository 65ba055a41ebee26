// 3-D seven-point stencils. stencil7_zloop is Parboil style: a 2-D grid
// over (i, j) with a +1 offset for the halo, each thread walking k through
// the interior, indices through an `Index3D(nx, ny, i, j, k)` macro, and
// c0 / c1 coefficients as scalars. laplace3d is one thread per point with
// a 3-D grid (blockIdx.z) and a 32x4x2 block, an early return on the
// bounds, and a clamped neighbour index through a __device__ helper. Both
// are launched from main.
#include <cstdio>
#include <cuda_runtime.h>

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))

#pragma optiml kernel sizes(NX = 512, NY = 512, NZ = 256) \
    in(A0[NX * NY * NZ]) inout(Anext[NX * NY * NZ]) \
    scalar(c0 = 0.4, c1 = 0.1, nx = NX, ny = NY, nz = NZ) \
    grid((NX - 2 + 31) / 32, (NY - 2 + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: NX = 67, NY = 45, NZ = 19)
__global__ void stencil7_zloop(float c0, float c1, const float *A0,
                               float *Anext, int nx, int ny, int nz) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < nx - 1 && j < ny - 1) {
    for (int k = 1; k < nz - 1; k++) {
      Anext[Index3D(nx, ny, i, j, k)] =
          (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
           A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
           A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) *
              c1 -
          A0[Index3D(nx, ny, i, j, k)] * c0;
    }
  }
}

__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

#pragma optiml kernel sizes(NX = 512, NY = 512, NZ = 256) in(u[NX * NY * NZ]) \
    out(lap[NX * NY * NZ]) scalar(nx = NX, ny = NY, nz = NZ, inv_h2 = 0.25) \
    grid((NX + 31) / 32, (NY + 3) / 4, (NZ + 1) / 2) block(32, 4, 2) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: NX = 67, NY = 45, NZ = 19)
__global__ void laplace3d(const float *u, float *lap, int nx, int ny, int nz,
                          float inv_h2) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  const size_t plane = (size_t)nx * ny;
  const size_t c = z * plane + (size_t)y * nx + x;
  float sum = -6.0f * u[c];
  sum += u[z * plane + (size_t)y * nx + clampi(x - 1, 0, nx - 1)];
  sum += u[z * plane + (size_t)y * nx + clampi(x + 1, 0, nx - 1)];
  sum += u[z * plane + (size_t)clampi(y - 1, 0, ny - 1) * nx + x];
  sum += u[z * plane + (size_t)clampi(y + 1, 0, ny - 1) * nx + x];
  sum += u[clampi(z - 1, 0, nz - 1) * plane + (size_t)y * nx + x];
  sum += u[clampi(z + 1, 0, nz - 1) * plane + (size_t)y * nx + x];
  lap[c] = sum * inv_h2;
}

int main() {
  const int nx = 512, ny = 512, nz = 256;
  const size_t count = (size_t)nx * ny * nz;
  float *a, *b;
  cudaMalloc(&a, count * sizeof(float));
  cudaMalloc(&b, count * sizeof(float));
  cudaMemset(a, 0, count * sizeof(float));
  cudaMemset(b, 0, count * sizeof(float));
  dim3 block2(32, 8);
  dim3 grid2((nx - 2 + block2.x - 1) / block2.x,
             (ny - 2 + block2.y - 1) / block2.y);
  stencil7_zloop<<<grid2, block2>>>(0.4f, 0.1f, a, b, nx, ny, nz);
  dim3 block3(32, 4, 2);
  dim3 grid3((nx + 31) / 32, (ny + 3) / 4, (nz + 1) / 2);
  laplace3d<<<grid3, block3>>>(a, b, nx, ny, nz, 0.25f);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("stencil3d: %s\n", cudaGetErrorString(err));
  cudaFree(a);
  cudaFree(b);
  return err == cudaSuccess ? 0 : 1;
}
