//===- tables_ref.cu - Self-test: a __constant__ table and an alias -------===//
//
// Part of OptiML. The reference of the symbol and alias checks: an in-place
// scale by a table the host uploads, `tables(y, y, coef-scaled)`, with x
// and y one buffer. Built four times (selftest/CMakeLists.txt): the
// reference; TABLES_SAME, the same code in its own library (accepted: the
// runner filled the candidate's own table); TABLES_ZERO, zeros, which is
// what the reference would give were its table not filled (rejected);
// TABLES_WRITE_FIRST, which writes y before reading x, the same result
// only when the two are distinct buffers (rejected: they are one).
//
//===----------------------------------------------------------------------===//

__constant__ float coef[8];

__global__ void tables(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#if defined(TABLES_ZERO)
  y[i] = 0.0f * x[i];
#elif defined(TABLES_WRITE_FIRST)
  y[i] = 0.0f;
  y[i] = coef[i & 7] * x[i];
#else
  y[i] = coef[i & 7] * x[i];
#endif
}

extern "C" const void *optiml_kernel_entry(void) {
  return reinterpret_cast<const void *>(&tables);
}

extern "C" const char *optiml_kernel_name(void) { return "tables"; }

extern "C" const void *optiml_kernel_symbol(const char *Name) {
  return __builtin_strcmp(Name, "coef") == 0
             ? reinterpret_cast<const void *>(&coef)
             : nullptr;
}
