//===- Timing.cpp - Interleaved A/B timing of two kernels -----------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Timing.h"
#include "Stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <sstream>

namespace optiml {

namespace {

/// Batches whose records do not line up with the launches (dropped records,
/// unexpected kernels) are retried this many times before timing gives up.
constexpr unsigned MaxDiscardedBatches = 3;

double secondsSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
      .count();
}

std::string formatNs(double Ns) {
  std::ostringstream OS;
  OS.precision(4);
  OS << Ns / 1000.0 << "us";
  return OS.str();
}

std::vector<double> pairRatios(const std::vector<double> Times[2]) {
  std::vector<double> R;
  size_t N = std::min(Times[0].size(), Times[1].size());
  for (size_t I = 0; I < N; ++I)
    if (Times[1][I] > 0)
      R.push_back(Times[0][I] / Times[1][I]);
  return R;
}

/// Why timing stops after this batch, or "" to take another batch.
std::string stopReason(const TimingOptions &T, const SampleStats Stats[2],
                       double Noise, double Seconds) {
  double Worst = std::max({Stats[0].Spread, Stats[1].Spread, Noise});
  if (Stats[0].Reps >= T.MinReps && Worst <= T.NoiseTarget)
    return "converged";
  if (Stats[0].Reps >= T.MaxReps)
    return "max_reps";
  if (Seconds >= T.MaxSeconds)
    return "max_seconds";
  return "";
}

} // namespace

bool speedupIsSignificant(double Speedup, double Noise, double NoiseTarget) {
  return std::fabs(Speedup - 1.0) > std::max(Noise, NoiseTarget);
}

TimingRunner::TimingRunner(const Plan &P, const KernelLibrary &Ref,
                           const KernelLibrary &Cand, cudaStream_t Stream,
                           L2Flusher *Flusher, CuptiTimer &Timer,
                           ProgressFn Progress)
    : P(P), Libs{&Ref, &Cand}, Stream(Stream), Flusher(Flusher), Timer(Timer),
      Progress(std::move(Progress)) {}

Error TimingRunner::enqueue(Side S, const Instance &I, BufferSet &Bufs) {
  if (Error E = Bufs.restoreInOut(Stream))
    return E;
  if (Flusher)
    if (Error E = Flusher->flush(Stream))
      return E;
  return Libs[static_cast<int>(S)]->launch(I, Bufs.launchArgs(), Stream);
}

Error TimingRunner::enqueuePairs(const Instance &I, BufferSet &Bufs,
                                 unsigned Pairs) {
  for (unsigned K = 0; K < Pairs; ++K)
    for (Side S : protocol::BothSides)
      if (Error E = enqueue(S, I, Bufs))
        return E;
  return Error::success();
}

Error TimingRunner::matchRecords(const std::vector<KernelRecord> &Records,
                                 unsigned Pairs, std::vector<double> Times[2],
                                 bool &Accepted, std::string &Why) {
  // Launch order is A B A B...; records are sorted by correlation id, which
  // follows the order of launch calls. Flush kernels are skipped by name.
  std::vector<const KernelRecord *> Kernels;
  std::set<std::string> Unknown;
  for (const KernelRecord &R : Records) {
    if (R.Name == L2Flusher::kernelName())
      continue;
    if (kernelNameMatches(R.Name, Libs[0]->kernelName()) ||
        kernelNameMatches(R.Name, Libs[1]->kernelName()))
      Kernels.push_back(&R);
    else
      Unknown.insert(R.Name);
  }
  Accepted = false;
  if (Kernels.size() != 2 * static_cast<size_t>(Pairs)) {
    Why = "expected " + std::to_string(2 * Pairs) + " kernel records, got " +
          std::to_string(Kernels.size());
    for (const std::string &Name : Unknown)
      Why += "; unexpected kernel '" + Name + "'";
    return Error::success();
  }
  for (size_t K = 0; K < Kernels.size(); ++K) {
    const KernelLibrary &Lib = *Libs[K % 2];
    if (!kernelNameMatches(Kernels[K]->Name, Lib.kernelName()))
      return Error(Status::Error,
                   "CUPTI record '" + Kernels[K]->Name + "' at the " +
                       sideName(static_cast<Side>(K % 2)) +
                       "'s position does not match optiml_kernel_name() = '" +
                       Lib.kernelName() + "'");
  }
  for (size_t K = 0; K < Kernels.size(); ++K)
    Times[K % 2].push_back(static_cast<double>(Kernels[K]->durationNs()));
  Accepted = true;
  return Error::success();
}

Error TimingRunner::runBatch(const Instance &I, BufferSet &Bufs, unsigned Pairs,
                             std::vector<double> Times[2], bool &Accepted,
                             std::string &Why) {
  if (Error E = enqueuePairs(I, Bufs, Pairs))
    return E;
  std::vector<KernelRecord> Records;
  size_t Lost = 0;
  if (Error E = Timer.collect(Records, Lost))
    return E;
  LostRecords += Lost;
  return matchRecords(Records, Pairs, Times, Accepted, Why);
}

Error TimingRunner::timeInstance(const Instance &I,
                                 protocol::InstanceTiming &Out) {
  const TimingOptions &T = P.Timing;
  auto T0 = std::chrono::steady_clock::now();
  Out.Instance = I.Name;
  LostRecords = 0;

  // The inputs of the first seed; inout buffers are restored before every
  // launch so each repetition does the same work.
  BufferSet Bufs;
  if (Error E = Bufs.loadInputs(I, P.Seeds.front(), Stream))
    return E;
  if (Error E = Bufs.snapshotInOut(Stream))
    return E;

  Progress("time " + I.Name + " warm-up");
  if (Error E = enqueuePairs(I, Bufs, T.Warmup))
    return E;
  std::vector<KernelRecord> Discard;
  size_t Lost = 0;
  if (Error E = Timer.collect(Discard, Lost))
    return E;

  std::vector<double> Times[2];
  unsigned Discarded = 0;
  std::string StopReason;
  SampleStats Stats[2];
  double Noise = 1;
  while (true) {
    size_t Done = Times[0].size();
    auto Pairs =
        static_cast<unsigned>(std::min<size_t>(T.MinReps, T.MaxReps - Done));
    bool Accepted = false;
    std::string Why;
    if (Error E = runBatch(I, Bufs, Pairs, Times, Accepted, Why))
      return E;
    if (!Accepted) {
      Progress("time " + I.Name + ": batch discarded: " + Why);
      if (++Discarded > MaxDiscardedBatches)
        return Error(Status::Error, "timing " + I.Name +
                                        ": CUPTI records do not match the "
                                        "launches: " +
                                        Why);
      continue;
    }
    Stats[0] = summarize(Times[0]);
    Stats[1] = summarize(Times[1]);
    std::vector<double> Ratios = pairRatios(Times);
    std::sort(Ratios.begin(), Ratios.end());
    Noise = medianSpread(Ratios);
    Progress("time " + I.Name + ": " + std::to_string(Stats[0].Reps) +
             " pairs, reference " + formatNs(Stats[0].MedianNs) +
             ", candidate " + formatNs(Stats[1].MedianNs) + ", noise " +
             std::to_string(Noise));
    StopReason = stopReason(T, Stats, Noise, secondsSince(T0));
    if (!StopReason.empty())
      break;
  }

  double Speedup =
      Stats[1].MedianNs > 0 ? Stats[0].MedianNs / Stats[1].MedianNs : 0.0;
  Out.Reference = Stats[0];
  Out.Candidate = Stats[1];
  Out.Speedup = Speedup;
  Out.Noise = Noise;
  Out.Threshold = std::max(Noise, T.NoiseTarget);
  Out.Significant = speedupIsSignificant(Speedup, Noise, T.NoiseTarget);
  Out.StopReason = StopReason;
  Out.ElapsedS = secondsSince(T0);
  Out.FlushL2 = Flusher != nullptr;
  Out.L2FlushBytes = Flusher ? Flusher->scratchBytes() : 0;
  Out.DiscardedBatches = Discarded;
  Out.LostRecords = LostRecords;
  return Error::success();
}

} // namespace optiml
