//===- MatchedSpeed.h - same speed, less energy -----------------*- C++ -*-===//
//
// Under --objective energy or edp every candidate's time and energy are
// measured, each against the original in its own run. Many configurations
// of a kernel at its roofline run equally fast; what a user wants to know
// is whether one of them draws less energy than the fastest. This finds
// the candidate with the largest energy saving among those whose speed is
// within the noise of the fastest one's, when its saving over the fastest
// is beyond both candidates' energy noise. Where there is none, it finds
// the fastest pair of other configurations that run at one speed on
// different energy (the fastest is then also the most frugal at its
// speed, and the pair shows what time alone would not tell apart).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_MATCHEDSPEED_H
#define OPTIML_SEARCH_MATCHEDSPEED_H

#include "optiml/Search/Measurement.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// One measured configuration: its trace ("" for the original) and
/// measurement.
struct MeasuredConfig {
  std::string Trace;
  const Measurement *Result = nullptr;
};

struct MatchedSpeed {
  /// Traces; "" is the original. "Fastest" is the configuration the frugal
  /// one is compared with: the fastest of all unless !AtFastest.
  std::string Fastest, Frugal;
  double FastestSpeedup = 1, FrugalSpeedup = 1;
  /// Joules per launch of each, as measured in its own run.
  double FastestJoules = 0, FrugalJoules = 0;
  /// How much less energy per launch the frugal one needs: the ratio of
  /// their savings over the original (each measured against it in the
  /// same run), so the runs' drift cancels.
  double Saving = 1;
  /// The noise that saving had to clear: both candidates' energy noise.
  double Noise = 0;
  /// Whether Fastest is the fastest configuration measured.
  bool AtFastest = true;
};

/// Two speeds are matched when their 95% intervals overlap, or when they
/// differ by no more than the larger of the two noise thresholds (the
/// least change the search counts as a speedup).
bool sameSpeed(const Measurement &A, const Measurement &B);

/// The frugal configuration at the fastest one's speed among \p Configs,
/// else the fastest matched pair of others, or nothing when none saves
/// energy beyond the noise (or energy was not measured).
std::optional<MatchedSpeed>
findMatchedSpeed(const std::vector<MeasuredConfig> &Configs);

} // namespace optiml

#endif // OPTIML_SEARCH_MATCHEDSPEED_H
