//===- Reward.h - what a candidate is worth ---------------------*- C++ -*-===//
//
// docs/Reward.md has the formula and why. In short: log2 of the speedup
// over the original (none inside the noise), plus a small bonus for moving
// closer to the roofline, minus a penalty for being slower than the parent
// beyond the noise. Under --objective energy or edp the speedup is replaced
// by the objective's gain (Measurement::gain()). A candidate that fails is rejected: it has no reward
// and its subtree is pruned.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_REWARD_H
#define OPTIML_SEARCH_REWARD_H

#include "optiml/Search/Measurement.h"

#include <optional>

namespace optiml {

struct RewardParams {
  /// Weight of the roofline-fraction gain over the original.
  double RooflineWeight = 0.25;
  /// Extra slope, per halving, for a candidate slower than its parent.
  double RegressionPenalty = 1.0;
  /// The smallest relative difference ever taken as real.
  double MinNoise = 0.01;
  /// log2 speedups are clamped to this range so one outlier does not
  /// flatten every other value once calibrated.
  double MinLog2 = -4, MaxLog2 = 6;
};

struct RewardBreakdown {
  double SpeedupTerm = 0;  ///< log2 of the effective speedup, clamped.
  double RooflineTerm = 0; ///< Weight x (fraction - original's fraction).
  double Penalty = 0;      ///< For regressing against the parent.
  double total() const { return SpeedupTerm + RooflineTerm - Penalty; }
};

class Reward {
public:
  explicit Reward(RewardParams P = {}) : P(P) {}

  /// The reward of \p M, whose parent state measured \p Parent (null for
  /// the original) and whose original measured \p Root (null when \p M is
  /// the original). Nothing when \p M was rejected: it failed, or its
  /// speedup is not a positive number.
  std::optional<RewardBreakdown> evaluate(const Measurement &M,
                                          const Measurement *Parent,
                                          const Measurement *Root) const;

  /// Whether \p M is slower than \p Parent by more than the noise of both.
  bool regresses(const Measurement &M, const Measurement &Parent) const;

  const RewardParams &params() const { return P; }

private:
  RewardParams P;
};

} // namespace optiml

#endif // OPTIML_SEARCH_REWARD_H
