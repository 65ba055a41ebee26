//===- TileLegality.h - may a loop be strip-mined into tiles? --*- C++ -*-===//
//
// Strip-mining `for (i = lo; i < n; ++i)` into a loop over tiles of S and a
// loop within each tile runs the same iterations in the same order, so it
// is sound for any canonical loop counting up by one, except that a `break`
// in the body would leave only the intra-tile loop.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TILE_TILELEGALITY_H
#define OPTIML_TRANSFORMS_TILE_TILELEGALITY_H

#include "optiml/Analysis/Legality/LoopInfo.h"

#include "llvm/Support/Error.h"

namespace optiml {

class TileLegality {
public:
  /// The canonical form of \p Loop (the site \p Site) when it may be tiled
  /// by \p Size; else a LegalityError: NotApplicable when the loop is not a
  /// canonical, unit-step, counting-up for-loop or runs at most one tile,
  /// Illegal when tiling would change what it does.
  static llvm::Expected<CanonicalLoop> check(const clang::Stmt &Loop,
                                             llvm::StringRef Site, int64_t Size,
                                             clang::ASTContext &Ctx);

private:
  static llvm::Error checkShape(const CanonicalLoop &L, int64_t Size,
                                clang::ASTContext &Ctx);
  static llvm::Error checkBody(const clang::Stmt &Body, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_TILE_TILELEGALITY_H
