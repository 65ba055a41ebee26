// Option pricing, the way a risk or pricing library writes it before anyone
// tunes it.
//
// black_scholes_f2: closed-form European call and put, one option per
// thread. Spot and strike arrive packed in a float2 (x = spot, y = strike),
// the maturity in its own float array, as a program does when it reuses a
// pair type for its market data; normcdff from the CUDA math library and
// the put from 1 - N(d), as many codes write it. The mark gives each field
// of the float2 its own range.
//
// binomial_block: a Cox-Ross-Rubinstein tree of 256 steps for a European
// call, one option per block: the 257 leaves in __shared__ memory, walked
// back one level per step with two __shared__ buffers swapped through
// pointers and a barrier per level; the inputs as three separate float
// arrays (structure of arrays).
//
// binomial_thread: the same tree for an American put, one option per
// thread, the levels in a per-thread local array (it spills to local
// memory), the options as an array of `struct Option { float spot, strike,
// years; }`; early exercise compares each node with its intrinsic value,
// the node's spot kept as a running product.
#include <cuda_runtime.h>
#include <math.h>

#pragma optiml kernel sizes(N = 1 << 26) in(opt[N], years[N]) \
    out(call[N], put[N]) scalar(n = N, riskfree = 0.02, volatility = 0.30) \
    grid((N + 127) / 128) block(128) \
    dist(opt.x = uniform(5, 30), opt.y = uniform(1, 100), \
         years = uniform(0.25, 10)) \
    tolerance(rtol = 1e-4, atol = 1e-4, norm = 1e-5) instance(odd: N = 100003)
__global__ void black_scholes_f2(const float2 *opt, const float *years,
                                 float *call, float *put, float riskfree,
                                 float volatility, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float2 o = opt[i];
  float S = o.x, K = o.y, T = years[i];
  float sqrtT = sqrtf(T);
  float d1 = (logf(S / K) + (riskfree + 0.5f * volatility * volatility) * T) /
             (volatility * sqrtT);
  float d2 = d1 - volatility * sqrtT;
  float Kdisc = K * expf(-riskfree * T);
  float nd1 = normcdff(d1);
  float nd2 = normcdff(d2);
  call[i] = S * nd1 - Kdisc * nd2;
  put[i] = Kdisc * (1.0f - nd2) - S * (1.0f - nd1);
}

#define NUM_STEPS 256

#pragma optiml kernel sizes(NOPT = 16384) in(S[NOPT], X[NOPT], T[NOPT]) \
    out(price[NOPT]) scalar(riskfree = 0.02, volatility = 0.30) \
    grid(NOPT) block(256) \
    dist(S = uniform(5, 30), X = uniform(1, 100), T = uniform(0.25, 10)) \
    tolerance(rtol = 1e-3, atol = 1e-3, norm = 1e-4) instance(odd: NOPT = 1001)
__global__ void binomial_block(const float *S, const float *X, const float *T,
                               float *price, float riskfree,
                               float volatility) {
  __shared__ float levelA[NUM_STEPS + 1];
  __shared__ float levelB[NUM_STEPS + 1];

  const int opt = blockIdx.x;
  const float s = S[opt], x = X[opt], t = T[opt];
  const float dt = t / NUM_STEPS;
  const float vdt = volatility * sqrtf(dt);
  const float u = expf(vdt);
  const float d = 1.0f / u;
  const float growth = expf(riskfree * dt);
  const float pu = (growth - d) / (u - d);
  const float puDisc = pu / growth;
  const float pdDisc = (1.0f - pu) / growth;

  // Leaves: spot after i up-moves and NUM_STEPS - i down-moves.
  for (int i = threadIdx.x; i <= NUM_STEPS; i += blockDim.x) {
    float st = s * expf(vdt * (float)(2 * i - NUM_STEPS));
    levelA[i] = fmaxf(st - x, 0.0f);
  }
  __syncthreads();

  float *cur = levelA;
  float *next = levelB;
  for (int level = NUM_STEPS; level > 0; --level) {
    for (int i = threadIdx.x; i < level; i += blockDim.x)
      next[i] = puDisc * cur[i + 1] + pdDisc * cur[i];
    __syncthreads();
    float *tmp = cur;
    cur = next;
    next = tmp;
  }
  if (threadIdx.x == 0)
    price[opt] = cur[0];
}

struct Option {
  float spot, strike, years;
};

#pragma optiml kernel sizes(N = 32768) in(opts[N]) out(price[N]) \
    scalar(n = N, riskfree = 0.02, volatility = 0.30) \
    grid((N + 127) / 128) block(128) \
    dist(opts.spot = uniform(5, 30), opts.strike = uniform(1, 100), \
         opts.years = uniform(0.25, 10)) \
    tolerance(rtol = 1e-3, atol = 1e-3, norm = 1e-4) instance(odd: N = 1001)
__global__ void binomial_thread(const Option *opts, float *price,
                                float riskfree, float volatility, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Option o = opts[i];
    float v[NUM_STEPS + 1];
    float dt = o.years / NUM_STEPS;
    float vdt = volatility * sqrtf(dt);
    float u = expf(vdt);
    float d = expf(-vdt);
    float u2 = u * u;
    float growth = expf(riskfree * dt);
    float pu = (growth - d) / (u - d);
    float puDisc = pu / growth;
    float pdDisc = (1.0f - pu) / growth;

    float st = o.spot * expf(-vdt * NUM_STEPS);
    for (int k = 0; k <= NUM_STEPS; k++) {
      v[k] = fmaxf(o.strike - st, 0.0f);
      st *= u2;
    }
    for (int level = NUM_STEPS; level > 0; level--) {
      // Spot at node (level - 1, 0): level - 1 down-moves.
      st = o.spot * expf(-vdt * (level - 1));
      for (int k = 0; k < level; k++) {
        float hold = puDisc * v[k + 1] + pdDisc * v[k];
        float exercise = o.strike - st;
        v[k] = hold > exercise ? hold : exercise;
        st *= u2;
      }
    }
    price[i] = v[0];
  }
}

// Host side: a pricing run over a book of options, all on one stream.
void price_book(const float2 *d_spot_strike, const float *d_years,
                float *d_call, float *d_put, int n, cudaStream_t stream) {
  const float r = 0.02f, sigma = 0.30f;
  int threads = 128;
  int blocks = (n + threads - 1) / threads;
  black_scholes_f2<<<blocks, threads, 0, stream>>>(d_spot_strike, d_years,
                                                   d_call, d_put, r, sigma, n);
}

void price_tree_european(const float *d_S, const float *d_X, const float *d_T,
                         float *d_price, int nopt) {
  binomial_block<<<nopt, 256>>>(d_S, d_X, d_T, d_price, 0.02f, 0.30f);
}

void price_tree_american(const Option *d_opts, float *d_price, int n) {
  binomial_thread<<<(n + 127) / 128, 128>>>(d_opts, d_price, 0.02f, 0.30f, n);
}
