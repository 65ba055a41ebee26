//===- BufferRoot.cpp - which pointer parameter an access reaches ---------===//

#include "optiml/Analysis/Legality/BufferRoot.h"

#include "clang/AST/Expr.h"

using namespace optiml;
using namespace clang;

/// The pointer and the offset of a local pointer's initializer `P + E`,
/// `E + P` or `&P[E]`; nulls otherwise.
static std::pair<const Expr *, const Expr *> splitOffset(const Expr &Init) {
  const Expr *E = Init.IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Add) {
    bool LhsIsPtr = B->getLHS()->getType()->isPointerType();
    return LhsIsPtr ? std::pair(B->getLHS(), B->getRHS())
                    : std::pair(B->getRHS(), B->getLHS());
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    if (const auto *A =
            dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
      return {A->getBase(), A->getIdx()};
  return {nullptr, nullptr};
}

std::optional<BufferRoot> optiml::bufferRootOf(const Expr &Base,
                                               const FunctionDecl &Kernel,
                                               ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Base.IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V)
    return std::nullopt;
  return bufferRootOf(*V, Kernel, Ctx);
}

std::optional<BufferRoot> optiml::bufferRootOf(const VarDecl &Pointer,
                                               const FunctionDecl &Kernel,
                                               ASTContext &Ctx) {
  if (const auto *P = dyn_cast<ParmVarDecl>(&Pointer)) {
    if (!P->getType()->isPointerType())
      return std::nullopt;
    return BufferRoot{P, IndexPolynomial()};
  }
  const VarDecl *Local = &Pointer;
  if (!Local->isLocalVarDecl() ||
      !Local->getType()->isPointerType() || !Local->getInit() ||
      !Kernel.getBody() || isReassigned(*Local, *Kernel.getBody(), Ctx))
    return std::nullopt;
  auto [Ptr, Offset] = splitOffset(*Local->getInit());
  const auto *PtrRef =
      Ptr ? dyn_cast<DeclRefExpr>(Ptr->IgnoreParenImpCasts()) : nullptr;
  const auto *P = PtrRef ? dyn_cast<ParmVarDecl>(PtrRef->getDecl()) : nullptr;
  if (!P || !P->getType()->isPointerType())
    return std::nullopt;
  BufferRoot Root{P, std::nullopt};
  if (auto Off = IndexPolynomial::of(*Offset, Ctx))
    Root.Offset = std::move(*Off);
  else
    llvm::consumeError(Off.takeError());
  return Root;
}

const VarDecl *optiml::pointerVariableOf(const Expr &Pointer) {
  const Expr *E = &Pointer;
  while (true) {
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      E = C->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  }
}

std::optional<IndexPolynomial>
optiml::elementIndexOf(const ArraySubscriptExpr &E, const BufferRoot &Root,
                       ASTContext &Ctx) {
  if (!Root.Offset)
    return std::nullopt;
  auto Index = IndexPolynomial::of(*E.getIdx(), Ctx);
  if (!Index) {
    llvm::consumeError(Index.takeError());
    return std::nullopt;
  }
  return *Root.Offset + *Index;
}
