//===- DivergenceAnalyzer.cpp - idle lanes in executed warps --------------===//
//
// Every warp instruction occupies an issue slot whether 32 lanes do work or
// one. Active lanes per instruction show divergent branches and partial
// warps; lanes not predicated off also show the branches the compiler turned
// into predication, such as a shared-memory tree reduction's
// `if (tid < stride)`.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

/// Grid-edge guards and `lane == 0` epilogues idle a few lanes in every
/// kernel (a naive transpose keeps 30.6 of 32 working on an H200, a block
/// sum finished with shuffles 26); below three quarters, a quarter of the
/// issue slots do nothing (a tree reduction measures 20.4).
static constexpr double LowThreadsPerWarpInst = 24;

static constexpr double WarpSize = 32;

/// Lanes doing work per warp instruction: not predicated off where known,
/// else active.
static std::optional<double> workingLanes(const KernelCounters &C) {
  if (auto On = C.predicatedOnThreadsPerWarpInst())
    return On;
  return C.threadsPerWarpInst();
}

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  return In.Counters && workingLanes(*In.Counters).has_value();
}

/// Lanes per instruction that blocks of \p Threads allow at most: a block
/// of 48 threads is a full warp and a half-empty one, 24 on average.
static double lanesTheBlockAllows(unsigned Threads) {
  unsigned Warps = (Threads + 31) / 32;
  return Warps ? double(Threads) / Warps : WarpSize;
}

/// Why lanes idle, the sentence and the prior that fit it.
static void explain(Finding &F, const ProfileInput &In, double Active,
                    double Working) {
  unsigned Threads = In.Geometry ? In.Geometry->ThreadsPerBlock : 0;
  if (Threads && lanesTheBlockAllows(Threads) < WarpSize) {
    F.Id = "partial-warps";
    F.Evidence.push_back({"threads_per_block", double(Threads)});
    F.Guidance = llvm::formatv(
        "Blocks of {0} threads leave their last warp partly empty ({1:F1} "
        "lanes per instruction at most): use a multiple of 32.",
        Threads, lanesTheBlockAllows(Threads));
    F.Prior = priorFor(PriorCause::PartialWarps);
  } else if (Active < LowThreadsPerWarpInst) {
    F.Id = "divergent-branches";
    F.Guidance = llvm::formatv(
        "Only {0:F1} of 32 lanes are active per warp instruction: lanes of a "
        "warp take different branches, so make the condition uniform per "
        "warp or finish per-warp work with shuffles.",
        Active);
    F.Prior = priorFor(PriorCause::DivergentBranches);
  } else {
    F.Id = "predicated-lanes";
    F.Guidance = llvm::formatv(
        "Only {0:F1} of 32 lanes do work per warp instruction although "
        "{1:F1} are active: guarded steps such as a tree reduction's "
        "`if (tid < stride)` idle most lanes, so finish the reduction with "
        "warp shuffles.",
        Working, Active);
    F.Prior = priorFor(PriorCause::PredicatedLanes);
  }
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  const KernelCounters &C = *In.Counters;
  std::optional<double> Working = workingLanes(C);
  if (!Working || *Working >= LowThreadsPerWarpInst)
    return {};
  double Active = C.threadsPerWarpInst().value_or(*Working);
  Finding F;
  F.Stage = 2;
  F.Severity = 1 - *Working / WarpSize;
  if (auto A = C.threadsPerWarpInst())
    F.Evidence.push_back({"active_threads_per_warp_inst", *A});
  if (auto On = C.predicatedOnThreadsPerWarpInst())
    F.Evidence.push_back({"predicated_on_threads_per_warp_inst", *On});
  F.Evidence.push_back({"lane_efficiency", *Working / WarpSize});
  // The profiler reports 0 for a kernel without branches: not evidence.
  if (auto U = C.get(metric::BranchUniformity); U && *U > 0)
    F.Evidence.push_back({"uniform_branch_pct", *U});
  explain(F, In, Active, *Working);
  return {F};
}

Analyzer optiml::divergenceAnalyzer() {
  return Analyzer("divergence", appliesTo, analyze);
}
