// tensor-cores(site, precision, tile) is refused, with the reason and the
// place, wherever tiles of outputs computed on the tensor cores could give
// another result than the kernel, or the launches cannot follow.
// RUN: not %clang-optiml %s --apply='tensor-cores(site=while_loop/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=step_two/for#0)' 2>&1 | %FileCheck --check-prefix=STEP %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=nested/for#0/for#0)' 2>&1 | %FileCheck --check-prefix=NESTED %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=pragma/for#0)' 2>&1 | %FileCheck --check-prefix=PRAGMA %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=used_after/for#0)' 2>&1 | %FileCheck --check-prefix=AFTER %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=two_sums/for#0)' 2>&1 | %FileCheck --check-prefix=BODY %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=in_double/for#0)' 2>&1 | %FileCheck --check-prefix=DOUBLE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=scaled_by_memory/for#0)' 2>&1 | %FileCheck --check-prefix=SCALE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=three_loads/for#0)' 2>&1 | %FileCheck --check-prefix=THREE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=into_pointer/for#0)' 2>&1 | %FileCheck --check-prefix=TARGET %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=stray_thread/for#0)' 2>&1 | %FileCheck --check-prefix=STRAY %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=one_dim/for#0)' 2>&1 | %FileCheck --check-prefix=ONEDIM %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=shares/for#0)' 2>&1 | %FileCheck --check-prefix=SHARED %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=unguarded/for#0)' 2>&1 | %FileCheck --check-prefix=UNGUARDED %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=same_side/for#0)' 2>&1 | %FileCheck --check-prefix=SIDES %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=anti_triangle/for#0)' 2>&1 | %FileCheck --check-prefix=TRIANGLE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=thread_range/for#0)' 2>&1 | %FileCheck --check-prefix=RANGE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=two_places/for#0)' 2>&1 | %FileCheck --check-prefix=TWICE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=two_outputs/for#0)' 2>&1 | %FileCheck --check-prefix=OUTPUTS %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=not_affine/for#0)' 2>&1 | %FileCheck --check-prefix=AFFINE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=late_return/for#0)' 2>&1 | %FileCheck --check-prefix=RETURN %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=doubles/for#0)' 2>&1 | %FileCheck --check-prefix=TYPE %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=halves/for#0,precision=tf32)' 2>&1 | %FileCheck --check-prefix=WIDEN %s
// RUN: not %clang-optiml %s --arch=sm_70 --apply='tensor-cores(site=old_gpu/for#0)' 2>&1 | %FileCheck --check-prefix=ARCH %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=tight/for#0,precision=bf16)' 2>&1 | %FileCheck --check-prefix=TOL %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=tight/for#0)' 2>&1 | %FileCheck --check-prefix=TOLX3 %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=unlaunched/for#0)' 2>&1 | %FileCheck --check-prefix=UNLAUNCHED %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=named/for#0)' 2>&1 | %FileCheck --check-prefix=NAMES %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=fixed_grid/for#0)' 2>&1 | %FileCheck --check-prefix=GRID %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=bounded/for#0)' 2>&1 | %FileCheck --check-prefix=BOUNDS %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=deep/for#0)' 2>&1 | %FileCheck --check-prefix=DEEP %s
// RUN: not %clang-optiml %s --apply='tensor-cores(site=aliased/for#0)' 2>&1 | %FileCheck --check-prefix=ALIAS %s

#include <cuda_fp16.h>
#include <cuda_runtime.h>

// A while-loop is not a counted run of k.
__global__ void while_loop(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  int i = 0;
  // WHILE: :[[@LINE+1]]:3: tensor-cores(site=while_loop/while#0) is not applicable: 'while_loop/while#0' is a while-loop; tensor-cores takes the for-loop of a sum over k
  while (i < k) {
    acc += A[row * k + i] * B[i * n + col];
    ++i;
  }
  C[row * n + col] = acc;
}

// Every other k is not the whole sum.
__global__ void step_two(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  // STEP: :[[@LINE+1]]:3: tensor-cores(site=step_two/for#0) is not applicable: the loop does not count up by 1 to a bound 'i < N' (or <=), so its range is not one run of k
  for (int i = 0; i < k; i += 2)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// Inside another loop, the sum is not one per output.
__global__ void nested(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  // NESTED: :[[@LINE+1]]:3: tensor-cores(site=nested/for#0/for#0) is not applicable: the loop is nested in this loop, so each output is not one sum over 'i'
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < k; ++i)
      acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// A loop pragma would be left without its loop.
__global__ void pragma(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
// PRAGMA: :[[@LINE+1]]:9: tensor-cores(site=pragma/for#0) is not applicable: 'pragma/for#0' has a loop pragma or attribute, which would be left on the statement that replaces the loop
#pragma unroll 4
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// The rewrite does not count k, so k cannot be read after the loop.
__global__ void used_after(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  int i;
  for (i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  // AFTER: :[[@LINE+1]]:28: tensor-cores(site=used_after/for#0) is not applicable: 'i' is used outside the loop, where the rewrite no longer counts it
  C[row * n + col] = acc + i;
}

// Two sums in one loop.
__global__ void two_sums(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f, sq = 0.0f;
  // BODY: :[[@LINE+1]]:31: tensor-cores(site=two_sums/for#0) is not applicable: the loop's body is not one accumulation 'sum += a[...] * b[...]'
  for (int i = 0; i < k; ++i) {
    acc += A[row * k + i] * B[i * n + col];
    sq += A[row * k + i];
  }
  C[row * n + col] = acc + sq;
}

// A double sum is not what the tensor cores keep.
__global__ void in_double(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  double acc = 0.0;
  for (int i = 0; i < k; ++i)
    // DOUBLE: :[[@LINE+1]]:5: tensor-cores(site=in_double/for#0) is not applicable: the sum 'acc' is a 'double'; the tensor cores accumulate in float
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// A factor read from memory is not taken out of the sum.
__global__ void scaled_by_memory(const float *A, const float *B, float *C,
                                 const float *s, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    // SCALE: :[[@LINE+1]]:12: tensor-cores(site=scaled_by_memory/for#0) is not applicable: the factor 's[0]' reads memory or changes in the loop, so it cannot be taken out of the sum
    acc += s[0] * A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// Three moving loads are not a matrix product.
__global__ void three_loads(const float *A, const float *B, const float *D,
                            float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    // THREE: :[[@LINE+1]]:12: tensor-cores(site=three_loads/for#0) is not applicable: the summand 'A[row * k + i] * B[i * n + col] * D[i]' reads 3 elements that move with 'i'; a matrix product reads two
    acc += A[row * k + i] * B[i * n + col] * D[i];
  C[row * n + col] = acc;
}

// The sum goes through a local pointer.
__global__ void into_pointer(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float *out = C + row * n + col;
  for (int i = 0; i < k; ++i)
    // TARGET: :[[@LINE+1]]:5: tensor-cores(site=into_pointer/for#0) is not applicable: the sum goes to '*out', neither a local variable declared before the loop nor an element of a buffer
    *out += A[row * k + i] * B[i * n + col];
}

// threadIdx outside the coordinates would read another thread's value.
__global__ void stray_thread(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  // STRAY: :[[@LINE+1]]:15: tensor-cores(site=stray_thread/for#0) is not applicable: the kernel uses threadIdx.x outside a global index, and the rewrite gives each thread other elements
  float acc = threadIdx.x;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// A matrix-vector product has no y coordinate.
// ONEDIM: :[[@LINE+1]]:17: tensor-cores(site=one_dim/for#0) is not applicable: 'one_dim' keeps no global index blockIdx.y * blockDim.y + threadIdx.y in a variable: each thread must compute the output element (x, y)
__global__ void one_dim(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m)
    return;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc += A[row * n + i] * x[i];
  y[row] = acc;
}

// Threads that share memory cannot be regrouped.
__global__ void shares(const float *A, const float *B, float *C, int m, int n, int k) {
  // SHARED: :[[@LINE+1]]:20: tensor-cores(site=shares/for#0) is illegal: the kernel uses __shared__ 'tile', which the threads of a block share
  __shared__ float tile[16];
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  tile[0] = acc;
  C[row * n + col] = tile[0];
}

// Without bounds checks, the rounded-up tiles would run past the edge.
__global__ void unguarded(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  // UNGUARDED: :[[@LINE+1]]:3: tensor-cores(site=unguarded/for#0) is illegal: this statement runs before 'row' is checked against the problem bound, so threads past the bound would run it
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// Both loads follow the row: a dot product of rows, not a matrix product.
__global__ void same_side(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    // SIDES: :[[@LINE+1]]:29: tensor-cores(site=same_side/for#0) is not applicable: 'A[row * k + i]' and 'B[row * k + i]' are not one load that follows 'row' (and not 'col') and one that follows 'col' (and not 'row'): not a matrix product
    acc += A[row * k + i] * B[row * k + i];
  C[row * n + col] = acc;
}

// j is bounded only through j <= 2 * i, which the rule does not follow
// (it follows j <= i + c: see syrk).
__global__ void anti_triangle(const float *A, float *C, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j <= 2 * i) {
    float acc = 0.0f;
    // TRIANGLE: :[[@LINE+1]]:5: tensor-cores(site=anti_triangle/for#0) is not applicable: no guard bounds 'j' from above where the loop runs (on its own, or as 'j <= i + c' with a bound on that), so the tiles past the edge would load out of range
    for (int p = 0; p < k; ++p)
      acc += A[i * k + p] * A[j * k + p];
    C[i * n + j] = acc;
  }
}

// A run of k that starts at the row is not the same for every output.
__global__ void thread_range(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  // RANGE: :[[@LINE+1]]:16: tensor-cores(site=thread_range/for#0) is not applicable: the loop's start reads 'row', a coordinate of the thread, where it must be the same for every output
  for (int i = row; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// Two elements of the output per thread.
__global__ void two_places(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
  // TWICE: :[[@LINE+1]]:3: tensor-cores(site=two_places/for#0) is illegal: 'C' is accessed at 'col * m + row' and at 'row * n + col': the output must be one element per thread
  C[col * m + row] = acc;
}

// A second output.
__global__ void two_outputs(const float *A, const float *B, float *C, float *D,
                            int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
  // OUTPUTS: :[[@LINE+1]]:3: tensor-cores(site=two_outputs/for#0) is illegal: 'D' may be written here, besides 'C': the rewrite keeps one output element per thread of the original
  D[row * n + col] = 2 * acc;
}

// The output's index is not affine in the coordinates.
__global__ void not_affine(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  // AFFINE: :[[@LINE+1]]:5: tensor-cores(site=not_affine/for#0) is not applicable: the output's index 'row * col' is not affine in 'col'
  C[row * col] = acc;
}

// A return after the sum cannot become 'continue' in the epilogue.
__global__ void late_return(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float acc = 0.0f;
    for (int i = 0; i < k; ++i)
      acc += A[row * k + i] * B[i * n + col];
    if (acc == 0.0f)
      // RETURN: :[[@LINE+1]]:7: tensor-cores(site=late_return/for#0) is not applicable: this return is not a top-level 'if (...) return;', which the per-element epilogue turns into 'continue'
      return;
    C[row * n + col] = acc;
  }
}

// double inputs have no tensor-core precision here.
#pragma optiml kernel sizes(M = 64, N = 64, K = 64) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
__global__ void doubles(const double *A, const double *B, float *C, int m,
                        int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    // TYPE: :[[@LINE+1]]:12: tensor-cores(site=doubles/for#0) is not applicable: 'A' holds 'double'; tensor-cores takes float, __half or __nv_bfloat16 inputs
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// __half inputs are not widened to tf32.
#pragma optiml kernel sizes(M = 64, N = 64, K = 64) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
__global__ void halves(const __half *A, const __half *B, float *C, int m, int n,
                       int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    // WIDEN: :[[@LINE+1]]:25: tensor-cores(site=halves/for#0,precision=tf32) is not applicable: 'A' holds __half, which precision=tf32 does not take as it is; use precision=half
    acc += __half2float(A[row * k + i]) * __half2float(B[i * n + col]);
  C[row * n + col] = acc;
}

// tf32 (and tf32x3) need sm_80.
#pragma optiml kernel sizes(M = 64, N = 64, K = 64) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
// ARCH: :[[@LINE+1]]:17: tensor-cores(site=old_gpu/for#0) is not applicable: precision=tf32x3 needs sm_80 or newer; the target is sm_70
__global__ void old_gpu(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// The spec's tolerance is tighter than bf16 inputs keep, and its norm
// bound (the default, 1e-5) tighter than tf32x3's sums keep.
#pragma optiml kernel sizes(M = 64, N = 64, K = 64) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16) tolerance(rtol = 1e-3)
// TOL: :[[@LINE+2]]:17: tensor-cores(site=tight/for#0,precision=bf16) is not applicable: the spec's tolerance (rtol = 0.001, norm = 1e-05) is tighter than float inputs rounded to bf16 (7 mantissa bits) keep: it needs rtol >= 0.05 and norm >= 0.015; precision=tf32x3 needs rtol >= 0.001 and norm >= 0.0001
// TOLX3: :[[@LINE+1]]:17: tensor-cores(site=tight/for#0{{.*}}) is not applicable: the spec's tolerance (rtol = 0.001, norm = 1e-05) is tighter than float inputs rounded to tf32x3 (two 10-bit parts) keep: it needs rtol >= 0.001 and norm >= 0.0001{{$}}
__global__ void tight(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// Neither a launch nor a mark says how the kernel is launched.
// UNLAUNCHED: :[[@LINE+1]]:17: tensor-cores(site=unlaunched/for#0) is illegal: 'unlaunched' is not launched in this file and has no #pragma optiml mark with its launch, so its launch configuration is out of reach
__global__ void unlaunched(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// The kernel already spells a name the rewrite declares.
#pragma optiml kernel sizes(M = 64, N = 64, K = 64) \
    in(A[M * K], B[K * N]) out(C[M * N]) scalar(m = M, n = N, k = K) \
    grid((N + 15) / 16, (M + 15) / 16) block(16, 16)
// NAMES: :[[@LINE+1]]:17: tensor-cores(site=named/for#0) is not applicable: 'named' already spells 'optiml_acc', a name the rewrite declares
__global__ void named(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float optiml_acc = 0.0f;
  for (int i = 0; i < k; ++i)
    optiml_acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = optiml_acc;
}

// A fixed grid cannot follow the tiles.
__global__ void fixed_grid(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// __launch_bounds__(64) caps the block below the rewrite's 128 threads.
// BOUNDS: :[[@LINE+1]]:17: tensor-cores(site=bounded/for#0) is illegal: the kernel's __launch_bounds__ allows fewer than the 128 threads per block the rewrite launches
__global__ void __launch_bounds__(64) bounded(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// A grid with z is not a 2-D grid of outputs.
__global__ void deep(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

// The output overlaps an input.
__global__ void aliased(const float *A, const float *B, float *C, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}

void launch(float *A, float *B, float *C, int m, int n, int k) {
  // GRID: :[[@LINE+1]]:21: tensor-cores(site=fixed_grid/for#0) is illegal: grid x '64' is not ceil(N / 16) in a known form ((N + 15) / 16, ceil_div(N, 16), N / 16), so it cannot follow the tiles
  fixed_grid<<<dim3(64, 64), dim3(16, 16)>>>(A, B, C, m, n, k);
  bounded<<<dim3((n + 7) / 8, (m + 7) / 8), dim3(8, 8)>>>(A, B, C, m, n, k);
  // DEEP: :[[@LINE+1]]:3: tensor-cores(site=deep/for#0) is not applicable: this launch is not flat in z; the rewrite launches a 2-D grid of tiles
  deep<<<dim3((n + 7) / 8, (m + 7) / 8, 2), dim3(8, 8)>>>(A, B, C, m, n, k);
  // ALIAS: :[[@LINE+1]]:71: tensor-cores(site=aliased/for#0) is illegal: this launch may pass the same memory as the output 'C' and the input 'A', whose tiles the rewrite reads before it writes any output
  aliased<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(A, B, A + m * k, m, n, k);
}
