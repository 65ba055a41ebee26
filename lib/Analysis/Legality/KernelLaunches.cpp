//===- KernelLaunches.cpp - one kernel's launches, as AST nodes ----------===//

#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

static const FunctionDecl *patternOf(const FunctionDecl *F) {
  if (const FunctionTemplateDecl *T = F->getPrimaryTemplate())
    F = T->getTemplatedDecl();
  return F->getCanonicalDecl();
}

/// The kernel a dependent name in a template may denote (a kernel template
/// launched with dependent arguments): its pattern when there is one
/// candidate, which is all we need to know that the launch exists.
static const FunctionDecl *candidateOf(const UnresolvedLookupExpr &Lookup) {
  for (const NamedDecl *D : Lookup.decls()) {
    const auto *F = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
      F = T->getTemplatedDecl();
    if (F && F->hasAttr<CUDAGlobalAttr>())
      return patternOf(F);
  }
  return nullptr;
}

const FunctionDecl *optiml::launchedKernel(const CUDAKernelCallExpr &Call) {
  const Expr *Callee = Call.getCallee()->IgnoreParenImpCasts();
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Callee))
    return candidateOf(*Lookup);
  const auto *Ref = dyn_cast<DeclRefExpr>(Callee);
  const auto *F = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  return F ? patternOf(F) : nullptr;
}

class KernelLaunches::Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(const FunctionDecl &Kernel, KernelLaunches &Out)
      : Kernel(patternOf(&Kernel)), Out(Out) {}

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) {
    Callees.insert(Call->getCallee()->IgnoreParenImpCasts());
    if (launchedKernel(*Call) == Kernel)
      Out.Calls.push_back(Call);
    return true;
  }

  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *Lookup) {
    if (candidateOf(*Lookup) == Kernel && !Callees.contains(Lookup) &&
        !Out.AddressUse)
      Out.AddressUse = Lookup;
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
    if (F && patternOf(F) == Kernel && !Callees.contains(Ref) &&
        !Out.AddressUse)
      Out.AddressUse = Ref;
    return true;
  }

private:
  const FunctionDecl *Kernel;
  KernelLaunches &Out;
  llvm::SmallPtrSet<const Expr *, 16> Callees;
};

KernelLaunches::KernelLaunches(ASTContext &Ctx, const FunctionDecl &Kernel) {
  Visitor(Kernel, *this).TraverseDecl(Ctx.getTranslationUnitDecl());
}

llvm::Error KernelLaunches::checkAllInReach(const FunctionDecl &Kernel,
                                            const ASTContext &Ctx) const {
  if (!AddressUse)
    return llvm::Error::success();
  return illegalAt(AddressUse->getBeginLoc(), Ctx,
                   "the address of '" + Kernel.getName() +
                       "' is taken, so some of its launches are out of reach");
}
