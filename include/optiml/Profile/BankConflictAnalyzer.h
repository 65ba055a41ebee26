//===- BankConflictAnalyzer.h - shared-memory bank conflicts ----*- C++ -*-===//
//
// A warp's shared access whose lanes hit the same bank in different words
// is split into one wavefront per word: a 32 x 32 float tile read down a
// column takes 32. The hardware's conflict count per shared instruction is
// the degree; the wavefronts beyond one per instruction stand in for it when
// the conflict counters are missing. Padding the tile removes it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_BANKCONFLICTANALYZER_H
#define OPTIML_PROFILE_BANKCONFLICTANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class BankConflictAnalyzer : public Analyzer {
public:
  /// One extra wavefront per shared instruction is a 2-way conflict on every
  /// access; a padded 32 x 33 transpose tile measures 0.06 on an H200, an
  /// unpadded one 15.6 (31 on its column reads).
  static constexpr double MinConflictsPerInst = 1.0;

  llvm::StringRef name() const override { return "bank-conflicts"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_BANKCONFLICTANALYZER_H
