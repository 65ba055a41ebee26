// coarsen copies statements whose last token comes from a function-like
// macro (`... + AT(r + 1, c)`): the copy keeps the whole invocation, its
// arguments included, not only the macro's name (the Sobel filter of the
// corpus came out as `... + PIX;` and did not parse).
// RUN: %clang-optiml %s --apply='coarsen(site=smooth,dim=y,factor=2)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// CHECK-LABEL: {{^}}__global__ void smooth(
// CHECK: v[optiml_cy] = AT(r, c) + AT(r + 1, c);
// CHECK: out[r * w + c] = 0.5f * AT(r, c) + 0.5f * AT(r + 1, c);

#include <cuda_runtime.h>

#define AT(y, x) in[(y) * w + (x)]

__global__ void smooth(const float *in, float *out, int n, int w) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n - 1 || c >= w)
    return;
  float v = AT(r, c) + AT(r + 1, c);
  out[r * w + c] = 0.5f * AT(r, c) + 0.5f * AT(r + 1, c);
  out[r * w + c] += 0.0f * v;
}

void launch(const float *in, float *out, int n, int w) {
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (n + 7) / 8);
  smooth<<<grid, block>>>(in, out, n, w);
}
