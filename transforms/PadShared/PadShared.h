//===- PadShared.h - pad __shared__ rows against conflicts ------*- C++ -*-===//
//
//   __shared__ float tile[TILE][TILE];  ->  __shared__ float tile[TILE][TILE +
//   1];
//
// for every statically sized 2-D `__shared__` array of the kernel whose
// column accesses (`tile[threadIdx.x][k]`) put a warp's lanes in the same
// bank: each row then starts `pad` words further along the banks, so a
// column's elements fall in different banks. Only the declaration
// changes; every access stays `tile[i][j]`. PadSharedLegality decides
// which arrays may and should be padded.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_PADSHARED_PADSHARED_H
#define OPTIML_TRANSFORMS_PADSHARED_PADSHARED_H

#include "optiml/Transform/Transform.h"
#include "transforms/PadShared/PadSharedLegality.h"

namespace optiml {

class PadShared : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  /// The edits for a plan PadSharedLegality accepted.
  static llvm::Expected<EditSet> emit(const PadSharedPlan &Plan,
                                      clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is PadShared.json.
std::unique_ptr<Transform> createPadShared(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_PADSHARED_PADSHARED_H
