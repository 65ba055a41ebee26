//===- Analyzer.h - a stage-two micro-profiling analyzer --------*- C++ -*-===//
//
// Stage two looks for a specific cause. Each analyzer says whether the
// stage-one class and the available evidence call for it, so only those
// that fit run and a report does not drown the cause in noise. An analyzer
// is its name and these two functions (Analyzers.h lists OptiML's).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_ANALYZER_H
#define OPTIML_PROFILE_ANALYZER_H

#include "optiml/Profile/Bottleneck.h"
#include "optiml/Profile/ProfileInput.h"

namespace optiml {

class Analyzer {
public:
  /// Whether to run on this kernel: its class fits and the evidence exists.
  using AppliesFn = bool (*)(const Bottleneck &B, const ProfileInput &In);
  using AnalyzeFn = std::vector<Finding> (*)(const Bottleneck &B,
                                             const ProfileInput &In);

  Analyzer(llvm::StringRef Name, AppliesFn Applies, AnalyzeFn Analyze)
      : Name(Name), Applies(Applies), Analyze(Analyze) {}

  llvm::StringRef name() const { return Name; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const {
    return Applies(B, In);
  }
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const {
    return Analyze(B, In);
  }

private:
  llvm::StringRef Name;
  AppliesFn Applies;
  AnalyzeFn Analyze;
};

} // namespace optiml

#endif // OPTIML_PROFILE_ANALYZER_H
