//===- BufferAccess.cpp - which pointer parameters a kernel writes -------===//

#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace optiml;
using namespace clang;

namespace {

/// Walks up from \p E while the pointer value only moves (casts, offsets,
/// conditionals); returns the last node that still holds it.
DynTypedNode pointerFlowTop(const Expr &E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    const auto *P = Parent.get<Expr>();
    if (!P || !(P->getType()->isPointerType() || P->getType()->isArrayType()))
      return Node;
    if (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr>(P)) {
      Node = Parent;
      continue;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(P);
        C && C->getCond() != Node.get<Expr>()) {
      Node = Parent;
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->isAdditiveOp()) {
      Node = Parent;
      continue;
    }
    return Node;
  }
}

/// Whether \p T points to const.
bool pointsToConst(QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

/// Whether \p F's body, or a function it calls, casts a pointer to const
/// into one to non-const, the only way it could write through a `const T
/// *` parameter. Calls deeper than a few levels count as such a cast.
bool castsAwayConst(const FunctionDecl &F, unsigned Depth = 0) {
  const FunctionDecl *Def = F.getDefinition();
  if (!Def || !Def->getBody())
    return false;
  if (Depth > 3)
    return true;
  for (const auto *Cast : nodesOf<ExplicitCastExpr>(Def->getBody()))
    if (Cast->getType()->isPointerType() && !pointsToConst(Cast->getType()) &&
        pointsToConst(Cast->getSubExpr()->IgnoreParenImpCasts()->getType()))
      return true;
  for (const auto *Call : nodesOf<CallExpr>(Def->getBody()))
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && Callee != Def && castsAwayConst(*Callee, Depth + 1))
      return true;
  return false;
}

/// Whether \p Arg is a pointer that \p Call only loads through: any
/// argument of a CUDA load intrinsic (they take pointers to const), the
/// source of an asynchronous copy to shared memory, or an argument for a
/// `const T *` parameter (an accessor `at(const float *m, int ld, ...)`)
/// of a function that casts no const away.
bool isReadOnlyArg(const CallExpr &Call, const Expr &Arg) {
  if (isLoadIntrinsic(Call))
    return true;
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F)
    return false;
  const Expr *Plain = Arg.IgnoreParenImpCasts();
  if (F->getIdentifier() && F->getName() == "__pipeline_memcpy_async")
    return Call.getNumArgs() > 1 &&
           Call.getArg(1)->IgnoreParenImpCasts() == Plain;
  for (unsigned I = 0; I < Call.getNumArgs() && I < F->getNumParams(); ++I)
    if (Call.getArg(I)->IgnoreParenImpCasts() == Plain)
      return pointsToConst(F->getParamDecl(I)->getType()) &&
             !castsAwayConst(*F);
  return false;
}

/// Whether \p Addr (an element's address) is an argument that its call
/// only loads through.
bool isLoadIntrinsicArg(const Expr &Addr, ASTContext &Ctx) {
  DynTypedNode Node = parentOf(DynTypedNode::create(Addr), Ctx);
  while (Node.get<ImplicitCastExpr>())
    Node = parentOf(Node, Ctx);
  const auto *Call = Node.get<CallExpr>();
  return Call && isReadOnlyArg(*Call, Addr);
}

/// Whether the lvalue \p L (an element reached through a pointer) is only
/// read where it is used.
bool onlyRead(const Expr &L, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(L);
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    const Expr *Child = Node.get<Expr>();
    if (Parent.get<ParenExpr>() ||
        (Parent.get<MemberExpr>() && !Parent.get<MemberExpr>()->isArrow())) {
      Node = Parent;
      continue;
    }
    if (const auto *A = Parent.get<ArraySubscriptExpr>();
        A && A->getBase()->IgnoreParenImpCasts() == Child) {
      Node = Parent; // An element of an array element.
      continue;
    }
    if (const auto *C = Parent.get<ImplicitCastExpr>())
      return C->getCastKind() == CK_LValueToRValue ||
             C->getCastKind() == CK_ArrayToPointerDecay;
    if (const auto *U = Parent.get<UnaryOperator>();
        U && U->getOpcode() == UO_AddrOf)
      return isLoadIntrinsicArg(*U, Ctx);
    // Templates spell reads without casts: an operand of arithmetic, the
    // right side of an assignment, the initializer of a value.
    if (const auto *B = Parent.get<BinaryOperator>())
      return !B->isAssignmentOp() || B->getRHS() == Child;
    if (const auto *V = Parent.get<VarDecl>())
      return !V->getType()->isReferenceType();
    if (const auto *C = Parent.get<CXXConstructExpr>())
      return C->getConstructor()->isCopyConstructor();
    // `s = p[i]` for a struct (float4): the right side of a trivial
    // assignment is copied from.
    if (const auto *Op = Parent.get<CXXOperatorCallExpr>()) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
             Op->getArg(1) == Child && M && M->isTrivial();
    }
    return false;
  }
}

bool isAccess(const DynTypedNode &Parent, const Expr *Pointer) {
  if (const auto *A = Parent.get<ArraySubscriptExpr>())
    return A->getBase() == Pointer;
  if (const auto *U = Parent.get<UnaryOperator>())
    return U->getOpcode() == UO_Deref;
  if (const auto *M = Parent.get<MemberExpr>())
    return M->isArrow();
  return false;
}

bool isHarmlessUse(const DynTypedNode &Parent) {
  if (const auto *B = Parent.get<BinaryOperator>())
    return B->isComparisonOp() || B->getOpcode() == BO_Sub || B->isLogicalOp();
  if (const auto *U = Parent.get<UnaryOperator>())
    return U->getOpcode() == UO_LNot;
  if (const auto *C = Parent.get<ImplicitCastExpr>())
    return C->getCastKind() == CK_PointerToBoolean;
  if (Parent.get<ConditionalOperator>())
    return true; // Only reached as the condition (see pointerFlowTop).
  return Parent.get<IfStmt>() || Parent.get<WhileStmt>() ||
         Parent.get<ForStmt>();
}

} // namespace

void BufferAccess::markWritten(const Roots &From, const Expr &Where) {
  for (const ParmVarDecl *P : From)
    Written.try_emplace(P, &Where);
}

bool BufferAccess::flowInto(const VarDecl &To, const Roots &From,
                            const Expr &Where) {
  Roots &Target = BasedOn[&To];
  size_t Before = Target.size();
  Target.insert(From.begin(), From.end());
  if (const auto *P = dyn_cast<ParmVarDecl>(&To))
    for (const ParmVarDecl *R : From)
      if (R != P && !CrossAssignment)
        CrossAssignment = &Where;
  return Target.size() != Before;
}

/// Follows one use of a tracked pointer variable; returns true when it
/// added a derived variable, so the caller iterates to a fixpoint.
bool BufferAccess::visit(const DeclRefExpr &Ref) {
  const auto *V = dyn_cast<VarDecl>(Ref.getDecl());
  auto It = BasedOn.find(V);
  if (It == BasedOn.end())
    return false;
  Roots From = It->second;
  DynTypedNode Top = pointerFlowTop(Ref, Ctx);
  const Expr *TopExpr = Top.get<Expr>();
  DynTypedNode Parent = parentOf(Top, Ctx);
  if (isAccess(Parent, TopExpr)) {
    if (!onlyRead(*Parent.get<Expr>(), Ctx))
      markWritten(From, *Parent.get<Expr>());
    return false;
  }
  if (const auto *To = Parent.get<VarDecl>())
    return To->getType()->isPointerType() ? flowInto(*To, From, Ref)
                                          : (markWritten(From, Ref), false);
  if (const auto *B = Parent.get<BinaryOperator>()) {
    const auto *LHS = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
    if (B->getOpcode() == BO_Assign && TopExpr == B->getRHS() && LHS &&
        isa<VarDecl>(LHS->getDecl()))
      return flowInto(*cast<VarDecl>(LHS->getDecl()), From, *B);
    if (B->isAssignmentOp() && TopExpr == B->getLHS())
      return false; // The variable itself moves; its targets do not change.
  }
  if (const auto *U = Parent.get<UnaryOperator>();
      U && U->isIncrementDecrementOp())
    return false;
  if (const auto *Call = Parent.get<CallExpr>();
      Call && isReadOnlyArg(*Call, *TopExpr))
    return false;
  if (!isHarmlessUse(Parent))
    markWritten(From, *TopExpr); // Escapes where we cannot follow it.
  return false;
}

BufferAccess::BufferAccess(const FunctionDecl &Kernel, ASTContext &Ctx)
    : Ctx(Ctx) {
  for (const ParmVarDecl *P : Kernel.parameters())
    if (P->getType()->isPointerType())
      BasedOn[P].insert(P);
  if (!Kernel.getBody())
    return;
  using namespace clang::ast_matchers;
  std::vector<const DeclRefExpr *> Refs;
  for (const BoundNodes &N :
       match(findAll(declRefExpr(to(varDecl())).bind("r")), *Kernel.getBody(),
             Ctx))
    Refs.push_back(N.getNodeAs<DeclRefExpr>("r"));
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const DeclRefExpr *Ref : Refs)
      Changed |= visit(*Ref);
  }
}
