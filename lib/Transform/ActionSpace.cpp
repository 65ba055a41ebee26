//===- ActionSpace.cpp - every (transform, site) of a source -------------===//

#include "optiml/Transform/ActionSpace.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Transform/SiteIndex.h"
#include "optiml/Transform/StepRunner.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

/// Fills the verdict of \p A from \p E (consumed).
static void recordVerdict(llvm::Error E, Action &A) {
  if (!E) {
    A.Legal = true;
    A.Kind = "legal";
    return;
  }
  llvm::handleAllErrors(
      std::move(E),
      [&](const LegalityError &L) {
        A.Kind = L.kind() == ErrorKind::Illegal ? "illegal" : "not-applicable";
        A.Reason = L.reason();
        A.Where = L.where();
      },
      [&](const OptimlError &O) {
        A.Kind = O.kind() == ErrorKind::Illegal ? "illegal" : "not-applicable";
        A.Reason = O.message();
      },
      [&](const llvm::ErrorInfoBase &Other) {
        A.Kind = "not-applicable";
        A.Reason = Other.message();
      });
}

static Action actionAt(const Transform &T, const Site &S,
                       clang::ASTContext &Ctx) {
  Action A;
  A.Transform = T.name().str();
  A.Kernel = S.kernelName();
  A.Default.Transform = A.Transform;
  A.Default.Site = S.Name;
  A.SiteLoc = S.Loop     ? S.Loop->getBeginLoc()
              : S.Buffer ? S.Buffer->getLocation()
                         : S.Kernel->getLocation();
  A.Default.Params = StepRunner::completeParams(T, S, T.suggested(S, Ctx), Ctx);
  auto Planned = T.plan(S, A.Default.Params, Ctx);
  if (!Planned) {
    recordVerdict(Planned.takeError(), A);
    return A;
  }
  // Legal is a promise that --apply works: build the edits (cheap, no
  // re-parse) and report what the result would rest on.
  auto Edits = Planned->edits();
  if (!Edits) {
    recordVerdict(Edits.takeError(), A);
    return A;
  }
  recordVerdict(llvm::Error::success(), A);
  A.Reason = llvm::join(Edits->notes(), "; ");
  return A;
}

std::vector<Action> ActionSpace::enumerate(const TransformRegistry &Registry,
                                           ParsedSource &Parsed,
                                           llvm::StringRef Kernel) {
  return enumerate(Registry, Parsed.context(), Kernel);
}

std::vector<Action> ActionSpace::enumerate(const TransformRegistry &Registry,
                                           clang::ASTContext &Ctx,
                                           llvm::StringRef Kernel) {
  SiteIndex Index(Ctx);
  std::vector<Action> Out;
  for (const clang::FunctionDecl *K : Index.kernels()) {
    if (!Kernel.empty() && !kernelNamed(*K, Kernel))
      continue;
    std::string Name = K->getQualifiedNameAsString();
    for (const Transform *T : Registry.all())
      for (const Site &S : Index.sites(T->siteKind(), Name))
        if (S.Kernel == K)
          Out.push_back(actionAt(*T, S, Ctx));
  }
  return Out;
}
