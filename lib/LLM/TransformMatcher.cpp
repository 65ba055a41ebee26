//===- TransformMatcher.cpp - is this edit a known transform? ------------===//

#include "optiml/LLM/TransformMatcher.h"
#include "optiml/Rewrite/RawTokens.h"
#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/SiteIndex.h"
#include "optiml/Transform/StepRunner.h"

using namespace optiml;

/// \p Default and the steps that differ from it in one parameter.
static std::vector<Step> variants(const Step &Default, const Transform &T) {
  std::vector<Step> Out = {Default};
  for (const ParamSpec &P : T.params())
    for (const std::string &V : P.Domain) {
      if (!Default.Params.has(P.Name) || Default.Params.get(P.Name) == V)
        continue;
      Step S = Default;
      S.Params = ParamValues();
      for (const auto &[Name, Value] : Default.Params.items())
        S.Params.set(Name, Name == P.Name ? V : Value);
      Out.push_back(std::move(S));
    }
  return Out;
}

/// The text \p S makes of \p State, without parsing it; nothing when the
/// step does not apply.
static std::optional<std::string> resultText(ParsedSource &State,
                                             const SiteIndex &Index,
                                             const Transform &T,
                                             const Step &S) {
  clang::ASTContext &Ctx = State.context();
  auto Where = Index.find(T.siteKind(), S.Site);
  if (!Where) {
    llvm::consumeError(Where.takeError());
    return std::nullopt;
  }
  ParamValues All = StepRunner::completeParams(T, *Where, S.Params, Ctx);
  auto Planned = T.plan(*Where, All, Ctx);
  if (!Planned) {
    llvm::consumeError(Planned.takeError());
    return std::nullopt;
  }
  auto Edits = Planned->edits();
  if (!Edits) {
    llvm::consumeError(Edits.takeError());
    return std::nullopt;
  }
  auto Result = Edits->applyTo(State.source());
  if (!Result) {
    llvm::consumeError(Result.takeError());
    return std::nullopt;
  }
  return Result->text().str();
}

std::optional<std::string>
TransformMatcher::match(ParsedSource &State, llvm::StringRef Kernel,
                        llvm::StringRef Edited) const {
  std::string Want = RawTokens(Edited).normalized();
  SiteIndex Index(State.context());
  for (const Action &A : ActionSpace::enumerate(Registry, State, Kernel)) {
    const Transform *T = Registry.find(A.Transform);
    if (!A.Legal || !T)
      continue;
    for (const Step &S : variants(A.Default, *T))
      if (auto Text = resultText(State, Index, *T, S);
          Text && RawTokens(*Text).normalized() == Want)
        return S.str();
  }
  return std::nullopt;
}
