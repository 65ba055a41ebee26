// launch-bounds(site, max-threads, min-blocks): __launch_bounds__(N) or
// __launch_bounds__(N, M) before the kernel's name, on every declaration.
// The default is the tightest N of the domain that every launch fits, and
// 1024, which every launch fits, where the launches are unknown.
// RUN: %clang-optiml %s --list-sites --format=json | %FileCheck --check-prefix=DEFAULTS %s
// DEFAULTS: "apply": "launch-bounds(site=literal,max-threads=128,min-blocks=1)"
// DEFAULTS: "apply": "launch-bounds(site=dims,max-threads=256,min-blocks=1)"
// DEFAULTS: "apply": "launch-bounds(site=runtime,max-threads=1024,min-blocks=1)"
// DEFAULTS: "apply": "launch-bounds(site=unlaunched,max-threads=1024,min-blocks=1)"
// DEFAULTS: "apply": "launch-bounds(site=by_address,max-threads=1024,min-blocks=1)"
// DEFAULTS: "apply": "launch-bounds(site=ns::qualified,max-threads=64,min-blocks=1)"
// DEFAULTS: "apply": "launch-bounds(site=templated,max-threads=512,min-blocks=1)"
//
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=literal)' --apply='launch-bounds(site=dims,max-threads=1024)' --apply='launch-bounds(site=ns::qualified)' --apply='launch-bounds(site=templated)' --apply='launch-bounds(site=runtime,min-blocks=2)' --apply='launch-bounds(site=by_address)' -o %t.cu
// RUN: %FileCheck --input-file=%t.cu %s
// RUN: %nvcc -c %t.cu -o %t.o
//
// Each value of the domain:
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=32)' | %FileCheck --check-prefix=N -DN=32 %s
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=64)' | %FileCheck --check-prefix=N -DN=64 %s
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=128)' | %FileCheck --check-prefix=N -DN=128 %s
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=256)' | %FileCheck --check-prefix=N -DN=256 %s
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=512)' | %FileCheck --check-prefix=N -DN=512 %s
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=1024)' | %FileCheck --check-prefix=N -DN=1024 %s
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=100)' 2>&1 | %FileCheck --check-prefix=DOMAIN %s
// RUN: %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=256,min-blocks=8)' | %FileCheck --check-prefix=M %s
// M: {{^}}__global__ void __launch_bounds__(256, 8) small(float *y) { y[threadIdx.x] = 0; }{{$}}
// DOMAIN: error: in step 'launch-bounds(site=small,max-threads=100)': max-threads=100 is outside its domain {32, 64, 128, 256, 512, 1024}
//
// Refusals:
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=literal,max-threads=64)' 2>&1 | %FileCheck --check-prefix=TOOSMALL %s
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=bounded)' 2>&1 | %FileCheck --check-prefix=BOUNDED %s
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=runtime,max-threads=512)' 2>&1 | %FileCheck --check-prefix=RUNTIME %s
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=unlaunched,max-threads=256)' 2>&1 | %FileCheck --check-prefix=UNLAUNCHED %s
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=by_address,max-threads=256)' 2>&1 | %FileCheck --check-prefix=ADDRESS %s
// RUN: not %clang-optiml --format-style=none %s --apply='launch-bounds(site=small,max-threads=512,min-blocks=8)' 2>&1 | %FileCheck --check-prefix=CROWDED %s
// CROWDED: launch-bounds(site=small,max-threads=512,min-blocks=8) is not applicable: 8 blocks of 512 threads do not fit on one SM (2048 threads)

#include <cuda_runtime.h>
#define THREADS 128

// CHECK: {{^}}__global__ void __launch_bounds__(128) literal(float *y) { y[threadIdx.x] = 0; }{{$}}
__global__ void literal(float *y) { y[threadIdx.x] = 0; }
// CHECK: {{^}}__global__ void __launch_bounds__(1024) dims(float *y) { y[threadIdx.x] = 0; }{{$}}
__global__ void dims(float *y) { y[threadIdx.x] = 0; }
// N: {{^}}__global__ void __launch_bounds__([[N]]) small(float *y) { y[threadIdx.x] = 0; }{{$}}
__global__ void small(float *y) { y[threadIdx.x] = 0; }
// BOUNDED: :[[@LINE+1]]:17: launch-bounds(site=bounded) is not applicable: 'bounded' already has __launch_bounds__
__global__ void __launch_bounds__(256) bounded(float *y) { y[threadIdx.x] = 0; }
// With launches whose blocks are unknown, 1024 threads is the bound that
// holds; min-blocks then caps registers.
// CHECK: {{^}}__global__ void __launch_bounds__(1024, 2) runtime(float *y) { y[threadIdx.x] = 0; }{{$}}
__global__ void runtime(float *y) { y[threadIdx.x] = 0; }
// UNLAUNCHED: :[[@LINE+1]]:17: launch-bounds(site=unlaunched,max-threads=256) is illegal: 'unlaunched' is not launched in this file and has no #pragma optiml mark with its launch, so its block size is out of reach
__global__ void unlaunched(float *y) { y[threadIdx.x] = 0; }
// CHECK: {{^}}__global__ void __launch_bounds__(1024) by_address(float *y) { y[threadIdx.x] = 0; }{{$}}
__global__ void by_address(float *y) { y[threadIdx.x] = 0; }

namespace ns {
// CHECK: {{^}}__global__ void __launch_bounds__(64) qualified(float *y);{{$}}
__global__ void qualified(float *y);
}
// CHECK: {{^}}__global__ void __launch_bounds__(64) ns::qualified(float *y) { y[0] = 0; }{{$}}
__global__ void ns::qualified(float *y) { y[0] = 0; }

// CHECK: {{^}}template <typename T> __global__ void __launch_bounds__(512) templated(T *y) { y[threadIdx.x] = 0; }{{$}}
template <typename T> __global__ void templated(T *y) { y[threadIdx.x] = 0; }

void host(float *y, int threads, cudaStream_t s) {
  // TOOSMALL: :[[@LINE+1]]:16: launch-bounds(site=literal,max-threads=64) is illegal: this launch uses 128 threads per block, more than max-threads=64
  literal<<<1, THREADS>>>(y);
  dim3 block(16, 16);
  dims<<<1, block>>>(y);
  dims<<<1, dim3(32, 4, 2)>>>(y);
  small<<<1, 32>>>(y);
  bounded<<<1, 256>>>(y);
  // RUNTIME: :[[@LINE+1]]:16: launch-bounds(site=runtime,max-threads=512) is illegal: the block of this launch is not a compile-time constant
  runtime<<<1, threads>>>(y);
  ns::qualified<<<1, 64>>>(y);
  templated<<<1, 512>>>(y);
  void *args[] = {&y};
  // ADDRESS: :[[@LINE+1]]:34: launch-bounds(site=by_address,max-threads=256) is illegal: 'by_address' is launched through 'cudaLaunchKernel', whose grid and block rewrites do not follow
  cudaLaunchKernel((const void *)by_address, 1, 1, args, 0, s);
}
