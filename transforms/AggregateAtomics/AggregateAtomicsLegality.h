//===- AggregateAtomicsLegality.h - may a warp add once? --------*- C++ -*-===//
//
// `atomicAdd(result, local);` run by every thread makes 32 atomics per warp
// on one address, which the memory system serializes. Summing the warp's
// values with shuffles first and letting one lane add the sum is the same
// addition, reassociated, when
//   * the call is a statement of its own: the value atomicAdd returns (each
//     thread's old value) is not used;
//   * the address is the same for every thread of a warp: built from kernel
//     parameters, blockIdx/blockDim/gridDim, constants, variables of static
//     storage and locals only ever holding such values, with no call and no
//     side effect (a thread's own variable, threadIdx or a loop counter
//     makes it vary);
//   * the element type is one the warp sum shuffles and atomicAdd adds:
//     int, unsigned, float or double.
// Which lanes reach the call does not matter: the rewrite takes the lanes
// that arrive together (`__activemask()`), sums over exactly those, and the
// lowest of them adds the sum; lanes arriving later (divergence, a partial
// last warp, threads that returned early) form their own group.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_AGGREGATEATOMICS_AGGREGATEATOMICSLEGALITY_H
#define OPTIML_TRANSFORMS_AGGREGATEATOMICS_AGGREGATEATOMICSLEGALITY_H

#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// One `atomicAdd(address, value);` statement to aggregate.
struct AggregatedAtomic {
  const clang::CallExpr *Call = nullptr;
  clang::QualType Element; ///< What the address points to, unqualified.
};

/// What the rewrite needs, decided once by AggregateAtomicsLegality.
struct AggregateAtomicsPlan {
  std::vector<AggregatedAtomic> Atomics; ///< In source order.
};

class AggregateAtomicsLegality {
public:
  /// The atomics of kernel site \p S to aggregate, or a LegalityError
  /// (Illegal or NotApplicable) with the place and the rule that refuses
  /// the first one when none may be.
  static llvm::Expected<AggregateAtomicsPlan> check(const Site &S,
                                                    clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_AGGREGATEATOMICS_AGGREGATEATOMICSLEGALITY_H
