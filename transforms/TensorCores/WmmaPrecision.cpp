//===- WmmaPrecision.cpp - what a tensor-core input precision needs ------===//
//
// The floors: a float rounded to a p-bit significand is off by up to
// 2^-p relatively, so a product of two such inputs by about
// sqrt(2/3) * 2^-p as a standard deviation; a sum of them with random
// signs keeps that relative error in the norm. tf32 and half (11-bit
// significands) give ~4e-4, bf16 (8 bits) ~3e-3; each floor is about five
// times that, so that a spec that admits the precision has room for the
// largest of millions of elements.
//
// tf32x3 keeps some 21 bits of each input, but the tensor cores' float
// accumulation is not that of the original's fused multiply-adds: on an
// H200 (2026-11-26) its sums of 4096 products of values in [-1, 1] were off
// by a relative L2 error of 1.5e-5 and by up to 6e-4 in elements that
// cancel. Its floor is that measurement with the same room.
//
//===----------------------------------------------------------------------===//

#include "transforms/TensorCores/WmmaPrecision.h"

using namespace optiml;

static const WmmaPrecision Precisions[] = {
    {"tf32x3", "float", "wmma::precision::tf32", 8, 4, 80,
     "wmma::__float_to_tf32", true, 1e-3, 1e-4, "two 10-bit parts"},
    {"tf32", "float", "wmma::precision::tf32", 8, 4, 80,
     "wmma::__float_to_tf32", false, 5e-3, 2e-3, "10 mantissa bits"},
    {"bf16", "__nv_bfloat16", "__nv_bfloat16", 16, 2, 80, "__float2bfloat16",
     false, 5e-2, 1.5e-2, "7 mantissa bits"},
    {"half", "__half", "__half", 16, 2, 70, "__float2half", false, 5e-3, 2e-3,
     "10 mantissa bits"},
};

const WmmaPrecision *WmmaPrecision::named(llvm::StringRef Name) {
  for (const WmmaPrecision &P : Precisions)
    if (P.Name == Name)
      return &P;
  return nullptr;
}
