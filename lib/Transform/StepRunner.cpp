//===- StepRunner.cpp - apply a step and re-parse the result -------------===//

#include "optiml/Transform/StepRunner.h"
#include "optiml/Transform/SiteIndex.h"

using namespace optiml;

ParamValues StepRunner::completeParams(const Transform &T, const Site &Site,
                                       const ParamValues &Given,
                                       clang::ASTContext &Ctx) {
  ParamValues Defaults = T.defaults(Site, Ctx);
  ParamValues All;
  for (const ParamSpec &P : T.params()) {
    if (Given.has(P.Name))
      All.set(P.Name, Given.get(P.Name));
    else if (Defaults.has(P.Name)) // Else the transform reads its absence.
      All.set(P.Name, Defaults.get(P.Name));
  }
  return All;
}

llvm::Expected<StepResult> StepRunner::run(ParsedSource &In,
                                           const Step &S) const {
  const Transform *T = Registry.find(S.Transform);
  if (!T)
    return makeError(ErrorKind::BadInput,
                     "unknown transform '" + S.Transform + "'");
  clang::ASTContext &Ctx = In.context();
  SiteIndex Index(Ctx);
  auto Where = Index.find(T->siteKind(), S.Site);
  if (!Where)
    return makeError(ErrorKind::BadInput,
                     S.str() + ": " + llvm::toString(Where.takeError()));

  StepResult Result;
  Result.Applied = S;
  Result.Applied.Site = Where->Name;
  Result.Applied.Params = completeParams(*T, *Where, S.Params, Ctx);
  auto Planned = T->plan(*Where, Result.Applied.Params, Ctx);
  if (!Planned)
    return Planned.takeError();
  auto Edits = Planned->edits();
  if (!Edits)
    return Edits.takeError();
  auto Rewritten = Edits->applyTo(In.source());
  if (!Rewritten)
    return Rewritten.takeError();
  auto Parsed = Parser.parse(*Rewritten, ErrorKind::Internal);
  if (!Parsed)
    return makeError(ErrorKind::Internal,
                     "the result of " + Result.Applied.str() +
                         " does not parse (a bug in '" + T->name() +
                         "'): " + llvm::toString(Parsed.takeError()));
  Result.Parsed = std::move(*Parsed);
  Result.Notes.assign(Edits->notes().begin(), Edits->notes().end());
  return Result;
}
