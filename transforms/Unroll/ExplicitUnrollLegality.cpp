//===- ExplicitUnrollLegality.cpp - may a loop be unrolled by hand? ------===//

#include "transforms/Unroll/ExplicitUnrollLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "transforms/Unroll/UnrollLegality.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

bool ExplicitUnrollPlan::declaresIV() const {
  return isa<DeclStmt>(Loop.For->getInit());
}

llvm::Error ExplicitUnrollLegality::checkPlacement(const Stmt &Loop,
                                                   llvm::StringRef Site,
                                                   ASTContext &Ctx) {
  auto Rewritable =
      rewritableFor(Loop, Site, "explicit unrolling needs a counted for-loop",
                    "it cannot be copied", Ctx);
  if (!Rewritable)
    return Rewritable.takeError();
  // An unroll pragma is refused as in the pragma mode; any other loop
  // pragma or attribute would end up on the statement that now starts the
  // rewrite, not on a loop.
  if (llvm::Error E = UnrollLegality::check(Loop, Site, Ctx))
    return E;
  if (const auto *A =
          parentOf(DynTypedNode::create(Loop), Ctx).get<AttributedStmt>())
    return notApplicableAt(A->getAttrs().front()->getLocation(), Ctx,
                           "'" + Site +
                               "' has a loop pragma or attribute, which the "
                               "unrolled loops could not share");
  return llvm::Error::success();
}

/// Success unless the bound is a constant so close to the IV type's largest
/// value that `counter + (F-1)*s`, which the unrolled loop tests, overflows.
static llvm::Error checkCounterRange(const CanonicalLoop &L, int64_t Factor,
                                     ASTContext &Ctx) {
  // A grid-stride loop's step is known at run time only, like a bound that
  // is not a constant (the rewrite assumes the bound leaves room).
  if (L.ThreadStride)
    return llvm::Error::success();
  auto Last = constantBoundValue(L, Ctx);
  if (!Last)
    return Last.takeError();
  // The counter starts at most one step past the last iteration, and the
  // test adds (F-1) steps to it.
  if (*Last && **Last + Factor * L.Step > maxValueOf(L.IV->getType(), Ctx))
    return illegalAt(L.Bound->getBeginLoc(), Ctx,
                     "the unrolled loop's test would overflow '" +
                         L.IV->getType().getAsString() + "' near the bound");
  return llvm::Error::success();
}

llvm::Error ExplicitUnrollLegality::checkShape(const CanonicalLoop &L,
                                               int64_t Factor,
                                               ASTContext &Ctx) {
  const ForStmt &For = *L.For;
  if (!L.increasing())
    return notApplicableAt(For.getInc()->getBeginLoc(), Ctx,
                           "the step is " + llvm::Twine(L.Step) +
                               "; explicit unrolling handles loops that "
                               "count up");
  if (L.Cmp != BO_LT && L.Cmp != BO_LE)
    return notApplicableAt(For.getCond()->getBeginLoc(), Ctx,
                           "the condition is not 'i < bound' or 'i <= "
                           "bound'; explicit unrolling needs an upper bound");
  // `int i = f(i)` reads the new `i`; moved before the loop it would read
  // another.
  if (isa<DeclStmt>(For.getInit()) && !usesOf(*L.IV, *L.Lower, Ctx).empty())
    return notApplicableAt(L.Lower->getBeginLoc(), Ctx,
                           "the initial value reads the induction variable '" +
                               L.IV->getName() + "' itself");
  // The unrolled loops repeat these parts' text.
  for (const Expr *Part : {L.Lower, For.getCond(), For.getInc()})
    if (textOf(Part->getSourceRange(), Ctx).empty())
      return notApplicableAt(Part->getBeginLoc(), Ctx,
                             "part of the loop's header comes from a macro "
                             "and cannot be copied");
  if (L.TripCount && *L.TripCount < Factor)
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "the loop runs " + llvm::Twine(*L.TripCount) +
                               " times, fewer than the factor " +
                               llvm::Twine(Factor));
  return checkCounterRange(L, Factor, Ctx);
}

/// The first statement of a loop body \p S that would not behave in a copy
/// as in an iteration: a break or continue of the loop itself (not of a
/// nested loop or switch), a return, a goto or a label.
static const Stmt *firstJump(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt>(S) ||
      (isa<ContinueStmt>(S) && !InLoop) ||
      (isa<BreakStmt>(S) && !InLoop && !InSwitch))
    return S;
  bool Loop = InLoop || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = InSwitch || isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (const Stmt *J = firstJump(Child, Loop, Switch))
      return J;
  return nullptr;
}

static llvm::Error refuseJump(const Stmt &J, ASTContext &Ctx) {
  if (isa<BreakStmt>(J))
    return illegalAt(J.getBeginLoc(), Ctx,
                     "'break' in the body would end only the unrolled loop; "
                     "the remainder loop would run on");
  if (isa<ContinueStmt>(J))
    return illegalAt(J.getBeginLoc(), Ctx,
                     "'continue' in the body would skip the copies of the "
                     "following iterations too");
  std::string What = "'return'";
  if (const auto *L = dyn_cast<LabelStmt>(&J))
    What = "label '" + std::string(L->getName()) + "'";
  else if (isa<GotoStmt, IndirectGotoStmt>(J))
    What = "a 'goto'";
  return notApplicableAt(J.getBeginLoc(), Ctx,
                         "the body has " + What +
                             "; explicit unrolling copies only bodies that "
                             "run to their end without jumps");
}

llvm::Error ExplicitUnrollLegality::checkBody(const CanonicalLoop &L,
                                              ASTContext &Ctx) {
  const Stmt *Body = L.For->getBody();
  if (const Stmt *J = firstJump(Body, false, false))
    return refuseJump(*J, Ctx);
  for (const DeclStmt *DS : nodesOf<DeclStmt>(Body))
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && !V->hasLocalStorage())
        return illegalAt(V->getLocation(), Ctx,
                         "the body declares '" + V->getName() +
                             "' with static storage (static or __shared__); "
                             "each copy would have its own");
    }
  // Each copy starts by declaring the IV; a body of its own that declares
  // that name too (legal when the IV is declared before the loop) would
  // clash with it.
  if (const auto *C = dyn_cast<CompoundStmt>(Body))
    for (const Stmt *S : C->body())
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && V->getName() == L.IV->getName())
            return notApplicableAt(V->getLocation(), Ctx,
                                   "the body declares its own '" +
                                       V->getName() +
                                       "', the name of the induction "
                                       "variable each copy declares");
  return llvm::Error::success();
}

llvm::Expected<ExplicitUnrollPlan>
ExplicitUnrollLegality::check(const Stmt &Loop, llvm::StringRef Site,
                              int64_t Factor, ASTContext &Ctx) {
  if (llvm::Error E = checkPlacement(Loop, Site, Ctx))
    return E;
  // A grid-stride loop is where copies pay most: the compiler does not
  // unroll it F times without a test between copies, and so never has F
  // loads in flight.
  auto L = analyzeLoop(cast<ForStmt>(Loop), Ctx, /*AllowThreadStride=*/true);
  if (!L)
    return L.takeError();
  if (llvm::Error E = checkShape(*L, Factor, Ctx))
    return E;
  if (llvm::Error E = checkBody(*L, Ctx))
    return E;
  ExplicitUnrollPlan Plan;
  Plan.Loop = *L;
  Plan.Factor = Factor;
  Plan.Remainder = !L->TripCount || *L->TripCount % Factor != 0;
  return Plan;
}
