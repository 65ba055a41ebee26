//===- sequence_ref.cu - Self-test: a sequence of launches ----------------===//
//
// Part of OptiML. The reference of the sequence checks: one run is two
// repetitions of [spread (cooperative, a grid-wide barrier), smooth, total],
// with smooth's two buffers swapped after each and its `step` argument the
// repetition's number; `sum` and `tmp` are buffers only the other kernels
// take. Built three times (selftest/CMakeLists.txt): the reference;
// SEQUENCE_SAME, the same code in its own library (accepted); and
// SEQUENCE_STEP_IGNORED, a smooth that takes every repetition for the
// first, right for one launch alone and wrong in the sequence (rejected).
//
//===----------------------------------------------------------------------===//

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void smooth(const float *in, float *out, int n, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#if defined(SEQUENCE_STEP_IGNORED)
  step = 1;
#endif
  float left = in[i > 0 ? i - 1 : i], right = in[i + 1 < n ? i + 1 : i];
  out[i] = (left + in[i] + right) / 3.0f + 0.25f * step;
}

// One block: a fixed tree, so the sum is the same bits on every run.
__global__ void total(const float *x, float *sum, int n) {
  __shared__ float part[256];
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += x[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sum[0] = part[0];
}

// Each element takes half of the one across the array: right only when
// every block has copied before any reads, which the grid barrier of a
// cooperative launch guarantees.
__global__ void spread(float *x, float *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tmp[i] = x[i];
  cg::this_grid().sync();
  if (i < n)
    x[i] = 0.5f * (tmp[i] + tmp[(i + n / 2) % n]);
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&smooth);
}

extern "C" const char *optiml_kernel_name(void) { return "smooth"; }

extern "C" const void *optiml_kernel_companion(unsigned Index) {
  if (Index == 0)
    return reinterpret_cast<const void *>(&spread);
  if (Index == 1)
    return reinterpret_cast<const void *>(&total);
  return nullptr;
}
