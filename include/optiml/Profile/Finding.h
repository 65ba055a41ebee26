//===- Finding.h - an observation and its advice ----------------*- C++ -*-===//
//
// A finding is the unit a proposer (heuristic or LLM) and a report consume:
// the numbers it rests on, one sentence a CUDA developer would say, and a
// prior over transform names. Names are plain strings so that the profiler
// needs no transform layer; OptiML's analyzers take theirs from
// TransformPriors.def, and the search refuses a name that no registered
// transform has (checkPriorNames) rather than ignore it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_FINDING_H
#define OPTIML_PROFILE_FINDING_H

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace optiml {

/// Weights over transform names; not necessarily normalized.
using TransformPrior = std::map<std::string, double>;

struct Finding {
  std::string Id;     ///< Stable name: "memory-bound", "occupancy-registers".
  unsigned Stage = 1; ///< 1: bottleneck class, 2: a specific cause.
  /// How much this finding should weigh against others, in [0, 1].
  double Severity = 0;
  /// The numbers it rests on, in the order a reader wants them.
  std::vector<std::pair<std::string, double>> Evidence;
  std::string Guidance; ///< One plain sentence.
  TransformPrior Prior;

  /// The value of evidence \p Key, or \p Default.
  double evidence(const std::string &Key, double Default = 0) const;
};

/// \p Prior scaled to sum to one (unchanged when it sums to zero).
TransformPrior normalized(const TransformPrior &Prior);

/// The findings' priors weighted by severity, normalized.
TransformPrior mergePriors(const std::vector<Finding> &Findings);

nlohmann::json toJSON(const Finding &F);

} // namespace optiml

#endif // OPTIML_PROFILE_FINDING_H
