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

std::optional<MatchedSpeed>
optiml::findMatchedSpeed(const std::vector<MeasuredConfig> &Configs) {
  const MeasuredConfig *Fastest = nullptr;
  for (const MeasuredConfig &C : Configs)
    if (usable(C) && (!Fastest || C.Result->Speedup > Fastest->Result->Speedup))
      Fastest = &C;
  if (!Fastest)
    return std::nullopt;
  const Measurement &F = *Fastest->Result;
  std::optional<MatchedSpeed> Best;
  for (const MeasuredConfig &C : Configs) {
    if (&C == Fastest || !usable(C) || !sameSpeed(*C.Result, F))
      continue;
    double Saving = *C.Result->energySaving() / *F.energySaving();
    double Noise = C.Result->energyNoise() + F.energyNoise();
    if (Saving - 1 <= Noise || (Best && Saving <= Best->Saving))
      continue;
    Best = MatchedSpeed{
        Fastest->Trace, C.Trace,           F.Speedup, C.Result->Speedup,
        *F.Joules,      *C.Result->Joules, Saving,    Noise};
  }
  return Best;
}
