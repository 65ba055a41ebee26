// block-size also rewrites the kernel's spec in its #pragma optiml mark, so
// that the candidate is verified and timed with the new geometry: block(...)
// gets the new block and each ceil-div grid dimension is rescaled.
// RUN: %clang-optiml %s --apply='block-size(site=copy2d,x=64,y=4)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// A grid in another form keeps the threads it launched, rounded up to whole
// new blocks (the kernel guards its indices).
// RUN: sed -e 's|grid(ceil_div(W, 32), (H + 7) / 8)|grid(W / 32, (H + 7) / 8)|' %s > %t-fixed.cu
// RUN: %clang-optiml %t-fixed.cu --apply='block-size(site=copy2d,x=64,y=4)' -o %t-fixed.out.cu
// RUN: %FileCheck --check-prefix=FIXED --input-file=%t-fixed.out.cu %s
// FIXED: scalar(w = W, h = H) grid(ceil_div((W / 32) * 32, 64), (H + 3) / 4) block(64, 4){{$}}

#include <cuda_runtime.h>

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// CHECK:      {{^}}#pragma optiml kernel sizes(W = 1000, H = 300) in(a[W * H]) out(b[W * H]) \{{$}}
// CHECK-NEXT: {{^}}    scalar(w = W, h = H) grid(ceil_div(W, 64), (H + 3) / 4) block(64, 4){{$}}
#pragma optiml kernel sizes(W = 1000, H = 300) in(a[W * H]) out(b[W * H]) \
    scalar(w = W, h = H) grid(ceil_div(W, 32), (H + 7) / 8) block(32, 8)
__global__ void copy2d(const float *a, float *b, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    b[y * w + x] = a[y * w + x];
}

void run(const float *a, float *b, int w, int h) {
  // CHECK: copy2d<<<dim3(ceil_div(w, 64), (h + 3) / 4), dim3(64, 4)>>>(a, b, w, h);
  copy2d<<<dim3(ceil_div(w, 32), (h + 7) / 8), dim3(32, 8)>>>(a, b, w, h);
}
