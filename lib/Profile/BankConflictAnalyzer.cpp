//===- BankConflictAnalyzer.cpp - shared-memory bank conflicts ------------===//
//
// A warp's shared access whose lanes hit the same bank in different words
// is split into one wavefront per word: a 32 x 32 float tile read down a
// column takes 32. The hardware's conflict count per shared instruction is
// the degree; the wavefronts beyond one per instruction stand in for it when
// the conflict counters are missing. Padding the tile removes it.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace optiml;

/// One extra wavefront per shared instruction is a 2-way conflict on every
/// access; a padded 32 x 33 transpose tile measures 0.06 on an H200, an
/// unpadded one 15.6 (31 on its column reads).
static constexpr double MinConflictsPerInst = 1.0;

/// Conflicts per shared instruction in direction \p Op (or both when none):
/// the hardware's count where known, since the excess wavefronts also
/// count the second and later wavefronts that 8- and 16-byte accesses need
/// without any conflict, and predicated-off instructions, which issue no
/// wavefront, pull them down.
static std::optional<double> degree(const KernelCounters &C,
                                    std::optional<MemOp> Op = std::nullopt) {
  auto Conflicts =
      Op ? C.sharedBankConflictsPerInst(*Op) : C.sharedBankConflictsPerInst();
  if (Conflicts)
    return Conflicts;
  return Op ? C.sharedExcessWavefrontsPerInst(*Op)
            : C.sharedExcessWavefrontsPerInst();
}

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  return In.Counters && degree(*In.Counters).has_value();
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  const KernelCounters &C = *In.Counters;
  std::optional<double> Degree = degree(C);
  if (!Degree || *Degree < MinConflictsPerInst)
    return {};
  Finding F;
  F.Id = "shared-bank-conflicts";
  F.Stage = 2;
  F.Severity = 0.3 + 0.7 * std::min(1.0, *Degree / 16);
  F.Evidence.push_back({"conflicts_per_shared_inst", *Degree});
  auto Add = [&](const char *Key, std::optional<double> V) {
    if (V)
      F.Evidence.push_back({Key, *V});
  };
  std::optional<double> Ld = degree(C, MemOp::Load),
                        St = degree(C, MemOp::Store);
  Add("shared_load_conflicts_per_inst", Ld);
  Add("shared_store_conflicts_per_inst", St);
  Add("shared_excess_wavefronts_per_inst", C.sharedExcessWavefrontsPerInst());
  bool Loads = Ld.value_or(0) >= St.value_or(0);
  F.Guidance = llvm::formatv(
      "Shared-memory {0} take {1:F1} wavefronts per instruction where 1 "
      "would do: a warp's lanes hit the same banks, so pad the tile by one "
      "column (float t[32][33]) to spread a column over all banks.",
      Loads ? "loads" : "stores", 1 + (Loads ? Ld : St).value_or(*Degree));
  // stage-shared lays its tiles out padded.
  F.Prior = priorFor(PriorCause::BankConflicts);
  return {F};
}

Analyzer optiml::bankConflictAnalyzer() {
  return Analyzer("bank-conflicts", appliesTo, analyze);
}
