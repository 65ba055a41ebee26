//===- TrajectoryReport.h - how the best kernel was found -------*- C++ -*-===//
//
// The path from the original to the best verified state: each step with
// its diff, the finding that suggested it and its measured effect, plus
// the best speedup after every evaluation. Markdown for a reader, JSON for
// scripts and the notes.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_TRAJECTORYREPORT_H
#define OPTIML_SEARCH_TRAJECTORYREPORT_H

#include "optiml/Search/SearchGraph.h"

#include <nlohmann/json_fwd.hpp>

namespace optiml {

struct TrajectoryStep {
  std::string Step;       ///< Its spelling, as --apply takes it.
  std::string Motivation; ///< The proposer's reason.
  std::string Hash;
  double SpeedupBefore = 1; ///< Effective, over the original.
  double SpeedupAfter = 1;
  double TimeNs = 0;
  std::optional<double> RooflineBefore, RooflineAfter;
  std::optional<double> Reward;
  std::string Diff; ///< Unified; empty when a source is unavailable.
};

struct Trajectory {
  std::string Kernel;
  std::string Strategy;
  std::vector<TrajectoryStep> Steps;
  std::vector<HistoryPoint> Series;
  unsigned Evaluated = 0, Failed = 0, Cached = 0;
  double BestSpeedup = 1;
  std::string BestTrace;
  /// False when nothing beat the original: the original is the output.
  bool Improved = false;
};

/// The trajectory to \p G's best state; sources come from \p E.
Trajectory buildTrajectory(const SearchGraph &G, Expander &E,
                           llvm::StringRef Kernel, llvm::StringRef Strategy);

std::string toMarkdown(const Trajectory &T);
nlohmann::json toJSON(const Trajectory &T);

} // namespace optiml

#endif // OPTIML_SEARCH_TRAJECTORYREPORT_H
