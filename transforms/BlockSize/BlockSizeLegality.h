//===- BlockSizeLegality.h - may a kernel take a new block? -----*- C++ -*-===//
//
// Changing the block size changes which thread computes what and how many
// threads run. It is sound when the kernel derives all its work from global
// indices (blockIdx * blockDim + threadIdx) that it checks against the
// problem bound, shares nothing within a block (no __shared__ memory, no
// barriers or warp exchanges), and every launch is in this file with a
// constant block and a grid written as ceil(N / B), which can be rescaled
// (any grid, for a grid-stride loop), or the kernel's mark gives the launch.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZELEGALITY_H
#define OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZELEGALITY_H

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"

#include "llvm/Support/Error.h"

namespace optiml {

/// What a legal new block rewrites: the launches in the file, and, for
/// the kernel's mark, which grid dimensions may stay as they are.
struct BlockSizePlan {
  std::vector<LaunchShape> Shapes;
  /// Dimensions covered by grid-stride loops, where any grid works.
  std::array<bool, 3> AnyGrid = {false, false, false};
  /// Block extents the kernel's indices write as constants, to become
  /// blockDim.
  std::vector<ThreadGeometry::FixedExtent> FixedExtents;
};

class BlockSizeLegality {
public:
  /// The launches of \p Kernel, ready to be rewritten to \p NewBlock; an
  /// Illegal or NotApplicable LegalityError when they may not be.
  static llvm::Expected<BlockSizePlan>
  analyze(const clang::FunctionDecl &Kernel, const Dim3 &NewBlock,
          clang::ASTContext &Ctx);

  /// How \p Kernel maps threads to work (the dimensions in which it
  /// computes a global index), or the reason it cannot run with another
  /// block (independent of the launches).
  static llvm::Expected<ThreadGeometry>
  checkKernel(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

private:
  static llvm::Expected<LaunchShape>
  shapeOf(const clang::CUDAKernelCallExpr &Call, const Dim3 &NewBlock,
          const ThreadGeometry &G, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZELEGALITY_H
