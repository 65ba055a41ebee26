// Kernels that programs launch in sequences, marked with the sequence the
// program runs them in (docs/Spec.md, "Sequences of launches"): a thermal
// stencil iterated with its two temperature buffers swapped, a sequence
// alignment filled one anti-diagonal per launch, Gaussian elimination with
// partial pivoting as three kernels per pivot, a two-pass max reduction, a
// global-memory tree sum launched once per level with a halving length, an
// L2 normalization that synchronizes its whole grid, a Jacobi solver with a
// residual kernel after each sweep, and a finite-volume time step whose
// fluxes are computed by a kernel launched before it. Each host function at
// the end of the file is the loop a program would run.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// ---------------------------------------------------------------------------
// 1. Hotspot-style thermal step, Rodinia flavour but a single step per
//    launch: a 16x16 tile of temperatures and its one-cell halo staged in
//    shared memory, the border cells clamped so that a missing neighbour is
//    the cell itself. The program runs K steps, swapping temp_in and
//    temp_out after each.
#define HS_TILE 16

#pragma optiml kernel sizes(ROWS = 2048, COLS = 2048, K = 20) \
    in(power[ROWS * COLS]) inout(temp_in[ROWS * COLS], temp_out[ROWS * COLS]) \
    scalar(rows = ROWS, cols = COLS, step_div_cap = 0.1, rx_1 = 0.6667, ry_1 = 0.6667, rz_1 = 0.3333, amb_temp = 80.0) \
    dist(power = uniform(0, 1), temp_in = uniform(300, 350), temp_out = uniform(300, 350)) \
    grid(ceil_div(COLS, 16), ceil_div(ROWS, 16)) block(16, 16) \
    repeat(K) swap(temp_in, temp_out) \
    tolerance(rtol = 1e-5, atol = 1e-3) instance(odd: ROWS = 301, COLS = 199, K = 3)
__global__ void hotspot_tile_step(const float *power, const float *temp_in,
                                  float *temp_out, int rows, int cols,
                                  float step_div_cap, float rx_1, float ry_1,
                                  float rz_1, float amb_temp) {
  __shared__ float tile[HS_TILE + 2][HS_TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * HS_TILE + tx;
  int r = blockIdx.y * HS_TILE + ty;
  // Threads past the grid load a clamped cell so that the halo of the last
  // real row and column holds the cell itself.
  int rc = min(r, rows - 1), cc = min(c, cols - 1);

  tile[ty + 1][tx + 1] = temp_in[rc * cols + cc];
  if (tx == 0)
    tile[ty + 1][0] = temp_in[rc * cols + max(cc - 1, 0)];
  if (tx == HS_TILE - 1)
    tile[ty + 1][HS_TILE + 1] = temp_in[rc * cols + min(cc + 1, cols - 1)];
  if (ty == 0)
    tile[0][tx + 1] = temp_in[max(rc - 1, 0) * cols + cc];
  if (ty == HS_TILE - 1)
    tile[HS_TILE + 1][tx + 1] = temp_in[min(rc + 1, rows - 1) * cols + cc];
  __syncthreads();

  if (r < rows && c < cols) {
    float t = tile[ty + 1][tx + 1];
    float n = tile[ty][tx + 1], s = tile[ty + 2][tx + 1];
    float w = tile[ty + 1][tx], e = tile[ty + 1][tx + 2];
    temp_out[r * cols + c] =
        t + step_div_cap * (power[r * cols + c] + (s + n - 2.0f * t) * ry_1 +
                            (e + w - 2.0f * t) * rx_1 + (amb_temp - t) * rz_1);
  }
}

// ---------------------------------------------------------------------------
// 2. Needleman-Wunsch global alignment scores, one anti-diagonal
//    d = i + j of the (m + 1) x (n + 1) score matrix per launch. Diagonal d
//    holds the cells i = max(0, d - n) .. min(d, m); the border row and
//    column (gap penalties) are written by the diagonals too, so the whole
//    matrix is output. The substitution score comes from a 24 x 24
//    BLOSUM-like table indexed by the residues.
#define NW_ALPHABET 24

#pragma optiml kernel sizes(M = 512, N = 512) \
    in(seq_a[M], seq_b[N], blosum[24 * 24]) out(score[(M + 1) * (N + 1)]) \
    scalar(m = M, n = N, penalty = 10, diag = D) \
    dist(seq_a = int(0, 23), seq_b = int(0, 23), blosum = int(-4, 11)) \
    repeat(D = 0 .. M + N) grid(ceil_div(min(D, M) - max(0, D - N) + 1, 128)) block(128) \
    instance(odd: M = 101, N = 77)
__global__ void nw_diagonal(const int *seq_a, const int *seq_b,
                            const int *blosum, int *score, int m, int n,
                            int penalty, int diag) {
  int i = max(0, diag - n) + blockIdx.x * blockDim.x + threadIdx.x;
  if (i > min(diag, m))
    return;
  int j = diag - i;
  int width = n + 1;
  if (i == 0 || j == 0) {
    score[i * width + j] = -penalty * diag;
    return;
  }
  int match = score[(i - 1) * width + (j - 1)] +
              blosum[seq_a[i - 1] * NW_ALPHABET + seq_b[j - 1]];
  int del = score[(i - 1) * width + j] - penalty;
  int ins = score[i * width + (j - 1)] - penalty;
  score[i * width + j] = max(match, max(del, ins));
}

// ---------------------------------------------------------------------------
// 3. Gaussian elimination with partial pivoting, Rodinia's fan1 / fan2
//    split plus a pivot kernel before them: for each column t, one block
//    finds the row with the largest |a[i][t]| (ties to the smaller row),
//    records it in piv[t] and swaps it into row t (a, b and the multipliers
//    already in m); fan1 computes the multipliers of column t; fan2 updates
//    the trailing rows and b. Without pivoting, elimination of a random
//    matrix in float loses all accuracy; with it, the factors are stable.
#define PIVOT_THREADS 256

__global__ void ge_pivot(float *a, float *b, float *m, int *piv, int size,
                         int t) {
  __shared__ float best_val[PIVOT_THREADS];
  __shared__ int best_row[PIVOT_THREADS];
  int tid = threadIdx.x;
  float bv = -1.0f;
  int br = t;
  for (int i = t + tid; i < size; i += blockDim.x) {
    float v = fabsf(a[i * size + t]);
    if (v > bv) {
      bv = v;
      br = i;
    }
  }
  best_val[tid] = bv;
  best_row[tid] = br;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float ov = best_val[tid + s];
      int orow = best_row[tid + s];
      if (ov > best_val[tid] || (ov == best_val[tid] && orow < best_row[tid])) {
        best_val[tid] = ov;
        best_row[tid] = orow;
      }
    }
    __syncthreads();
  }
  int p = best_row[0];
  if (tid == 0)
    piv[t] = p;
  if (p == t)
    return;
  for (int j = tid; j < size; j += blockDim.x) {
    float tmp = a[t * size + j];
    a[t * size + j] = a[p * size + j];
    a[p * size + j] = tmp;
  }
  for (int j = tid; j < t; j += blockDim.x) {
    float tmp = m[t * size + j];
    m[t * size + j] = m[p * size + j];
    m[p * size + j] = tmp;
  }
  if (tid == 0) {
    float tmp = b[t];
    b[t] = b[p];
    b[p] = tmp;
  }
}

__global__ void ge_fan2(const float *m, float *a, float *b, int size, int t) {
  int col = blockIdx.x * blockDim.x + threadIdx.x; // from column t
  int row = blockIdx.y * blockDim.y + threadIdx.y; // from row t + 1
  if (row >= size - 1 - t || col >= size - t)
    return;
  int r = row + 1 + t, c = col + t;
  float mult = m[size * r + t];
  a[size * r + c] -= mult * a[size * t + c];
  if (col == 0)
    b[r] -= mult * b[t];
}

#pragma optiml kernel sizes(N = 320) inout(a[N * N], m[N * N]) \
    inout(b[N]) out(piv[N - 1]) scalar(size = N, t = T) \
    dist(m = constant(0)) \
    repeat(T = 0 .. N - 2) grid(ceil_div(N - 1 - T, 128)) block(128) \
    before(ge_pivot<<<1, 256>>>(a, b, m, piv, N, T)) \
    then(ge_fan2<<<dim3(ceil_div(N - T, 16), ceil_div(N - 1 - T, 16)), dim3(16, 16)>>>(m, a, b, N, T)) \
    tolerance(rtol = 1e-3, atol = 1e-3, norm = 1e-4) instance(odd: N = 77)
__global__ void ge_fan1(const float *a, float *m, int size, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size - 1 - t)
    return;
  m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

// ---------------------------------------------------------------------------
// 4. Two-pass max |x| (the scale of a symmetric int8 quantization): each
//    block of the first pass reduces a grid-stride slice with warp shuffles
//    into part[blockIdx.x]; one block folds the partials into amax and the
//    scale amax / qmax, buffers only the second kernel takes. A maximum does
//    not depend on the order, so the tolerance is exact.
#define AMAX_THREADS 256
#define FOLD_THREADS 1024

__device__ __forceinline__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

__global__ void absmax_to_scale(const float *part, float *amax, float *scale,
                                int nparts, float qmax) {
  __shared__ float s[FOLD_THREADS];
  float v = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += blockDim.x)
    v = fmaxf(v, part[i]);
  s[threadIdx.x] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride)
      s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    amax[0] = s[0];
    scale[0] = s[0] > 0.0f ? s[0] / qmax : 1.0f;
  }
}

#pragma optiml kernel sizes(N = 1 << 26, B = 1024) in(x[N]) out(part[B]) \
    out(amax[1], scale[1]) scalar(n = N) grid(B) block(256) \
    then(absmax_to_scale<<<1, 1024>>>(part, amax, scale, B, 127.0)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 1000003)
__global__ void absmax_partial(const float *x, float *part, long long n) {
  __shared__ float warp_best[AMAX_THREADS / 32];
  float v = 0.0f;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v = fmaxf(v, fabsf(x[i]));
  v = warp_max(v);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_best[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_best[lane] : 0.0f;
    v = warp_max(v);
    if (lane == 0)
      part[blockIdx.x] = v;
  }
}

// ---------------------------------------------------------------------------
// 5. Sum of a vector in place, one global-memory tree level per launch: a
//    pass over the first len elements adds the upper half onto the lower
//    half (the middle element of an odd length stays), so pass p works on
//    ceil(n / 2^p) elements and after ceil(log2 n) passes x[0] is the sum.
//    The pairing is fixed, so the result is deterministic.
#pragma optiml kernel sizes(N = 1 << 25, LOG = 25) inout(x[N]) \
    scalar(len = (N + (1 << P) - 1) >> P) \
    repeat(P = 0 .. LOG - 1) grid(ceil_div(((N + (1 << P) - 1) >> P) / 2, 256)) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-2) instance(odd: N = 1000003, LOG = 20)
__global__ void tree_sum_pass(float *x, int len) {
  int half = (len + 1) >> 1;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len - half)
    x[i] += x[i + half];
}

// ---------------------------------------------------------------------------
// 6. L2 normalization of a whole vector in one cooperative launch: each
//    block writes the sum of squares of its grid-stride slice to
//    part[block], the grid synchronizes, and every block folds the partials
//    in the same order (so all blocks agree on the norm) before scaling its
//    slice. The grid (128 blocks of 512) is resident at once on an H100.
#define NORM_THREADS 512

#pragma optiml kernel sizes(N = 1 << 25, G = 128) in(x[N]) out(y[N], part[G]) \
    scalar(n = N) grid(G) block(512) cooperative \
    tolerance(rtol = 1e-4, atol = 1e-6) instance(odd: N = 100003)
__global__ void l2_normalize_coop(const float *x, float *y, float *part,
                                  int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float red[NORM_THREADS];
  unsigned tid = block.thread_rank();

  float acc = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    acc += x[i] * x[i];
  red[tid] = acc;
  block.sync();
  for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
    if (tid < s)
      red[tid] += red[tid + s];
    block.sync();
  }
  if (tid == 0)
    part[blockIdx.x] = red[0];

  grid.sync();

  float total = 0.0f;
  for (unsigned b = tid; b < gridDim.x; b += block.size())
    total += part[b];
  red[tid] = total;
  block.sync();
  for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
    if (tid < s)
      red[tid] += red[tid + s];
    block.sync();
  }
  float inv_norm = 1.0f / sqrtf(fmaxf(red[0], 1e-30f));
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    y[i] = x[i] * inv_norm;
}

// ---------------------------------------------------------------------------
// 7. Jacobi iteration for the 2-D Poisson problem 4u - (sum of the four
//    neighbours) = rhs with fixed boundary values: a sweep writes u_new
//    (boundary copied through), then a residual kernel reduces the squared
//    residual of the new iterate to one partial sum per 16 x 16 block, which
//    the host would check for convergence. The buffers swap after each
//    iteration.
#define JB 16

__global__ void jacobi5_residual(const float *u, const float *rhs,
                                 float *res_part, int n) {
  __shared__ float s[JB * JB];
  int j = blockIdx.x * JB + threadIdx.x;
  int i = blockIdx.y * JB + threadIdx.y;
  int t = threadIdx.y * JB + threadIdx.x;
  float r2 = 0.0f;
  if (i > 0 && i < n - 1 && j > 0 && j < n - 1) {
    float r = rhs[i * n + j] - (4.0f * u[i * n + j] - u[(i - 1) * n + j] -
                                u[(i + 1) * n + j] - u[i * n + j - 1] -
                                u[i * n + j + 1]);
    r2 = r * r;
  }
  s[t] = r2;
  __syncthreads();
  for (int stride = JB * JB / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    res_part[blockIdx.y * gridDim.x + blockIdx.x] = s[0];
}

#pragma optiml kernel sizes(N = 2048, K = 20) inout(u[N * N]) out(u_new[N * N]) \
    in(rhs[N * N]) out(res_part[ceil_div(N, 16) * ceil_div(N, 16)]) scalar(n = N) \
    dist(u = uniform(0, 1)) \
    grid(ceil_div(N, 16), ceil_div(N, 16)) block(16, 16) repeat(K) \
    then(jacobi5_residual<<<dim3(ceil_div(N, 16), ceil_div(N, 16)), dim3(16, 16)>>>(u_new, rhs, res_part, N)) \
    swap(u, u_new) tolerance(rtol = 1e-4, atol = 1e-4) instance(odd: N = 301, K = 3)
__global__ void jacobi5_sweep(const float *u, float *u_new, const float *rhs,
                              int n) {
  int j = blockIdx.x * JB + threadIdx.x;
  int i = blockIdx.y * JB + threadIdx.y;
  if (i >= n || j >= n)
    return;
  if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
    u_new[i * n + j] = u[i * n + j];
    return;
  }
  u_new[i * n + j] = 0.25f * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                              u[i * n + j - 1] + u[i * n + j + 1] +
                              rhs[i * n + j]);
}

// ---------------------------------------------------------------------------
// 8. One explicit finite-volume step of the inviscid Burgers equation, as
//    CFD codes split it: a flux kernel, launched before the update, computes
//    the Rusanov flux at each of the n + 1 cell faces (zero-gradient
//    boundaries), and the update kernel applies the flux difference to each
//    cell. The CFL number dt/dx * max|u| stays below 1, so u stays in
//    [-1, 1].
__global__ void burgers_flux(const float *u, float *flux, int n) {
  int f = blockIdx.x * blockDim.x + threadIdx.x; // face between f - 1 and f
  if (f > n)
    return;
  float ul = u[max(f - 1, 0)];
  float ur = u[min(f, n - 1)];
  float speed = fmaxf(fabsf(ul), fabsf(ur));
  flux[f] = 0.25f * (ul * ul + ur * ur) - 0.5f * speed * (ur - ul);
}

#pragma optiml kernel sizes(N = 1 << 22, K = 20) inout(u[N]) out(flux[N + 1]) \
    scalar(n = N, dt_dx = 0.4) grid(ceil_div(N, 256)) block(256) repeat(K) \
    before(burgers_flux<<<ceil_div(N + 1, 256), 256>>>(u, flux, N)) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: N = 100003, K = 3)
__global__ void burgers_update(float *u, const float *flux, int n,
                               float dt_dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] -= dt_dx * (flux[i + 1] - flux[i]);
}

// ---------------------------------------------------------------------------
// The host loops that launch the sequences above.

void run_hotspot(const float *power, float *temp[2], int rows, int cols,
                 int steps) {
  dim3 block(HS_TILE, HS_TILE);
  dim3 grid((cols + HS_TILE - 1) / HS_TILE, (rows + HS_TILE - 1) / HS_TILE);
  int src = 0;
  for (int k = 0; k < steps; ++k) {
    hotspot_tile_step<<<grid, block>>>(power, temp[src], temp[1 - src], rows,
                                       cols, 0.1f, 0.6667f, 0.6667f, 0.3333f,
                                       80.0f);
    src = 1 - src;
  }
}

void run_needleman_wunsch(const int *a, const int *b, const int *blosum,
                          int *score, int m, int n, int penalty) {
  for (int d = 0; d <= m + n; ++d) {
    int first = d > n ? d - n : 0, last = d < m ? d : m;
    int len = last - first + 1;
    nw_diagonal<<<(len + 127) / 128, 128>>>(a, b, blosum, score, m, n,
                                            penalty, d);
  }
}

void run_gaussian(float *a, float *b, float *m, int *piv, int size) {
  for (int t = 0; t < size - 1; ++t) {
    ge_pivot<<<1, PIVOT_THREADS>>>(a, b, m, piv, size, t);
    ge_fan1<<<(size - 1 - t + 127) / 128, 128>>>(a, m, size, t);
    dim3 block(16, 16);
    dim3 grid((size - t + 15) / 16, (size - 1 - t + 15) / 16);
    ge_fan2<<<grid, block>>>(m, a, b, size, t);
  }
}

void run_absmax(const float *x, float *part, float *amax, float *scale,
                long long n) {
  const int blocks = 1024;
  absmax_partial<<<blocks, AMAX_THREADS>>>(x, part, n);
  absmax_to_scale<<<1, FOLD_THREADS>>>(part, amax, scale, blocks, 127.0f);
}

void run_tree_sum(float *x, int n) {
  for (int len = n; len > 1; len = (len + 1) / 2) {
    int threads = len / 2;
    tree_sum_pass<<<(threads + 255) / 256, 256>>>(x, len);
  }
}

void run_l2_normalize(const float *x, float *y, float *part, int n) {
  void *args[] = {(void *)&x, (void *)&y, (void *)&part, (void *)&n};
  cudaLaunchCooperativeKernel((void *)l2_normalize_coop, dim3(128),
                              dim3(NORM_THREADS), args, 0, 0);
}

void run_jacobi(float *u[2], const float *rhs, float *res_part, int n,
                int iterations) {
  dim3 block(JB, JB);
  dim3 grid((n + JB - 1) / JB, (n + JB - 1) / JB);
  for (int k = 0; k < iterations; ++k) {
    jacobi5_sweep<<<grid, block>>>(u[0], u[1], rhs, n);
    jacobi5_residual<<<grid, block>>>(u[1], rhs, res_part, n);
    float *tmp = u[0];
    u[0] = u[1];
    u[1] = tmp;
  }
}

void run_burgers(float *u, float *flux, int n, int steps) {
  for (int k = 0; k < steps; ++k) {
    burgers_flux<<<(n + 1 + 255) / 256, 256>>>(u, flux, n);
    burgers_update<<<(n + 255) / 256, 256>>>(u, flux, n, 0.4f);
  }
}
