// One explicit step of a chip thermal simulation, Rodinia hotspot style
// without the pyramid tiling: one thread per cell of a row-major grid,
// neighbours chosen with ternaries at the border (the cell itself stands in
// for a missing neighbour), several float scalars (capacitance, the three
// resistances, the step), and an early `return` for threads past the grid.
// Launched from a host function with dim3 variables.
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

#pragma optiml kernel sizes(ROWS = 8192, COLS = 8192) \
    in(power[ROWS * COLS], temp_src[ROWS * COLS]) out(temp_dst[ROWS * COLS]) \
    scalar(rows = ROWS, cols = COLS, Cap = 0.5, Rx = 1.5, Ry = 1.5, Rz = 3.0, step = 0.01, amb_temp = 80.0) \
    grid((COLS + 15) / 16, (ROWS + 15) / 16) block(16, 16) \
    dist(temp_src = uniform(300, 350), power = uniform(0, 1)) \
    tolerance(rtol = 1e-5, atol = 1e-3) instance(odd: ROWS = 301, COLS = 199)
__global__ void hotspot_step(const float *power, const float *temp_src,
                             float *temp_dst, int rows, int cols, float Cap,
                             float Rx, float Ry, float Rz, float step,
                             float amb_temp) {
  int c = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  int r = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  if (r >= rows || c >= cols)
    return;

  int idx = r * cols + c;
  int N = (r == 0) ? idx : idx - cols;
  int S = (r == rows - 1) ? idx : idx + cols;
  int W = (c == 0) ? idx : idx - 1;
  int E = (c == cols - 1) ? idx : idx + 1;

  float t = temp_src[idx];
  float step_div_cap = step / Cap;
  temp_dst[idx] = t + step_div_cap * (power[idx] +
                                      (temp_src[S] + temp_src[N] - 2.0f * t) / Ry +
                                      (temp_src[E] + temp_src[W] - 2.0f * t) / Rx +
                                      (amb_temp - t) / Rz);
}

void compute_tran_temp(const float *power, float *temp[2], int rows, int cols,
                       int iterations) {
  float Cap = 0.5f, Rx = 1.5f, Ry = 1.5f, Rz = 3.0f, step = 0.01f;
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid((cols + BLOCK_SIZE - 1) / BLOCK_SIZE,
               (rows + BLOCK_SIZE - 1) / BLOCK_SIZE);
  int src = 0, dst = 1;
  for (int i = 0; i < iterations; i++) {
    hotspot_step<<<dimGrid, dimBlock>>>(power, temp[src], temp[dst], rows,
                                        cols, Cap, Rx, Ry, Rz, step, 80.0f);
    int tmp = src;
    src = dst;
    dst = tmp;
  }
}
