//===- InstructionMixAnalyzer.cpp - what the SASS spends slots on ---------===//
//
// The compiled code shows causes that neither counters nor source can:
// scalar global loads where 128-bit ones would do, integer arithmetic
// crowding out the FFMAs, shared loads feeding every FFMA, local-memory
// traffic. It runs whenever the build carried a SASS mix; each finding
// also asks for the bottleneck class that makes it matter, and weighs less
// when no counters give a class.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <optional>

using namespace optiml;

/// Below half of the global loads at 128 bits, most requests are narrow: a
/// streaming kernel then issues two to four load instructions (and keeps
/// that many more requests in flight) for the bytes one LDG.E.128 moves.
static constexpr double WideLoadShareLow = 0.5;
/// Under a quarter of the instructions being FFMA, the issue slots go to
/// something else; a register-blocked SGEMM's inner loop is mostly FFMA.
static constexpr double FfmaShareLow = 0.25;
/// More than one integer instruction per FFMA: address and index
/// arithmetic, not math, fills the pipes.
static constexpr double IntegerPerFfmaHigh = 1.0;
/// With fewer FFMAs there is no math loop to speak of; the integer work is
/// the one-off index setup every kernel has (saxpy has one FFMA).
static constexpr unsigned MinFfma = 8;
/// One shared load for every two FFMAs or more: operands come from shared
/// memory, not registers. A thread computing a 4x4 tile from LDS.128
/// fragments needs 2 loads per 16 FFMAs (0.125).
static constexpr double SharedLoadsPerFfmaHigh = 0.5;
static constexpr double WideSharedShareLow = 0.5;
/// Without counters there is no class to confirm a class-specific cause:
/// the static evidence alone weighs this much.
static constexpr double UnknownClassWeight = 0.6;

/// How much a finding that matters for \p Wanted counts in class \p B.
static double classWeight(const Bottleneck &B, BottleneckKind Wanted) {
  if (B.Kind == Wanted)
    return 1;
  return B.Kind == BottleneckKind::Unknown ? UnknownClassWeight : 0;
}

static Finding finding(std::string Id, double Severity) {
  Finding F;
  F.Id = std::move(Id);
  F.Stage = 2;
  F.Severity = std::clamp(Severity, 0.0, 1.0);
  return F;
}

static std::optional<Finding> scalarGlobalLoads(const Bottleneck &B,
                                                const SassMix &M) {
  double Weight = classWeight(B, BottleneckKind::MemoryBound);
  const WidthCounts &L = M.GlobalLoads;
  double Wide = L.wideShare();
  if (Weight == 0 || L.total() == 0 || Wide >= WideLoadShareLow)
    return std::nullopt;
  Finding F =
      finding("sass-scalar-global-loads", Weight * (0.3 + 0.4 * (1 - Wide)));
  F.Evidence = {{"global_loads", double(L.total())},
                {"global_loads_32", double(L.Bits32)},
                {"global_loads_64", double(L.Bits64)},
                {"global_loads_128", double(L.Bits128)},
                {"wide_load_share", Wide}};
  F.Guidance = llvm::formatv(
      "{0} of {1} global loads in the SASS are narrower than 128 bits (LDG.E, "
      "LDG.E.64): float4 loads (LDG.E.128) move the same bytes with a quarter "
      "of the instructions.",
      L.total() - L.Bits128, L.total());
  F.Prior = priorFor(PriorCause::ScalarGlobalLoads);
  return F;
}

static std::optional<Finding> lowFfmaShare(const Bottleneck &B,
                                           const SassMix &M) {
  double Weight = classWeight(B, BottleneckKind::ComputeBound);
  if (Weight == 0 || M.Ffma < MinFfma || M.Instructions == 0)
    return std::nullopt;
  double Share = double(M.Ffma) / M.Instructions;
  double IntegerPerFfma = double(M.Integer) / M.Ffma;
  if (Share >= FfmaShareLow || IntegerPerFfma <= IntegerPerFfmaHigh)
    return std::nullopt;
  Finding F = finding("sass-low-ffma-share",
                      Weight * (0.3 + 0.4 * (1 - Share / FfmaShareLow)));
  F.Evidence = {{"sass_instructions", double(M.Instructions)},
                {"ffma", double(M.Ffma)},
                {"integer", double(M.Integer)},
                {"ffma_share", Share},
                {"integer_per_ffma", IntegerPerFfma}};
  F.Guidance = llvm::formatv(
      "Only {0:F0}% of the SASS instructions are FFMA, with {1:F1} integer "
      "instructions per FFMA: index arithmetic takes the issue slots, so "
      "compute several outputs per thread, stage operands in shared memory "
      "and hoist invariant index math.",
      100 * Share, IntegerPerFfma);
  F.Prior = priorFor(PriorCause::LowFfmaShare);
  return F;
}

/// SpillAnalyzer owns the advice when ptxas reported spills or a stack
/// frame; the SASS then only adds where they are, with no prior of its own.
static std::optional<Finding> localMemory(const ProfileInput &In,
                                          const SassMix &M) {
  unsigned Loads = M.LocalLoads.total(), Stores = M.LocalStores.total();
  if (Loads + Stores == 0)
    return std::nullopt;
  const std::optional<ResourceUsage> &U = In.Usage;
  bool Reported =
      U && U->SpillStoreBytes + U->SpillLoadBytes + U->StackFrameBytes > 0;
  Finding F = Reported
                  ? finding("sass-local-ops", 0.1)
                  : finding("sass-local-memory",
                            0.3 + 0.7 * std::min(1.0, (Loads + Stores) / 16.0));
  F.Evidence = {{"local_loads", double(Loads)},
                {"local_stores", double(Stores)}};
  if (Reported) {
    F.Guidance = llvm::formatv("The SASS has {0} local loads and {1} local "
                               "stores (LDL/STL): the local-memory traffic "
                               "that ptxas' report accounts for.",
                               Loads, Stores);
    return F;
  }
  F.Guidance = llvm::formatv(
      "The SASS has {0} local loads and {1} local stores (LDL/STL): registers "
      "spill or an array lives in local memory, so allow more registers or "
      "keep less live state.",
      Loads, Stores);
  F.Prior = priorFor(PriorCause::LocalMemory);
  return F;
}

/// Shared-memory traffic counts as SM work or as L1 traffic depending on
/// the counter, so this finding asks for no class.
static std::optional<Finding> narrowSharedLoads(const SassMix &M) {
  const WidthCounts &S = M.SharedLoads;
  if (M.Ffma < MinFfma || S.total() == 0)
    return std::nullopt;
  double PerFfma = double(S.total()) / M.Ffma;
  double Wide = S.wideShare();
  if (PerFfma < SharedLoadsPerFfmaHigh || Wide >= WideSharedShareLow)
    return std::nullopt;
  Finding F =
      finding("sass-narrow-shared-loads", 0.3 + 0.4 * std::min(1.0, PerFfma));
  F.Evidence = {{"shared_loads", double(S.total())},
                {"shared_loads_128", double(S.Bits128)},
                {"ffma", double(M.Ffma)},
                {"shared_loads_per_ffma", PerFfma}};
  F.Guidance = llvm::formatv(
      "The SASS issues {0:F2} shared loads per FFMA, {1} of {2} narrower than "
      "128 bits: register blocking (each thread computing a tile of outputs "
      "from LDS.128 fragments) reuses every shared load across several FFMAs.",
      PerFfma, S.total() - S.Bits128, S.total());
  F.Prior = priorFor(PriorCause::NarrowSharedLoads);
  return F;
}

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  return In.Sass.has_value();
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  const SassMix &M = *In.Sass;
  std::vector<Finding> Out;
  for (std::optional<Finding> F : {scalarGlobalLoads(B, M), lowFfmaShare(B, M),
                                   localMemory(In, M), narrowSharedLoads(M)})
    if (F)
      Out.push_back(std::move(*F));
  return Out;
}

Analyzer optiml::instructionMixAnalyzer() {
  return Analyzer("instruction-mix", appliesTo, analyze);
}
