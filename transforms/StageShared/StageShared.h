//===- StageShared.h - stage a buffer's tiles in shared memory -*- C++ -*-===//
//
// Turns the reads of a buffer in a loop into reads of a __shared__ copy of
// the block's tile, loaded cooperatively and coalesced once per T
// iterations: the step that makes a naive SGEMM the classic tiled one.
// Applied to a second buffer of the same loop, it joins the first one's
// tiles (one pair of barriers per tile). On a buffer site outside loops
// it routes stores through a tile exchanged between partner threads (a
// transpose), or loads a stencil's block with its halo into a tile that
// the neighbour reads share. The analysis is StageSharedLegality; this
// file only writes text.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_STAGESHARED_STAGESHARED_H
#define OPTIML_TRANSFORMS_STAGESHARED_STAGESHARED_H

#include "transforms/StageShared/StageSharedLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class StageShared : public Transform {
public:
  using Transform::Transform;

  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  llvm::Expected<StagePlan> loopTiles(const Site &S, const ParamValues &P,
                                      clang::ASTContext &Ctx) const;
  llvm::Expected<ExchangePlan> exchange(const Site &S,
                                        clang::ASTContext &Ctx) const;
  llvm::Expected<HaloPlan> halo(const Site &S, clang::ASTContext &Ctx) const;
  /// Whether the kernel stores to the site's buffer (exchange) rather than
  /// only reading it (halo).
  bool writes(const Site &S, clang::ASTContext &Ctx) const;

};

/// The factory Transforms.def registers; \p D is StageShared.json.
std::unique_ptr<Transform> createStageShared(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_STAGESHARED_H
