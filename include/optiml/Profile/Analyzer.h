//===- Analyzer.h - a stage-two micro-profiling analyzer --------*- C++ -*-===//
//
// Stage two looks for a specific cause. Each analyzer says whether the
// stage-one class and the available evidence call for it, so only those
// that fit run and a report does not drown the cause in noise.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_ANALYZER_H
#define OPTIML_PROFILE_ANALYZER_H

#include "optiml/Profile/Bottleneck.h"
#include "optiml/Profile/ProfileInput.h"

namespace optiml {

class Analyzer {
public:
  virtual ~Analyzer();

  virtual llvm::StringRef name() const = 0;
  /// Whether to run on this kernel: its class fits and the evidence exists.
  virtual bool appliesTo(const Bottleneck &B, const ProfileInput &In) const = 0;
  virtual std::vector<Finding> analyze(const Bottleneck &B,
                                       const ProfileInput &In) const = 0;
};

} // namespace optiml

#endif // OPTIML_PROFILE_ANALYZER_H
