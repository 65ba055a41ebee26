// vectorize(site, width) where a buffer is read after another one is
// written: the vector path loads early, so it runs only when the two
// pointers differ (the one overlap the original defines; any other makes
// its threads race), and the scalar path keeps the original order. A
// __constant__ table is read like a value.
// RUN: %clang-optiml --format-style=none %s --apply='vectorize(site=stale)' --apply='vectorize(site=in_loop)' --apply='vectorize(site=integrate)' --apply='vectorize(site=poly)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// With __restrict__ on one of the two, no test is needed.
// RUN: %clang-optiml --format-style=none %s --apply='restrict(site=stale)' --apply='vectorize(site=stale)' | %FileCheck --check-prefix=RESTRICT %s
// RESTRICT-LABEL: {{^}}__global__ void stale(
// RESTRICT-NOT:   {{^}} {{.*}}static_cast<const void *>
// RESTRICT:       {{^}}    optiml_d.x = optiml_a.x;

#include <cuda_runtime.h>

// CHECK-LABEL: {{^}}__global__ void stale(
// CHECK:       {{^}}  if (optiml_base + 3 < n &&{{$}}
// CHECK:       {{^}}      reinterpret_cast<size_t>(d) % (4 * sizeof(float)) == 0 &&{{$}}
// CHECK-NEXT:  {{^}}      static_cast<const void *>(s) != static_cast<const void *>(a)) {{{$}}
__global__ void stale(const float *a, float *s, float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = 1.0f;
    d[i] = a[i];
  }
}

// In a loop the write may come first.
// CHECK-LABEL: {{^}}__global__ void in_loop(
// CHECK:       {{^}}      static_cast<const void *>(s) != static_cast<const void *>(a)) {{{$}}
__global__ void in_loop(const float *a, float *s, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < k; ++j)
      s[i] += a[i];
}

// Every buffer read after vx is written may be vx (ay too: const does not
// rule it out): one test per pair, each pair once, in the order met.
// CHECK-LABEL: {{^}}__global__ void integrate(
// CHECK:       {{^}}      static_cast<const void *>(vx) != static_cast<const void *>(vy) &&{{$}}
// CHECK-NEXT:  {{^}}      static_cast<const void *>(vx) != static_cast<const void *>(ay) &&{{$}}
// CHECK-NEXT:  {{^}}      static_cast<const void *>(vx) != static_cast<const void *>(vz) &&{{$}}
// CHECK-NOT:   static_cast<const void *>(vy) != static_cast<const void *>(vx)
// CHECK:       {{^}}      static_cast<const void *>(vy) != static_cast<const void *>(px) &&{{$}}
// CHECK:       {{^}}    *reinterpret_cast<float4 *>(pz + optiml_base) = optiml_pz;{{$}}
__global__ void integrate(float *px, float *py, float *pz, float *vx,
                          float *vy, float *vz, const float *ax,
                          const float *ay, const float *az, float dt, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    vx[i] += dt * ax[i];
    vy[i] += dt * ay[i];
    vz[i] += dt * az[i];
    px[i] += dt * vx[i];
    py[i] += dt * vy[i];
    pz[i] += dt * vz[i];
  }
}

__constant__ float c_poly[3] = {0.5f, 0.25f, -0.02f};

// CHECK-LABEL: {{^}}__global__ void poly(
// CHECK:       {{^}}      acc = acc * v + c_poly[d];{{$}}
__global__ void poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float acc = c_poly[2];
    for (int d = 1; d >= 0; --d)
      acc = acc * v + c_poly[d];
    y[i] = acc;
  }
}

void launch(float *f, float *g, float *h, int n) {
  stale<<<(n + 255) / 256, 256>>>(f, g, h, n);
  in_loop<<<(n + 255) / 256, 256>>>(f, g, n, 4);
  integrate<<<(n + 255) / 256, 256>>>(f, f, f, f, f, f, g, g, g, 0.1f, n);
  poly<<<(n + 255) / 256, 256>>>(f, g, n);
}
