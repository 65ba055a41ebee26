// warp-scan(site): a Hillis-Steele scan of a block's double-buffered
// __shared__ array (offsets 1, 2, 4, ... below blockDim.x, a barrier per
// step) becomes a scan in registers with __shfl_up_sync, one exchange of
// the warps' totals, and one store where the last step stored; the loop
// stays with only the statements that choose the halves, so they end as
// they did.
// RUN: %clang-optiml --format-style=none %s --apply='warp-scan(site=gems/for#0)' --apply='warp-scan(site=fixed/for#0)' --apply='warp-scan(site=in_place/for#0)' --apply='warp-scan(site=guarded/for#0)' -o %t.cu 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// QUIET-NOT: note
//
// A block known only at run time gets a test, the loop as written kept for
// other blocks, and the kept loop is not offered again:
// RUN: %clang-optiml --format-style=none %s --apply='warp-scan(site=unlaunched/for#0)' -o %t.tested.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --check-prefix=TESTED --input-file=%t.tested.cu %s
// RUN: %nvcc -c %t.tested.cu -o %t.tested.o
// NOTE: note: warp-scan(site=unlaunched/for#0): some blocks of 'unlaunched' are not known here: the warps' scan runs for blocks (32k, 1, 1), tested at run time, the loop as written for others
// RUN: %clang-optiml --list-sites --kernel=unlaunched %t.tested.cu 2>&1 | %FileCheck --check-prefix=AFTER %s
// AFTER: warp-scan {{ *}}unlaunched/for#3 {{ *}}not-applicable: the loop is what runs where 'blockDim.x % 32 == 0 && blockDim.y == 1 && blockDim.z == 1' fails, which warp-scan would test again
//
// It changes numerics (the sums are added in another order):
// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s
// LISTED: {{^}}  warp-scan {{ *}}loop {{ *}}replace a Hillis-Steele scan of a block's __shared__ array {{.*}}(changes numerics)

#include <cuda_runtime.h>

// GPU Gems 3's first scan, with a thread variable and dynamic shared memory.
__global__ void gems(const float *in, float *out, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int pout = 0, pin = 1;
  temp[pout * blockDim.x + thid] = thid < n ? in[thid] : 0.0f;
  __syncthreads();
  // CHECK:      {{^}}  {{{$}}
  // CHECK-NEXT: {{^}}    float optiml_v = (float)0;{{$}}
  // CHECK-NEXT: {{^}}    for (int offset = 1; offset < blockDim.x; offset *= 2) {{{$}}
  // CHECK-NEXT: {{^}}      pout = 1 - pout;{{$}}
  // CHECK-NEXT: {{^}}      pin = 1 - pout;{{$}}
  // CHECK-NEXT: {{^}}      if (offset == 1){{$}}
  // CHECK-NEXT: {{^}}        optiml_v = temp[pin * blockDim.x + thid];{{$}}
  // CHECK-NEXT: {{^}}    }{{$}}
  // CHECK:      {{^}}      float optiml_up = __shfl_up_sync(0xffffffffu, optiml_v, optiml_d);{{$}}
  // CHECK:      {{^}}    __shared__ float optiml_warp_sums[32];{{$}}
  // CHECK:      {{^}}      optiml_v += optiml_warp_sums[optiml_warp - 1];{{$}}
  // CHECK-NEXT: {{^}}    temp[pout * blockDim.x + thid] = optiml_v;{{$}}
  // CHECK-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-NEXT: {{^}}  }{{$}}
  // CHECK-NEXT: {{^}}  if (thid < n){{$}}
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (thid >= offset)
      temp[pout * blockDim.x + thid] =
          temp[pin * blockDim.x + thid] + temp[pin * blockDim.x + thid - offset];
    else
      temp[pout * blockDim.x + thid] = temp[pin * blockDim.x + thid];
    __syncthreads();
  }
  if (thid < n)
    out[thid] = temp[pout * blockDim.x + thid];
}

// The block written as a constant, a static array, ints, `offset <<= 1`,
// the sum's operands swapped, braces around the steps.
#define B 128
__global__ void fixed(const int *in, int *out) {
  __shared__ int s[2 * B];
  int o = 0, i = 1;
  s[threadIdx.x] = in[blockIdx.x * B + threadIdx.x];
  __syncthreads();
  // CHECK:      {{^}}    int optiml_v = (int)0;{{$}}
  // CHECK-NEXT: {{^}}    for (int d = 1; d < B; d <<= 1) {{{$}}
  // CHECK:      {{^}}        optiml_v = s[i * B + threadIdx.x];{{$}}
  // CHECK:      {{^}}    s[o * B + threadIdx.x] = optiml_v;{{$}}
  for (int d = 1; d < B; d <<= 1) {
    o = 1 - o;
    i = 1 - o;
    if (d <= threadIdx.x) {
      s[o * B + threadIdx.x] = s[i * B + threadIdx.x - d] + s[i * B + threadIdx.x];
    } else {
      s[o * B + threadIdx.x] = s[i * B + threadIdx.x];
    }
    __syncthreads();
  }
  out[blockIdx.x * B + threadIdx.x] = s[o * B + threadIdx.x];
}

// One buffer: each step reads its neighbour into a register, then adds it.
// CHECK:      {{^}}  {{{$}}
// CHECK-NEXT: {{^}}    float optiml_v = s[t];{{$}}
// CHECK-NEXT: {{^}}    const unsigned optiml_lane = threadIdx.x % 32, optiml_warp = threadIdx.x / 32;{{$}}
// CHECK:      {{^}}    s[t] = optiml_v;{{$}}
// CHECK-NEXT: {{^}}    __syncthreads();{{$}}
// CHECK-NEXT: {{^}}  }{{$}}
// CHECK-NEXT: {{^}}  d[t] = s[t];{{$}}
__global__ void in_place(float *d) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = d[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int off = 1; off < blockDim.x; off *= 2) {
    float v = t >= off ? s[t - off] : 0.0f;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  d[t] = s[t];
}

// The same with the read and the add under `if`, and unsigned counts.
// CHECK: {{^}}    unsigned int optiml_v = c[threadIdx.x];{{$}}
__global__ void guarded(unsigned int *d) {
  __shared__ unsigned int c[512];
  c[threadIdx.x] = d[threadIdx.x];
  __syncthreads();
  for (int k = 1; k < blockDim.x; k <<= 1) {
    unsigned int add = 0;
    if (threadIdx.x >= k)
      add = c[threadIdx.x - k];
    __syncthreads();
    if (threadIdx.x >= k)
      c[threadIdx.x] = c[threadIdx.x] + add;
    __syncthreads();
  }
  d[threadIdx.x] = c[threadIdx.x];
}

// Not launched in this file.
// TESTED:      {{^}}  if (blockDim.x % 32 == 0 && blockDim.y == 1 && blockDim.z == 1) {{{$}}
// TESTED:      {{^}}  } else {{{$}}
// TESTED-NEXT: {{^}}    for (int offset = 1; offset < blockDim.x; offset *= 2) {{{$}}
__global__ void unlaunched(double *data) {
  extern __shared__ double t2[];
  int tid = threadIdx.x, p = 0, q = 1;
  t2[tid] = data[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    p = 1 - p;
    q = 1 - p;
    if (tid >= offset)
      t2[p * blockDim.x + tid] = t2[q * blockDim.x + tid] + t2[q * blockDim.x + tid - offset];
    else
      t2[p * blockDim.x + tid] = t2[q * blockDim.x + tid];
    __syncthreads();
  }
  data[blockIdx.x * blockDim.x + tid] = t2[p * blockDim.x + tid];
}

void run(const float *in, float *out, const int *a, int *b, int n) {
  gems<<<1, 256, 2 * 256 * sizeof(float)>>>(in, out, n);
  fixed<<<n / B, B>>>(a, b);
  in_place<<<n / 256, 256>>>(out);
  guarded<<<1, 512>>>((unsigned int *)b);
}
