//===- Occupancy.h - resident blocks per SM ---------------------*- C++ -*-===//
//
// The CUDA occupancy calculator's arithmetic: how many blocks of a kernel
// fit on one SM by warps, registers, shared memory and the block limit.
// The limiter names the resource a transform must relieve to raise it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_OCCUPANCY_H
#define OPTIML_PROFILE_OCCUPANCY_H

#include "optiml/Profile/DeviceLimits.h"

#include <string>

namespace optiml {

struct Occupancy {
  unsigned WarpsPerBlock = 0;
  unsigned ByWarps = 0;     ///< Blocks allowed by the thread limit.
  unsigned ByRegisters = 0; ///< Blocks allowed by the register file.
  unsigned ByShared = 0;    ///< Blocks allowed by shared memory.
  unsigned ByBlocks = 0;    ///< The per-SM block limit.
  unsigned BlocksPerSM = 0; ///< The minimum of the four.
  /// "warps", "registers", "shared" or "blocks": the first that binds, in
  /// that order (ties name the first).
  std::string Limiter;
  double Theoretical = 0; ///< Resident warps over the SM's maximum, [0, 1].
};

/// Occupancy of blocks of \p Threads threads using \p Registers registers
/// per thread (0: unknown, no limit) and \p SharedBytes shared memory per
/// block (static plus dynamic).
Occupancy computeOccupancy(const DeviceLimits &L, unsigned Threads,
                           unsigned Registers, unsigned SharedBytes);

} // namespace optiml

#endif // OPTIML_PROFILE_OCCUPANCY_H
