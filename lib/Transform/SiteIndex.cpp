//===- SiteIndex.cpp - the sites of one parsed source --------------------===//

#include "optiml/Transform/SiteIndex.h"
#include "optiml/Analysis/LoopSiteNamer.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

namespace {

class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  explicit KernelCollector(const SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->hasAttr<CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody() &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())))
      Kernels.push_back(F);
    return true;
  }

  std::vector<const FunctionDecl *> Kernels;

private:
  const SourceManager &SM;
};

} // namespace

bool optiml::kernelNamed(const FunctionDecl &Kernel, llvm::StringRef Name) {
  return Kernel.getName() == Name || Kernel.getQualifiedNameAsString() == Name;
}

SiteIndex::SiteIndex(ASTContext &Ctx) {
  KernelCollector C(Ctx.getSourceManager());
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  Kernels = std::move(C.Kernels);
  for (const FunctionDecl *K : Kernels)
    for (const LoopSiteNamer::NamedLoop &L : LoopSiteNamer::name(*K))
      Loops.push_back(Site{L.Site, K, L.Loop});
}

std::vector<Site> SiteIndex::sites(SiteKind Kind,
                                   llvm::StringRef Kernel) const {
  std::vector<Site> Out;
  if (Kind == SiteKind::Loop) {
    for (const Site &S : Loops)
      if (Kernel.empty() || kernelNamed(*S.Kernel, Kernel))
        Out.push_back(S);
    return Out;
  }
  for (const FunctionDecl *K : Kernels)
    if (Kernel.empty() || kernelNamed(*K, Kernel))
      Out.push_back(Site{K->getQualifiedNameAsString(), K, nullptr});
  return Out;
}

llvm::Expected<Site> SiteIndex::find(SiteKind Kind,
                                     llvm::StringRef Name) const {
  std::vector<Site> All = sites(Kind);
  for (const Site &S : All)
    if (S.Name == Name ||
        (Kind == SiteKind::Kernel && kernelNamed(*S.Kernel, Name)))
      return S;
  std::vector<std::string> Names;
  for (const Site &S : All)
    Names.push_back(S.Name);
  return makeError(
      ErrorKind::BadInput,
      "no " + llvm::Twine(Kind == SiteKind::Loop ? "loop" : "kernel") +
          " site '" + Name + "' (sites: " +
          (Names.empty() ? "none" : llvm::join(Names, ", ")) + ")");
}
