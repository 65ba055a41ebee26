//===- CudaBuiltins.cpp - threadIdx, blockIdx, barriers in the AST -------===//

#include "optiml/Analysis/Legality/CudaBuiltins.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace optiml;
using namespace clang;

std::string BuiltinRef::str() const {
  static const char *const Vars[] = {"threadIdx", "blockIdx", "blockDim",
                                     "gridDim"};
  return std::string(Vars[Which]) + "." + "xyz"[Dim];
}

static const MSPropertyRefExpr *propertyOf(const Stmt *S) {
  const auto *P = dyn_cast_or_null<PseudoObjectExpr>(S);
  if (!P)
    return nullptr;
  return dyn_cast<MSPropertyRefExpr>(
      P->getSyntacticForm()->IgnoreParenImpCasts());
}

std::optional<BuiltinRef> optiml::asBuiltinRef(const Expr *E) {
  if (!E)
    return std::nullopt;
  const MSPropertyRefExpr *Prop = propertyOf(E->IgnoreParenImpCasts());
  if (!Prop)
    return std::nullopt;
  const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return std::nullopt;
  auto Which = llvm::StringSwitch<std::optional<BuiltinRef::Var>>(
                   Ref->getDecl()->getName())
                   .Case("threadIdx", BuiltinRef::ThreadIdx)
                   .Case("blockIdx", BuiltinRef::BlockIdx)
                   .Case("blockDim", BuiltinRef::BlockDim)
                   .Case("gridDim", BuiltinRef::GridDim)
                   .Default(std::nullopt);
  auto Dim = llvm::StringSwitch<std::optional<unsigned>>(
                 Prop->getPropertyDecl()->getName())
                 .Case("x", 0)
                 .Case("y", 1)
                 .Case("z", 2)
                 .Default(std::nullopt);
  if (!Which || !Dim)
    return std::nullopt;
  return BuiltinRef{*Which, *Dim};
}

bool optiml::isBuiltinRefNode(const Stmt *S) {
  return isa_and_nonnull<PseudoObjectExpr>(S) &&
         asBuiltinRef(cast<PseudoObjectExpr>(S)).has_value();
}

void optiml::forEachNode(const Stmt *S,
                         llvm::function_ref<void(const Stmt *)> F) {
  if (!S)
    return;
  F(S);
  if (isBuiltinRefNode(S))
    return;
  if (const auto *P = dyn_cast<PseudoObjectExpr>(S))
    return forEachNode(P->getSyntacticForm(), F);
  for (const Stmt *C : S->children())
    forEachNode(C, F);
}

bool optiml::isCooperativeCall(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  StringRef Name = F->getName();
  return Name.starts_with("__syncthreads") || Name == "__syncwarp" ||
         Name.starts_with("__shfl") || Name.starts_with("__ballot") ||
         Name.starts_with("__any_sync") || Name.starts_with("__all_sync") ||
         Name.starts_with("__match") || Name.starts_with("__reduce_") ||
         Name == "__activemask" || Name.starts_with("__barrier");
}

bool optiml::isLoadIntrinsic(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  return llvm::is_contained(
      {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"},
      F->getName());
}

bool optiml::isBlockBarrier(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == "__syncthreads";
}
