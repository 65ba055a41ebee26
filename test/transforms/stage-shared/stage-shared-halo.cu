// stage-shared(site=<kernel>/<buffer>) on a read-only buffer read at
// neighbouring offsets outside loops (a stencil): the block's elements and
// a halo around them are loaded once into a shared tile, and every read
// becomes a read of the tile.
//
// A five-point Jacobi sweep in a 32x8 block: a 10x34 tile, loaded with
// the coordinates redeclared for the element's owner; the box it loads
// comes from the guards (x >= 0 as a thread coordinate, x != 0 and
// x != nx - 1 where the border returned, x < nx); the early return is
// folded into guards so that every thread reaches the barrier.
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=jacobi/in)' -o %t.j.cu
// RUN: %FileCheck --check-prefix=J --input-file=%t.j.cu %s
// RUN: %nvcc -c %t.j.cu -o %t.j.o
//
// A 1-D three-point blur: a 130-element tile; the first read is in[i - 1],
// so the tile's element c is the one at i - 1 of thread c.
// RUN: %clang-optiml --format-style=none %s --apply='stage-shared(site=blur/in)' -o %t.b.cu
// RUN: %FileCheck --check-prefix=B --input-file=%t.b.cu %s
// RUN: %nvcc -c %t.b.cu -o %t.b.o
//
// --list-sites names the tile:
// RUN: %clang-optiml %s --list-sites --kernel=jacobi | %FileCheck --check-prefix=SITES %s
// SITES: stage-shared  jacobi/in {{.*}}legal: {{.*}}10x34 shared tile with its halo
//
// Refusals:
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=unbounded/in)' 2>&1 | %FileCheck --check-prefix=UNBOUNDED %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=looped/in)' 2>&1 | %FileCheck --check-prefix=LOOPED %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=once/in)' 2>&1 | %FileCheck --check-prefix=ONCE %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=direct/in)' 2>&1 | %FileCheck --check-prefix=DIRECT %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=far/in)' 2>&1 | %FileCheck --check-prefix=FAR %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=barrier/in)' 2>&1 | %FileCheck --check-prefix=BARRIER %s
// RUN: not %clang-optiml --format-style=none %s --apply='stage-shared(site=rows/in)' 2>&1 | %FileCheck --check-prefix=ROWS %s

#include <cuda_runtime.h>

#pragma optiml kernel sizes(NX = 256, NY = 64) in(in[NX * NY]) out(out[NX * NY]) scalar(nx = NX, ny = NY) grid((NX + 31) / 32, (NY + 7) / 8) block(32, 8)
__global__ void jacobi(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
// J:      __global__ void jacobi(const float *in, float *out, int nx, int ny) {
// J-NEXT:   __shared__ float optiml_in_s[10][34];
// J-NEXT:   int x = blockIdx.x * blockDim.x + threadIdx.x;
// J-NEXT:   int y = blockIdx.y * blockDim.y + threadIdx.y;
// J-NEXT:   int i = y * nx + x;
// J-NEXT:   for (int optiml_e = threadIdx.y * 32 + threadIdx.x; optiml_e < 10 * 34; optiml_e += 256) {
// J-NEXT:     const int optiml_r = optiml_e / 34;
// J-NEXT:     const int optiml_c = optiml_e % 34;
// J-NEXT:     const int x = 32 * blockIdx.x + optiml_c - 1;
// J-NEXT:     const int y = 8 * blockIdx.y + optiml_r - 1;
// J-NEXT:     const int i = y * nx + x;
// J-NEXT:     optiml_in_s[optiml_r][optiml_c] =
// J-NEXT:         (x >= 0 && x < nx && y >= 0 && y < ny) ? in[i] : float(0);
// J-NEXT:   }
// J-NEXT:   __syncthreads();
// J-NEXT:   if (!(x >= nx || y >= ny)) if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
// J-NEXT:     out[i] = optiml_in_s[threadIdx.y + 1][threadIdx.x + 1];
// J-NEXT:     return;
// J-NEXT:   }
// J-NEXT:   if (!(x >= nx || y >= ny)) out[i] = 0.2f * (optiml_in_s[threadIdx.y + 1][threadIdx.x + 1] + optiml_in_s[threadIdx.y + 1][threadIdx.x] + optiml_in_s[threadIdx.y + 1][threadIdx.x + 2] + optiml_in_s[threadIdx.y][threadIdx.x + 1] + optiml_in_s[threadIdx.y + 2][threadIdx.x + 1]);
// J-NEXT: }

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
__global__ void blur(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
// B:      __global__ void blur(const float *in, float *out, int n) {
// B-NEXT:   __shared__ float optiml_in_s[130];
// B-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;
// B-NEXT:   for (int optiml_e = threadIdx.x; optiml_e < 130; optiml_e += 128) {
// B-NEXT:     const int optiml_c = optiml_e;
// B-NEXT:     const int i = 128 * blockIdx.x + optiml_c;
// B-NEXT:     optiml_in_s[optiml_c] =
// B-NEXT:         (i >= 1 && i < n + 1) ? in[i - 1] : float(0);
// B-NEXT:   }
// B-NEXT:   __syncthreads();
// B-NEXT:   if (i > 0 && i < n - 1)
// B-NEXT:     out[i] = (optiml_in_s[threadIdx.x] + optiml_in_s[threadIdx.x + 1] + optiml_in_s[threadIdx.x + 2]) / 3.0f;
// B-NEXT: }

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
__global__ void unbounded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0)
    // UNBOUNDED: :[[@LINE+1]]:14: stage-shared(site=unbounded/in) is illegal: the guards do not bound 'i' from above at every read of 'in', so the tile's halo could load past the buffer
    out[i] = in[i - 1] + in[i];
}

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
__global__ void looped(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 3; ++k)
    // LOOPED: :[[@LINE+1]]:10: stage-shared(site=looped/in) is not applicable: the read 'in[i + k]' is inside a loop; stage it in the loop (a site 'looped/for#N/in')
    s += in[i + k];
  out[i] = s;
}

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
// ONCE: :[[@LINE+1]]:35: stage-shared(site=once/in) is not applicable: each thread reads 'in' once; there are no neighbours to share
__global__ void once(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
__global__ void direct(const float *in, float *out, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x + 1 < n)
    // DIRECT: :[[@LINE+1]]:50: stage-shared(site=direct/in) is not applicable: 'in[blockIdx.x * blockDim.x + threadIdx.x]': the index uses threadIdx outside a coordinate local
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + in[blockIdx.x * blockDim.x + threadIdx.x + 1];
}

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
__global__ void far(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 8 < n)
    // FAR: :[[@LINE+1]]:22: stage-shared(site=far/in) is not applicable: 'in[i + 8]': the read is not within 4 elements of the first read 'in[i]' in each direction
    out[i] = in[i] + in[i + 8];
}

#pragma optiml kernel sizes(N = 4096) in(in[N]) out(out[N]) scalar(n = N) grid(N / 128) block(128)
__global__ void barrier(const float *in, float *out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i > 0 && i < n - 1)
    v = in[i - 1] + in[i + 1];
  if (i >= n)
    // BARRIER: :[[@LINE+1]]:5: stage-shared(site=barrier/in) is illegal: threads returning here would miss a later barrier once the tile's load comes first
    return;
  s[threadIdx.x] = v;
  __syncthreads();
  out[i] = s[(threadIdx.x + 1) % 128];
}

#pragma optiml kernel sizes(N = 64) in(in[N * N]) out(out[N * N]) scalar(n = N) grid(N / 32, N / 8) block(32, 8)
__global__ void rows(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > 0 && x < n - 1)
    // ROWS: :[[@LINE+1]]:27: stage-shared(site=rows/in) is not applicable: 'in[x - 1]': in a 2-D block the reads do not move with threadIdx.y; the tile's rows would repeat each other
    out[x + blockIdx.y] = in[x - 1] + in[x + 1];
}
