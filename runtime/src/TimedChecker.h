//===- TimedChecker.h - What is timed is what was verified ------*- C++ -*-===//
//
// Part of OptiML. Verification proves that some launches of the candidate
// computed the right outputs; timing measures other launches. A candidate
// that counts its launches (a __device__ counter), keeps results from an
// earlier launch, or writes only while it is being watched would be fast
// and wrong exactly where it is measured. So every timed launch runs on the
// inputs of one of the verified seeds (chosen at random per pair), starts
// from freshly poisoned out buffers, and every candidate launch is checked
// right after it finished, on the device and outside the timed window,
// against the reference's result for those inputs: the outputs within the
// tolerance (and the norm), the 'in' buffers unchanged, the red zones
// intact. Any difference ends the run as verify_failed with "timed_*"
// failures.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_TIMEDCHECKER_H
#define OPTIML_RUNTIME_TIMEDCHECKER_H

#include "Buffers.h"
#include "Failure.h"
#include "KernelLibrary.h"
#include "OutputCheck.h"
#include "Plan.h"

#include <cuda_runtime.h>
#include <vector>

namespace optiml {

/// One launch of a timed batch, as it was planned.
struct PlannedLaunch {
  Side S = Side::Reference;
  unsigned SeedIndex = 0;       ///< Into the plan's seeds.
  unsigned char Poison = 0xFF;  ///< The out buffers' bytes before it.
  int Slot = -1;                ///< Its check's counters; -1: not checked.
  unsigned long long Number = 0; ///< Launches of this instance before it.
};

class TimedChecker {
public:
  TimedChecker(const Plan &P, const Instance &I, cudaStream_t Stream);
  TimedChecker(const TimedChecker &) = delete;
  TimedChecker &operator=(const TimedChecker &) = delete;
  ~TimedChecker();

  /// Runs the reference once on the inputs of every seed and keeps, on the
  /// device, those inputs and its outputs: the verified result. Leaves
  /// \p Work with fresh red zones.
  Error init(BufferSet &Work, const KernelLibrary &Ref);

  /// Readies \p Work for one launch on the inputs of seed \p SeedIndex:
  /// in buffers reloaded when the seed changes, inout buffers always, out
  /// buffers filled with \p Poison.
  Error prepare(BufferSet &Work, unsigned SeedIndex, unsigned char Poison);

  /// Zeroes the counters of \p Slots checks.
  Error beginBatch(unsigned Slots);

  /// Enqueues the checks of the launch just enqueued (on seed \p SeedIndex,
  /// out buffers poisoned with \p Poison) into slot \p Slot.
  Error enqueueCheck(BufferSet &Work, unsigned Slot, unsigned SeedIndex,
                     unsigned char Poison);

  /// After the device finished the batch: adds a failure to \p Failures for
  /// every problem the checks of \p Launches found; \p Found counts them.
  Error collect(const std::vector<PlannedLaunch> &Launches,
                FailureLog &Failures, size_t &Found);

private:
  /// The counters of buffer argument \p K's content (or red zones) check in
  /// slot \p Slot.
  size_t counterIndex(unsigned Slot, size_t K, bool Zones) const;
  void report(const PlannedLaunch &L, const Arg &A,
              const CheckCounters &Content, const CheckCounters &Zones,
              FailureLog &Failures, size_t &Found) const;

  const Plan &P;
  const Instance &I;
  cudaStream_t Stream;
  /// By seed, then argument: in/inout inputs, out/inout verified outputs.
  std::vector<std::vector<DeviceBuffer>> Inputs, Expected;
  DeviceBuffer Canary;
  CheckCounters *Counters = nullptr;
  size_t CounterCapacity = 0;
  int LoadedSeed = -1;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_TIMEDCHECKER_H
