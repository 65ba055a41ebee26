//===- VarUses.cpp - how a variable is used in a function ----------------===//

#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace optiml;
using namespace clang;
using namespace clang::ast_matchers;

std::vector<const DeclRefExpr *>
optiml::usesOf(const VarDecl &Var, const Stmt &Scope, ASTContext &Ctx) {
  const auto RefToVar = declRefExpr(to(varDecl(equalsNode(&Var)))).bind("r");
  std::vector<const DeclRefExpr *> Uses;
  for (const BoundNodes &N : match(findAll(RefToVar), Scope, Ctx))
    Uses.push_back(N.getNodeAs<DeclRefExpr>("r"));
  return Uses;
}

DynTypedNode optiml::parentOf(const DynTypedNode &Node, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(Node);
  return Parents.empty() ? DynTypedNode() : Parents[0];
}

/// Whether the expression \p Child, used by \p Parent, is only read there.
static bool readBy(const Expr *Child, const DynTypedNode &Parent) {
  if (const auto *Cast = Parent.get<ImplicitCastExpr>())
    return Cast->getCastKind() == CK_LValueToRValue;
  if (const auto *Construct = Parent.get<CXXConstructExpr>())
    return Construct->getConstructor()->isCopyOrMoveConstructor() &&
           Construct->getConstructor()
               ->getParamDecl(0)
               ->getType()
               ->getPointeeType()
               .isConstQualified();
  // In templates, reads carry no lvalue-to-rvalue cast; these parents read
  // their operands whatever the context.
  if (const auto *A = Parent.get<ArraySubscriptExpr>())
    return A->getIdx() == Child;
  if (const auto *B = Parent.get<BinaryOperator>())
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma;
  if (const auto *Op = Parent.get<UnaryOperator>())
    return Op->getOpcode() == UO_Deref || Op->getOpcode() == UO_Plus ||
           Op->getOpcode() == UO_Minus || Op->getOpcode() == UO_LNot ||
           Op->getOpcode() == UO_Not;
  return false;
}

std::pair<DynTypedNode, const Expr *>
optiml::lvalueUser(const Expr &E, ASTContext &Ctx, bool ThroughConstCasts) {
  DynTypedNode Node = DynTypedNode::create(E);
  const Expr *Child = &E;
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    const Expr *Same = Parent.get<ParenExpr>();
    if (const auto *M = Parent.get<MemberExpr>(); M && !M->isArrow())
      Same = M;
    if (const auto *C = Parent.get<ImplicitCastExpr>();
        ThroughConstCasts && C && C->getCastKind() == CK_NoOp &&
        C->getType().isConstQualified())
      Same = C;
    if (!Same)
      return {Parent, Child};
    Child = Same, Node = Parent;
  }
}

bool optiml::isPureRead(const DeclRefExpr &Ref, ASTContext &Ctx) {
  auto [User, Child] = lvalueUser(Ref, Ctx, /*ThroughConstCasts=*/true);
  return readBy(Child, User);
}

bool optiml::isDiscardedValue(const Expr &E, ASTContext &Ctx) {
  DynTypedNode Parent = parentOf(DynTypedNode::create(E), Ctx);
  if (Parent.get<CompoundStmt>() || Parent.get<LabelStmt>() ||
      Parent.get<SwitchCase>())
    return true;
  if (const auto *If = Parent.get<IfStmt>())
    return If->getThen() == &E || If->getElse() == &E;
  if (const auto *For = Parent.get<ForStmt>())
    return For->getBody() == &E;
  if (const auto *While = Parent.get<WhileStmt>())
    return While->getBody() == &E;
  if (const auto *Do = Parent.get<DoStmt>())
    return Do->getBody() == &E;
  return false;
}

LvalueUse optiml::lvalueUseOf(const Expr &E, ASTContext &Ctx) {
  const Expr *Child = &E;
  DynTypedNode Parent = parentOf(DynTypedNode::create(E), Ctx);
  while (const auto *P = Parent.get<ParenExpr>()) {
    Child = P;
    Parent = parentOf(Parent, Ctx);
  }
  if (const auto *C = Parent.get<ImplicitCastExpr>())
    return C->getCastKind() == CK_LValueToRValue ? LvalueUse::Read
                                                 : LvalueUse::Escapes;
  if (const auto *B = Parent.get<BinaryOperator>()) {
    if (!B->isAssignmentOp() || B->getRHS() == Child)
      return LvalueUse::Read;
    return B->getOpcode() == BO_Assign ? LvalueUse::Write
                                       : LvalueUse::ReadWrite;
  }
  if (const auto *U = Parent.get<UnaryOperator>();
      U && U->isIncrementDecrementOp())
    return LvalueUse::ReadWrite;
  return LvalueUse::Escapes;
}

std::vector<const Stmt *> optiml::enclosingStmts(const Stmt &S,
                                                 ASTContext &Ctx) {
  std::vector<const Stmt *> Out;
  for (DynTypedNode Node = parentOf(DynTypedNode::create(S), Ctx);
       !Node.getNodeKind().isNone(); Node = parentOf(Node, Ctx))
    if (const Stmt *P = Node.get<Stmt>()) // Not `float v = A[i];`'s decl.
      Out.push_back(P);
  return Out;
}

const FunctionDecl *optiml::enclosingFunction(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    Node = parentOf(Node, Ctx);
    if (Node.get<TranslationUnitDecl>() || Node.getNodeKind().isNone())
      return nullptr;
    if (const auto *F = Node.get<FunctionDecl>())
      return F;
  }
}

const Expr *optiml::withoutValueCasts(const Expr *E, bool IntegersOnly) {
  auto Kept = [&](QualType T) {
    return IntegersOnly ? T->isIntegerType() : T->isArithmeticType();
  };
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast || !Kept(Cast->getType()) || !Kept(Cast->getSubExpr()->getType()))
      return E;
    E = Cast->getSubExpr();
  }
}

bool optiml::isNeverChanged(const VarDecl &Var, const FunctionDecl &F,
                            ASTContext &Ctx) {
  return llvm::all_of(
      usesOf(Var, *F.getBody(), Ctx),
      [&](const DeclRefExpr *U) { return isPureRead(*U, Ctx); });
}

bool optiml::spans(const Stmt *S, SourceLocation Loc, const SourceManager &SM) {
  return S && !SM.isBeforeInTranslationUnit(Loc, S->getBeginLoc()) &&
         !SM.isBeforeInTranslationUnit(S->getEndLoc(), Loc);
}

const VarDecl *optiml::referencedVar(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}
