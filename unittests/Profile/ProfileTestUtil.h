//===- ProfileTestUtil.h - reading profile reports in tests -----*- C++ -*-===//

#ifndef OPTIML_UNITTESTS_PROFILE_PROFILETESTUTIL_H
#define OPTIML_UNITTESTS_PROFILE_PROFILETESTUTIL_H

#include "optiml/Profile/MicroProfiler.h"

#include <algorithm>

namespace optiml::test {

/// The standard profiler's report on \p In.
inline ProfileReport profile(const ProfileInput &In) {
  return MicroProfiler::standard().profile(In);
}

/// The finding \p Id of \p R, or null.
inline const Finding *find(const ProfileReport &R, llvm::StringRef Id) {
  for (const Finding &F : R.Findings)
    if (F.Id == Id)
      return &F;
  return nullptr;
}

/// The transform \p Prior weighs most.
inline std::string topOf(const TransformPrior &Prior) {
  return std::max_element(
             Prior.begin(), Prior.end(),
             [](const auto &A, const auto &B) { return A.second < B.second; })
      ->first;
}

} // namespace optiml::test

#endif // OPTIML_UNITTESTS_PROFILE_PROFILETESTUTIL_H
