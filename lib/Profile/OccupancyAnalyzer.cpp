//===- OccupancyAnalyzer.cpp - what caps resident warps -------------------===//
//
// Registers, shared memory or the block size cap the warps an SM can hold;
// a latency-bound kernel needs more of them to hide latency. Also reports
// achieved occupancy far below the theoretical one (too few or unbalanced
// blocks), which no resource change fixes.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

/// Below this theoretical occupancy the limiter is reported whatever the
/// class, since hiding latency needs warps.
static constexpr double LowOccupancy = 0.5;

static std::optional<double> achieved(const ProfileInput &In) {
  if (!In.Counters)
    return std::nullopt;
  if (auto Pct = In.Counters->get(metric::WarpsActive))
    return *Pct / 100;
  return std::nullopt;
}

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  if (!B.Occ)
    return false;
  auto A = achieved(In);
  return B.Kind == BottleneckKind::LatencyBound ||
         B.Occ->Theoretical < LowOccupancy ||
         (A && *A < 0.5 * B.Occ->Theoretical);
}

/// The guidance and prior for relieving \p O's limiter.
static Finding limiterFinding(const Occupancy &O, const ProfileInput &In) {
  Finding F;
  F.Id = "occupancy-" + O.Limiter;
  F.Stage = 2;
  F.Severity = 1 - O.Theoretical;
  unsigned Threads = In.Geometry->ThreadsPerBlock;
  F.Evidence = {
      {"theoretical_occupancy", O.Theoretical},
      {"blocks_per_sm", double(O.BlocksPerSM)},
      {"threads_per_block", double(Threads)},
      {"registers_per_thread", double(In.Usage->Registers)},
      {"shared_bytes_per_block",
       double(In.Usage->SharedBytes + In.Geometry->DynamicSharedBytes)}};
  std::string Occ = llvm::formatv("{0:F0}%", 100 * O.Theoretical);
  if (O.Limiter == "registers") {
    F.Guidance = llvm::formatv(
        "At {0} registers per thread only {1} blocks fit per SM ({2} "
        "occupancy): cap registers with __launch_bounds__ or keep less live "
        "state per thread.",
        In.Usage->Registers, O.BlocksPerSM, Occ);
    F.Prior = priorFor(PriorCause::OccupancyRegisters);
  } else if (O.Limiter == "shared") {
    F.Guidance = llvm::formatv(
        "Shared memory per block lets only {0} blocks fit per SM ({1} "
        "occupancy): use smaller tiles.",
        O.BlocksPerSM, Occ);
    F.Prior = priorFor(PriorCause::OccupancyShared);
  } else if (O.Limiter == "blocks") {
    F.Guidance = llvm::formatv(
        "Blocks of {0} threads are so small that the per-SM block limit caps "
        "occupancy at {1}: use larger blocks.",
        Threads, Occ);
    F.Prior = priorFor(PriorCause::OccupancyBlocks);
  } else {
    F.Guidance = llvm::formatv(
        "Blocks of {0} threads do not divide the SM's warp slots ({1} "
        "occupancy): pick a block size that does.",
        Threads, Occ);
    F.Prior = priorFor(PriorCause::OccupancyWarps);
  }
  return F;
}

static Finding achievedFinding(const Occupancy &O, double Achieved) {
  Finding F;
  F.Id = "occupancy-achieved-low";
  F.Stage = 2;
  F.Severity = 1 - Achieved / O.Theoretical;
  F.Evidence = {{"achieved_occupancy", Achieved},
                {"theoretical_occupancy", O.Theoretical}};
  F.Guidance = llvm::formatv(
      "Achieved occupancy is {0:F1}% against {1:F0}% possible: too few blocks "
      "per SM or uneven work, so launch more, smaller units of work.",
      100 * Achieved, 100 * O.Theoretical);
  F.Prior = priorFor(PriorCause::OccupancyAchievedLow);
  return F;
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  std::vector<Finding> Out;
  const Occupancy &O = *B.Occ;
  if (O.Theoretical < 1.0 &&
      (O.Limiter != "warps" || O.Theoretical < LowOccupancy))
    Out.push_back(limiterFinding(O, In));
  auto A = achieved(In);
  if (A && O.Theoretical > 0 && *A < 0.5 * O.Theoretical)
    Out.push_back(achievedFinding(O, *A));
  return Out;
}

Analyzer optiml::occupancyAnalyzer() {
  return Analyzer("occupancy", appliesTo, analyze);
}
