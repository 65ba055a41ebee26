//===- FissionLegality.h - may a loop be split in two? ----------*- C++ -*-===//
//
// Fission (loop distribution) turns `for (H) { A; B; }` into
// `for (H) { A; } for (H) { B; }`: every iteration of A now runs before any
// iteration of B. It keeps the program's meaning when
//   * the loop is a canonical for-loop (LoopInfo) without a loop pragma,
//     whose header can be written twice: its initial value reads nothing
//     the loop changes, its bound is loop-invariant;
//   * the split falls between two statements of the body's block;
//   * neither part has a barrier or warp exchange, a call with side
//     effects, or a jump out of the iteration (break, continue, return,
//     goto);
//   * nothing declared in the first part is used in the second, and no
//     variable is written in one part and used in the other (a value the
//     first part computes per iteration would reach the second loop only
//     from the last iteration);
//   * no memory dependence runs backward from the second part to a later
//     iteration of the first (LoopDependence): same-iteration and forward
//     dependences are kept, anything unproven is refused.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_FISSION_FISSIONLEGALITY_H
#define OPTIML_TRANSFORMS_FISSION_FISSIONLEGALITY_H

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// What the rewrite needs, decided once by FissionLegality.
struct FissionPlan {
  CanonicalLoop Loop;
  const clang::CompoundStmt *Body = nullptr;
  unsigned Split = 0; ///< How many body statements the first loop keeps.
  /// The loop is not directly in a block: the two loops need braces.
  bool NeedsBraces = false;
  /// The kernel is not launched in this file and the split rests on its
  /// pointer parameters not overlapping, as the kernel spec promises.
  bool RestsOnSpec = false;

  const clang::Stmt *lastOfFirst() const {
    return Body->body_begin()[Split - 1];
  }
};

class FissionLegality {
public:
  /// The plan for splitting the loop at \p S after its first \p Split body
  /// statements, or a LegalityError (Illegal or NotApplicable) with the
  /// place and the rule that refuses it.
  static llvm::Expected<FissionPlan> check(const Site &S, unsigned Split,
                                           clang::ASTContext &Ctx);

  /// The smallest split up to \p Max that check() accepts, or nothing.
  static std::optional<unsigned> firstLegalSplit(const Site &S, unsigned Max,
                                                 clang::ASTContext &Ctx);

private:
  static llvm::Expected<FissionPlan> checkLoop(const Site &S,
                                               clang::ASTContext &Ctx);
  static llvm::Error checkParts(FissionPlan &Plan, const Site &S,
                                clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_FISSION_FISSIONLEGALITY_H
