//===- Reward.cpp - what a measured candidate is worth to the search ------===//

#include "optiml/Search/Reward.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

bool Reward::regresses(const Measurement &M, const Measurement &Parent) const {
  std::optional<double> Gain = M.gain(), ParentGain = Parent.gain();
  if (!M.ok() || !Parent.ok() || !Gain || !ParentGain || *ParentGain <= 0)
    return false;
  double Tau = std::max({M.gainNoise(), Parent.gainNoise(), P.MinNoise});
  // Both gains are against the original measured in their own runs, so
  // their ratio cancels drift between the runs.
  return *Gain / *ParentGain < 1 - Tau;
}

std::optional<RewardBreakdown> Reward::evaluate(const Measurement &M,
                                                const Measurement *Parent,
                                                const Measurement *Root) const {
  // A run that claims success without a usable timing cannot be ranked.
  std::optional<double> Gain = M.gain();
  if (!M.ok() || !Gain || !std::isfinite(*Gain) || *Gain <= 0)
    return std::nullopt;
  RewardBreakdown B;
  double S = M.effectiveGain();
  B.SpeedupTerm = std::clamp(std::log2(S), P.MinLog2, P.MaxLog2);
  if (Root && Root->RooflineFraction && M.RooflineFraction)
    B.RooflineTerm =
        P.RooflineWeight * (*M.RooflineFraction - *Root->RooflineFraction);
  if (Parent && regresses(M, *Parent))
    B.Penalty = P.RegressionPenalty * std::log2(*Parent->gain() / *Gain);
  return B;
}
