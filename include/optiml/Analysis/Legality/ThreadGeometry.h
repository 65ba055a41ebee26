//===- ThreadGeometry.h - how a kernel maps threads to work ---*- C++ -*-===//
//
// A kernel whose threads only ever use the global index
// `blockIdx.d * blockDim.d + threadIdx.d` (and grid strides
// `blockDim.d * gridDim.d`) computes the same thing for any block shape that
// covers the problem; any other use of the thread geometry may assume one.
// Casts between integer types do not change the pattern: 64-bit indices
// (`(size_t)blockIdx.x * blockDim.x + threadIdx.x`) are global indices too.
// Given the one block the kernel runs with, so is the form that spells the
// block's extent as a constant (`blockIdx.x * BLOCK_SIZE + threadIdx.x`
// where every launch has BLOCK_SIZE threads in x); a rewrite that changes
// the block must then write blockDim.x in the constant's place.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_THREADGEOMETRY_H
#define OPTIML_ANALYSIS_LEGALITY_THREADGEOMETRY_H

#include "clang/AST/ASTContext.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace optiml {

struct ThreadGeometry {
  /// A use of the thread geometry outside the two patterns above.
  struct Stray {
    const clang::Stmt *Where;
    std::string What;
  };

  /// Dimensions in which the kernel computes a global index.
  std::array<bool, 3> IndexDims = {false, false, false};
  /// Variables initialized with a global index.
  std::vector<const clang::VarDecl *> IndexVars;
  /// Dimensions whose every index variable is the counter of a grid-stride
  /// loop (`for (i = gid; i < n; i += blockDim.x * gridDim.x)`): such a
  /// kernel covers the problem with any grid, so its grid need not follow
  /// the block.
  std::array<bool, 3> GridStrideDims = {false, false, false};
  /// Global indices used directly, not through a variable.
  std::vector<const clang::Expr *> LooseIndices;
  /// A block extent written as a constant in a global index.
  struct FixedExtent {
    const clang::Expr *Constant; ///< `BLOCK_SIZE` in the index.
    unsigned Dim;
  };
  std::vector<FixedExtent> FixedExtents;
  std::vector<Stray> Strays;

  /// With \p Block, the block every launch of \p Kernel uses, indices
  /// that write its extents as constants count (FixedExtents).
  static ThreadGeometry
  of(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
     std::optional<std::array<uint64_t, 3>> Block = std::nullopt);

  /// Whether every index variable is checked against the problem bound
  /// before the kernel touches memory (BoundsGuard), so threads past the
  /// bound are harmless.
  bool guardsEveryIndex(const clang::FunctionDecl &Kernel,
                        clang::ASTContext &Ctx) const;
};

/// Whether \p E is the grid's thread count along \p Dim, `blockDim.d *
/// gridDim.d` in either order, integer casts aside: a grid-stride loop's
/// step.
bool isGridThreadCount(const clang::Expr &E, unsigned Dim);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_THREADGEOMETRY_H
