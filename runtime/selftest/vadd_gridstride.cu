//===- vadd_gridstride.cu - Self-test: correct but different vadd ---------===//
//
// Part of OptiML. Must be ACCEPTED: a grid-stride loop over a quarter of the
// reference's grid (the plan's candidate_launch) computes exactly the
// reference's outputs.
//
//===----------------------------------------------------------------------===//

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  size_t Stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<size_t>(n); i += Stride)
    c[i] = a[i] + b[i];
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&vadd);
}

extern "C" const char *optiml_kernel_name(void) { return "vadd"; }
