//===- Reward.cpp - what a measured candidate is worth to the search ------===//

#include "optiml/Search/Reward.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

bool Reward::regresses(const Measurement &M, const Measurement &Parent) const {
  if (!M.ok() || !Parent.ok() || Parent.Speedup <= 0)
    return false;
  double Tau = std::max({M.Threshold, Parent.Threshold, P.MinNoise});
  // Both speedups are against the original measured in their own runs, so
  // their ratio cancels drift between the runs.
  return M.Speedup / Parent.Speedup < 1 - Tau;
}

std::optional<RewardBreakdown> Reward::evaluate(const Measurement &M,
                                                const Measurement *Parent,
                                                const Measurement *Root) const {
  // A run that claims success without a usable timing cannot be ranked.
  if (!M.ok() || !std::isfinite(M.Speedup) || M.Speedup <= 0)
    return std::nullopt;
  RewardBreakdown B;
  double S = M.effectiveSpeedup();
  B.SpeedupTerm = std::clamp(std::log2(S), P.MinLog2, P.MaxLog2);
  if (Root && Root->RooflineFraction && M.RooflineFraction)
    B.RooflineTerm =
        P.RooflineWeight * (*M.RooflineFraction - *Root->RooflineFraction);
  if (Parent && regresses(M, *Parent))
    B.Penalty = P.RegressionPenalty * std::log2(Parent->Speedup / M.Speedup);
  return B;
}
