// Transposes in the CUDA samples' style: TILE_DIM x BLOCK_ROWS (32x8)
// blocks, each thread moving TILE_DIM / BLOCK_ROWS elements in a
// `for (i = 0; i < TILE_DIM; i += BLOCK_ROWS)` loop, indices built as
// tx + width * ty, and no bounds checks (the samples require sizes
// that are multiples of TILE_DIM, so the odd instance is a multiple of 32
// too). transpose_coalesced is the samples' shared-memory tile before its
// bank conflicts are fixed (a TILE_DIM x TILE_DIM tile read down its
// columns). copy_tiled is the bandwidth reference the samples time them
// against.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

#pragma optiml kernel sizes(W = 8192, H = 8192) in(idata[W * H]) out(odata[W * H]) \
    scalar(width = W, height = H) grid(W / 32, H / 32) block(32, 8) \
    tolerance(rtol = 0, atol = 0) instance(odd: W = 992, H = 480)
__global__ void transpose_naive(float *odata, const float *idata, int width,
                                int height) {
  int tx = blockIdx.x * TILE_DIM + threadIdx.x;
  int ty = blockIdx.y * TILE_DIM + threadIdx.y;
  int src = tx + width * ty;
  int dst = ty + height * tx;

  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[dst + r] = idata[src + r * width];
}

#pragma optiml kernel sizes(W = 8192, H = 8192) in(idata[W * H]) out(odata[W * H]) \
    scalar(width = W, height = H) grid(W / 32, H / 32) block(32, 8) \
    tolerance(rtol = 0, atol = 0) instance(odd: W = 992, H = 480)
__global__ void transpose_coalesced(float *odata, const float *idata, int width,
                                    int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + yIndex * width;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + yIndex * height;

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

#pragma optiml kernel sizes(W = 8192, H = 8192) in(idata[W * H]) out(odata[W * H]) \
    scalar(width = W, height = H) grid(W / 32, H / 32) block(32, 8) \
    tolerance(rtol = 0, atol = 0) instance(odd: W = 992, H = 480)
__global__ void copy_tiled(float *odata, const float *idata, int width,
                           int height) {
  int tx = blockIdx.x * TILE_DIM + threadIdx.x;
  int ty = blockIdx.y * TILE_DIM + threadIdx.y;
  int base = tx + width * ty;

  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[base + r * width] = idata[base + r * width];
}

int main() {
  const int width = 8192, height = 8192;
  float *d_idata, *d_odata;
  cudaMalloc(&d_idata, sizeof(float) * width * height);
  cudaMalloc(&d_odata, sizeof(float) * width * height);
  dim3 grid(width / TILE_DIM, height / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  copy_tiled<<<grid, threads>>>(d_odata, d_idata, width, height);
  transpose_naive<<<grid, threads>>>(d_odata, d_idata, width, height);
  transpose_coalesced<<<grid, threads>>>(d_odata, d_idata, width, height);
  cudaDeviceSynchronize();
  cudaFree(d_idata);
  cudaFree(d_odata);
  return 0;
}
