//===- OutputCheck.h - Device-side checks of timed launches -----*- C++ -*-===//
//
// Part of OptiML. Every timed launch of the candidate is checked against the
// verified result, on the device, right after the kernel: a copy to the host
// of every output after every launch would cost more than the timing
// itself. Each check is one small kernel of the runner's own, launched after
// the timed kernel has finished, so it never enters a CUPTI-timed window;
// the kernels have unmangled, fixed names so the timer drops their records
// like the L2 flush's.
//
// A check reduces one buffer to a CheckCounters: how many elements are bad,
// the first bad one and its bytes, and, for floats, the sums of a
// relative-norm test. The element rules are those of Compare.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_OUTPUTCHECK_H
#define OPTIML_RUNTIME_OUTPUTCHECK_H

#include "Plan.h"
#include "Status.h"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <string>

namespace optiml {

/// What one check found; zero-filled before the check (FirstInv == 0 means
/// nothing bad was found).
struct CheckCounters {
  unsigned long long Bad;       ///< Elements (bytes for red zones) wrong.
  unsigned long long NonFinite; ///< Floats: NaN/Inf where Want is finite.
  unsigned long long Unwritten; ///< Bad elements still holding the poison.
  unsigned long long FirstInv;  ///< ~index of the first bad element.
  unsigned long long BlocksDone;
  double SumSqDiff, SumSqWant; ///< Floats: over finite pairs.
  unsigned long long GotBits, WantBits; ///< The first bad element's bytes.
  /// Floats: the largest |got - want| and |got - want| / |want| (want != 0)
  /// over finite pairs, as the bits of non-negative doubles (whose order
  /// is their bits' order, so an integer atomicMax keeps the largest).
  unsigned long long MaxAbsBits, MaxRelBits;

  bool anyBad() const { return FirstInv != 0; }
  unsigned long long firstBad() const { return ~FirstInv; }
  /// Floats: the relative L2 error (absolute when want is all zeros).
  double normErr() const;
  double maxAbsErr() const;
  double maxRelErr() const;
};

/// Output \p Got against the verified \p Want, \p N elements of \p T: floats
/// within the tolerance (NaN only where Want is NaN, infinities exactly),
/// integers bit for bit. Bad elements that hold \p Poison in every byte
/// are counted as unwritten too.
/// The most fields a buffer's element may have for the device check.
constexpr unsigned MaxLaneFields = 64;

/// The lane types of a buffer, passed by value to the lane check kernel.
struct LaneTypes {
  unsigned Fields; ///< Lane L has type Codes[L % Fields].
  unsigned Size;   ///< Bytes of every lane.
  unsigned char Codes[MaxLaneFields];
};

/// Checks the A.Count lanes of output buffer \p A in \p Got against \p Want,
/// each lane by its type's rule (floats within the tolerance, others bit
/// for bit); lanes holding \p Poison (>= 0) count as unwritten.
Error enqueueOutputCheck(const Arg &A, const void *Got, const void *Want,
                         const Tolerance &Tol, int Poison, CheckCounters *C,
                         cudaStream_t S);

/// \p N elements of \p ElemSize bytes, bit for bit (an 'in' buffer against
/// its pristine copy; \p Poison -1: none).
Error enqueueBitsCheck(const void *Got, const void *Want, size_t N,
                       unsigned ElemSize, int Poison, CheckCounters *C,
                       cudaStream_t S);

/// The two red zones of a buffer (\p ZoneBytes each, at \p Left and
/// \p Right) against \p Canary. A bad byte's index is its offset in the
/// left zone, or ZoneBytes + its offset in the right one.
Error enqueueZoneCheck(const void *Left, const void *Right, const void *Canary,
                       size_t ZoneBytes, CheckCounters *C, cudaStream_t S);

/// Fills \p Bytes at \p Data with \p Byte (the poison of an out buffer) with
/// the runner's own kernel, whose records the timer knows.
Error enqueuePoison(void *Data, size_t Bytes, unsigned char Byte,
                    cudaStream_t S);

/// True for the names of the kernels above, as CUPTI records them.
bool isCheckKernel(const std::string &Name);

} // namespace optiml

#endif // OPTIML_RUNTIME_OUTPUTCHECK_H
