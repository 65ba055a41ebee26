// Template kernels, a typedef'd element type and namespaces, as suites
// write them.
#include <cuda_runtime.h>

typedef float DATA_TYPE;

namespace blas {
#pragma optiml kernel template(T = double, BS = 128) sizes(N = 1 << 16) \
    in(x[N]) inout(y[N]) scalar(n = N, a = 2) grid((N + 127) / 128) block(128)
template <typename T, int BS>
__global__ void axpy(int n, T a, const T *x, T *y) {
  int i = blockIdx.x * BS + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}
} // namespace blas

// No template(...) clause: the file's explicit instantiation decides.
#pragma optiml kernel sizes(N = 4096) in(x[N]) out(y[N]) grid(N / 256) block(256)
template <typename T>
__global__ void square(const T *x, T *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * x[i];
}
template __global__ void square<float>(const float *, float *);

// A parameter's default fills what the clause leaves out.
#pragma optiml kernel sizes(N = 4096) in(x[N]) out(y[N]) grid(N / 64) block(64)
template <int F = 3>
__global__ void scale(const DATA_TYPE *x, DATA_TYPE *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = F * x[i];
}

#pragma optiml kernel template(U = int) sizes(N = 64) in(x[N]) out(y[N]) grid(1) block(64)
template <typename T>
__global__ void unknown_param(const T *x, T *y) { y[threadIdx.x] = x[threadIdx.x]; }

#pragma optiml kernel sizes(N = 64) in(x[N]) out(y[N]) grid(1) block(64)
template <typename T>
__global__ void no_args(const T *x, T *y) { y[threadIdx.x] = x[threadIdx.x]; }

#pragma optiml kernel template(T = float) sizes(N = 64) in(x[N]) out(y[N]) grid(1) block(64)
__global__ void not_template(const float *x, float *y) { y[threadIdx.x] = x[threadIdx.x]; }

namespace a {
__global__ void rowsum(const float *x, float *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k)
    y[r] += x[r * n + k];
}
} // namespace a
namespace b {
__global__ void rowsum(const float *x, float *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k)
    y[r] += 2.0f * x[r * n + k];
}
__global__ void colsum(const float *x, float *y, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k)
    y[c] += x[k * n + c];
}
} // namespace b

// No clause and no explicit instantiation: the file's one launch decides.
#pragma optiml kernel sizes(N = 4096) in(x[N]) out(y[N]) grid(N / 128) block(128)
template <typename T, int BS>
__global__ void launched(const T *x, T *y) {
  int i = blockIdx.x * BS + threadIdx.x;
  y[i] = x[i] + T(1);
}
void run_launched(const double *x, double *y) {
  launched<double, 128><<<32, 128>>>(x, y);
}

// Launches that make two instantiations: the spec must choose one.
#pragma optiml kernel sizes(N = 64) in(x[N]) out(y[N]) grid(1) block(64)
template <typename T>
__global__ void twice(const T *x, T *y) { y[threadIdx.x] = x[threadIdx.x]; }
void run_twice(const float *xf, float *yf, const int *xi, int *yi) {
  twice<<<1, 64>>>(xf, yf);
  twice<<<1, 64>>>(xi, yi);
}
