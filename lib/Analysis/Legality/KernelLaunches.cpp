//===- KernelLaunches.cpp - one kernel's launches, as AST nodes ----------===//

#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
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
  std::map<const FunctionDecl *, std::vector<ArgumentArrayLaunch>>
      ArrayLaunches;
  std::map<const FunctionDecl *, const Expr *> AddressUse;
  std::map<const FunctionDecl *, const Expr *> OpaqueUse;
};

/// The kernel \p E names, through casts and `&`: `(const void *)k`.
static const DeclRefExpr *kernelRef(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *Addr = dyn_cast<UnaryOperator>(E);
      Addr && Addr->getOpcode() == UO_AddrOf)
    E = Addr->getSubExpr()->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *F = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  return F && F->hasAttr<CUDAGlobalAttr>() ? Ref : nullptr;
}

/// The expressions whose addresses \p Array holds, when it names a local
/// array initialized with `{&a, &b, ...}` and used nowhere else (so no
/// element is replaced before the launch reads it).
static std::optional<std::vector<const Expr *>>
addressedArguments(const Expr *Array, ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Array->IgnoreParenCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const FunctionDecl *F = Var ? enclosingFunction(*Ref, Ctx) : nullptr;
  const auto *Init =
      Var && Var->isLocalVarDecl() && Var->getType()->isArrayType()
          ? dyn_cast_or_null<InitListExpr>(Var->getInit())
          : nullptr;
  if (!Init || !F || usesOf(*Var, *F->getBody(), Ctx).size() != 1)
    return std::nullopt;
  std::vector<const Expr *> Args;
  for (const Expr *E : Init->inits()) {
    const auto *Addr = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
    if (!Addr || Addr->getOpcode() != UO_AddrOf)
      return std::nullopt;
    Args.push_back(Addr->getSubExpr());
  }
  return Args;
}

class LaunchIndexer : public RecursiveASTVisitor<LaunchIndexer> {
public:
  LaunchIndexer(LaunchIndex &Out, ASTContext &Ctx) : Out(Out), Ctx(Ctx) {}

  // `cudaLaunchKernel(k, grid, block, args, ...)` with a readable args
  // array: its arguments are known, its kernel reference is no opaque use.
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !Callee->getName().starts_with("cudaLaunch") ||
        !Callee->getName().ends_with("Kernel") || Call->getNumArgs() < 4)
      return true;
    const DeclRefExpr *Ref = kernelRef(Call->getArg(0));
    auto Args = Ref ? addressedArguments(Call->getArg(3), Ctx) : std::nullopt;
    const FunctionDecl *K =
        Ref ? patternOf(cast<FunctionDecl>(Ref->getDecl())) : nullptr;
    if (!Args || Args->size() != K->getNumParams())
      return true;
    ArrayLaunchRefs.insert(Ref);
    Out.ArrayLaunches[K].push_back({Call, std::move(*Args)});
    return true;
  }

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
    if (Callees.contains(Use))
      return;
    Out.AddressUse.try_emplace(K, Use);
    if (!ArrayLaunchRefs.contains(Use))
      Out.OpaqueUse.try_emplace(K, Use);
  }

  LaunchIndex &Out;
  ASTContext &Ctx;
  llvm::SmallPtrSet<const Expr *, 16> Callees;
  llvm::SmallPtrSet<const Expr *, 4> ArrayLaunchRefs;
};
} // namespace

KernelLaunches::KernelLaunches(ASTContext &Ctx, const FunctionDecl &Kernel) {
  static auto &Cache = *new PerContext<LaunchIndex>;
  const LaunchIndex &Index = Cache.get(Ctx, [](ASTContext &Ctx) {
    LaunchIndex I;
    LaunchIndexer(I, Ctx).TraverseDecl(Ctx.getTranslationUnitDecl());
    return I;
  });
  const FunctionDecl *K = patternOf(&Kernel);
  if (auto It = Index.Calls.find(K); It != Index.Calls.end())
    Calls = It->second;
  if (auto It = Index.ArrayLaunches.find(K); It != Index.ArrayLaunches.end())
    ArrayLaunches = It->second;
  if (auto It = Index.AddressUse.find(K); It != Index.AddressUse.end())
    AddressUse = It->second;
  if (auto It = Index.OpaqueUse.find(K); It != Index.OpaqueUse.end())
    OpaqueUse = It->second;
}

llvm::Error KernelLaunches::checkAllInReach(const FunctionDecl &Kernel,
                                            const ASTContext &Ctx) const {
  if (!AddressUse)
    return llvm::Error::success();
  if (AddressUse != OpaqueUse)
    for (const ArgumentArrayLaunch &L : ArrayLaunches)
      if (L.Call->getArg(0)->getSourceRange().fullyContains(
              AddressUse->getSourceRange()))
        return illegalAt(AddressUse->getBeginLoc(), Ctx,
                         "'" + Kernel.getName() + "' is launched through '" +
                             L.Call->getDirectCallee()->getName() +
                             "', whose grid and block rewrites do not follow");
  return illegalAt(AddressUse->getBeginLoc(), Ctx,
                   "the address of '" + Kernel.getName() +
                       "' is taken, so some of its launches are out of reach");
}
