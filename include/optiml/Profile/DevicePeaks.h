//===- DevicePeaks.h - the roofline's ceilings ------------------*- C++ -*-===//
//
// Peaks as the runner derived them from device attributes
// (`device.peaks`), so a fraction of the roofline is against the GPU that
// ran the kernel, not a datasheet.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_DEVICEPEAKS_H
#define OPTIML_PROFILE_DEVICEPEAKS_H

#include "optiml/Protocol/RunResult.h"

#include "llvm/Support/Error.h"

namespace optiml {

struct DevicePeaks {
  double DramBytesPerS = 0;
  double Fp32FlopsPerS = 0;
  unsigned SMs = 0;

  bool valid() const { return DramBytesPerS > 0 && Fp32FlopsPerS > 0; }
  /// FLOP per byte where the roofline bends: below it a kernel is bounded
  /// by bandwidth, above it by arithmetic.
  double ridgePoint() const { return Fp32FlopsPerS / DramBytesPerS; }

  /// From a runner result's `device`; an error when it lacks the peaks.
  static llvm::Expected<DevicePeaks>
  fromRunnerResult(const protocol::RunResult &Result);
};

} // namespace optiml

#endif // OPTIML_PROFILE_DEVICEPEAKS_H
