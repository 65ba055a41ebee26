// vectorize-loop(site, width): a loop that reads one element further each
// iteration loads W of them at once (float4, float2, int4, double2) and
// runs its body W times on the vector's lanes, in the original order; the
// original loop runs what is left, and all of it when an address is not
// aligned. Every output compiles with nvcc.
//
// A gemv row walk, width 4 and 2:
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=gemv/for#0)' -o %t.gemv.cu
// RUN: %FileCheck --check-prefix=GEMV --strict-whitespace --match-full-lines --input-file=%t.gemv.cu %s
// RUN: %nvcc -c %t.gemv.cu -o %t.gemv.o
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=gemv/for#0,width=2)' -o %t.gemv2.cu
// RUN: %FileCheck --check-prefix=GEMV2 --strict-whitespace --match-full-lines --input-file=%t.gemv2.cu %s
// RUN: %nvcc -c %t.gemv2.cu -o %t.gemv2.o
//
// A row normalization, one thread per row through local row pointers: the
// body declares a variable (each copy gets braces), reads the same element
// twice (one load) and stores through the other row (left as it is; the
// copy declares the induction variable it still reads):
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=rownorm/for#0)' --apply='vectorize-loop(site=rownorm/for#2)' -o %t.norm.cu
// RUN: %FileCheck --check-prefix=NORM --strict-whitespace --match-full-lines --input-file=%t.norm.cu %s
// RUN: %nvcc -c %t.norm.cu -o %t.norm.o
//
// A 1-D convolution's tap loop: the weights are loaded as vectors; the
// input is one element from the next thread's (already coalesced, and
// aligned for one thread in four only), so it stays scalar:
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=conv1d/for#0)' -o %t.conv.cu
// RUN: %FileCheck --check-prefix=CONV --strict-whitespace --match-full-lines --input-file=%t.conv.cu %s
// RUN: %nvcc -c %t.conv.cu -o %t.conv.o
//
// int elements, a '<=' bound and an induction variable declared before the
// loop (its final value is used after it); doubles load as double2, the
// width suggested for them:
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=prefix/for#0)' --apply='vectorize-loop(site=dsum/for#0,width=2)' -o %t.types.cu
// RUN: %FileCheck --check-prefix=TYPES --strict-whitespace --match-full-lines --input-file=%t.types.cu %s
// RUN: %nvcc -c %t.types.cu -o %t.types.o
// RUN: %clang-optiml %s --list-sites --kernel=dsum | %FileCheck --check-prefix=SITES %s
// SITES: vectorize-loop    dsum/for#0         legal: --apply='vectorize-loop(site=dsum/for#0,width=2)'
//
// Only the reads that may move: an in-place update reads 'x' where it
// writes (scalar) and 'w' once a vector; a read one element after another
// walk of the same row cannot be aligned with it (scalar), one four
// elements after can; a loop under an 'if' gets braces of its own:
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=partial/for#0)' --apply='vectorize-loop(site=partial/for#2)' -o %t.partial.cu
// RUN: %FileCheck --check-prefix=PARTIAL --strict-whitespace --match-full-lines --input-file=%t.partial.cu %s
// RUN: %nvcc -c %t.partial.cu -o %t.partial.o
//
// A body that calls a __device__ function changing only the caller's
// locals (through references) and one returning a struct:
// RUN: %clang-optiml --format-style=none %s --apply='vectorize-loop(site=online/for#0)' -o %t.online.cu
// RUN: %FileCheck --check-prefix=ONLINE --strict-whitespace --match-full-lines --input-file=%t.online.cu %s
// RUN: %nvcc -c %t.online.cu -o %t.online.o

#include <cuda_runtime.h>

__global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
      sum += A[row * n + j] * x[j];
    y[row] = sum;
  }
}
// GEMV:    float sum = 0.0f;
// GEMV-NEXT:    int optiml_j_v = 0;
// GEMV-NEXT:    if (optiml_j_v + 3 < n &&
// GEMV-NEXT:        reinterpret_cast<size_t>(&A[row * n + optiml_j_v]) % sizeof(float4) == 0 &&
// GEMV-NEXT:        reinterpret_cast<size_t>(&x[optiml_j_v]) % sizeof(float4) == 0) {
// GEMV-NEXT:      for (; optiml_j_v + 3 < n; optiml_j_v += 4) {
// GEMV-NEXT:        const float4 optiml_A = *reinterpret_cast<const float4 *>(&A[row * n + optiml_j_v]);
// GEMV-NEXT:        const float4 optiml_x = *reinterpret_cast<const float4 *>(&x[optiml_j_v]);
// GEMV-NEXT:        sum += optiml_A.x * optiml_x.x;
// GEMV-NEXT:        sum += optiml_A.y * optiml_x.y;
// GEMV-NEXT:        sum += optiml_A.z * optiml_x.z;
// GEMV-NEXT:        sum += optiml_A.w * optiml_x.w;
// GEMV-NEXT:      }
// GEMV-NEXT:    }
// GEMV-NEXT:    for (int j = optiml_j_v; j < n; j++)
// GEMV-NEXT:      sum += A[row * n + j] * x[j];
// GEMV-NEXT:    y[row] = sum;
// GEMV2:    if (optiml_j_v + 1 < n &&
// GEMV2-NEXT:        reinterpret_cast<size_t>(&A[row * n + optiml_j_v]) % sizeof(float2) == 0 &&
// GEMV2-NEXT:        reinterpret_cast<size_t>(&x[optiml_j_v]) % sizeof(float2) == 0) {
// GEMV2-NEXT:      for (; optiml_j_v + 1 < n; optiml_j_v += 2) {
// GEMV2-NEXT:        const float2 optiml_A = *reinterpret_cast<const float2 *>(&A[row * n + optiml_j_v]);
// GEMV2-NEXT:        const float2 optiml_x = *reinterpret_cast<const float2 *>(&x[optiml_j_v]);
// GEMV2-NEXT:        sum += optiml_A.x * optiml_x.x;
// GEMV2-NEXT:        sum += optiml_A.y * optiml_x.y;
// GEMV2-NEXT:      }

__global__ void rownorm(const float *in, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *x = in + (size_t)r * cols;
  float *y = out + (size_t)r * cols;
  float ss = 0.0f;
  for (int c = 0; c < cols; ++c) { // sum of squares
    float v = x[c];
    ss += v * x[c];
  }
  float s = rsqrtf(ss / cols + 1e-6f);
  for (int c = 0; c < cols; ++c)
    y[c] = x[c] * s;
}
// NORM:  float ss = 0.0f;
// NORM-NEXT:  int optiml_c_v = 0;
// NORM-NEXT:  if (optiml_c_v + 3 < cols &&
// NORM-NEXT:      reinterpret_cast<size_t>(&x[optiml_c_v]) % sizeof(float4) == 0) {
// NORM-NEXT:    for (; optiml_c_v + 3 < cols; optiml_c_v += 4) {
// NORM-NEXT:      const float4 optiml_x = *reinterpret_cast<const float4 *>(&x[optiml_c_v]);
// NORM-NEXT:      { // sum of squares
// NORM-NEXT:        float v = optiml_x.x;
// NORM-NEXT:        ss += v * optiml_x.x;
// NORM-NEXT:      }
// NORM-NEXT:      { // sum of squares
// NORM-NEXT:        float v = optiml_x.y;
// NORM-NEXT:        ss += v * optiml_x.y;
// NORM-NEXT:      }
// NORM:        ss += v * optiml_x.w;
// NORM-NEXT:      }
// NORM-NEXT:    }
// NORM-NEXT:  }
// NORM-NEXT:  for (int c = optiml_c_v; c < cols; ++c) { // sum of squares
// NORM-NEXT:    float v = x[c];
// NORM-NEXT:    ss += v * x[c];
// NORM-NEXT:  }
// NORM-NEXT:  float s = rsqrtf(ss / cols + 1e-6f);
// NORM-NEXT:  int optiml_c_v1 = 0;
// NORM-NEXT:  if (optiml_c_v1 + 3 < cols &&
// NORM-NEXT:      reinterpret_cast<size_t>(&x[optiml_c_v1]) % sizeof(float4) == 0) {
// NORM-NEXT:    for (; optiml_c_v1 + 3 < cols; optiml_c_v1 += 4) {
// NORM-NEXT:      const float4 optiml_x1 = *reinterpret_cast<const float4 *>(&x[optiml_c_v1]);
// NORM-NEXT:      {
// NORM-NEXT:        const int c = optiml_c_v1;
// NORM-NEXT:        y[c] = optiml_x1.x * s;
// NORM-NEXT:      }
// NORM-NEXT:      {
// NORM-NEXT:        const int c = optiml_c_v1 + 1;
// NORM-NEXT:        y[c] = optiml_x1.y * s;
// NORM-NEXT:      }
// NORM:        const int c = optiml_c_v1 + 3;
// NORM-NEXT:        y[c] = optiml_x1.w * s;
// NORM-NEXT:      }
// NORM-NEXT:    }
// NORM-NEXT:  }
// NORM-NEXT:  for (int c = optiml_c_v1; c < cols; ++c)
// NORM-NEXT:    y[c] = x[c] * s;
// NORM-NEXT:}

__global__ void conv1d(const float *in, const float *w, float *out, int n,
                       int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - k + 1) {
    float acc = 0.0f;
    for (int t = 0; t < k; ++t)
      acc += in[i + t] * w[t];
    out[i] = acc;
  }
}
// CONV:    float acc = 0.0f;
// CONV-NEXT:    int optiml_t_v = 0;
// CONV-NEXT:    if (optiml_t_v + 3 < k &&
// CONV-NEXT:        reinterpret_cast<size_t>(&w[optiml_t_v]) % sizeof(float4) == 0) {
// CONV-NEXT:      for (; optiml_t_v + 3 < k; optiml_t_v += 4) {
// CONV-NEXT:        const float4 optiml_w = *reinterpret_cast<const float4 *>(&w[optiml_t_v]);
// CONV-NEXT:        {
// CONV-NEXT:          const int t = optiml_t_v;
// CONV-NEXT:          acc += in[i + t] * optiml_w.x;
// CONV-NEXT:        }
// CONV:          const int t = optiml_t_v + 3;
// CONV-NEXT:          acc += in[i + t] * optiml_w.w;
// CONV-NEXT:        }
// CONV-NEXT:      }
// CONV-NEXT:    }
// CONV-NEXT:    for (int t = optiml_t_v; t < k; ++t)
// CONV-NEXT:      acc += in[i + t] * w[t];
// CONV-NEXT:    out[i] = acc;

__global__ void prefix(const int *counts, int *last, int *total, int n) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  int j;
  for (j = 0; j <= n; j++)
    s += counts[b * 64 + j];
  last[b] = j;
  total[b] = s;
}
// TYPES:  int s = 0;
// TYPES-NEXT:  int j;
// TYPES-NEXT:  int optiml_j_v = 0;
// TYPES-NEXT:  if (optiml_j_v + 3 <= n &&
// TYPES-NEXT:      reinterpret_cast<size_t>(&counts[b * 64 + optiml_j_v]) % sizeof(int4) == 0) {
// TYPES-NEXT:    for (; optiml_j_v + 3 <= n; optiml_j_v += 4) {
// TYPES-NEXT:      const int4 optiml_counts = *reinterpret_cast<const int4 *>(&counts[b * 64 + optiml_j_v]);
// TYPES-NEXT:      s += optiml_counts.x;
// TYPES-NEXT:      s += optiml_counts.y;
// TYPES-NEXT:      s += optiml_counts.z;
// TYPES-NEXT:      s += optiml_counts.w;
// TYPES-NEXT:    }
// TYPES-NEXT:  }
// TYPES-NEXT:  for (j = optiml_j_v; j <= n; j++)
// TYPES-NEXT:    s += counts[b * 64 + j];
// TYPES-NEXT:  last[b] = j;

__global__ void dsum(const double *v, double *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  double acc = 0.0;
  for (int c = 0; c < n; ++c)
    acc += v[(size_t)r * n + c];
  out[r] = acc;
}
// TYPES:  double acc = 0.0;
// TYPES-NEXT:  int optiml_c_v = 0;
// TYPES-NEXT:  if (optiml_c_v + 1 < n &&
// TYPES-NEXT:      reinterpret_cast<size_t>(&v[(size_t)r * n + optiml_c_v]) % sizeof(double2) == 0) {
// TYPES-NEXT:    for (; optiml_c_v + 1 < n; optiml_c_v += 2) {
// TYPES-NEXT:      const double2 optiml_v = *reinterpret_cast<const double2 *>(&v[(size_t)r * n + optiml_c_v]);
// TYPES-NEXT:      acc += optiml_v.x;
// TYPES-NEXT:      acc += optiml_v.y;
// TYPES-NEXT:    }
// TYPES-NEXT:  }
// TYPES-NEXT:  for (int c = optiml_c_v; c < n; ++c)
// TYPES-NEXT:    acc += v[(size_t)r * n + c];

__global__ void partial(float *x, const float *w, float *out, int n,
                        bool on) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float *row = x + r * n;
  for (int j = 0; j < n; ++j)
    row[j] = row[j] * w[j];
  float d = 0.0f;
  if (on)
    for (int j = 0; j < n - 4; ++j)
      d += w[j] * w[j + 1] - w[j + 4];
  out[r] = d;
}
// PARTIAL:  float *row = x + r * n;
// PARTIAL-NEXT:  int optiml_j_v = 0;
// PARTIAL-NEXT:  if (optiml_j_v + 3 < n &&
// PARTIAL-NEXT:      reinterpret_cast<size_t>(&w[optiml_j_v]) % sizeof(float4) == 0) {
// PARTIAL-NEXT:    for (; optiml_j_v + 3 < n; optiml_j_v += 4) {
// PARTIAL-NEXT:      const float4 optiml_w = *reinterpret_cast<const float4 *>(&w[optiml_j_v]);
// PARTIAL-NEXT:      {
// PARTIAL-NEXT:        const int j = optiml_j_v;
// PARTIAL-NEXT:        row[j] = row[j] * optiml_w.x;
// PARTIAL-NEXT:      }
// PARTIAL:  for (int j = optiml_j_v; j < n; ++j)
// PARTIAL-NEXT:    row[j] = row[j] * w[j];
// PARTIAL-NEXT:  float d = 0.0f;
// PARTIAL-NEXT:  if (on)
// PARTIAL-NEXT:    {
// PARTIAL-NEXT:      int optiml_j_v1 = 0;
// PARTIAL-NEXT:      if (optiml_j_v1 + 3 < n - 4 &&
// PARTIAL-NEXT:          reinterpret_cast<size_t>(&w[optiml_j_v1]) % sizeof(float4) == 0 &&
// PARTIAL-NEXT:          reinterpret_cast<size_t>(&w[optiml_j_v1 + 4]) % sizeof(float4) == 0) {
// PARTIAL-NEXT:        for (; optiml_j_v1 + 3 < n - 4; optiml_j_v1 += 4) {
// PARTIAL-NEXT:          const float4 optiml_w1 = *reinterpret_cast<const float4 *>(&w[optiml_j_v1]);
// PARTIAL-NEXT:          const float4 optiml_w2 = *reinterpret_cast<const float4 *>(&w[optiml_j_v1 + 4]);
// PARTIAL-NEXT:          {
// PARTIAL-NEXT:            const int j = optiml_j_v1;
// PARTIAL-NEXT:            d += optiml_w1.x * w[j + 1] - optiml_w2.x;
// PARTIAL-NEXT:          }
// PARTIAL:        }
// PARTIAL-NEXT:      }
// PARTIAL-NEXT:      for (int j = optiml_j_v1; j < n - 4; ++j)
// PARTIAL-NEXT:        d += w[j] * w[j + 1] - w[j + 4];
// PARTIAL-NEXT:    }
// PARTIAL-NEXT:  out[r] = d;

__device__ void online_max(float v, float &m, float &s) {
  if (v > m) {
    s = s * expf(m - v) + 1.0f;
    m = v;
  } else {
    s += expf(v - m);
  }
}

__device__ float2 accumulate(float2 a, float v) {
  a.x += v;
  a.y += v * v;
  return a;
}

__global__ void online(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float m = -INFINITY, s = 0.0f;
    float2 moments = make_float2(0.0f, 0.0f);
    for (int c = 0; c < cols; ++c) {
      online_max(x[row * cols + c], m, s);
      moments = accumulate(moments, x[row * cols + c]);
    }
    y[row] = m + logf(s) + moments.x / moments.y;
  }
}
// ONLINE:      for (; optiml_c_v + 3 < cols; optiml_c_v += 4) {
// ONLINE-NEXT:        const float4 optiml_x = *reinterpret_cast<const float4 *>(&x[row * cols + optiml_c_v]);
// ONLINE-NEXT:        online_max(optiml_x.x, m, s);
// ONLINE-NEXT:        moments = accumulate(moments, optiml_x.x);
// ONLINE-NEXT:        online_max(optiml_x.y, m, s);

void launch(const float *A, const float *x, float *y, float *o, int *c,
            int *l, int *t, const double *d, double *dout, float *p,
            int m, int n) {
  gemv<<<(m + 255) / 256, 256>>>(A, x, y, m, n);
  rownorm<<<(m + 255) / 256, 256>>>(A, o, m, n);
  conv1d<<<(n + 255) / 256, 256>>>(x, A, y, n, 9);
  prefix<<<1, 64>>>(c, l, t, 60);
  dsum<<<1, 64>>>(d, dout, n);
  partial<<<1, 64>>>(p, x, y, n, true);
  online<<<(m + 127) / 128, 128>>>(A, y, m, n);
}
