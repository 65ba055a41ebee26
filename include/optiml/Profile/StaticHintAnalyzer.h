//===- StaticHintAnalyzer.h - facts from static analysis --------*- C++ -*-===//
//
// Where counters are absent (no GPU, no profiling permission) the static
// analysis still knows a strided access or a reduction loop; each hint
// becomes a finding with the prior its kind implies. Hints are weighed
// down when counters exist, since measured evidence is stronger.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_STATICHINTANALYZER_H
#define OPTIML_PROFILE_STATICHINTANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class StaticHintAnalyzer : public Analyzer {
public:
  llvm::StringRef name() const override { return "static-hints"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_STATICHINTANALYZER_H
