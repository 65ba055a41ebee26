// Kernels that are correct, or measured right, only in the sequence a
// program launches them in: an iteration with swapped buffers, a launch
// per anti-diagonal, two passes of a reduction, and a grid-wide barrier.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Three-point smoothing, iterated T times with the buffers swapped.
#pragma optiml kernel sizes(N = 1 << 20, T = 8) inout(u[N], v[N]) \
    scalar(n = N) grid(ceil_div(N, 256)) block(256) repeat(T) swap(u, v) \
    instance(odd: N = 100003, T = 3)
__global__ void smooth(const float *u, float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float l = u[i > 0 ? i - 1 : i], r = u[i + 1 < n ? i + 1 : i];
  v[i] = 0.25f * l + 0.5f * u[i] + 0.25f * r;
}

// Edit distance of a and b, one anti-diagonal d = i + j per launch: cell
// (i, j) needs (i-1, j), (i, j-1) and (i-1, j-1), all on earlier diagonals.
#pragma optiml kernel sizes(N = 1024) in(a[N], b[N]) \
    inout(cost[(N + 1) * (N + 1)]) scalar(n = N, d = D) \
    dist(a = int(0, 3), b = int(0, 3), cost = int(0, 9)) \
    repeat(D = 2 .. 2 * N) grid(ceil_div(N, 128)) block(128) \
    instance(odd: N = 77)
__global__ void wavefront(const int *a, const int *b, int *cost, int n, int d) {
  int i = 1 + blockIdx.x * blockDim.x + threadIdx.x;
  int j = d - i;
  if (i > n || j < 1 || j > n)
    return;
  int w = n + 1;
  int sub = cost[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);
  int del = cost[(i - 1) * w + j] + 1, ins = cost[i * w + j - 1] + 1;
  cost[i * w + j] = min(sub, min(del, ins));
}

// One block folds the partial sums in a fixed order.
__global__ void fold(const float *part, float *total, int m) {
  __shared__ float s[256];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < m; i += blockDim.x)
    acc += part[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    total[0] = s[0];
}

// The first pass of a sum: a partial sum per block, folded by `fold`
// into `total`, a buffer only the second kernel takes.
#pragma optiml kernel sizes(N = 1 << 22, B = 512) in(x[N]) out(part[B]) \
    out(total[1]) scalar(n = N) grid(B) block(256) \
    then(fold<<<1, 256>>>(part, total, B)) tolerance(rtol = 1e-4, atol = 1e-4)
__global__ void partial_sums(const float *x, float *part, int n) {
  __shared__ float s[256];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    acc += x[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    part[blockIdx.x] = s[0];
}

// Rotates x by half its length through tmp: right only when every block
// has copied before any reads, which a cooperative launch's grid barrier
// guarantees.
#pragma optiml kernel sizes(N = 1 << 16) inout(x[N]) out(tmp[N]) \
    scalar(n = N) grid(ceil_div(N, 512)) block(512) cooperative
__global__ void rotate_half(float *x, float *tmp, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    tmp[i] = x[i];
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    x[i] = tmp[(i + n / 2) % n];
}
