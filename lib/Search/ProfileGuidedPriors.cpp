//===- ProfileGuidedPriors.cpp - findings to priors over legal steps ------===//

#include "optiml/Search/ProfileGuidedPriors.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/TransformRegistry.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/ADT/StringMap.h"

using namespace optiml;

ProfileInput optiml::profileInput(const Measurement &M) {
  ProfileInput In;
  In.Usage = M.Usage;
  In.Sass = M.Sass;
  if (!M.Runner)
    return In;
  // The original measured against itself may report only one side.
  for (protocol::Side Side :
       {protocol::Side::Candidate, protocol::Side::Reference}) {
    auto C = KernelCounters::fromRunnerResult(*M.Runner, Side);
    if (C) {
      In.Counters = std::move(*C);
      break;
    }
    llvm::consumeError(C.takeError());
  }
  if (auto P = DevicePeaks::fromRunnerResult(*M.Runner))
    In.Peaks = *P;
  else
    llvm::consumeError(P.takeError());
  return In;
}

llvm::Error optiml::checkPriorNames(const std::vector<Finding> &Findings,
                                    const TransformRegistry &Registry) {
  for (const Finding &F : Findings)
    for (const auto &[Name, Weight] : F.Prior)
      if (!Registry.find(Name))
        return makeError(ErrorKind::Internal,
                         "finding '" + F.Id + "' suggests transform '" + Name +
                             "', which is not registered (known: " +
                             llvm::join(Registry.names(), ", ") + ")");
  return llvm::Error::success();
}

/// The finding contributing most to \p Transform's merged prior.
static const Finding *motivation(llvm::StringRef Transform,
                                 const std::vector<Finding> &Findings) {
  const Finding *Best = nullptr;
  double BestWeight = 0;
  for (const Finding &F : Findings) {
    TransformPrior P = normalized(F.Prior);
    auto It = P.find(Transform.str());
    if (It == P.end())
      continue;
    double Weight = F.Severity * It->second;
    if (Weight > BestWeight)
      Best = &F, BestWeight = Weight;
  }
  return Best;
}

std::vector<ScoredAction>
optiml::assignPriors(llvm::ArrayRef<Step> Legal,
                     const std::vector<Finding> &Findings, double Floor) {
  TransformPrior Merged = mergePriors(Findings);
  llvm::StringMap<unsigned> Sites;
  for (const Step &S : Legal)
    ++Sites[S.Transform];
  std::vector<ScoredAction> Out;
  for (const Step &S : Legal) {
    auto It = Merged.find(S.Transform);
    double Share = It == Merged.end() ? 0 : It->second;
    ScoredAction A;
    A.Action = S;
    A.Prior = (Share + Floor) / Sites[S.Transform];
    if (const Finding *F = motivation(S.Transform, Findings))
      A.Motivation = F->Id + ": " + F->Guidance;
    Out.push_back(std::move(A));
  }
  normalizePriors(Out);
  return Out;
}
