//===- DistinctBuffers.cpp - do a kernel's buffers overlap? --------------===//

#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/SourceText.h"

#include "llvm/ADT/DenseMap.h"

using namespace optiml;
using namespace clang;

/// Success when \p Call passes a distinct variable (or null) for each of
/// \p Kernel's pointer parameters.
static llvm::Error checkLaunch(const FunctionDecl &Kernel, const CallExpr &Call,
                               ASTContext &Ctx) {
  llvm::DenseMap<const ValueDecl *, const ParmVarDecl *> Passed;
  unsigned N = std::min(Call.getNumArgs(), Kernel.getNumParams());
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Kernel.getParamDecl(I);
    if (!P->getType()->isPointerType())
      continue;
    const Expr *Arg = Call.getArg(I)->IgnoreParenImpCasts();
    if (Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
    if (!Ref || !isa<VarDecl>(Ref->getDecl()))
      return illegalAt(Arg->getBeginLoc(), Ctx,
                       "this launch passes '" +
                           textOf(Arg->getSourceRange(), Ctx) + "' for '" +
                           P->getName() +
                           "', not a variable of its own, so it may overlap "
                           "another buffer");
    auto [It, New] = Passed.insert({Ref->getDecl(), P});
    if (!New)
      return illegalAt(Arg->getBeginLoc(), Ctx,
                       "this launch passes '" + Ref->getDecl()->getName() +
                           "' for both '" + It->second->getName() + "' and '" +
                           P->getName() + "'");
  }
  return llvm::Error::success();
}

llvm::Error optiml::checkDistinctBuffers(const FunctionDecl &Kernel,
                                         ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (const Expr *Use = Launches.addressUse())
    return illegalAt(Use->getBeginLoc(), Ctx,
                     "the address of '" + Kernel.getName() +
                         "' is taken, so its arguments are out of reach");
  BufferAccess Access(Kernel, Ctx);
  if (const Expr *Cross = Access.crossAssignment())
    return illegalAt(Cross->getBeginLoc(), Ctx,
                     "a pointer parameter is assigned a pointer based on "
                     "another parameter, so the two alias");
  for (const CUDAKernelCallExpr *Call : Launches.calls())
    if (llvm::Error E = checkLaunch(Kernel, *Call, Ctx))
      return E;
  return llvm::Error::success();
}
