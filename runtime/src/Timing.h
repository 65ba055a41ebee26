//===- Timing.h - Interleaved A/B timing of two kernels ---------*- C++ -*-===//
//
// Part of OptiML. The reference (A) and the candidate (B) run in one process,
// interleaved A B A B, each launch preceded by a restore of inout buffers and
// an L2 flush. Durations come from CUPTI kernel records. Repetitions are added
// in batches until the medians have settled (see Stats.h for "spread") or
// the repetition / time cap is reached.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_TIMING_H
#define OPTIML_RUNTIME_TIMING_H

#include "Buffers.h"
#include "CuptiTimer.h"
#include "KernelLibrary.h"
#include "L2Flush.h"
#include "Plan.h"
#include "Progress.h"

#include "optiml/Protocol/TimingReport.h"

#include <cuda_runtime.h>
#include <vector>

namespace optiml {

class TimingRunner {
public:
  /// \p Flusher may be null when the plan disables L2 flushing.
  TimingRunner(const Plan &P, const KernelLibrary &Ref,
               const KernelLibrary &Cand, cudaStream_t Stream,
               L2Flusher *Flusher, CuptiTimer &Timer, ProgressFn Progress);

  /// Times \p I and writes the per-instance timing to \p Out.
  Error timeInstance(const Instance &I, protocol::InstanceTiming &Out);

private:
  Error enqueue(Side S, const Instance &I, BufferSet &Bufs);
  /// Enqueues \p Pairs A/B pairs: reference, then candidate.
  Error enqueuePairs(const Instance &I, BufferSet &Bufs, unsigned Pairs);
  /// Runs \p Pairs A/B pairs and appends their durations to \p Times. A batch
  /// whose records cannot be matched to launches is dropped (Accepted =
  /// false) with the reason in \p Why.
  Error runBatch(const Instance &I, BufferSet &Bufs, unsigned Pairs,
                 std::vector<double> Times[2], bool &Accepted,
                 std::string &Why);
  Error matchRecords(const std::vector<KernelRecord> &Records, unsigned Pairs,
                     std::vector<double> Times[2], bool &Accepted,
                     std::string &Why);

  const Plan &P;
  const KernelLibrary *Libs[2];
  cudaStream_t Stream;
  L2Flusher *Flusher;
  CuptiTimer &Timer;
  ProgressFn Progress;
  size_t LostRecords = 0;
};

/// The speedup verdict: \p Speedup = ref median / cand median is significant
/// when |Speedup - 1| exceeds max(\p Noise, \p NoiseTarget).
bool speedupIsSignificant(double Speedup, double Noise, double NoiseTarget);

} // namespace optiml

#endif // OPTIML_RUNTIME_TIMING_H
