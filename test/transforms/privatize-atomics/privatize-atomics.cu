// privatize-atomics(site): a block's atomicAdds into a histogram go to its
// own __shared__ copy, cleared first and added to the global bins once per
// non-zero bin at the end; the bin count is the bound proven for the
// indices.
// RUN: %clang-optiml --format-style=none %s --apply='privatize-atomics(site=histo/bins)' --apply='privatize-atomics(site=masked/counts)' --apply='privatize-atomics(site=clamped/h)' --apply='privatize-atomics(site=param_bins/counts)' --apply='privatize-atomics(site=mod_bins/hist)' --apply='privatize-atomics(site=early_exit/bins)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// It is exact (integer counts) and so not listed as changing numerics.
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  privatize-atomics {{ *}}buffer {{.*}}once per bin at the end{{$}}
//
// Listed as legal where it applies.
// RUN: %clang-optiml %s --list-sites | %FileCheck --check-prefix=SITES %s
// SITES: privatize-atomics {{ *}}histo/data {{ *}}not-applicable: 'data' does not point to int, unsigned or unsigned long long counts
// SITES: privatize-atomics {{ *}}histo/bins {{ *}}legal: --apply='privatize-atomics(site=histo/bins)'

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void histo(const unsigned char *data, unsigned int *bins,
// CHECK-NEXT:  {{^}}                      int n) {{{$}}
// CHECK-NEXT:  {{^}}  __shared__ unsigned int optiml_bins[256];{{$}}
// CHECK-NEXT:  {{^}}  for (unsigned optiml_j = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); optiml_j < 256u; optiml_j += blockDim.x * blockDim.y * blockDim.z){{$}}
// CHECK-NEXT:  {{^}}    optiml_bins[optiml_j] = 0;{{$}}
// CHECK-NEXT:  {{^}}  __syncthreads();{{$}}
// CHECK-NEXT:  {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK:       {{^}}    atomicAdd(&optiml_bins[data[i]], 1u);{{$}}
// CHECK:       {{^}}  __syncthreads();{{$}}
// CHECK-NEXT:  {{^}}  for (unsigned optiml_j = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); optiml_j < 256u; optiml_j += blockDim.x * blockDim.y * blockDim.z){{$}}
// CHECK-NEXT:  {{^}}    if (optiml_bins[optiml_j] != 0){{$}}
// CHECK-NEXT:  {{^}}      atomicAdd(&bins[optiml_j], optiml_bins[optiml_j]);{{$}}
// CHECK-NEXT:  {{^}}}{{$}}
__global__ void histo(const unsigned char *data, unsigned int *bins,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  while (i < n) {
    atomicAdd(&bins[data[i]], 1u);
    i += stride;
  }
}

// A mask bounds the key (the copy takes 64 ints), the address is written
// `counts + key`, and a kernel that already spells the generated names
// gets others.
// CHECK-LABEL: {{^}}__global__ void masked(
// CHECK:       {{^}}  __shared__ int optiml_counts0[64];{{$}}
// CHECK-NEXT:  {{^}}  for (unsigned optiml_j0 = {{.*}}; optiml_j0 < 64u; {{.*}}){{$}}
// CHECK:       {{^}}    atomicAdd(optiml_counts0 + key, 2);{{$}}
// CHECK:       {{^}}      atomicAdd(&counts[optiml_j0], optiml_counts0[optiml_j0]);{{$}}
__global__ void masked(const int *keys, int *counts, int n) {
  int optiml_counts = 0, optiml_j = 1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int key = keys[i] & 63;
    atomicAdd(counts + key, 2);
  }
  (void)optiml_counts;
  (void)optiml_j;
}

// Clamped with min/max to a constant range, under a bounds guard, in a
// 2-D block.
// CHECK-LABEL: {{^}}__global__ void clamped(
// CHECK:       {{^}}  __shared__ unsigned long long optiml_h[100];{{$}}
// CHECK:       {{^}}      atomicAdd(&optiml_h[b], 1ull);{{$}}
__global__ void clamped(const float *x, unsigned long long *h, int n) {
  int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
          threadIdx.y * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = min(max((int)(x[i] * 100.0f), 0), 99);
    atomicAdd(&h[b], 1ull);
  }
}

// The bin count is a parameter: the index is clamped to nbins - 1 by an
// assignment after its declaration. The copy holds 4096 bins and is used
// when the count fits; the clear and the merge walk the count only.
// CHECK-LABEL: {{^}}__global__ void param_bins(
// CHECK-NEXT:  {{^}}                           int nbins, float lo, float hi) {{{$}}
// CHECK-NEXT:  {{^}}  __shared__ unsigned int optiml_counts[4096];{{$}}
// CHECK-NEXT:  {{^}}  const long long optiml_ncounts = (nbins - 1) + 1;{{$}}
// CHECK-NEXT:  {{^}}  const bool optiml_private = optiml_ncounts >= 1 && optiml_ncounts <= 4096;{{$}}
// CHECK-NEXT:  {{^}}  if (optiml_private){{$}}
// CHECK-NEXT:  {{^}}    for (unsigned optiml_j = {{.*}}; optiml_j < optiml_ncounts; optiml_j += blockDim.x * blockDim.y * blockDim.z){{$}}
// CHECK-NEXT:  {{^}}      optiml_counts[optiml_j] = 0;{{$}}
// CHECK-NEXT:  {{^}}  __syncthreads();{{$}}
// CHECK:       {{^}}    atomicAdd(&(optiml_private ? optiml_counts : counts)[bin], 1u);{{$}}
// CHECK-NEXT:  {{^}}  }{{$}}
// CHECK-NEXT:  {{^}}  __syncthreads();{{$}}
// CHECK-NEXT:  {{^}}  if (optiml_private){{$}}
// CHECK-NEXT:  {{^}}    for (unsigned optiml_j = {{.*}}; optiml_j < optiml_ncounts; {{.*}}){{$}}
// CHECK-NEXT:  {{^}}      if (optiml_counts[optiml_j] != 0){{$}}
// CHECK-NEXT:  {{^}}        atomicAdd(&counts[optiml_j], optiml_counts[optiml_j]);{{$}}
// CHECK-NEXT:  {{^}}}{{$}}
__global__ void param_bins(const float *x, unsigned int *counts, int n,
                           int nbins, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int bin = (int)((x[i] - lo) / (hi - lo) * nbins);
    bin = min(max(bin, 0), nbins - 1);
    atomicAdd(&counts[bin], 1u);
  }
}

// A remainder by a parameter bounds an unsigned key the same way.
// CHECK-LABEL: {{^}}__global__ void mod_bins(
// CHECK:       {{^}}  const long long optiml_nhist = buckets;{{$}}
// CHECK:       {{^}}    atomicAdd((optiml_private ? optiml_hist : hist) + keys[i] % buckets, 1);{{$}}
__global__ void mod_bins(const unsigned *keys, int *hist, int n,
                         unsigned buckets) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(hist + keys[i] % buckets, 1);
}

// The usual `if (i >= n) return;`: the threads past the end stay for the
// barriers; what followed the return runs under its negation, a
// declaration reading memory gets its value only there.
// CHECK-LABEL: {{^}}__global__ void early_exit(
// CHECK:       {{^}}  __syncthreads();{{$}}
// CHECK-NEXT:  {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-NEXT:  {{^}}  unsigned char v = (!(i >= n)) ? data[i] : 0;{{$}}
// CHECK-NEXT:  {{^}}  if (!(i >= n)) atomicAdd(&optiml_bins[v], 1u);{{$}}
// CHECK-NEXT:  {{^}}  __syncthreads();{{$}}
__global__ void early_exit(const unsigned char *data, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned char v = data[i];
  atomicAdd(&bins[v], 1u);
}

void launch(const unsigned char *d, unsigned int *b, int n) {
  histo<<<1024, 256>>>(d, b, n);
}
