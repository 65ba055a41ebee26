//===- FailureTracker.h - transforms that keep failing ----------*- C++ -*-===//
//
// A transform whose results keep failing to apply, build or verify on one
// kernel is unlikely to start working on the next site: its prior is
// halved per net failure, so the search tries it less without ever ruling
// it out. Seeded from the database on --resume.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_FAILURETRACKER_H
#define OPTIML_SEARCH_FAILURETRACKER_H

#include "llvm/ADT/StringMap.h"

namespace optiml {

class FailureTracker {
public:
  void recordSuccess(llvm::StringRef Transform) { ++Counts[Transform].first; }
  void recordFailure(llvm::StringRef Transform) { ++Counts[Transform].second; }

  unsigned successes(llvm::StringRef Transform) const;
  unsigned failures(llvm::StringRef Transform) const;

  /// 0.5 ^ max(0, failures - successes), never below MinScale.
  double priorScale(llvm::StringRef Transform) const;

  static constexpr double MinScale = 1.0 / 64;

private:
  llvm::StringMap<std::pair<unsigned, unsigned>> Counts;
};

} // namespace optiml

#endif // OPTIML_SEARCH_FAILURETRACKER_H
