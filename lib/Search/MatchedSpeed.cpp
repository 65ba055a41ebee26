//===- MatchedSpeed.cpp - same speed, less energy -------------------------===//

#include "optiml/Search/MatchedSpeed.h"

#include "optiml/Protocol/RunResult.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

namespace {

/// The 95% interval of \p M's speedup, when the runner reported one.
std::optional<std::pair<double, double>> intervalOf(const Measurement &M) {
  const protocol::InstanceTiming *T =
      M.Runner ? M.Runner->firstTiming() : nullptr;
  if (!T || !T->SpeedupLow || !T->SpeedupHigh)
    return std::nullopt;
  return std::make_pair(*T->SpeedupLow, *T->SpeedupHigh);
}

bool usable(const MeasuredConfig &C) {
  return C.Result && C.Result->ok() && C.Result->energySaving() &&
         C.Result->Speedup > 0;
}

} // namespace

bool optiml::sameSpeed(const Measurement &A, const Measurement &B) {
  auto IA = intervalOf(A), IB = intervalOf(B);
  if (IA && IB && IA->first <= IB->second && IB->first <= IA->second)
    return true;
  // Tight intervals can lie apart by less than what the search calls a
  // speedup at all: a difference it would take for noise over the original
  // is no difference of speed here either.
  double Noise = std::max({A.Threshold, B.Threshold, A.Noise, B.Noise});
  return std::abs(A.Speedup / B.Speedup - 1) <= Noise;
}

/// \p Frugal against \p Reference when they run at one speed and the
/// frugal one saves energy beyond both candidates' noise.
static std::optional<MatchedSpeed> matchOf(const MeasuredConfig &Reference,
                                           const MeasuredConfig &Frugal) {
  const Measurement &R = *Reference.Result, &C = *Frugal.Result;
  if (!sameSpeed(C, R))
    return std::nullopt;
  double Saving = *C.energySaving() / *R.energySaving();
  double Noise = C.energyNoise() + R.energyNoise();
  if (Saving - 1 <= Noise)
    return std::nullopt;
  return MatchedSpeed{Reference.Trace, Frugal.Trace, R.Speedup, C.Speedup,
                      *R.Joules,       *C.Joules,    Saving,    Noise};
}

/// The pair with the fastest slower member, then the larger saving.
static bool before(const MatchedSpeed &A, const MatchedSpeed &B) {
  double SpeedA = std::min(A.FastestSpeedup, A.FrugalSpeedup);
  double SpeedB = std::min(B.FastestSpeedup, B.FrugalSpeedup);
  return SpeedA != SpeedB ? SpeedA > SpeedB : A.Saving > B.Saving;
}

std::optional<MatchedSpeed>
optiml::findMatchedSpeed(const std::vector<MeasuredConfig> &Configs) {
  const MeasuredConfig *Fastest = nullptr;
  for (const MeasuredConfig &C : Configs)
    if (usable(C) && (!Fastest || C.Result->Speedup > Fastest->Result->Speedup))
      Fastest = &C;
  if (!Fastest)
    return std::nullopt;
  std::optional<MatchedSpeed> Best;
  for (const MeasuredConfig &C : Configs) {
    if (&C == Fastest || !usable(C))
      continue;
    auto M = matchOf(*Fastest, C);
    if (M && (!Best || M->Saving > Best->Saving))
      Best = M;
  }
  if (Best)
    return Best;
  // Nothing at the fastest's speed: two other configurations may still run
  // at one speed on different energy, which time alone cannot tell apart.
  for (const MeasuredConfig &A : Configs)
    for (const MeasuredConfig &B : Configs) {
      if (&A == &B || &A == Fastest || &B == Fastest || !usable(A) ||
          !usable(B))
        continue;
      auto M = matchOf(A, B);
      if (!M)
        continue;
      M->AtFastest = false;
      if (!Best || before(*M, *Best))
        Best = M;
    }
  return Best;
}
