//===- OccupancyAnalyzer.h - what caps resident warps -----------*- C++ -*-===//
//
// Registers, shared memory or the block size cap the warps an SM can hold;
// a latency-bound kernel needs more of them to hide latency. Also reports
// achieved occupancy far below the theoretical one (too few or unbalanced
// blocks), which no resource change fixes.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_OCCUPANCYANALYZER_H
#define OPTIML_PROFILE_OCCUPANCYANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class OccupancyAnalyzer : public Analyzer {
public:
  /// Below this theoretical occupancy the limiter is reported whatever the
  /// class, since hiding latency needs warps.
  static constexpr double LowOccupancy = 0.5;
  llvm::StringRef name() const override { return "occupancy"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_OCCUPANCYANALYZER_H
