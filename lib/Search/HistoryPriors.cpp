//===- HistoryPriors.cpp - what each transform did on this GPU -----------===//

#include "optiml/Search/HistoryPriors.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

/// A failed step counts as this effect: the speed halved.
static const double FailedLogGain = std::log(0.5);

llvm::Expected<HistoryPriors>
HistoryPriors::learn(Database &Db, llvm::StringRef Device, int64_t Exclude) {
  auto Kernels = Db.kernels();
  if (!Kernels)
    return Kernels.takeError();
  HistoryPriors H;
  for (const KernelRecord &K : *Kernels) {
    if (K.Id == Exclude || K.Device != Device)
      continue;
    auto Candidates = Db.candidates(K.Id);
    if (!Candidates)
      return Candidates.takeError();
    H.addKernel(*Candidates);
  }
  return H;
}

void HistoryPriors::addKernel(llvm::ArrayRef<CandidateRecord> Candidates) {
  llvm::StringMap<double> SpeedupOf;
  for (const CandidateRecord &C : Candidates)
    if (C.Status == "ok" && C.Speedup > 0)
      SpeedupOf[C.SourceHash] = C.Speedup;
  for (const CandidateRecord &C : Candidates) {
    if (C.LastTransform.empty())
      continue;
    auto Parent = SpeedupOf.find(C.ParentHash);
    if (Parent == SpeedupOf.end())
      continue; // Its parent failed or is not recorded: no baseline.
    double Gain = C.Status == "ok" && C.Speedup > 0
                      ? std::log(C.Speedup / Parent->second)
                      : FailedLogGain;
    Evidence &E = ByTransform[C.LastTransform];
    ++E.Steps;
    E.SumLogGain += Gain;
  }
}

const HistoryPriors::Evidence *
HistoryPriors::evidence(llvm::StringRef Transform) const {
  auto It = ByTransform.find(Transform);
  return It == ByTransform.end() ? nullptr : &It->second;
}

double HistoryPriors::factor(llvm::StringRef Transform) const {
  const Evidence *E = evidence(Transform);
  if (!E || E->Steps == 0)
    return 1;
  double Mean = E->SumLogGain / E->Steps;
  double Shrunk = Mean * E->Steps / (E->Steps + ShrinkSteps);
  return std::clamp(std::exp(Shrunk), MinFactor, MaxFactor);
}

void HistoryPriors::apply(std::vector<ScoredAction> &Moves) const {
  if (ByTransform.empty())
    return;
  for (ScoredAction &M : Moves) {
    const Evidence *E = evidence(M.Action.Transform);
    if (!E)
      continue;
    M.Prior *= factor(M.Action.Transform);
    std::string Note;
    llvm::raw_string_ostream OS(Note);
    OS << "history on this GPU: "
       << llvm::format("%.2fx", std::exp(E->SumLogGain / E->Steps))
       << " a step over " << E->Steps << " step" << (E->Steps == 1 ? "" : "s");
    M.Motivation = M.Motivation.empty() ? Note : M.Motivation + "; " + Note;
  }
}
