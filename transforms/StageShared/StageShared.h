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

#include "optiml/Analysis/Legality/StageSharedLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class StageShared : public Transform {
public:
  StageShared();

  llvm::StringRef name() const override { return "stage-shared"; }
  llvm::StringRef summary() const override {
    return "load a buffer's tile into __shared__ memory once per T loop "
           "iterations, cooperatively";
  }
  SiteKind siteKind() const override { return SiteKind::Buffer; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  llvm::Expected<StagePlan> plan(const Site &S, const ParamValues &P,
                                 clang::ASTContext &Ctx) const;
  llvm::Expected<ExchangePlan> exchange(const Site &S,
                                        clang::ASTContext &Ctx) const;
  llvm::Expected<HaloPlan> halo(const Site &S, clang::ASTContext &Ctx) const;
  /// Whether the kernel stores to the site's buffer (exchange) rather than
  /// only reading it (halo).
  bool writes(const Site &S, clang::ASTContext &Ctx) const;

  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_STAGESHARED_H
