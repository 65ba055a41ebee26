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

/// Why timing stops after this batch, or "" to take another batch. Only the
/// paired ratio matters: the search compares speedups, and the ratio of
/// interleaved pairs is steadier than either side's own times.
std::string stopReason(const TimingOptions &T, unsigned Pairs, double Noise,
                       Interval Ratio, double Seconds) {
  if (Pairs >= T.MinReps && Noise <= T.NoiseTarget)
    return "converged";
  if (Pairs >= T.MinReps && T.ScreenBelow > 0 && Ratio.High < T.ScreenBelow)
    return "screened";
  if (Pairs >= T.MaxReps)
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
                           FailureLog &Failures, ProgressFn Progress)
    : P(P), Libs{&Ref, &Cand}, Stream(Stream), Flusher(Flusher), Timer(Timer),
      Failures(Failures), Progress(std::move(Progress)),
      // Unpredictable by design: the candidate must not be able to know the
      // order, seeds or poison of the launches it is timed in.
      Rng(std::random_device{}()) {}

std::vector<PlannedLaunch> TimingRunner::planBatch(unsigned Pairs) {
  // The verification's own poisons: a kernel that looked at its out buffers
  // to tell checked launches from timed ones finds the same bytes in both.
  static const unsigned char Poisons[2] = {0xFF, 0x5A};
  std::uniform_int_distribution<unsigned> Seed(
      0, static_cast<unsigned>(P.Seeds.size() - 1));
  std::bernoulli_distribution Coin(0.5);
  std::vector<PlannedLaunch> Out;
  int Slots = 0;
  for (unsigned K = 0; K < Pairs; ++K) {
    unsigned SeedIndex = Seed(Rng);
    bool CandidateFirst = Coin(Rng);
    for (int J = 0; J < 2; ++J) {
      PlannedLaunch L;
      L.S = (J == 0) == CandidateFirst ? Side::Candidate : Side::Reference;
      L.SeedIndex = SeedIndex;
      L.Poison = Poisons[Coin(Rng) ? 1 : 0];
      L.Slot = L.S == Side::Candidate ? Slots++ : -1;
      L.Number = LaunchCount++;
      Out.push_back(L);
    }
  }
  return Out;
}

Error TimingRunner::enqueue(const PlannedLaunch &L, const Instance &I,
                            BufferSet &Bufs, TimedChecker &Check) {
  // Everything but the launch itself is outside the kernel's CUPTI record:
  // reloading inputs, poisoning, flushing before it, checking after it.
  if (Error E = Check.prepare(Bufs, L.SeedIndex, L.Poison))
    return E;
  if (Flusher)
    if (Error E = Flusher->flush(Stream))
      return E;
  if (Error E = Libs[static_cast<int>(L.S)]->launch(I, Bufs, Stream))
    return E;
  if (L.Slot < 0)
    return Error::success();
  return Check.enqueueCheck(Bufs, static_cast<unsigned>(L.Slot), L.SeedIndex,
                            L.Poison);
}

Error TimingRunner::matchRecords(const Instance &I,
                                 const std::vector<KernelRecord> &Records,
                                 const std::vector<PlannedLaunch> &Launches,
                                 std::vector<double> *Times, bool &Accepted,
                                 std::string &Why) {
  // Records are sorted by correlation id, which follows the order of launch
  // calls. The runner's own kernels (flush, checks) are skipped by name; a
  // kernel that is none of these and neither side's was started by the
  // candidate itself (a device-side launch), outside the timed window.
  std::vector<const KernelRecord *> Kernels;
  std::set<std::string> Unknown;
  for (const KernelRecord &R : Records) {
    if (R.Name == L2Flusher::kernelName() || isCheckKernel(R.Name))
      continue;
    bool Companion = std::any_of(
        P.Companions.begin(), P.Companions.end(),
        [&](const std::string &C) { return kernelNameMatches(R.Name, C); });
    if (Companion || kernelNameMatches(R.Name, Libs[0]->kernelName()) ||
        kernelNameMatches(R.Name, Libs[1]->kernelName()))
      Kernels.push_back(&R);
    else
      Unknown.insert(R.Name);
  }
  Accepted = false;
  if (!Unknown.empty()) {
    for (const std::string &Name : Unknown) {
      Failure F;
      F.Instance = I.Name;
      F.Seed = P.Seeds.front();
      F.Where = Side::Candidate;
      F.Kind = "timed_unexpected_kernel";
      F.Message = "kernel '" + Name +
                  "' ran while the candidate was timed, but the runner did "
                  "not launch it (a launch from device code does work "
                  "outside the timed window)";
      Failures.add(std::move(F));
    }
    return Error(Status::VerifyFailed,
                 "a kernel the runner did not launch ran during timing: '" +
                     *Unknown.begin() + "'");
  }
  if (!Times)
    return Error::success();
  // A run of a sequence is several records, named as its steps are; its
  // time is the sum of its kernels' durations (the gaps between launches
  // are the host's, the same for both sides).
  size_t Expected = 0;
  for (const PlannedLaunch &L : Launches)
    Expected += std::max<size_t>(1, I.sequenceOf(L.S).size());
  if (Kernels.size() != Expected) {
    Why = "expected " + std::to_string(Expected) + " kernel records, got " +
          std::to_string(Kernels.size());
    return Error::success();
  }
  std::vector<double> Runs;
  size_t Next = 0;
  for (const PlannedLaunch &L : Launches) {
    const std::vector<protocol::Step> &Seq = I.sequenceOf(L.S);
    double Sum = 0;
    for (size_t Step = 0; Step < std::max<size_t>(1, Seq.size()); ++Step) {
      const KernelRecord &R = *Kernels[Next++];
      size_t Kernel = Seq.empty() ? 0 : Seq[Step].Kernel;
      const std::string &Want = Kernel == 0
                                    ? Libs[static_cast<int>(L.S)]->kernelName()
                                    : P.Companions[Kernel - 1];
      if (!kernelNameMatches(R.Name, Want))
        return Error(Status::Error,
                     "CUPTI record '" + R.Name + "' at the " + sideName(L.S) +
                         "'s position does not match its kernel '" + Want +
                         "'");
      Sum += static_cast<double>(R.durationNs());
    }
    Runs.push_back(Sum);
  }
  // Each pair adds one time per side, so Times[0][i] and Times[1][i] stay
  // the two halves of pair i whatever its order.
  for (size_t K = 0; K < Launches.size(); ++K)
    Times[static_cast<int>(Launches[K].S)].push_back(Runs[K]);
  Accepted = true;
  return Error::success();
}

Error TimingRunner::runBatch(const Instance &I, BufferSet &Bufs,
                             TimedChecker &Check, unsigned Pairs,
                             std::vector<double> *Times, bool &Accepted,
                             std::string &Why) {
  std::vector<PlannedLaunch> Launches = planBatch(Pairs);
  if (Error E = Check.beginBatch(Pairs))
    return E;
  for (const PlannedLaunch &L : Launches)
    if (Error E = enqueue(L, I, Bufs, Check))
      return E;
  std::vector<KernelRecord> Records;
  size_t Lost = 0;
  if (Error E = Timer.collect(Records, Lost))
    return E;
  LostRecords += Lost;
  size_t Found = 0;
  if (Error E = Check.collect(Launches, Failures, Found))
    return E;
  if (Found > 0)
    return Error(Status::VerifyFailed,
                 std::to_string(Found) +
                     " timed launch check(s) failed: the candidate's timed "
                     "launches did not reproduce the verified result");
  return matchRecords(I, Records, Launches, Times, Accepted, Why);
}

Error TimingRunner::timeInstance(const Instance &I,
                                 protocol::InstanceTiming &Out) {
  const TimingOptions &T = P.Timing;
  auto T0 = std::chrono::steady_clock::now();
  Out.Instance = I.Name;
  LostRecords = 0;

  // Every launch reloads the inputs of its seed (inout buffers always), so
  // each repetition does the same work; the reference's results on them are
  // what the candidate's timed launches are checked against.
  BufferSet Bufs;
  if (Error E = Bufs.allocate(I))
    return E;
  TimedChecker Check(P, I, Stream);
  Progress("time " + I.Name + ": the reference's results on every seed");
  if (Error E = Check.init(Bufs, *Libs[0]))
    return E;
  std::vector<KernelRecord> Discard;
  size_t Lost = 0;
  if (Error E = Timer.collect(Discard, Lost))
    return E;

  // A random number of warm-up pairs, so that no launch count marks the
  // start of timing.
  LaunchCount = 0;
  std::uniform_int_distribution<unsigned> Extra(0, std::max(T.Warmup, 2u));
  unsigned Warmup = T.Warmup + Extra(Rng);
  Progress("time " + I.Name + " warm-up (" + std::to_string(Warmup) +
           " pairs)");
  if (Warmup > 0) {
    bool Ignored = false;
    std::string Why;
    if (Error E = runBatch(I, Bufs, Check, Warmup, nullptr, Ignored, Why))
      return E;
  }

  std::vector<double> Times[2];
  unsigned Discarded = 0;
  std::string StopReason;
  SampleStats Stats[2];
  double Noise = 1;
  Interval Ratio;
  while (true) {
    size_t Done = Times[0].size();
    auto Pairs =
        static_cast<unsigned>(std::min<size_t>(T.MinReps, T.MaxReps - Done));
    bool Accepted = false;
    std::string Why;
    if (Error E = runBatch(I, Bufs, Check, Pairs, Times, Accepted, Why))
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
    if (!Ratios.empty())
      Ratio = medianInterval(Ratios);
    Progress("time " + I.Name + ": " + std::to_string(Stats[0].Reps) +
             " pairs, reference " + formatNs(Stats[0].MedianNs) +
             ", candidate " + formatNs(Stats[1].MedianNs) + ", noise " +
             std::to_string(Noise));
    StopReason = stopReason(T, static_cast<unsigned>(Stats[0].Reps), Noise,
                            Ratio, secondsSince(T0));
    if (!StopReason.empty())
      break;
  }

  double Speedup =
      Stats[1].MedianNs > 0 ? Stats[0].MedianNs / Stats[1].MedianNs : 0.0;
  Out.Reference = Stats[0];
  Out.Candidate = Stats[1];
  Out.Speedup = Speedup;
  Out.Noise = Noise;
  Out.SpeedupLow = Ratio.Low;
  Out.SpeedupHigh = Ratio.High;
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
