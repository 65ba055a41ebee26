//===- Roofline.h - where a kernel sits under the roofline ------*- C++ -*-===//
//
// Arithmetic intensity against the ridge point says which ceiling applies;
// the fraction of that ceiling reached is the reward's bottleneck proxy,
// because it says how much is left to gain whatever the kernel does.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_ROOFLINE_H
#define OPTIML_PROFILE_ROOFLINE_H

#include "optiml/Profile/DevicePeaks.h"
#include "optiml/Profile/KernelCounters.h"

#include <optional>

namespace optiml {

struct Roofline {
  double ArithmeticIntensity = 0; ///< FP32 FLOP per DRAM byte.
  double RidgePoint = 0;          ///< FLOP per byte.
  double AchievedBytesPerS = 0;
  double AchievedFlopsPerS = 0;
  double DramFraction = 0;    ///< Achieved over peak bandwidth.
  double ComputeFraction = 0; ///< Achieved over peak FP32 rate.
  bool MemorySide = true;     ///< Intensity below the ridge point.
  /// Performance over the roofline at this intensity: the DRAM fraction on
  /// the memory side, the compute fraction on the other. Well defined for
  /// kernels without FP32 work (a transpose), which sit on the memory side.
  double Fraction = 0;
};

/// Nothing when the duration, the DRAM bytes or the peaks are missing;
/// FLOPs count as zero when the instruction counts are missing.
std::optional<Roofline> computeRoofline(const KernelCounters &C,
                                        const DevicePeaks &P);

} // namespace optiml

#endif // OPTIML_PROFILE_ROOFLINE_H
