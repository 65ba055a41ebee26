// A `#pragma optiml` mark belongs to the kernel right after it; a mark
// before anything else is reported and ignored. nvcc accepts the file.
// RUN: %clang-optiml %s --list-kernels 2>%t.err | %FileCheck %s
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %nvcc -c %s -o %t.o

// CHECK-LABEL: kernel first
// CHECK:  mark: #pragma optiml kernel sizes(N = 64) in(x[N]) (line [[@LINE+1]])
#pragma optiml kernel sizes(N = 64) \
               in(x[N])
__global__ void first(const float *x) {}

// WARN: pragma-marks.cu:[[@LINE+1]]:1: warning: '#pragma optiml' is not followed by a __global__ function definition; ignored
#pragma optiml kernel sizes(N = 1)
__device__ void helper() {}

// CHECK-LABEL: kernel second
// CHECK:  mark: none
__global__ void second() { helper(); }

// A mark is not hidden in comments: #pragma optiml kernel
/* #pragma optiml kernel */
// CHECK-LABEL: kernel in_c
// CHECK:  mark: #pragma optiml kernel (line [[@LINE+1]])
#pragma optiml kernel
extern "C" __global__ void in_c() {}
