//===- ExplicitUnrollLegality.h - may a loop be unrolled by hand? -*- C++
//-*-===//
//
// Explicit unrolling rewrites `for (i = lo; i < n; i += s) BODY` into a loop
// that runs F copies of BODY per iteration while F iterations remain, then
// a remainder loop for the rest. The same iterations run in the same order,
// so it is sound when the loop is canonical and counts up (LoopInfo), and
// each copy runs from its first statement to its last: no break or continue
// of the loop, no jumps, no labels, and no static-storage declarations
// (each copy would get its own variable).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_UNROLL_EXPLICITUNROLLLEGALITY_H
#define OPTIML_TRANSFORMS_UNROLL_EXPLICITUNROLLLEGALITY_H

#include "optiml/Analysis/Legality/LoopInfo.h"

#include "llvm/Support/Error.h"

namespace optiml {

/// What the rewrite needs to know about a loop that may be unrolled.
struct ExplicitUnrollPlan {
  CanonicalLoop Loop;
  int64_t Factor = 0;
  /// False when the trip count is a known multiple of Factor: no iterations
  /// are left for a remainder loop.
  bool Remainder = true;
  /// Whether the IV is declared in the for-init (and so not visible after
  /// the loop).
  bool declaresIV() const;
};

class ExplicitUnrollLegality {
public:
  /// The plan for unrolling \p Loop (the site \p Site) \p Factor times, or a
  /// LegalityError: NotApplicable when the loop is not a canonical counting-up
  /// for-loop that can be copied, Illegal when copies of its body would not
  /// do what its iterations did.
  static llvm::Expected<ExplicitUnrollPlan> check(const clang::Stmt &Loop,
                                                  llvm::StringRef Site,
                                                  int64_t Factor,
                                                  clang::ASTContext &Ctx);

private:
  static llvm::Error checkPlacement(const clang::Stmt &Loop,
                                    llvm::StringRef Site,
                                    clang::ASTContext &Ctx);
  static llvm::Error checkShape(const CanonicalLoop &L, int64_t Factor,
                                clang::ASTContext &Ctx);
  static llvm::Error checkBody(const CanonicalLoop &L, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_UNROLL_EXPLICITUNROLLLEGALITY_H
