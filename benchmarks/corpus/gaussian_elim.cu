// One elimination step of Gaussian elimination, Rodinia gaussian style:
// fan2 updates the trailing submatrix and the right-hand side with the
// multipliers of column t (computed by a small 1-D kernel, fan1, that is
// too short to time on its own and is left out): a 2-D grid with the row
// taken from x (so neighbouring threads walk down a column: uncoalesced),
// two early returns, offsets by t and t + 1 in every index, an unused
// parameter j1, and the vector b updated only by the threads with
// yidx == 0. The step t is a scalar. Launched from a host loop over t.
#include <cuda_runtime.h>

#define BLOCK_SIZE_XY 16

#pragma optiml kernel sizes(S = 8192) in(m_cuda[S * S]) inout(a_cuda[S * S], b_cuda[S]) \
    scalar(Size = S, j1 = S, t = 7) grid((S + 15) / 16, (S + 15) / 16) block(16, 16) \
    tolerance(rtol = 1e-5, atol = 1e-5) instance(odd: S = 301)
__global__ void fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size,
                     int j1, int t) {
  int xidx = blockIdx.x * blockDim.x + threadIdx.x;
  int yidx = blockIdx.y * blockDim.y + threadIdx.y;
  if (xidx >= Size - 1 - t)
    return;
  if (yidx >= Size - t)
    return;

  a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -=
      m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
  if (yidx == 0)
    b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
}

void forward_sub(float *m, float *a, float *b, int Size) {
  dim3 dimBlock(BLOCK_SIZE_XY, BLOCK_SIZE_XY);
  int gridXY = (Size / BLOCK_SIZE_XY) + (!(Size % BLOCK_SIZE_XY) ? 0 : 1);
  dim3 dimGrid(gridXY, gridXY);
  for (int t = 0; t < (Size - 1); t++) {
    fan2<<<dimGrid, dimBlock>>>(m, a, b, Size, Size - t, t);
    cudaDeviceSynchronize();
  }
}
