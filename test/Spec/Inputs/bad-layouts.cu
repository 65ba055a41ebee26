// Elements the runner cannot walk as lanes of one size: each is refused
// with the parameter, the reason and its position.
struct Padded {
  double t;
  int id;
};

union Bits {
  float f;
  int i;
};

#pragma optiml kernel sizes(N = 64) in(p[N]) out(y[N]) grid(1) block(64)
__global__ void padded(const Padded *p, float *y) {
  y[threadIdx.x] = p[threadIdx.x].t;
}

#pragma optiml kernel sizes(N = 64) in(b[N]) out(y[N]) grid(1) block(64)
__global__ void tagged(const Bits *b, float *y) {
  y[threadIdx.x] = b[threadIdx.x].f;
}

#pragma optiml kernel sizes(N = 64) in(z[N]) out(y[N]) grid(1) block(64) \
    dist(z.q = uniform(0, 1))
__global__ void no_field(const float2 *z, float *y) {
  y[threadIdx.x] = z[threadIdx.x].x;
}

#pragma optiml kernel sizes(N = 64) in(x[N]) out(y[N]) null(n) grid(1) block(64)
__global__ void null_scalar(const float *x, float *y, int n) {
  y[threadIdx.x] = x[threadIdx.x] * n;
}
