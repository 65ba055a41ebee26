//===- AggregateAtomics.h - one atomicAdd per warp --------------*- C++ -*-===//
//
//   atomicAdd(result, local);
//
// becomes a block in which the lanes of a warp that arrive together sum
// their `local` with shuffles (`__shfl_xor_sync` when all 32 are there,
// one `__shfl_sync` per lane otherwise) and the lowest of them does
// `atomicAdd(result, sum)`: one atomic per warp instead of 32 on an address
// the memory system serializes. AggregateAtomicsLegality decides which
// atomics may be aggregated.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_AGGREGATEATOMICS_AGGREGATEATOMICS_H
#define OPTIML_TRANSFORMS_AGGREGATEATOMICS_AGGREGATEATOMICS_H

#include "optiml/Transform/Transform.h"
#include "transforms/AggregateAtomics/AggregateAtomicsLegality.h"

namespace optiml {

class AggregateAtomics : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  /// The edits for a plan AggregateAtomicsLegality accepted.
  static llvm::Expected<EditSet>
  emit(const Site &S, const AggregateAtomicsPlan &Plan, clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is AggregateAtomics.json.
std::unique_ptr<Transform> createAggregateAtomics(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_AGGREGATEATOMICS_AGGREGATEATOMICS_H
