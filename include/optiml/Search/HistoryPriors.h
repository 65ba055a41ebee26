//===- HistoryPriors.h - what each transform did on this GPU ----*- C++ -*-===//
//
// The database holds every candidate of every earlier search, with the
// source it was made from (ParentHash) and the transform of its last step.
// Across the other kernels measured on the same GPU, each step's effect is
// log(speedup of the child / speedup of its parent); a failed child counts
// as halving the speed (it cost a build and a run and gave nothing). The
// mean effect per transform, shrunk towards none while the evidence is
// thin, scales that transform's prior: the search tries first what has paid
// off on this GPU, and still tries the rest.
//
// The kernel being searched is left out, so that --resume replays a search
// with the priors it had.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_HISTORYPRIORS_H
#define OPTIML_SEARCH_HISTORYPRIORS_H

#include "optiml/DB/Database.h"
#include "optiml/Search/Expander.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace optiml {

class HistoryPriors {
public:
  /// What one transform did: steps seen and the sum of their effects.
  struct Evidence {
    unsigned Steps = 0;
    double SumLogGain = 0;
  };

  HistoryPriors() = default;

  /// From every candidate of the kernels \p Db measured on \p Device,
  /// except kernel \p Exclude.
  static llvm::Expected<HistoryPriors>
  learn(Database &Db, llvm::StringRef Device, int64_t Exclude);

  /// From one kernel's candidates (the original has no parent).
  void addKernel(llvm::ArrayRef<CandidateRecord> Candidates);

  /// The prior's scale for \p Transform: exp of the mean effect, shrunk by
  /// Steps / (Steps + ShrinkSteps), within [MinFactor, MaxFactor]; 1 without
  /// evidence.
  double factor(llvm::StringRef Transform) const;

  /// Scales each move's prior by its transform's factor and notes the
  /// evidence in its motivation ("history on this GPU: 1.42x over 9 steps").
  void apply(std::vector<ScoredAction> &Moves) const;

  const Evidence *evidence(llvm::StringRef Transform) const;
  bool empty() const { return ByTransform.empty(); }

  static constexpr double ShrinkSteps = 4;
  static constexpr double MinFactor = 0.5, MaxFactor = 2;

private:
  llvm::StringMap<Evidence> ByTransform;
};

} // namespace optiml

#endif // OPTIML_SEARCH_HISTORYPRIORS_H
