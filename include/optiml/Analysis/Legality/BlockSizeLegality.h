//===- BlockSizeLegality.h - may a kernel take a new block? -----*- C++ -*-===//
//
// Changing the block size changes which thread computes what and how many
// threads run. It is sound when the kernel derives all its work from global
// indices (blockIdx * blockDim + threadIdx) that it checks against the
// problem bound, shares nothing within a block (no __shared__ memory, no
// barriers or warp exchanges), and every launch is in this file with a
// constant block and a grid written as ceil(N / B), which can be rescaled.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_BLOCKSIZELEGALITY_H
#define OPTIML_ANALYSIS_LEGALITY_BLOCKSIZELEGALITY_H

#include "optiml/Analysis/Legality/CeilDiv.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"

#include "llvm/Support/Error.h"

namespace optiml {

using Dim3 = std::array<uint64_t, 3>;

/// What rewriting one launch to a new block needs: its operands, its old
/// block, and the ceil(N / B) form of each grid component that must change.
struct LaunchShape {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  ConfigOperand Grid, Block;
  Dim3 OldBlock = {1, 1, 1};
  std::array<std::optional<CeilDiv>, 3> GridDims;
};

class BlockSizeLegality {
public:
  /// The launches of \p Kernel, ready to be rewritten to \p NewBlock; an
  /// Illegal or NotApplicable LegalityError when they may not be.
  static llvm::Expected<std::vector<LaunchShape>>
  analyze(const clang::FunctionDecl &Kernel, const Dim3 &NewBlock,
          clang::ASTContext &Ctx);

  /// The dimensions in which \p Kernel computes a global index, or the
  /// reason it cannot run with another block (independent of the launches).
  static llvm::Expected<std::array<bool, 3>>
  checkKernel(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

private:
  static llvm::Expected<LaunchShape>
  shapeOf(const clang::CUDAKernelCallExpr &Call, const Dim3 &NewBlock,
          const std::array<bool, 3> &IndexDims, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_BLOCKSIZELEGALITY_H
