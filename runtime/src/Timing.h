//===- Timing.h - Interleaved A/B timing of two kernels ---------*- C++ -*-===//
//
// Part of OptiML. The reference (A) and the candidate (B) run in one process,
// in pairs, each launch preceded by a reload of its inputs, fresh poison in
// its out buffers and an L2 flush. The order within each pair, the seed whose
// inputs a pair runs on, the poison and the number of warm-up pairs are
// drawn at random, so a kernel cannot tell from its launch count or its
// buffers whether it is timed; and every candidate launch is checked against
// the verified result (TimedChecker.h). Durations come from CUPTI kernel
// records. Repetitions are added in batches until the medians have settled
// (see Stats.h for "spread") or the repetition / time cap is reached.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_TIMING_H
#define OPTIML_RUNTIME_TIMING_H

#include "Buffers.h"
#include "CuptiTimer.h"
#include "Failure.h"
#include "KernelLibrary.h"
#include "L2Flush.h"
#include "Plan.h"
#include "Progress.h"
#include "TimedChecker.h"

#include "optiml/Protocol/TimingReport.h"

#include <cuda_runtime.h>
#include <random>
#include <vector>

namespace optiml {

class TimingRunner {
public:
  /// \p Flusher may be null when the plan disables L2 flushing. Timed
  /// launches that fail their checks go to \p Failures.
  TimingRunner(const Plan &P, const KernelLibrary &Ref,
               const KernelLibrary &Cand, cudaStream_t Stream,
               L2Flusher *Flusher, CuptiTimer &Timer, FailureLog &Failures,
               ProgressFn Progress);

  /// Times \p I and writes the per-instance timing to \p Out. A timed
  /// launch of the candidate that does not reproduce the verified result,
  /// or a kernel nobody launched, ends it with Status::VerifyFailed.
  Error timeInstance(const Instance &I, protocol::InstanceTiming &Out);

private:
  /// \p Pairs pairs in random order, on random seeds, with random poison;
  /// the candidate's launches get check slots.
  std::vector<PlannedLaunch> planBatch(unsigned Pairs);
  Error enqueue(const PlannedLaunch &L, const Instance &I, BufferSet &Bufs,
                TimedChecker &Check);
  /// Runs \p Pairs pairs and appends their durations to \p Times (none for
  /// the warm-up). A batch whose records cannot be matched to launches is
  /// dropped (Accepted = false) with the reason in \p Why.
  Error runBatch(const Instance &I, BufferSet &Bufs, TimedChecker &Check,
                 unsigned Pairs, std::vector<double> *Times, bool &Accepted,
                 std::string &Why);
  Error matchRecords(const Instance &I,
                     const std::vector<KernelRecord> &Records,
                     const std::vector<PlannedLaunch> &Launches,
                     std::vector<double> *Times, bool &Accepted,
                     std::string &Why);

  const Plan &P;
  const KernelLibrary *Libs[2];
  cudaStream_t Stream;
  L2Flusher *Flusher;
  CuptiTimer &Timer;
  FailureLog &Failures;
  ProgressFn Progress;
  std::mt19937_64 Rng;
  size_t LostRecords = 0;
  unsigned long long LaunchCount = 0; ///< Of the instance being timed.
};

/// The speedup verdict: \p Speedup = ref median / cand median is significant
/// when |Speedup - 1| exceeds max(\p Noise, \p NoiseTarget).
bool speedupIsSignificant(double Speedup, double Noise, double NoiseTarget);

} // namespace optiml

#endif // OPTIML_RUNTIME_TIMING_H
