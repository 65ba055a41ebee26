//===- InstructionMixAnalyzer.h - what the SASS spends slots on -*- C++ -*-===//
//
// The compiled code shows causes that neither counters nor source can:
// scalar global loads where 128-bit ones would do, integer arithmetic
// crowding out the FFMAs, shared loads feeding every FFMA, local-memory
// traffic. It runs whenever the build carried a SASS mix; each finding
// also asks for the bottleneck class that makes it matter, and weighs less
// when no counters give a class.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_INSTRUCTIONMIXANALYZER_H
#define OPTIML_PROFILE_INSTRUCTIONMIXANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class InstructionMixAnalyzer : public Analyzer {
public:
  llvm::StringRef name() const override { return "instruction-mix"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_INSTRUCTIONMIXANALYZER_H
