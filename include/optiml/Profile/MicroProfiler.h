//===- MicroProfiler.h - two-stage micro-profiling --------------*- C++ -*-===//
//
// The two stages of KernelPro's micro-profiling: classify the bottleneck,
// then run only the stage-two analyzers that the class and the evidence
// call for. The analyzers are added explicitly; standard() lists the ones
// OptiML ships, in one place.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_MICROPROFILER_H
#define OPTIML_PROFILE_MICROPROFILER_H

#include "optiml/Profile/Analyzer.h"
#include "optiml/Profile/BottleneckClassifier.h"

#include <memory>

namespace optiml {

struct ProfileReport {
  Bottleneck Stage1;
  std::vector<std::string> AnalyzersRun; ///< Stage two, in order.
  std::vector<Finding> Findings;         ///< Stage one's first.
  TransformPrior Prior;                  ///< Merged, normalized.
};

class MicroProfiler {
public:
  explicit MicroProfiler(ClassifierThresholds T = {}) : Classifier(T) {}

  /// With OptiML's stage-two analyzers: occupancy, spills, caches, the
  /// SASS instruction mix, static hints.
  static MicroProfiler standard();

  void add(Analyzer A) { Analyzers.push_back(A); }
  ProfileReport profile(const ProfileInput &In) const;

private:
  BottleneckClassifier Classifier;
  std::vector<Analyzer> Analyzers;
};

nlohmann::json toJSON(const ProfileReport &R);

} // namespace optiml

#endif // OPTIML_PROFILE_MICROPROFILER_H
