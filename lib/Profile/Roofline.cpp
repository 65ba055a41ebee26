//===- Roofline.cpp - where a kernel sits under the roofline --------------===//

#include "optiml/Profile/Roofline.h"

using namespace optiml;

std::optional<Roofline> optiml::computeRoofline(const KernelCounters &C,
                                                const DevicePeaks &P) {
  auto Ns = C.durationNs();
  auto Bytes = C.dramBytes();
  if (!Ns || *Ns <= 0 || !Bytes || !P.valid())
    return std::nullopt;
  double Seconds = *Ns * 1e-9;
  double Flops = C.fp32Flops().value_or(0);
  Roofline R;
  R.RidgePoint = P.ridgePoint();
  R.ArithmeticIntensity = *Bytes > 0 ? Flops / *Bytes : 0;
  R.AchievedBytesPerS = *Bytes / Seconds;
  R.AchievedFlopsPerS = Flops / Seconds;
  R.DramFraction = R.AchievedBytesPerS / P.DramBytesPerS;
  R.ComputeFraction = R.AchievedFlopsPerS / P.Fp32FlopsPerS;
  // No DRAM traffic at all (everything hit in L2) puts the kernel on the
  // compute side.
  R.MemorySide = *Bytes > 0 && R.ArithmeticIntensity < R.RidgePoint;
  R.Fraction = R.MemorySide ? R.DramFraction : R.ComputeFraction;
  return R;
}
