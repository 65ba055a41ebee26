//===- FusionLegality.h - may two loops become one? -------------*- C++ -*-===//
//
// Fusion merges a loop with the loop that follows it in the same block:
// `for (H) A(i); S; for (H') B(j);` becomes `S; for (H) { A(i); B(i); }`,
// running each iteration of B right after the same iteration of A. It keeps
// the program's meaning when
//   * both are canonical for-loops (LoopInfo) without loop pragmas, over
//     the same iteration space: induction variables of one type, the same
//     start, bound, comparison and step (compared structurally, and as
//     polynomials), and the second loop's start and bound read nothing the
//     first changes;
//   * the second induction variable can take the first's name (declared in
//     its loop, the name free in the second body), and the first's is
//     declared in its loop or is the same variable;
//   * no body has a barrier or warp exchange, a call with side effects or a
//     jump out of the iteration;
//   * no variable written by one loop is used by the other (a reduction's
//     result read by the second loop would be read half-done);
//   * no memory dependence runs from the second loop back to a later
//     iteration of the first (LoopDependence): accesses of the same
//     element at the same iteration, or with the first loop ahead, stay in
//     order; anything unproven is refused;
//   * the statements S between the loops, which end up before the fused
//     loop, are independent of the first loop: no variable or memory one
//     writes and the other touches, no declaration that would capture a
//     name the first loop uses, no barrier, call with side effects or jump.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_FUSION_FUSIONLEGALITY_H
#define OPTIML_TRANSFORMS_FUSION_FUSIONLEGALITY_H

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

class LoopDependence;
class StmtAccesses;

/// What the rewrite needs, decided once by FusionLegality.
struct FusionPlan {
  CanonicalLoop First, Second;
  /// The second body's references to its induction variable, to take the
  /// first's name; empty when the names agree.
  std::vector<const clang::DeclRefExpr *> Renamed;
  /// The first body declares a name the second body uses: its statements
  /// keep a block of their own.
  bool WrapFirstBody = false;
  /// The kernel is not launched in this file and fusion rests on its
  /// pointer parameters not overlapping, as the kernel spec promises.
  bool RestsOnSpec = false;
};

class FusionLegality {
public:
  /// The plan for fusing the loop at \p S with the loop after it, or a
  /// LegalityError (Illegal or NotApplicable) with the place and the rule
  /// that refuses it.
  static llvm::Expected<FusionPlan> check(const Site &S,
                                          clang::ASTContext &Ctx);

private:
  static llvm::Expected<CanonicalLoop>
  nextLoop(const clang::ForStmt &First, llvm::StringRef Site,
           std::vector<const clang::Stmt *> &Between, clang::ASTContext &Ctx);
  static llvm::Error checkSpace(const CanonicalLoop &A, const CanonicalLoop &B,
                                clang::ASTContext &Ctx);
  static llvm::Error checkNames(FusionPlan &Plan, const StmtAccesses &Body2,
                                clang::ASTContext &Ctx);
  static llvm::Error checkBetween(llvm::ArrayRef<const clang::Stmt *> Between,
                                  const StmtAccesses &Mid,
                                  const StmtAccesses &Whole1,
                                  LoopDependence &Dep, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_FUSION_FUSIONLEGALITY_H
