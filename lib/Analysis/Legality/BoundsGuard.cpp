//===- BoundsGuard.cpp - does a kernel stop threads past the bound? ------===//

#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/ExprCXX.h"

using namespace optiml;
using namespace clang;

bool BoundsGuard::touchesMemory(const Stmt *S) {
  if (!S || isBuiltinRefNode(S))
    return false;
  if (isa<ArraySubscriptExpr, CallExpr, CXXNewExpr, CXXDeleteExpr>(S))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    if (U->getOpcode() == UO_Deref || U->isIncrementDecrementOp())
      return true;
  if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return true;
  if (const auto *P = dyn_cast<PseudoObjectExpr>(S))
    return touchesMemory(P->getSyntacticForm());
  return llvm::any_of(S->children(), touchesMemory);
}

/// The index variable \p E names, when it is one of \p Vars.
template <typename SetT>
static const VarDecl *indexVar(const Expr *E, const SetT &Vars) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && Vars.contains(V) ? V : nullptr;
}

void optiml::forEachLeaf(const Expr *E, BinaryOperatorKind Op,
                         llvm::function_ref<void(const Expr *)> Leaf) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (B && B->getOpcode() == Op) {
    forEachLeaf(B->getLHS(), Op, Leaf);
    forEachLeaf(B->getRHS(), Op, Leaf);
    return;
  }
  Leaf(E->IgnoreParenImpCasts());
}

/// The variables a condition's leaves bound: `v >= e` / `e <= v` (and the
/// strict forms) when \p Exits, `v < e` / `e > v` (and `<=`, `>=`) otherwise.
template <typename SetT>
static std::vector<const VarDecl *> boundedBy(const Expr *Cond, bool Exits,
                                              const SetT &Vars) {
  std::vector<const VarDecl *> Out;
  forEachLeaf(Cond, Exits ? BO_LOr : BO_LAnd, [&](const Expr *Leaf) {
    const auto *Cmp = dyn_cast<BinaryOperator>(Leaf);
    if (!Cmp || !Cmp->isRelationalOp())
      return;
    bool Greater = Cmp->getOpcode() == BO_GT || Cmp->getOpcode() == BO_GE;
    // `v OP e` keeps v small when OP is < (or, exiting, leaves on >=).
    const Expr *Small = Greater == Exits ? Cmp->getLHS() : Cmp->getRHS();
    if (const VarDecl *V = indexVar(Small, Vars))
      Out.push_back(V);
  });
  return Out;
}

static bool isReturn(const Stmt *S) {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    return C->size() == 1 && isReturn(C->body_front());
  return isa_and_nonnull<ReturnStmt>(S);
}

bool BoundsGuard::earlyReturn(const IfStmt &If) {
  if (If.getElse() || If.getInit() || If.getConditionVariable() ||
      !isReturn(If.getThen()) || touchesMemory(If.getCond()))
    return false;
  for (const VarDecl *V : boundedBy(If.getCond(), /*Exits=*/true, Pending))
    Pending.erase(V);
  return true;
}

bool BoundsGuard::wrappingIf(const IfStmt &If) {
  if (If.getElse() || If.getInit() || If.getConditionVariable() ||
      touchesMemory(If.getCond()))
    return false;
  for (const VarDecl *V : boundedBy(If.getCond(), /*Exits=*/false, Pending))
    Pending.erase(V);
  return Pending.empty();
}

bool BoundsGuard::gridStrideLoop(const ForStmt &For) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For.getInit());
  if (!Init || !Init->isSingleDecl() || !For.getCond())
    return false;
  const auto *V = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!V || !Pending.contains(V))
    return false;
  auto Bounded = boundedBy(For.getCond(), /*Exits=*/false, Pending);
  if (!llvm::is_contained(Bounded, V))
    return false;
  Pending.erase(V);
  return Pending.empty();
}

llvm::Error BoundsGuard::walkBody(const CompoundStmt &Body) {
  for (const Stmt *S : Body.body()) {
    if (Pending.empty())
      return llvm::Error::success();
    if (const auto *Decls = dyn_cast<DeclStmt>(S); Decls && !touchesMemory(S))
      continue;
    bool Last = S == Body.body_back();
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (earlyReturn(*If))
        continue;
      if (Last && wrappingIf(*If))
        return llvm::Error::success();
    }
    if (const auto *For = dyn_cast<ForStmt>(S); For && Last)
      if (gridStrideLoop(*For))
        return llvm::Error::success();
    return illegalAt(S->getBeginLoc(), Ctx,
                     "this statement runs before '" +
                         (*Pending.begin())->getName() +
                         "' is checked against the problem bound, so threads "
                         "past the bound would run it");
  }
  if (Pending.empty())
    return llvm::Error::success();
  const VarDecl *V = *Pending.begin();
  return illegalAt(V->getLocation(), Ctx,
                   "the global index '" + V->getName() +
                       "' is never checked against the problem bound");
}

/// The for-loop whose init declares \p V, if any.
static const ForStmt *declaringLoop(const VarDecl &V, ASTContext &Ctx) {
  DynTypedNode Decl = parentOf(DynTypedNode::create(V), Ctx);
  if (!Decl.get<DeclStmt>())
    return nullptr;
  return parentOf(Decl, Ctx).get<ForStmt>();
}

/// A guard holds only while the index keeps its value; a grid-stride loop
/// may change its own variable in its increment.
llvm::Error BoundsGuard::checkUnchanged(const FunctionDecl &Kernel,
                                        llvm::ArrayRef<const VarDecl *> Vars,
                                        ASTContext &Ctx) {
  for (const VarDecl *V : Vars) {
    const ForStmt *Loop = declaringLoop(*V, Ctx);
    for (const DeclRefExpr *Use : usesOf(*V, *Kernel.getBody(), Ctx)) {
      if (isPureRead(*Use, Ctx))
        continue;
      if (Loop && Loop->getInc() &&
          Loop->getInc()->getSourceRange().fullyContains(Use->getSourceRange()))
        continue;
      return illegalAt(Use->getBeginLoc(), Ctx,
                       "the global index '" + V->getName() +
                           "' is changed after its bounds check");
    }
  }
  return llvm::Error::success();
}

llvm::Error BoundsGuard::check(const FunctionDecl &Kernel,
                               llvm::ArrayRef<const VarDecl *> IndexVars,
                               ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return llvm::Error::success();
  if (llvm::Error E = checkUnchanged(Kernel, IndexVars, Ctx))
    return E;
  BoundsGuard Guard(IndexVars, Ctx);
  return Guard.walkBody(*Body);
}
