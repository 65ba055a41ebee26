//===- WhileToForLegality.cpp - is a while-loop a for-loop? ---------------===//

#include "transforms/WhileToFor/WhileToForLegality.h"
#include "optiml/Analysis/Legality/BlockUniform.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// The variable \p E steps (`i += e`, `i /= 2`, `i >>= 1`, any compound
/// assignment, `++i`, `i--`, `i = i + e`, `i = e * i`, `i = i / 2`, any
/// binary operation on i itself), or null.
static const VarDecl *steppedVariable(const Expr &E) {
  auto Var = [](const Expr *X) -> const VarDecl * {
    const auto *Ref = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  };
  const Expr *X = E.IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(X))
    return U->isIncrementDecrementOp() ? Var(U->getSubExpr()) : nullptr;
  const auto *B = dyn_cast<BinaryOperator>(X);
  if (!B)
    return nullptr;
  const VarDecl *V = Var(B->getLHS());
  if (B->isCompoundAssignmentOp())
    return V;
  const auto *Op = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
  if (B->getOpcode() != BO_Assign || !Op || !V || Op->isAssignmentOp())
    return nullptr;
  return Var(Op->getLHS()) == V || Var(Op->getRHS()) == V ? V : nullptr;
}

/// A `continue` of the loop whose body is \p S (not of a loop inside it).
static const ContinueStmt *ownContinue(const Stmt *S) {
  if (!S || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return nullptr;
  if (const auto *C = dyn_cast<ContinueStmt>(S))
    return C;
  for (const Stmt *Child : S->children())
    if (const ContinueStmt *C = ownContinue(Child))
      return C;
  return nullptr;
}

const DeclStmt *WhileToForLegality::movableDeclaration(
    const WhileToForPlan &P, const FunctionDecl &Kernel, ASTContext &Ctx) {
  const VarDecl &V = *P.Counter;
  const auto *Block =
      parentOf(DynTypedNode::create(*P.Loop), Ctx).get<CompoundStmt>();
  if (!Block || !V.isLocalVarDecl() || V.isStaticLocal() || !V.getInit() ||
      !isFixedForThread(*V.getInit(), Kernel, Ctx))
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  const DeclStmt *Found = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == P.Loop)
      break;
    if (const auto *D = dyn_cast<DeclStmt>(S);
        D && D->isSingleDecl() && D->getSingleDecl() == &V)
      Found = D;
  }
  if (!Found || SM.getFileID(SM.getExpansionLoc(Found->getBeginLoc())) !=
                    SM.getMainFileID())
    return nullptr;
  // Read nowhere but in the loop: between the declaration and the loop,
  // and after the loop, it would no longer be in scope.
  for (const DeclRefExpr *U : usesOf(V, *Kernel.getBody(), Ctx))
    if (!spans(P.Loop, U->getBeginLoc(), SM))
      return nullptr;
  return Found;
}

llvm::Expected<WhileToForPlan>
WhileToForLegality::check(const Stmt &Loop, llvm::StringRef Site,
                          const FunctionDecl &Kernel, ASTContext &Ctx) {
  const auto *While = dyn_cast<WhileStmt>(&Loop);
  if (!While)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is not a while-loop");
  const SourceManager &SM = Ctx.getSourceManager();
  if (While->getBeginLoc().isMacroID() || While->getEndLoc().isMacroID() ||
      SM.getFileID(While->getBeginLoc()) != SM.getMainFileID())
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is written inside a macro");
  if (While->getConditionVariable())
    return notApplicableAt(While->getCond()->getBeginLoc(), Ctx,
                           "the condition declares a variable");
  const auto *Body = dyn_cast<CompoundStmt>(While->getBody());
  const auto *Step =
      Body && !Body->body_empty() ? dyn_cast<Expr>(Body->body_back()) : nullptr;
  const VarDecl *Counter = Step ? steppedVariable(*Step) : nullptr;
  if (!Counter || Step->getBeginLoc().isMacroID())
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "the body of '" + Site +
                               "' does not end by stepping a variable ('i "
                               "+= s;', '++i;', ...)");
  if (usesOf(*Counter, *While->getCond(), Ctx).empty())
    return notApplicableAt(While->getCond()->getBeginLoc(), Ctx,
                           "the condition does not read '" +
                               Counter->getName() +
                               "', which the body steps last");
  for (const Stmt *S : Body->body())
    if (const ContinueStmt *C = ownContinue(S))
      return illegalAt(C->getBeginLoc(), Ctx,
                       "'continue' here skips the step '" +
                           textOf(Step->getSourceRange(), Ctx) +
                           "', which a for-loop would run");
  WhileToForPlan P{While, Counter, Step, nullptr};
  P.Declaration = movableDeclaration(P, Kernel, Ctx);
  return P;
}
