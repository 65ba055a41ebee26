//===- TileLegality.cpp - may a loop be strip-mined into tiles? ----------===//

#include "transforms/Tile/TileLegality.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// A `break` that belongs to the loop whose body is \p S (not to a nested
/// loop or switch), or null.
static const BreakStmt *ownBreak(const Stmt *S) {
  if (!S ||
      isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt, LambdaExpr>(
          S))
    return nullptr;
  if (const auto *B = dyn_cast<BreakStmt>(S))
    return B;
  for (const Stmt *Child : S->children())
    if (const BreakStmt *B = ownBreak(Child))
      return B;
  return nullptr;
}

static const LabelStmt *anyLabel(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return L;
  for (const Stmt *Child : S->children())
    if (const LabelStmt *L = anyLabel(Child))
      return L;
  return nullptr;
}

llvm::Error TileLegality::checkBody(const Stmt &Body, ASTContext &Ctx) {
  // Inside the intra-tile loop, `break` would end only the current tile;
  // `continue` still goes to the next iteration, so it is fine.
  if (const BreakStmt *B = ownBreak(&Body))
    return illegalAt(B->getBeginLoc(), Ctx,
                     "'break' in the body would leave only the current tile, "
                     "not the loop");
  // A goto into the body would skip the tile loop's own bookkeeping.
  if (const LabelStmt *L = anyLabel(&Body))
    return illegalAt(L->getIdentLoc(), Ctx,
                     "the body has label '" + llvm::Twine(L->getName()) +
                         "', which a goto could enter the tiles by");
  return llvm::Error::success();
}

llvm::Error TileLegality::checkShape(const CanonicalLoop &L, int64_t Size,
                                     ASTContext &Ctx) {
  if (L.Step != 1)
    return notApplicableAt(L.For->getInc()->getBeginLoc(), Ctx,
                           "the step is " + llvm::Twine(L.Step) +
                               "; tile strip-mines loops that count up by 1");
  if (L.Cmp != BO_LT && L.Cmp != BO_LE)
    return notApplicableAt(L.For->getCond()->getBeginLoc(), Ctx,
                           "the condition is not 'i < bound' or 'i <= "
                           "bound'; tile needs an upper bound");
  if (L.TripCount && *L.TripCount <= Size)
    return notApplicableAt(L.For->getBeginLoc(), Ctx,
                           "the loop runs " + llvm::Twine(*L.TripCount) +
                               " times, which fits in one tile of " +
                               llvm::Twine(Size));
  // The tile counter goes up to the last tile's start plus Size; with a
  // constant bound we can tell whether that leaves the IV's type.
  auto Last = constantBoundValue(L, Ctx);
  if (!Last)
    return Last.takeError();
  if (*Last && **Last + Size > maxValueOf(L.IV->getType(), Ctx))
    return illegalAt(L.Bound->getBeginLoc(), Ctx,
                     "the tile counter would overflow '" +
                         L.IV->getType().getAsString() + "' past the bound");
  return llvm::Error::success();
}

llvm::Expected<CanonicalLoop> TileLegality::check(const Stmt &Loop,
                                                  llvm::StringRef Site,
                                                  int64_t Size,
                                                  ASTContext &Ctx) {
  auto Rewritable = rewritableFor(Loop, Site, "tile strip-mines for-loops only",
                                  "its header cannot be rewritten", Ctx);
  if (!Rewritable)
    return Rewritable.takeError();
  const ForStmt *For = *Rewritable;
  auto L = analyzeLoop(*For, Ctx);
  if (!L)
    return L.takeError();
  // `int i = f(i)` reads the new `i`; moved to the tile loop's init it
  // would read another.
  if (isa<DeclStmt>(For->getInit()) && !usesOf(*L->IV, *L->Lower, Ctx).empty())
    return notApplicableAt(L->Lower->getBeginLoc(), Ctx,
                           "the initial value reads the induction variable '" +
                               L->IV->getName() + "' itself");
  // The new headers repeat these parts' text.
  for (const Expr *Part : {L->Lower, L->Bound, For->getCond(), For->getInc()})
    if (textOf(Part->getSourceRange(), Ctx).empty())
      return notApplicableAt(Part->getBeginLoc(), Ctx,
                             "part of the header of '" + Site +
                                 "' comes from a macro and cannot be copied");
  if (llvm::Error E = checkShape(*L, Size, Ctx))
    return E;
  if (llvm::Error E = checkBody(*For->getBody(), Ctx))
    return E;
  return L;
}
