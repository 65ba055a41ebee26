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

bool optiml::isPureRead(const DeclRefExpr &Ref, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(Ref);
  const Expr *Child = &Ref;
  // Look through what keeps an lvalue an lvalue: parentheses, member
  // selection, const-adding no-op casts.
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    if (const auto *P = Parent.get<ParenExpr>()) {
      Child = P, Node = Parent;
      continue;
    }
    if (const auto *M = Parent.get<MemberExpr>(); M && !M->isArrow()) {
      Child = M, Node = Parent;
      continue;
    }
    if (const auto *C = Parent.get<ImplicitCastExpr>();
        C && C->getCastKind() == CK_NoOp && C->getType().isConstQualified()) {
      Child = C, Node = Parent;
      continue;
    }
    return readBy(Child, Parent);
  }
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
