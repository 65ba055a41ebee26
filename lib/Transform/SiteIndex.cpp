//===- SiteIndex.cpp - the sites of one parsed source --------------------===//

#include "optiml/Transform/SiteIndex.h"
#include "optiml/Analysis/LoopSiteNamer.h"
#include "optiml/Rewrite/KernelDefinition.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

llvm::StringRef optiml::siteKindName(SiteKind Kind) {
  switch (Kind) {
  case SiteKind::Kernel:
    return "kernel";
  case SiteKind::Loop:
    return "loop";
  case SiteKind::Buffer:
    return "buffer";
  }
  llvm_unreachable("unknown site kind");
}

bool optiml::kernelNamed(const FunctionDecl &Kernel, llvm::StringRef Name) {
  return Kernel.getName() == Name || Kernel.getQualifiedNameAsString() == Name;
}

SiteIndex::SiteIndex(ASTContext &Ctx) {
  Kernels = kernelDefinitions(Ctx);
  for (const FunctionDecl *K : Kernels)
    for (const LoopSiteNamer::NamedLoop &L : LoopSiteNamer::name(*K))
      Loops.push_back(Site{L.Site, K, L.Loop});
  indexBuffers();
}

/// A buffer site for each pointer parameter, in the kernel and in each of
/// its loops: staging is decided per buffer and per loop.
void SiteIndex::indexBuffers() {
  for (const FunctionDecl *K : Kernels) {
    std::vector<Site> Scopes = {Site{K->getQualifiedNameAsString(), K}};
    for (const Site &L : Loops)
      if (L.Kernel == K)
        Scopes.push_back(L);
    for (const Site &Scope : Scopes)
      for (const ParmVarDecl *P : K->parameters())
        if (P->getType()->isPointerType())
          Buffers.push_back(
              Site{Scope.Name + "/" + P->getName().str(), K, Scope.Loop, P});
  }
}

std::vector<Site> SiteIndex::sites(SiteKind Kind,
                                   llvm::StringRef Kernel) const {
  std::vector<Site> Out;
  if (Kind != SiteKind::Kernel) {
    for (const Site &S : Kind == SiteKind::Loop ? Loops : Buffers)
      if (Kernel.empty() || kernelNamed(*S.Kernel, Kernel))
        Out.push_back(S);
    return Out;
  }
  for (const FunctionDecl *K : Kernels)
    if (Kernel.empty() || kernelNamed(*K, Kernel))
      Out.push_back(Site{K->getQualifiedNameAsString(), K, nullptr});
  return Out;
}

/// \p S's name with its kernel written unqualified (`k/for#0` for
/// `ns::k/for#0`), as users may write it when only one kernel has that name.
static std::string unqualifiedName(const Site &S) {
  std::string Qualified = S.Kernel->getQualifiedNameAsString();
  return S.Kernel->getNameAsString() + S.Name.substr(Qualified.size());
}

llvm::Expected<Site> SiteIndex::find(SiteKind Kind,
                                     llvm::StringRef Name) const {
  std::vector<Site> All = sites(Kind);
  for (const Site &S : All)
    if (S.Name == Name)
      return S;
  std::vector<const Site *> Short;
  for (const Site &S : All)
    if (unqualifiedName(S) == Name)
      Short.push_back(&S);
  if (Short.size() == 1)
    return *Short.front();
  std::vector<std::string> Names;
  for (const Site *S : Short)
    Names.push_back(S->Name);
  if (Short.size() > 1)
    return makeError(ErrorKind::BadInput,
                     "site '" + Name + "' is ambiguous; qualify it: " +
                         llvm::join(Names, ", "));
  for (const Site &S : All)
    Names.push_back(S.Name);
  return makeError(
      ErrorKind::BadInput,
      "no " + siteKindName(Kind) + " site '" + Name + "' (sites: " +
          (Names.empty() ? "none" : llvm::join(Names, ", ")) + ")");
}
