// coarsen(site, dim, factor) on kernels whose only writes are atomic
// updates with the old value unused: the copies may update the same
// element, as the original's threads did (the updates commute).
// RUN: %clang-optiml --format-style=none %s --apply='coarsen(site=histo,dim=x,factor=8)' --apply='coarsen(site=total,dim=x,factor=2)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// A buffer also read, or updated with an old value that is used, is not
// updated only atomically: the rule for plain elements applies.
// RUN: not %clang-optiml %s --apply='coarsen(site=reads_back)' 2>&1 | %FileCheck --check-prefix=READ %s
// RUN: not %clang-optiml %s --apply='coarsen(site=ticket)' 2>&1 | %FileCheck --check-prefix=TICKET %s

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void histo(
// CHECK:       {{^}}  for (int optiml_cx = 0; optiml_cx < 8; ++optiml_cx) {{{$}}
// CHECK-NEXT:  {{^}}    const int i = (blockIdx.x * 8 + optiml_cx) * blockDim.x + threadIdx.x;{{$}}
// CHECK:       {{^}}      atomicAdd(&counts[bin], 1u);{{$}}
__global__ void histo(const float *x, unsigned *counts, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = (int)(x[i] * nbins);
    bin = min(max(bin, 0), nbins - 1);
    atomicAdd(&counts[bin], 1u);
  }
}

// One float sum, updated as `sum + 0`: the address does not depend on the
// copy at all.
// CHECK-LABEL: {{^}}__global__ void total(
// CHECK:       {{^}}  for (int optiml_cx = 0; optiml_cx < 2; ++optiml_cx) {{{$}}
// CHECK:       {{^}}      atomicAdd(sum + 0, x[i]);{{$}}
__global__ void total(const float *x, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum + 0, x[i]);
}

__global__ void reads_back(const float *x, float *sum, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // READ: :[[@LINE+1]]:16: coarsen(site=reads_back) is illegal: 'sum' is written, and the index '0' does not depend on blockIdx.x
    atomicAdd(&sum[0], x[i]);
    out[i] = sum[0];
  }
}

__global__ void ticket(unsigned *next, unsigned *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // TICKET: :[[@LINE+1]]:27: coarsen(site=ticket) is illegal: 'next' is written, and the index '0' does not depend on blockIdx.x
    slots[i] = atomicAdd(&next[0], 1u);
}

void launch(const float *x, unsigned *c, float *s, float *o, unsigned *t,
            unsigned *sl, int n) {
  histo<<<(n + 255) / 256, 256>>>(x, c, n, 100);
  total<<<(n + 255) / 256, 256>>>(x, s, n);
  reads_back<<<(n + 255) / 256, 256>>>(x, s, o, n);
  ticket<<<(n + 255) / 256, 256>>>(t, sl, n);
}
