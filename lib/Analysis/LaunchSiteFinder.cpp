//===- LaunchSiteFinder.cpp - <<<...>>> launches of kernels --------------===//

#include "optiml/Analysis/LaunchSiteFinder.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

/// The kernel a callee expression names: the template pattern for a
/// specialization; by name for a dependent call inside a template.
static std::string kernelNameOf(const Expr *Callee) {
  Callee = Callee->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl())) {
      if (const FunctionTemplateDecl *T = F->getPrimaryTemplate())
        F = T->getTemplatedDecl();
      return F->getQualifiedNameAsString();
    }
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    if (NestedNameSpecifier Q = Lookup->getQualifier())
      Q.print(OS, PrintingPolicy(LangOptions()));
    OS << Lookup->getName().getAsString();
    return Name;
  }
  return "";
}

class LaunchSiteFinder::Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(ASTContext &Ctx, LaunchSiteFinder &Out) : Ctx(Ctx), Out(Out) {}

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) {
    Callees.insert(Call->getCallee()->IgnoreParenImpCasts());
    std::string Kernel = kernelNameOf(Call->getCallee());
    if (Kernel.empty())
      return true;
    LaunchSite Site;
    Site.Pos = positionOf(Call->getBeginLoc(), Ctx.getSourceManager());
    Site.Caller = callerOf(*Call);
    Site.Callee = textOf(Call->getCallee()->getSourceRange(), Ctx);
    const CallExpr *Config = Call->getConfig();
    std::string *Fields[] = {&Site.Grid, &Site.Block, &Site.SharedMemory,
                             &Site.Stream};
    for (unsigned I = 0; I < Config->getNumArgs() && I < 4; ++I)
      if (!isa<CXXDefaultArgExpr>(Config->getArg(I)))
        *Fields[I] = textOf(Config->getArg(I)->getSourceRange(), Ctx);
    Out.Launches[Kernel].push_back(std::move(Site));
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
    if (!F || !F->hasAttr<CUDAGlobalAttr>() || Callees.contains(Ref))
      return true;
    Out.AddressTaken.insert(kernelNameOf(Ref));
    return true;
  }

private:
  std::string callerOf(const Expr &E) {
    DynTypedNodeList Parents = Ctx.getParents(E);
    while (!Parents.empty()) {
      if (const auto *F = Parents[0].get<FunctionDecl>())
        return F->getQualifiedNameAsString();
      Parents = Ctx.getParents(Parents[0]);
    }
    return "";
  }

  ASTContext &Ctx;
  LaunchSiteFinder &Out;
  llvm::SmallPtrSet<const Expr *, 16> Callees;
};

LaunchSiteFinder::LaunchSiteFinder(ASTContext &Ctx) {
  Visitor(Ctx, *this).TraverseDecl(Ctx.getTranslationUnitDecl());
}

llvm::ArrayRef<LaunchSite>
LaunchSiteFinder::launchesOf(llvm::StringRef QualifiedName) const {
  auto It = Launches.find(QualifiedName);
  if (It == Launches.end())
    return {};
  return It->second;
}

bool LaunchSiteFinder::isAddressTaken(llvm::StringRef QualifiedName) const {
  return AddressTaken.contains(QualifiedName);
}
