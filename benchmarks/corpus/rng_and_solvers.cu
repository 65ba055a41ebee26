// Random numbers without curand, a Monte Carlo estimate, and two building
// blocks of iterative solvers.
//
// rng_uniform_normal: a counter-based generator as simulation codes write
// by hand: an integer hash of (seed, counter), here a multiply-xorshift
// mixer, gives 24-bit uniforms; each thread makes one pair of uniforms and,
// by Box-Muller (logf, sqrtf, sincospif), one pair of standard normals. No
// input buffers: the outputs depend only on the seed and the index.
// mc_call_partial: Monte Carlo price of a European call under geometric
// Brownian motion with the same generator; each thread sums its paths'
// payoffs, a __shared__ tree sums the block, and the block writes its
// discounted mean (the host averages the partials). A float sum over a
// block, so a tolerance for another order of the same additions.
// jacobi_poisson: one Jacobi sweep for -lap(u) = f on a 2-D grid with
// spacing h (h2 = h*h), Dirichlet boundary copied through so every output
// is written; in and out buffers, a 2-D grid of 32x8 blocks.
// spmv_csr_f64: y = alpha*A*x + beta*y in double, CSR, a thread per row in
// a grid-stride loop over rows with a capped grid, x read through __ldg.
// Every row has NNZ nonzeros (row_ptr = index(NNZ, 0)) and columns are
// int(0, N - 1): the spec cannot describe uneven rows.
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ unsigned int mix32(unsigned int h) {
  h ^= h >> 16;
  h *= 0x7feb352dU;
  h ^= h >> 15;
  h *= 0x846ca68bU;
  h ^= h >> 16;
  return h;
}

// Counter-based: the same (seed, counter) always gives the same bits.
__device__ __forceinline__ unsigned int hash2(unsigned int seed,
                                              unsigned int counter) {
  return mix32(counter * 0x9e3779b9U ^ mix32(seed + 0x632be5abU));
}

// 24 random bits to a float in [0, 1).
__device__ __forceinline__ float to_unit(unsigned int bits) {
  return (float)(bits >> 8) * (1.0f / 16777216.0f);
}

__device__ __forceinline__ void box_muller(float u1, float u2, float *z0,
                                           float *z1) {
  // u1 in (0, 1] so the log is finite.
  float r = sqrtf(-2.0f * logf(u1));
  float s, c;
  sincospif(2.0f * u2, &s, &c);
  *z0 = r * c;
  *z1 = r * s;
}

#pragma optiml kernel sizes(P = 1 << 26) out(uni[2 * P], nrm[2 * P]) \
    scalar(npairs = P, seed = 1234) grid((P + 255) / 256) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-5, norm = 1e-5) instance(odd: P = 100003)
__global__ void rng_uniform_normal(float *uni, float *nrm, int npairs,
                                   unsigned int seed) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npairs) {
    unsigned int h1 = hash2(seed, 2 * p);
    unsigned int h2 = hash2(seed, 2 * p + 1);
    float u1 = to_unit(h1);
    float u2 = to_unit(h2);
    float z0, z1;
    box_muller(1.0f - u1, u2, &z0, &z1);
    uni[2 * p] = u1;
    uni[2 * p + 1] = u2;
    nrm[2 * p] = z0;
    nrm[2 * p + 1] = z1;
  }
}

#define MC_THREADS 256

#pragma optiml kernel sizes(NB = 4096, PPT = 128) out(partial[NB]) \
    scalar(spot = 20.0, strike = 22.0, years = 1.5, riskfree = 0.02, \
           volatility = 0.30, seed = 77, paths_per_thread = PPT) \
    grid(NB) block(256) \
    tolerance(rtol = 1e-4, atol = 1e-4, norm = 1e-5) \
    instance(odd: NB = 1001, PPT = 6)
__global__ void mc_call_partial(float *partial, float spot, float strike,
                                float years, float riskfree, float volatility,
                                unsigned int seed, int paths_per_thread) {
  __shared__ float ssum[MC_THREADS];
  unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float drift = (riskfree - 0.5f * volatility * volatility) * years;
  float diffusion = volatility * sqrtf(years);

  float acc = 0.0f;
  for (int k = 0; k < paths_per_thread; k += 2) {
    unsigned int ctr = gid * paths_per_thread + k;
    float u1 = 1.0f - to_unit(hash2(seed, ctr));
    float u2 = to_unit(hash2(seed, ctr + 1));
    float z0, z1;
    box_muller(u1, u2, &z0, &z1);
    float s0 = spot * expf(drift + diffusion * z0);
    float s1 = spot * expf(drift + diffusion * z1);
    acc += fmaxf(s0 - strike, 0.0f) + fmaxf(s1 - strike, 0.0f);
  }
  ssum[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      ssum[threadIdx.x] += ssum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = ssum[0] * expf(-riskfree * years) /
                          (float)(blockDim.x * paths_per_thread);
}

#pragma optiml kernel sizes(NX = 8192, NY = 8192) in(u[NX * NY], f[NX * NY]) \
    out(u_new[NX * NY]) scalar(nx = NX, ny = NY, h2 = 1.0e-4) \
    grid((NX + 31) / 32, (NY + 7) / 8) block(32, 8) \
    tolerance(rtol = 1e-5, atol = 1e-5, norm = 1e-6) \
    instance(odd: NX = 1001, NY = 777)
__global__ void jacobi_poisson(const float *u, const float *f, float *u_new,
                               int nx, int ny, float h2) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= nx || iy >= ny)
    return;
  int idx = iy * nx + ix;
  if (ix == 0 || iy == 0 || ix == nx - 1 || iy == ny - 1) {
    u_new[idx] = u[idx];
    return;
  }
  u_new[idx] = 0.25f * (u[idx - 1] + u[idx + 1] + u[idx - nx] + u[idx + nx] +
                        h2 * f[idx]);
}

#pragma optiml kernel sizes(N = 1 << 21, R = N, NNZ = 27) \
    in(row_ptr[R + 1], cols[R * NNZ], vals[R * NNZ], x[N]) inout(y[R]) \
    scalar(num_rows = R, alpha = 1.0, beta = -0.5) \
    grid(min(ceil_div(R, 256), 4096)) block(256) \
    dist(row_ptr = index(NNZ, 0), cols = int(0, N - 1)) \
    tolerance(rtol = 1e-12, atol = 1e-12, norm = 1e-12) \
    instance(odd: R = 100003)
__global__ void spmv_csr_f64(int num_rows, const int *__restrict__ row_ptr,
                             const int *__restrict__ cols,
                             const double *__restrict__ vals,
                             const double *__restrict__ x,
                             double *__restrict__ y, double alpha,
                             double beta) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < num_rows;
       row += blockDim.x * gridDim.x) {
    double sum = 0.0;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; k++)
      sum += vals[k] * __ldg(&x[cols[k]]);
    y[row] = alpha * sum + beta * y[row];
  }
}

// Host side.
void fill_random(float *d_uni, float *d_nrm, int n, unsigned int seed) {
  int npairs = n / 2;
  rng_uniform_normal<<<(npairs + 255) / 256, 256>>>(d_uni, d_nrm, npairs,
                                                    seed);
}

void mc_price(float *d_partial, int nblocks, int paths_per_thread) {
  mc_call_partial<<<nblocks, MC_THREADS>>>(d_partial, 20.0f, 22.0f, 1.5f,
                                           0.02f, 0.30f, 77u,
                                           paths_per_thread);
}

// Iterate the sweep with swapped buffers, as a solver's host loop does.
void jacobi_solve(float *d_u, float *d_tmp, const float *d_f, int nx, int ny,
                  float h, int iters) {
  dim3 block(32, 8);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  for (int it = 0; it < iters; it++) {
    jacobi_poisson<<<grid, block>>>(d_u, d_f, d_tmp, nx, ny, h * h);
    float *t = d_u;
    d_u = d_tmp;
    d_tmp = t;
  }
}

// r = b - A x as a CG solver computes its first residual (y holds b).
void residual(int n, const int *d_row_ptr, const int *d_cols,
              const double *d_vals, const double *d_x, double *d_r) {
  int blocks = (n + 255) / 256;
  if (blocks > 4096)
    blocks = 4096;
  spmv_csr_f64<<<blocks, 256>>>(n, d_row_ptr, d_cols, d_vals, d_x, d_r, -1.0,
                                1.0);
}
