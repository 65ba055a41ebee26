//===- HoistLegality.h - what index arithmetic can leave a loop? -*- C++
//-*-===//
//
// `A[row * k + i]` recomputes `row * k` on every iteration although it
// cannot change. Such an expression may be computed once before the loop
// when it reads nothing the loop changes (isLoopInvariant), has no side
// effect, is integer or pointer arithmetic (floating point could round
// differently once moved), and cannot trap or read memory when the loop
// runs zero times (no division by a non-constant, no loads). Only
// expressions evaluated on every iteration are moved, and only non-trivial
// ones (with a multiplication), so hoisting twice finds nothing new.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_HOIST_HOISTLEGALITY_H
#define OPTIML_TRANSFORMS_HOIST_HOISTLEGALITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// One value to compute before the loop, and every place it is used.
struct HoistCandidate {
  /// In source order; all equal up to parentheses.
  std::vector<const clang::Expr *> Uses;
  clang::QualType Type; ///< The value's type.
};

class HoistLegality {
public:
  /// The maximal loop-invariant, non-trivial integer or pointer
  /// subexpressions of \p Loop's condition and body (the site \p Site)
  /// evaluated on every iteration, grouped by value, in source order; a
  /// NotApplicable LegalityError listing why the near misses were left
  /// when there are none.
  static llvm::Expected<std::vector<HoistCandidate>>
  check(const clang::Stmt &Loop, llvm::StringRef Site, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_HOIST_HOISTLEGALITY_H
