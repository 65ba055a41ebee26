//===- LaunchShape.h - launches whose geometry a rewrite changes -*- C++
//-*-===//
//
// block-size, coarsen and vectorize change how many threads a kernel runs
// with, so each must rewrite every launch of the kernel: its block, or its
// grid written as ceil(N / B). What they need to know about the launches,
// and the checks that make the rewrite possible, live here once.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_LAUNCHSHAPE_H
#define OPTIML_ANALYSIS_LEGALITY_LAUNCHSHAPE_H

#include "optiml/Analysis/Legality/CeilDiv.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"

#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <vector>

namespace optiml {

using Dim3 = std::array<uint64_t, 3>;

extern const char *const AxisNames[3];

/// How a rewrite changes a grid dimension, for its refusals: the grid has
/// no y expression "to rescale", and `n / 256` "cannot follow the block".
struct GridChange {
  llvm::StringRef Verb;
  llvm::StringRef Purpose;
};

/// What rewriting one launch needs: its operands, its constant block, and
/// the ceil(N / B) form of each grid component that must change.
struct LaunchShape {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  ConfigOperand Grid, Block;
  Dim3 OldBlock = {1, 1, 1};
  std::array<std::optional<CeilDiv>, 3> GridDims;

  /// \p Call's operands; Illegal when its block is not a constant.
  static llvm::Expected<LaunchShape> read(const clang::CUDAKernelCallExpr &Call,
                                          clang::ASTContext &Ctx);

  /// Matches grid dimension \p D as ceil(N / OldBlock[D]) into GridDims
  /// (also `N / B` when \p Guarded: the kernel stops threads past its
  /// bound, so rounding up is harmless); Illegal otherwise, saying why
  /// \p Change then cannot be made.
  llvm::Error matchGrid(unsigned D, const GridChange &Change,
                        clang::ASTContext &Ctx, bool Guarded);
};

/// Every launch of \p Kernel when all of them are in this file. None when
/// there is none but the kernel's `#pragma optiml` mark gives its launch:
/// the mark then stands for the callers, and a rewrite of the geometry
/// rewrites the mark and says how callers must now launch the kernel.
/// Illegal otherwise, saying that \p What is then out of reach ("its
/// grid", "its launch configuration").
llvm::Expected<std::vector<const clang::CUDAKernelCallExpr *>>
launchesInReach(const clang::FunctionDecl &Kernel, llvm::StringRef What,
                clang::ASTContext &Ctx);

/// Every launch of \p Kernel, each with a constant block and grid
/// dimension \p Dim written as ceil(N / B), so that the grid can be divided
/// among fewer threads that each do the work of several (coarsen,
/// vectorize), or, as \p Change says, changed otherwise.
llvm::Expected<std::vector<LaunchShape>>
dividableLaunches(const clang::FunctionDecl &Kernel, unsigned Dim,
                  clang::ASTContext &Ctx,
                  const GridChange &Change = {"divide",
                                              "be divided among fewer "
                                              "threads"});

/// Why two threads' cooperation forbids a rewrite, for each way they may
/// cooperate: through __shared__ memory, and through a barrier or warp
/// exchange. Each completes "the kernel uses __shared__ 'x', ..." and
/// "the kernel calls '__syncthreads', ...".
struct CooperationReasons {
  llvm::StringRef Shared;
  llvm::StringRef Call;

  /// Why the work of cooperating threads cannot be merged into fewer
  /// threads (coarsen, vectorize).
  static CooperationReasons forMerging() {
    return {"which the threads of a block share",
            "so its threads cooperate and their work cannot be merged into "
            "fewer threads"};
  }
};

/// Success when no two threads of \p Kernel cooperate (no __shared__
/// memory, barriers or warp exchanges), so a rewrite may regroup the work
/// of its threads; else Illegal at the first place they do.
llvm::Error checkNoCooperation(const clang::FunctionDecl &Kernel,
                               const CooperationReasons &Why,
                               clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_LAUNCHSHAPE_H
