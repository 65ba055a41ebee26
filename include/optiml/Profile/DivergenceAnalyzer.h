//===- DivergenceAnalyzer.h - idle lanes in executed warps ------*- C++ -*-===//
//
// Every warp instruction occupies an issue slot whether 32 lanes do work or
// one. Active lanes per instruction show divergent branches and partial
// warps; lanes not predicated off also show the branches the compiler turned
// into predication, such as a shared-memory tree reduction's
// `if (tid < stride)`.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_DIVERGENCEANALYZER_H
#define OPTIML_PROFILE_DIVERGENCEANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class DivergenceAnalyzer : public Analyzer {
public:
  /// Grid-edge guards and `lane == 0` epilogues idle a few lanes in every
  /// kernel (a naive transpose keeps 30.6 of 32 working on an H200, a block
  /// sum finished with shuffles 26); below three quarters, a quarter of the
  /// issue slots do nothing (a tree reduction measures 20.4).
  static constexpr double LowThreadsPerWarpInst = 24;

  llvm::StringRef name() const override { return "divergence"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_DIVERGENCEANALYZER_H
