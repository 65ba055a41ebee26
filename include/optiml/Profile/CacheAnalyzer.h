//===- CacheAnalyzer.h - L1 and L2 hit rates --------------------*- C++ -*-===//
//
// For a memory-bound kernel the hit rates tell re-reads served by the
// caches (stage the reused tile in shared memory) from streaming traffic
// (move fewer bytes) and poor locality in L2 (tile for reuse).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_CACHEANALYZER_H
#define OPTIML_PROFILE_CACHEANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class CacheAnalyzer : public Analyzer {
public:
  llvm::StringRef name() const override { return "caches"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_CACHEANALYZER_H
