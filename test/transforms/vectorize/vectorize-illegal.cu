// vectorize(site, width) is refused, with the reason, wherever W
// consecutive elements per thread could compute something else.
// RUN: not %clang-optiml %s --apply='vectorize(site=dscale,width=4)' 2>&1 | %FileCheck --check-prefix=DOUBLE4 %s
// RUN: not %clang-optiml %s --apply='vectorize(site=neighbour)' 2>&1 | %FileCheck --check-prefix=NEIGHBOUR %s
// RUN: not %clang-optiml %s --apply='vectorize(site=plane)' 2>&1 | %FileCheck --check-prefix=PLANE %s
// RUN: not %clang-optiml %s --apply='vectorize(site=sum)' 2>&1 | %FileCheck --check-prefix=SUM %s
// RUN: not %clang-optiml %s --apply='vectorize(site=atomic)' 2>&1 | %FileCheck --check-prefix=ATOMIC %s
// RUN: not %clang-optiml %s --apply='vectorize(site=shorts)' 2>&1 | %FileCheck --check-prefix=SHORTS %s
// RUN: not %clang-optiml %s --apply='vectorize(site=lane)' 2>&1 | %FileCheck --check-prefix=LANE %s
// RUN: not %clang-optiml %s --apply='vectorize(site=no_guard)' 2>&1 | %FileCheck --check-prefix=NOGUARD %s
// RUN: not %clang-optiml %s --apply='vectorize(site=after)' 2>&1 | %FileCheck --check-prefix=AFTER %s
// RUN: not %clang-optiml %s --apply='vectorize(site=carried)' 2>&1 | %FileCheck --check-prefix=CARRIED %s
// RUN: not %clang-optiml %s --apply='vectorize(site=effect)' 2>&1 | %FileCheck --check-prefix=EFFECT %s
// RUN: not %clang-optiml %s --apply='vectorize(site=offset)' 2>&1 | %FileCheck --check-prefix=OFFSET %s
// RUN: not %clang-optiml %s --apply='vectorize(site=floor_grid)' 2>&1 | %FileCheck --check-prefix=FLOOR %s
// RUN: not %clang-optiml %s --apply='vectorize(site=by_address)' 2>&1 | %FileCheck --check-prefix=ADDRESS %s

#include <cstdio>
#include <cuda_runtime.h>

__global__ void dscale(double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0;
}
// DOUBLE4: :[[@LINE-5]]:32: vectorize(site=dscale,width=4) is illegal: 'y' holds doubles, and double4 does not exist (use width=2)

__global__ void neighbour(const float *a, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // NEIGHBOUR: :[[@LINE+1]]:19: vectorize(site=neighbour) is illegal: this access is at 'i + 1', not at 'i' itself, so the lanes of a vector would not line up with the elements
    s[i] = a[i] + a[i + 1];
}

// PLANE: :[[@LINE+1]]:17: vectorize(site=plane) is illegal: 'plane' indexes in y or z; vectorize handles 1-D elementwise kernels
__global__ void plane(float *s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    s[y * w + x] = 0.0f;
}

__global__ void sum(const float *a, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // SUM: :[[@LINE+1]]:5: vectorize(site=sum) is illegal: this access is at '0', not at 'i' itself, so the lanes of a vector would not line up with the elements
    total[0] += a[i];
}

__global__ void atomic(const float *a, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // ATOMIC: :[[@LINE+1]]:5: vectorize(site=atomic) is illegal: this call may touch memory, and the vector path moves the loads before it and the stores after it
    atomicAdd(&s[i], a[i]);
}

// SHORTS: :[[@LINE+1]]:31: vectorize(site=shorts) is illegal: 's' holds 'short' elements; only float, double and int buffers are vectorized
__global__ void shorts(short *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[i] = 0;
}

__global__ void lane(float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // LANE: :[[@LINE+1]]:12: vectorize(site=lane) is illegal: the kernel uses threadIdx.x outside a global index, so its threads do not map one-to-one to elements
    s[i] = threadIdx.x % 32;
}

__global__ void no_guard(float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // NOGUARD: :[[@LINE+1]]:3: vectorize(site=no_guard) is illegal: only declarations that touch no memory may come before the bounds check
  s[i] = 0.0f;
}

__global__ void after(float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // AFTER: :[[@LINE+1]]:3: vectorize(site=after) is illegal: vectorize expects the index declared first, then 'if (i < n) { ... }' or 'if (i >= n) return;' followed by the body
  if (i < n)
    s[i] = 0.0f;
  s[0] = 1.0f;
}

__global__ void carried(const float *a, float *s, int n) {
  float acc = 0.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CARRIED: :[[@LINE+1]]:3: vectorize(site=carried) is illegal: the body changes 'acc', declared outside it, so the lanes of a thread would share it
  acc += a[i];
  s[i] = acc;
}

__global__ void effect(float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[i] = 1.0f;
  // EFFECT: :[[@LINE+1]]:3: vectorize(site=effect) is illegal: this call may touch memory, and the vector path moves the loads before it and the stores after it
  printf("%d\n", i);
}

__global__ void offset(const float *a, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // OFFSET: :[[@LINE+1]]:20: vectorize(site=offset) is illegal: 'a' is used outside the guarded body
  const float *p = a + 1;
  if (i < n)
    s[i] = p[i];
}

__global__ void floor_grid(float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[i] = 0.0f;
}

__global__ void by_address(float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    s[i] = 0.0f;
}

void host(float *f, float *g, double *d, short *h, int n, cudaStream_t st) {
  dscale<<<(n + 255) / 256, 256>>>(d, n);
  neighbour<<<(n + 255) / 256, 256>>>(f, g, n);
  plane<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(f, n, n);
  sum<<<(n + 255) / 256, 256>>>(f, g, n);
  atomic<<<(n + 255) / 256, 256>>>(f, g, n);
  shorts<<<(n + 255) / 256, 256>>>(h, n);
  lane<<<(n + 255) / 256, 256>>>(f, n);
  no_guard<<<(n + 255) / 256, 256>>>(f);
  after<<<(n + 255) / 256, 256>>>(f, n);
  carried<<<(n + 255) / 256, 256>>>(f, g, n);
  effect<<<(n + 255) / 256, 256>>>(f, n);
  offset<<<(n + 255) / 256, 256>>>(f, g, n);
  // FLOOR: :[[@LINE+1]]:16: vectorize(site=floor_grid) is illegal: grid x 'n / 256 + 1' is not ceil(N / 256) in a known form ((N + 255) / 256, ceil_div(N, 256), N / 256), so it cannot be divided among fewer threads
  floor_grid<<<n / 256 + 1, 256>>>(f, n);
  void *args[] = {&f, &n};
  // ADDRESS: :[[@LINE+1]]:34: vectorize(site=by_address) is illegal: 'by_address' is launched through 'cudaLaunchKernel', whose grid and block rewrites do not follow
  cudaLaunchKernel((const void *)by_address, 1, 1, args, 0, st);
}
