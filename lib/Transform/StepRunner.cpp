//===- StepRunner.cpp - apply a step and re-parse the result -------------===//

#include "optiml/Transform/StepRunner.h"
#include "optiml/Rewrite/UnusedAfterEdit.h"
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

/// The step's result without the declarations of the locals it left
/// unused (declarationsMadeUnused()), parsed again: left, they would fail a
/// build with warnings as errors.
llvm::Error StepRunner::removeUnusedLocals(ParsedSource &In,
                                           StepResult &Result) const {
  std::vector<std::pair<unsigned, unsigned>> Unused =
      declarationsMadeUnused(In.context(), Result.Parsed->context());
  if (Unused.empty())
    return llvm::Error::success();
  const KernelSource &Source = Result.Parsed->source();
  llvm::StringRef Text = Source.text();
  std::string Cleaned;
  unsigned At = 0;
  for (auto [From, To] : Unused) {
    Cleaned += Text.slice(At, From);
    At = To;
  }
  Cleaned += Text.substr(At);
  auto Parsed = Parser.parse(KernelSource(Source.path().str(), Cleaned),
                             ErrorKind::Internal);
  if (!Parsed)
    return makeError(ErrorKind::Internal,
                     "the result of " + Result.Applied.str() +
                         " without the locals it left unused does not parse: " +
                         llvm::toString(Parsed.takeError()));
  Result.Parsed = std::move(*Parsed);
  return llvm::Error::success();
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
  if (llvm::Error E = removeUnusedLocals(In, Result))
    return E;
  Result.Notes.assign(Edits->notes().begin(), Edits->notes().end());
  return Result;
}
