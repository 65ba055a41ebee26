//===- Tile.h - strip-mine a for-loop into tiles ----------------*- C++ -*-===//
//
// `for (int i = lo; i < n; ++i) BODY` becomes a loop over tiles of S
// iterations and a loop within the tile:
//
//   for (int optiml_i_t = lo; optiml_i_t < n; optiml_i_t += S)
//     for (int i = optiml_i_t; i < optiml_i_t + S && i < n; ++i) BODY
//
// The same iterations run in the same order (TileLegality); the fixed-size
// inner loop is what unroll, hoist or a later staging step can work on.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TILE_TILE_H
#define OPTIML_TRANSFORMS_TILE_TILE_H

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class Tile : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const Site &S, const CanonicalLoop &L,
                                      int64_t Size, clang::ASTContext &Ctx);
  /// The two loop headers that replace \p L's header.
  static std::pair<std::string, std::string> headers(const CanonicalLoop &L,
                                                     llvm::StringRef TileVar,
                                                     int64_t Size,
                                                     clang::ASTContext &Ctx);
  /// Indents by two more spaces every line of the body that starts below
  /// the header, now that it sits in the intra-tile loop.
  static llvm::Error indentBody(const clang::ForStmt &For, EditSet &Edits,
                                clang::ASTContext &Ctx);

};

/// The factory Transforms.def registers; \p D is Tile.json.
std::unique_ptr<Transform> createTile(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_TILE_TILE_H
