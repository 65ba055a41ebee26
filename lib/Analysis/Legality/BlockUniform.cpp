//===- BlockUniform.cpp - values every thread of a block agrees on -------===//

#include "optiml/Analysis/Legality/BlockUniform.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// How far a value may vary: nowhere (one value for the block) or by
/// thread (threadIdx is fixed for a thread too).
enum class Over { Block, Thread };

static bool isUniform(const Expr &E, const FunctionDecl &Kernel,
                      ASTContext &Ctx, unsigned Depth, Over W);

static bool isUniformVar(const VarDecl &V, const FunctionDecl &Kernel,
                         ASTContext &Ctx, unsigned Depth, Over W) {
  if (V.getType()->isReferenceType() || !isNeverChanged(V, Kernel, Ctx))
    return false;
  // A parameter of the kernel (of its template or of an instance), not of
  // a lambda inside it.
  if (const auto *P = dyn_cast<ParmVarDecl>(&V)) {
    const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
    return F && F->hasAttr<CUDAGlobalAttr>();
  }
  // A local of the kernel, each thread's own copy of one value; a
  // __shared__ variable may be written by another thread.
  const auto *Owner = dyn_cast<FunctionDecl>(V.getDeclContext());
  return V.isLocalVarDecl() && !V.isStaticLocal() &&
         !V.hasAttr<CUDASharedAttr>() && Owner &&
         Owner->getCanonicalDecl() == Kernel.getCanonicalDecl() &&
         V.getInit() && isUniform(*V.getInit(), Kernel, Ctx, Depth + 1, W);
}

static bool isUniform(const Expr &E, const FunctionDecl &Kernel,
                      ASTContext &Ctx, unsigned Depth, Over W) {
  // Chains of locals deeper than this are not worth following.
  if (Depth > 8)
    return false;
  const Expr *X = E.IgnoreParens();
  if (std::optional<BuiltinRef> B = asBuiltinRef(X))
    return W == Over::Thread || B->Which != BuiltinRef::ThreadIdx;
  if (!X->isValueDependent() && X->isIntegerConstantExpr(Ctx))
    return true;
  if (isa<FloatingLiteral, CXXBoolLiteralExpr, UnaryExprOrTypeTraitExpr>(X))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(X)) {
    // A template's value parameter or an enumerator: one constant for
    // every instance's whole grid.
    if (isa<NonTypeTemplateParmDecl, EnumConstantDecl>(Ref->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    return V && isUniformVar(*V, Kernel, Ctx, Depth, W);
  }
  if (const auto *Cast = dyn_cast<CastExpr>(X)) {
    // Loads are uniform from variables only, never from memory.
    if (Cast->getCastKind() == CK_LValueToRValue &&
        !isa<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
      return false;
    return isUniform(*Cast->getSubExpr(), Kernel, Ctx, Depth, W);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(X))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           isUniform(*B->getLHS(), Kernel, Ctx, Depth, W) &&
           isUniform(*B->getRHS(), Kernel, Ctx, Depth, W);
  if (const auto *U = dyn_cast<UnaryOperator>(X))
    return !U->isIncrementDecrementOp() && U->getOpcode() != UO_Deref &&
           U->getOpcode() != UO_AddrOf &&
           isUniform(*U->getSubExpr(), Kernel, Ctx, Depth, W);
  if (const auto *C = dyn_cast<ConditionalOperator>(X))
    return isUniform(*C->getCond(), Kernel, Ctx, Depth, W) &&
           isUniform(*C->getTrueExpr(), Kernel, Ctx, Depth, W) &&
           isUniform(*C->getFalseExpr(), Kernel, Ctx, Depth, W);
  return false;
}

bool optiml::isBlockUniform(const Expr &E, const FunctionDecl &Kernel,
                            ASTContext &Ctx) {
  return isUniform(E, Kernel, Ctx, 0, Over::Block);
}

bool optiml::isFixedForThread(const Expr &E, const FunctionDecl &Kernel,
                              ASTContext &Ctx) {
  return isUniform(E, Kernel, Ctx, 0, Over::Thread);
}

bool optiml::isThreadX(const Expr &E, const FunctionDecl &Kernel,
                       ASTContext &Ctx) {
  auto IsThreadX = [](const Expr *X) {
    std::optional<BuiltinRef> B = asBuiltinRef(X->IgnoreParenImpCasts());
    return B && B->Which == BuiltinRef::ThreadIdx && B->Dim == 0;
  };
  if (IsThreadX(&E))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(E.IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // Narrower than 16 bits, the variable could wrap threadIdx.x (< 1024).
  if (!V || !V->isLocalVarDecl() || !V->getType()->isIntegerType() ||
      V->getType()->isDependentType() || Ctx.getIntWidth(V->getType()) < 16 ||
      !V->getInit() || !IsThreadX(V->getInit()))
    return false;
  return isNeverChanged(*V, Kernel, Ctx);
}

bool optiml::isReachedByWholeBlock(const Stmt &S, const FunctionDecl &Kernel,
                                   ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    if (Parent.get<CompoundStmt>() == Kernel.getBody())
      return true;
    if (Parent.get<CompoundStmt>() || Parent.get<AttributedStmt>()) {
      Node = Parent;
      continue;
    }
    const auto *If = Parent.get<IfStmt>();
    const Stmt *Child = Node.get<Stmt>();
    if (!If || If->getInit() || If->getConditionVariable() ||
        (Child != If->getThen() && Child != If->getElse()) ||
        !isBlockUniform(*If->getCond(), Kernel, Ctx))
      return false;
    Node = Parent;
  }
}

const ReturnStmt *optiml::divergentReturnBefore(const Stmt &S,
                                                const FunctionDecl &Kernel,
                                                ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ReturnStmt *Ret : nodesOf<ReturnStmt>(Kernel.getBody()))
    if (SM.isBeforeInTranslationUnit(Ret->getBeginLoc(), S.getBeginLoc()) &&
        !isReachedByWholeBlock(*Ret, Kernel, Ctx))
      return Ret;
  return nullptr;
}
