//===- lanes_ref.cu - Self-test: buffers of vectors, structs and halves ---===//
//
// Part of OptiML. The reference of the lane checks: a float2 input with a
// distribution per field, a __half input, a struct output mixing a float and
// an int, and a __half output. Built four times (selftest/CMakeLists.txt):
// the reference; LANES_CLOSE, the same within the tolerance (accepted);
// LANES_WRONG_ID, one element's int field off by one (rejected: a float
// tolerance must not admit it); LANES_WRONG_HALF, one half output off by a
// quarter (rejected).
//
//===----------------------------------------------------------------------===//

#include <cuda_fp16.h>

struct Hit {
  float t;
  int id;
};

__global__ void lanes(const float2 *p, const __half *h, Hit *out, __half *hout,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float2 v = p[i];
  float t = v.x * v.y + __half2float(h[i]);
#ifdef LANES_CLOSE
  t = __fmaf_rn(v.x, v.y, __half2float(h[i])) * (1.0f + 1e-7f);
#endif
  int id = static_cast<int>(v.x) & 7;
#ifdef LANES_WRONG_ID
  if (i == n / 2)
    id += 1;
#endif
  out[i] = Hit{t, id};
  float s = v.x + v.y;
#ifdef LANES_WRONG_HALF
  if (i == n / 3)
    s += 0.25f;
#endif
  hout[i] = __float2half(s);
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&lanes);
}

extern "C" const char *optiml_kernel_name(void) { return "lanes"; }
