// A bounds guard that holds a loop and ends the kernel is split like an
// early return: its condition is re-checked before each statement that
// touches memory and the copies share the loop's iterations (register
// blocking). A guard with statements after it, or without a loop, is
// copied whole per copy, as before.
// RUN: %clang-optiml --format-style=none %s --apply='coarsen(site=guarded,dim=x,factor=2)' --apply='coarsen(site=followed,dim=x,factor=2)' --apply='coarsen(site=flat,dim=x,factor=2)' -o %t.cu 2>&1 | %FileCheck --check-prefix=NOTE %s
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
// NOTE: note: coarsen(site=guarded,dim=x,factor=2): 'guarded' is not launched in this file

#pragma optiml kernel sizes(N = 64, K = 32) in(a[N * K]) out(out[N * N]) scalar(n = N, k = K) grid(4, 4) block(16, 16)
__global__ void guarded(const float *a, float *out, int n, int k) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && c < n) {
    float s = 0;
    for (int i = 0; i < k; ++i)
      s += a[r * k + i] * c;
    out[r * n + c] = s;
  }
}

// CHECK-LABEL: __global__ void guarded(const float *a, float *out, int n, int k) {
// CHECK-NEXT:    int r = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:    float s[2];
// CHECK:         for (int i = 0; i < k; ++i) {
// CHECK-NEXT:      #pragma unroll
// CHECK-NEXT:      for (int optiml_cx = 0; optiml_cx < 2; ++optiml_cx) {
// CHECK-NEXT:        const int c = (blockIdx.x * 2 + optiml_cx) * blockDim.x + threadIdx.x;
// CHECK-NEXT:        if (r < n && c < n)
// CHECK-NEXT:          s[optiml_cx] += a[r * k + i] * c;
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK:           if (r < n && c < n)
// CHECK-NEXT:        out[r * n + c] = s[optiml_cx];

#pragma optiml kernel sizes(N = 64, K = 32) in(a[N * K]) out(out[N * N]) scalar(n = N, k = K) grid((N + 15) / 16, (N + 15) / 16) block(16, 16)
__global__ void followed(const float *a, float *out, int n, int k) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && c < n) {
    float s = 0;
    for (int i = 0; i < k; ++i)
      s += a[r * k + i] * c;
    out[r * n + c] = s;
  }
  if (r < n && c < n)
    out[r * n + c] *= 2.0f;
}

// Statements follow the guard: the whole block runs per copy.
// CHECK-LABEL: __global__ void followed(const float *a, float *out, int n, int k) {
// CHECK:         for (int optiml_cx = 0; optiml_cx < 2; ++optiml_cx) {
// CHECK-NEXT:      const int c = (blockIdx.x * 2 + optiml_cx) * blockDim.x + threadIdx.x;
// CHECK-NEXT:      if (r < n && c < n) {
// CHECK-NEXT:        float s = 0;
// CHECK-NEXT:        for (int i = 0; i < k; ++i)

#pragma optiml kernel sizes(N = 64) in(a[N * N]) out(out[N * N]) scalar(n = N) grid(4, 4) block(16, 16)
__global__ void flat(const float *a, float *out, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n && c < n) {
    float v = a[r * n + c];
    out[r * n + c] = v * v;
  }
}

// No loop to share: copied whole.
// CHECK-LABEL: __global__ void flat(const float *a, float *out, int n) {
// CHECK:           if (r < n && c < n) {
// CHECK-NEXT:        float v = a[r * n + c];
// CHECK-NEXT:        out[r * n + c] = v * v;
// CHECK-NEXT:      }
