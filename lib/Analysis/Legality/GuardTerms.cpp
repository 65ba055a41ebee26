//===- GuardTerms.cpp - what is known true where a statement runs --------===//

#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

std::string GuardTerm::str(const ASTContext &Ctx) const {
  std::string Text = textOf(Cond->getSourceRange(), Ctx);
  return (Negated ? "!(" : "(") + Text + ")";
}

std::vector<const IfStmt *> optiml::earlyReturns(const FunctionDecl &Kernel) {
  std::vector<const IfStmt *> Out;
  for (const IfStmt *If : exitingIfs(Kernel)) {
    const auto *C = dyn_cast<CompoundStmt>(If->getThen());
    if (!C || C->size() == 1) // Nothing but the return.
      Out.push_back(If);
  }
  return Out;
}

std::vector<const IfStmt *> optiml::exitingIfs(const FunctionDecl &Kernel) {
  std::vector<const IfStmt *> Out;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return Out;
  for (const Stmt *S : Body->body()) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || If->hasInitStorage() || If->hasVarStorage())
      continue;
    const Stmt *Last = If->getThen();
    if (const auto *C = dyn_cast<CompoundStmt>(Last); C && !C->body_empty())
      Last = C->body_back();
    if (const auto *R = dyn_cast<ReturnStmt>(Last); R && !R->getRetValue())
      Out.push_back(If);
  }
  return Out;
}

void optiml::splitConjuncts(const Expr *Cond, bool Negated,
                            std::vector<GuardTerm> &Out) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return splitConjuncts(U->getSubExpr(), !Negated, Out);
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    BinaryOperatorKind Split = Negated ? BO_LOr : BO_LAnd;
    if (B->getOpcode() == Split) {
      splitConjuncts(B->getLHS(), Negated, Out);
      splitConjuncts(B->getRHS(), Negated, Out);
      return;
    }
  }
  Out.push_back({Cond, Negated});
}

std::vector<GuardTerm> optiml::guardTermsAt(const Stmt &S,
                                            const FunctionDecl &Kernel,
                                            ASTContext &Ctx) {
  std::vector<GuardTerm> Out;
  const Stmt *Body = Kernel.getBody();
  // The if-statements around S, innermost first.
  const Stmt *Child = &S;
  for (const Stmt *P : enclosingStmts(S, Ctx)) {
    if (P == Body)
      break;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (If->getThen() == Child)
        splitConjuncts(If->getCond(), false, Out);
      else if (If->getElse() == Child)
        splitConjuncts(If->getCond(), true, Out);
    }
    Child = P;
  }
  // Child is now the top-level statement holding S: the conditions of
  // exiting if-statements before it are false there.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const IfStmt *If : exitingIfs(Kernel))
    if (SM.isBeforeInTranslationUnit(If->getEndLoc(), Child->getBeginLoc()))
      splitConjuncts(If->getCond(), true, Out);
  return Out;
}

llvm::Expected<ReturnFold> optiml::foldEarlyReturns(const FunctionDecl &Kernel,
                                                    const Stmt &Anchor,
                                                    ASTContext &Ctx,
                                                    bool BarriersInAnchor) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const IfStmt *> Early = earlyReturns(Kernel);
  for (const ReturnStmt *R : nodesOf<ReturnStmt>(Kernel.getBody())) {
    bool Top = llvm::any_of(Early, [&](const IfStmt *If) {
      return If->getSourceRange().fullyContains(R->getSourceRange());
    });
    SourceLocation Limit =
        BarriersInAnchor ? Anchor.getEndLoc() : Anchor.getBeginLoc();
    if (!Top && SM.isBeforeInTranslationUnit(R->getBeginLoc(), Limit))
      return illegalAt(R->getBeginLoc(), Ctx,
                       "this return may leave some threads out of the "
                       "barriers the rewrite adds; only top-level "
                       "'if (...) return;' can be turned into guards");
  }
  ReturnFold Fold;
  std::vector<std::string> Conds;
  for (const IfStmt *If : Early)
    if (SM.isBeforeInTranslationUnit(If->getEndLoc(), Anchor.getBeginLoc())) {
      Fold.EarlyReturns.push_back(If);
      Conds.push_back("!(" + textOf(If->getCond()->getSourceRange(), Ctx) +
                      ")");
    }
  Fold.Live = llvm::join(Conds, " && ");
  if (Fold.EarlyReturns.empty())
    return Fold;
  bool After = false;
  for (const Stmt *S : cast<CompoundStmt>(Kernel.getBody())->body()) {
    After |= S == Fold.EarlyReturns.front();
    if (!After || S == &Anchor || llvm::is_contained(Fold.EarlyReturns, S))
      continue;
    if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      if (llvm::Error E = guardDeclarations(
              *Decls, Fold.Live,
              "after an early return that must become a guard",
              Fold.Declarations, Ctx))
        return E;
      continue;
    }
    for (const CallExpr *C : nodesOf<CallExpr>(S))
      if (isCooperativeCall(*C))
        return illegalAt(C->getBeginLoc(), Ctx,
                         "a barrier after an early return cannot be "
                         "guarded");
    Fold.Guarded.push_back(S);
  }
  return Fold;
}

std::optional<std::string> optiml::guardedZero(const VarDecl &V,
                                               const ASTContext &Ctx) {
  QualType T = V.getType();
  if (!V.hasLocalStorage() || V.getInitStyle() != VarDecl::CInit ||
      !V.getInit() || isa<InitListExpr>(V.getInit()) ||
      T->getContainedAutoType() || T->isDependentType())
    return std::nullopt;
  if (T->isArithmeticType() || T->isPointerType())
    return std::string("0");
  const auto *R = T->getAsCXXRecordDecl();
  if (!R || !R->hasDefinition() || !R->hasTrivialDefaultConstructor() ||
      T.isConstQualified())
    return std::nullopt;
  return T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) + "()";
}

llvm::Error optiml::guardDeclarations(const DeclStmt &Decls,
                                      llvm::StringRef Live,
                                      llvm::StringRef Where,
                                      std::vector<GuardedDeclaration> &Out,
                                      ASTContext &Ctx) {
  for (const Decl *D : Decls.decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->getInit() || !BoundsGuard::touchesMemory(V->getInit()))
      continue;
    std::optional<std::string> Zero = guardedZero(*V, Ctx);
    if (!Zero)
      return illegalAt(V->getLocation(), Ctx,
                       "'" + V->getName() +
                           "' is initialized from memory or by a call " +
                           Where +
                           ", and only a scalar or record 'T v = init;' can "
                           "be initialized under a condition");
    Out.push_back({V, Live.str(), *Zero});
  }
  return llvm::Error::success();
}
