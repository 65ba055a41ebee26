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

#include "transforms/WarpReduce/WarpReduceLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class WarpReduce : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const Site &S, const TreeReduction &R,
                                      clang::ASTContext &Ctx);
  /// The code that follows the shortened loop, each line indented by
  /// \p Indent.
  static std::string warpStep(const TreeReduction &R, llvm::StringRef Indent,
                              clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is WarpReduce.json.
std::unique_ptr<Transform> createWarpReduce(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCE_H
