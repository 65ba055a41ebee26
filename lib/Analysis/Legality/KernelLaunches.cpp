//===- KernelLaunches.cpp - one kernel's launches, as AST nodes ----------===//

#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/PerContext.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

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

namespace {
/// Every kernel's launches and first other use, from one scan of the
/// translation unit, by kernel pattern.
struct LaunchIndex {
  std::map<const FunctionDecl *, std::vector<const CUDAKernelCallExpr *>> Calls;
  std::map<const FunctionDecl *, const Expr *> AddressUse;
};

class LaunchIndexer : public RecursiveASTVisitor<LaunchIndexer> {
public:
  explicit LaunchIndexer(LaunchIndex &Out) : Out(Out) {}

  // A call is visited before its callee expression, so the callee is known
  // not to be an address use when its DeclRefExpr is visited.
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) {
    Callees.insert(Call->getCallee()->IgnoreParenImpCasts());
    if (const FunctionDecl *K = launchedKernel(*Call))
      Out.Calls[K].push_back(Call);
    return true;
  }

  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *Lookup) {
    if (const FunctionDecl *K = candidateOf(*Lookup))
      noteUse(K, Lookup);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      noteUse(patternOf(F), Ref);
    return true;
  }

private:
  void noteUse(const FunctionDecl *K, const Expr *Use) {
    if (!Callees.contains(Use))
      Out.AddressUse.try_emplace(K, Use);
  }

  LaunchIndex &Out;
  llvm::SmallPtrSet<const Expr *, 16> Callees;
};
} // namespace

KernelLaunches::KernelLaunches(ASTContext &Ctx, const FunctionDecl &Kernel) {
  static auto &Cache = *new PerContext<LaunchIndex>;
  const LaunchIndex &Index = Cache.get(Ctx, [](ASTContext &Ctx) {
    LaunchIndex I;
    LaunchIndexer(I).TraverseDecl(Ctx.getTranslationUnitDecl());
    return I;
  });
  const FunctionDecl *K = patternOf(&Kernel);
  if (auto It = Index.Calls.find(K); It != Index.Calls.end())
    Calls = It->second;
  if (auto It = Index.AddressUse.find(K); It != Index.AddressUse.end())
    AddressUse = It->second;
}

llvm::Error KernelLaunches::checkAllInReach(const FunctionDecl &Kernel,
                                            const ASTContext &Ctx) const {
  if (!AddressUse)
    return llvm::Error::success();
  return illegalAt(AddressUse->getBeginLoc(), Ctx,
                   "the address of '" + Kernel.getName() +
                       "' is taken, so some of its launches are out of reach");
}
