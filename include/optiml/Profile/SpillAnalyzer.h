//===- SpillAnalyzer.h - local-memory spills --------------------*- C++ -*-===//
//
// Spills turn register traffic into local-memory traffic through L1: the
// resource report shows them at no GPU cost, so this runs whenever a build
// reported usage.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_SPILLANALYZER_H
#define OPTIML_PROFILE_SPILLANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class SpillAnalyzer : public Analyzer {
public:
  llvm::StringRef name() const override { return "spills"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_SPILLANALYZER_H
