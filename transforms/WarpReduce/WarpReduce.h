//===- WarpReduce.h - finish a tree reduction with shuffles -----*- C++ -*-===//
//
// Stops a shared-memory tree reduction at stride 64 and lets warp 0 take
// the last six steps in registers: one add of buf[t + 32], then
// __shfl_down_sync at 16, 8, 4, 2, 1, and thread 0 stores buf[0]. That
// removes five block-wide barriers and their shared-memory round trips.
// Each element is combined with the same partner in the same order as in
// the tree, so buf[0] is bitwise the same and the transform does not
// change numerics. WarpReduceLegality decides where it applies.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCE_H
#define OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCE_H

#include "optiml/Analysis/Legality/WarpReduceLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class WarpReduce : public Transform {
public:
  llvm::StringRef name() const override { return "warp-reduce"; }
  llvm::StringRef summary() const override {
    return "end a shared-memory tree reduction with warp shuffles";
  }
  SiteKind siteKind() const override { return SiteKind::Loop; }
  llvm::ArrayRef<ParamSpec> params() const override { return {}; }

  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  /// The code that follows the shortened loop, each line indented by
  /// \p Indent.
  static std::string warpStep(const TreeReduction &R, llvm::StringRef Indent,
                              clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCE_H
