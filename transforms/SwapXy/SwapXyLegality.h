//===- SwapXyLegality.h - when the rewrite may run --------------*- C++ -*-===//
//
// swap-xy renames threadIdx.x <-> threadIdx.y and blockDim.x <-> blockDim.y
// in the kernel and launches it with block (By, Bx, Bz) instead of (Bx, By,
// Bz); blockIdx, gridDim and the grid stay. Every thread still does the
// work of one logical (x, y) position of the same block tile, so the
// program's meaning is the same whenever it does not depend on which
// threads share a warp. What changes is that grouping: the logical y index
// now varies fastest within a warp.
//
// The rule:
//  - the block is known (every launch and the mark agree: KernelBlock) and
//    has more than one thread in x and in y (else no warp is regrouped);
//  - every launch is in reach (LaunchShape::launchesInReach), or the mark
//    stands for the callers;
//  - no warp-level code: no warp intrinsic (__shfl*, __ballot*, __syncwarp,
//    ...), no warpSize, no volatile __shared__ (warp-synchronous
//    reductions), no inline assembly (it can read %tid);
//  - the kernel alone reads threadIdx and blockDim: a __device__ function
//    it calls that reads them would keep the old roles;
//  - no threadIdx/blockDim component comes from a macro (its text cannot
//    be renamed at one use).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_SWAPXY_SWAPXYLEGALITY_H
#define OPTIML_TRANSFORMS_SWAPXY_SWAPXYLEGALITY_H

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Transform/ParamSpec.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// What the rewrite needs, decided once by SwapXyLegality.
struct SwapXyPlan {
  const clang::FunctionDecl *Kernel = nullptr;
  Dim3 Block = {1, 1, 1}; ///< As launched today.
  /// Every threadIdx.x/y and blockDim.x/y read in the kernel, in order.
  std::vector<const clang::Expr *> Renamed;
  /// The launches in this file, whose block becomes (By, Bx, Bz).
  std::vector<const clang::CUDAKernelCallExpr *> Launches;
};

class SwapXyLegality {
public:
  /// The plan at \p S, or a LegalityError (Illegal or NotApplicable)
  /// with the place and the rule that refuses it.
  static llvm::Expected<SwapXyPlan> check(const Site &S, const ParamValues &P,
                                          clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_SWAPXY_SWAPXYLEGALITY_H
