//===- FailureTracker.cpp - transforms that keep failing on a kernel ------===//

#include "optiml/Search/FailureTracker.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

unsigned FailureTracker::successes(llvm::StringRef Transform) const {
  auto It = Counts.find(Transform);
  return It == Counts.end() ? 0 : It->second.first;
}

unsigned FailureTracker::failures(llvm::StringRef Transform) const {
  auto It = Counts.find(Transform);
  return It == Counts.end() ? 0 : It->second.second;
}

double FailureTracker::priorScale(llvm::StringRef Transform) const {
  int Net = int(failures(Transform)) - int(successes(Transform));
  if (Net <= 0)
    return 1;
  return std::max(MinScale, std::pow(0.5, Net));
}
