// chain:private-counts(site, dim, factor): coarsen first (legal while the
// kernel has no __shared__ copy yet), then privatize every counted buffer,
// so that a block's clear and merge serve F times more elements.
// RUN: %clang-optiml --format-style=none %s --apply='chain:private-counts(site=histo_float,dim=x,factor=8)' -o %t.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// NOTE: chain:private-counts(site=histo_float,dim=x,factor=8) applied: coarsen(site=histo_float,dim=x,factor=8); privatize-atomics(site=histo_float/counts)
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// In the other order coarsening is refused: the copy is shared.
// RUN: not %clang-optiml %s --apply='privatize-atomics(site=histo_float/counts)' --apply='coarsen(site=histo_float,dim=x,factor=8)' 2>&1 | %FileCheck --check-prefix=ORDER %s
// ORDER: coarsen(site=histo_float,dim=x,factor=8) is illegal: the kernel uses __shared__ 'optiml_counts'
//
// A chain without its dimension is bad input.
// RUN: not %clang-optiml %s --apply='chain:private-counts(site=histo_float,factor=8)' 2>&1 | %FileCheck --check-prefix=DIM %s
// DIM: chain step 'chain:private-counts(site=histo_float,factor=8)' needs dim=x or dim=y

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void histo_float(
// CHECK:       {{^}}  __shared__ unsigned int optiml_counts[4096];{{$}}
// CHECK:       {{^}}  for (int optiml_cx = 0; optiml_cx < 8; ++optiml_cx) {{{$}}
// CHECK:       {{^}}      atomicAdd(&(optiml_private ? optiml_counts : counts)[bin], 1u);{{$}}
// CHECK:       {{^}}        atomicAdd(&counts[optiml_j], optiml_counts[optiml_j]);{{$}}
__global__ void histo_float(const float *x, unsigned int *counts, int n,
                            int nbins, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = (int)((x[i] - lo) / (hi - lo) * nbins);
    bin = min(max(bin, 0), nbins - 1);
    atomicAdd(&counts[bin], 1u);
  }
}

void launch(const float *x, unsigned *counts, int n) {
  histo_float<<<(n + 255) / 256, 256>>>(x, counts, n, 1000, -3.0f, 3.0f);
}
