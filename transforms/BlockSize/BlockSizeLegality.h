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

#ifndef OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZELEGALITY_H
#define OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZELEGALITY_H

#include "optiml/Analysis/Legality/LaunchShape.h"

#include "llvm/Support/Error.h"

namespace optiml {

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

#endif // OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZELEGALITY_H
