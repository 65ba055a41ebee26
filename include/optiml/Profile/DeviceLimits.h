//===- DeviceLimits.h - per-SM resources that bound occupancy ---*- C++ -*-===//
//
// The numbers of the CUDA occupancy calculator, per architecture. The
// runner reports measured peaks but not these, and they are fixed by the
// compute capability, so a small table is the honest source.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_DEVICELIMITS_H
#define OPTIML_PROFILE_DEVICELIMITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace optiml {

struct DeviceLimits {
  unsigned WarpSize = 32;
  unsigned MaxThreadsPerSM = 2048;
  unsigned MaxBlocksPerSM = 32;
  unsigned RegistersPerSM = 65536;
  unsigned RegisterAllocUnit = 256; ///< Registers, allocated per warp.
  unsigned SharedBytesPerSM = 228 * 1024;
  unsigned SharedAllocUnit = 128;
  /// Shared memory the runtime reserves for every block (sm_80 and later).
  unsigned ReservedSharedPerBlock = 1024;

  unsigned maxWarpsPerSM() const { return MaxThreadsPerSM / WarpSize; }

  /// sm_90 (H100, H200): the default.
  static DeviceLimits sm90();
  /// "sm_90", "sm_90a", "90", "9.0", ...; nothing for an unknown one.
  static std::optional<DeviceLimits> forArch(llvm::StringRef Arch);
};

} // namespace optiml

#endif // OPTIML_PROFILE_DEVICELIMITS_H
